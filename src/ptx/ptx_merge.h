/* ptx_merge.h - relocatable PTX (nvcc -rdc=true: one text per translation
 * unit, with `.extern .func` and `.extern .global` declarations of what the
 * other units define) linked into ONE text that ptx_parse reads.
 *
 * The link works on the module-scope statements of each text:
 *  - a variable with external linkage becomes one object: its definition
 *    (.visible over .weak/.common; the first of several weak ones) takes
 *    the place of its first declaration in the merged text, so every unit
 *    refers to the same storage and sees it declared before use; the other
 *    declarations and definitions are dropped;
 *  - functions: a declaration is a prototype to ptx_parse, so `.extern
 *    .func` declarations stay and calls find the definition wherever it
 *    is; a weak definition loses to a visible one, or to an earlier weak one;
 *  - names without linkage (static __device__ variables and functions,
 *    nvcc's `$str` string constants) that another unit also uses get the
 *    suffix `$wmN` (N the unit's index) in their unit;
 *  - `.file` numbers are renumbered per unit so .loc keeps its files;
 *  - one header: the highest `.version` of the units, the first's target.
 * An `.extern` variable that no unit defines, or a name that two units
 * define .visible, is an error located in the unit that has it.  An
 * `.extern .func` no unit defines stays declared: the PTX parser runs
 * vprintf, malloc, ... itself and refuses a kernel calling any other. */
#ifndef WM_PTX_MERGE_H
#define WM_PTX_MERGE_H

#include "util/diag.h"

/* The merged text (malloc'd) of the n texts, names[i] naming texts[i] in
 * messages; NULL with a located error in e. */
char *ptx_merge(const char *const *texts, const char *const *names, int n, WmErr *e);

#endif
