#!/bin/sh
# run_check.sh - `warpmem run --check` on tests/apps/checkMem.cu (built by
# CMake with nvcc into build/apps): the buggy run exits 5 and names each
# bug; `checkMem fixed` exits 0 with no errors.
#   run_check.sh WARPMEM APP
# Exit 77 (ctest: skipped) when APP was not built (no nvcc).
set -u
WARPMEM=$1 APP=$2
if [ ! -x "$APP" ]; then
  echo "SKIP: $APP was not built: CMake found no nvcc (PATH, /usr/local/cuda/bin) to build tests/apps"
  exit 77
fi
OUT=$("$WARPMEM" run -q --check "$APP" 2>&1)
ST=$?
fail() { echo "FAIL: $1"; echo "$OUT"; exit 1; }
[ $ST -eq 5 ] || fail "exit $ST, want 5"
for want in "checkMem: done" "initcheck: uninitialized read on global memory" "in kernel _Z5scalePfPKfi (256 times)" \
            "memcheck: double free" "cudaMalloc#1 (1024 bytes) was freed before" \
            "memcheck: leak" "cudaMalloc#3: 1024 bytes" "check: 3 errors"; do
  case "$OUT" in *"$want"*) ;; *) fail "missing '$want'" ;; esac
done
OUT=$("$WARPMEM" run -q --check "$APP" fixed 2>&1)
ST=$?
[ $ST -eq 0 ] || fail "fixed: exit $ST, want 0"
case "$OUT" in *"no errors"*) ;; *) fail "fixed: missing 'no errors'" ;; esac
echo "run --check: PASSED"
