/* testutil.h - helpers shared by the tests (cmocka). */
#ifndef WM_TESTUTIL_H
#define WM_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Runs the warpmem binary with `args` (a shell-quoted string) and captures
 * stdout and stderr (each malloc'd, caller frees; either may be NULL to
 * discard).  Returns the exit status. */
int tu_run_cli(const char *args, char **out, char **err);

/* Path of a file under tests/data (static buffer, valid until next call). */
const char *tu_data(const char *name);

/* Path of a file under groundtruth/ (the H200 measurements and the kernels
 * measured: groundtruth/README.md), or of the folder itself for "" (static
 * buffer, valid until the next call). */
const char *tu_truth(const char *name);

/* Path of a file under lab/ (the catalogue), or of the folder for "" (static
 * buffer, valid until the next call). */
const char *tu_lab(const char *name);

/* Path of a compiled corpus kernel, tests/corpus/ptx/NAME (static buffer). */
const char *tu_corpus(const char *name);

/* Runs kernel `name` of module m on GRID and BLOCK ("X[,Y[,Z]]") with `smem`
 * dynamic shared bytes and the arg specs that follow (launch_parse_arg's
 * forms, NULL-terminated), random inputs (seed 12345) and the memory model
 * on; fails the test if the launch fails.  The buffers stay in run->gmem
 * (free with sim_run_free). */
struct SimRun;
struct PtxModule;
void tu_launch(struct SimRun *run, const struct PtxModule *m, const char *name, const char *grid,
               const char *block, uint32_t smem, ...);
void tu_launchv(struct SimRun *run, const struct PtxModule *m, const char *name, const char *grid,
                const char *block, uint32_t smem, va_list ap);
/* tu_launch in clusters of `cluster` blocks along x, no dynamic shared memory. */
void tu_launch_cluster(struct SimRun *run, const struct PtxModule *m, const char *name, const char *grid,
                       const char *block, uint32_t cluster, ...);
/* The host copy of kernel argument `argno` (a buffer) after a tu_launch,
 * checked to hold `count` elements of `elem` bytes. */
void *tu_arg_buf(struct SimRun *run, int argno, size_t elem, size_t count);
/* Loads a module (fails the test on an error). */
struct PtxModule *tu_load(const char *path);

/* One warp running a kernel body through the CLI: the PTX is head (the
 * module, `.entry k(.param .u64 p_out)`, registers, %rd0 = this lane's
 * TU_NSLOT u64 slots) + body + " DONE: ret; }", launched on one warp of 32
 * threads with a zeroed buf:u64:32*TU_NSLOT; out gets the buffer.  Returns
 * warpmem's exit status; its stderr in *err when err is not NULL (caller
 * frees), else a non-zero status fails the test. */
#define TU_NSLOT 32
int tu_run_warp(const char *head, const char *body, uint64_t out[32][TU_NSLOT], char **err);
/* Runs body (tu_run_warp) and fails the test `name` unless every lane
 * produced want[0..n-1] in its first n slots. */
void tu_check_warp(const char *name, const char *head, const char *body, const uint64_t *want, int n);

/* Writes text to a fresh temporary file with the given suffix (".ptx");
 * returns its path (malloc'd; caller frees and unlinks). */
char *tu_temp_file(const char *suffix, const char *text);

/* Reads exactly `bytes` bytes of DIR/FILE (a --dump output) into buf; fails
 * the test if the file is missing or shorter. */
void tu_read_dump(const char *dir, const char *file, void *buf, size_t bytes);

/* In a CSV table (a header of column names, then rows named by their first
 * field): the number in column `col` of row `row`, or -1 when the table has
 * no such row or column. */
double tu_csv_value(const char *text, const char *row, const char *col);

#endif
