#!/bin/sh
# run_mpi.sh - the ctest of `mpirun -np 2 warpmem sim` (docs/mpi.md): each
# case runs as one process and under mpirun with 2 ranks, with 1 and then 2
# host threads per process (WARPMEM_THREADS), and must give
#   - the same exit status,
#   - the same JSON report, every counter, line and prediction
#     (tools/same_counters.py; wall time aside),
#   - the same --dump buffers, on rank 0 and on rank 1
#     (WARPMEM_MPI_DUMP_ALL: rank 1 writes DIR.rank1), so every rank holds
#     the memory one process would,
#   - for a failing launch, the same located message (rank 0's stderr).
#
#   run_mpi.sh WARPMEM SOURCE_DIR [PYTHON]
#
# Exit 77 (ctest: skipped) with the reason when mpirun is absent or warpmem
# was built without MPI.  As root, Open MPI needs --allow-run-as-root and
# OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM).  Under the sanitizers
# (WARPMEM_SANITIZED) the two largest files are left out and leak checks
# are off for the MPI runs (Open MPI keeps memory until exit).
set -u
W=$1 SRC=$2 PY=${3:-python3}
MPIRUN=$(command -v mpirun || command -v mpiexec || true)
if [ -z "$MPIRUN" ]; then
  echo "SKIP: mpirun is absent (scripts/setup.sh installs openmpi-bin and libopenmpi-dev)"
  exit 77
fi
OPTS="--oversubscribe"
if [ "$(id -u)" = 0 ]; then
  OPTS="$OPTS --allow-run-as-root"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mpi() { ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "$MPIRUN" $OPTS -np 2 "$@"; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! mpi "$W" version > "$T/version" 2> "$T/version.err"; then
  if grep -q "built without MPI" "$T/version.err"; then
    echo "SKIP: this warpmem was built without MPI (libopenmpi-dev was missing when CMake ran)"
    exit 77
  fi
  echo "FAIL: mpirun -np 2 warpmem version:"; cat "$T/version.err"; exit 1
fi
PT="$SRC/groundtruth/ptx/seed_kernels.ptx"
LAB="$SRC/lab/ptx"
COR="$SRC/tests/corpus/ptx"
failed=0 passed=0

bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

# same NAME ARGS...: warpmem sim ARGS as one process and on 2 ranks, with
# each of $THREADS host threads per process (1 and 2)
same() {
  name=$1; shift
  for th in ${THREADS:-1 2}; do
    one="$T/$name.$th.one" two="$T/$name.$th.two"
    WARPMEM_THREADS=$th "$W" sim "$@" --format json --dump "$one" > "$one.json" 2> "$one.err"
    s1=$?
    WARPMEM_THREADS=$th WARPMEM_MPI_DUMP_ALL=1 mpi "$W" sim "$@" --format json --dump "$two" > "$two.json" 2> "$two.err"
    s2=$?
    f0=$failed
    if [ "$s1" != "$s2" ]; then
      bad "$name ($th threads): exit status $s1 alone, $s2 on 2 ranks"
      cat "$two.err"
      continue
    fi
    if [ "$s1" = 0 ] || [ "$s1" = 4 ]; then
      "$PY" "$SRC/tools/same_counters.py" "$one.json" "$two.json" > "$two.cmp" || { bad "$name ($th threads): reports differ"; cat "$two.cmp"; }
    else # a failing launch: rank 0's message is the one process's
      head -3 "$one.err" > "$one.msg"
      grep -v '^\[rank' "$two.err" | head -3 > "$two.msg"
      cmp -s "$one.msg" "$two.msg" || { bad "$name ($th threads): messages differ"; cat "$one.msg" "$two.msg"; }
      grep -q '^\[rank 1\] warpmem: ' "$two.err" || bad "$name ($th threads): rank 1 printed no prefixed error"
    fi
    for f in "$one"/*.bin; do
      [ -e "$f" ] || continue
      b=$(basename "$f")
      cmp -s "$f" "$two/$b" || bad "$name ($th threads): rank 0's $b differs from one process's"
      cmp -s "$f" "$two.rank1/$b" || bad "$name ($th threads): rank 1's $b differs from one process's"
    done
    [ "$failed" = "$f0" ] && passed=$((passed + 1))
  done
  echo "$name: checked"
}

# (a) several launches with the caches on, random inputs: sharded
if [ -z "${WARPMEM_SANITIZED:-}" ]; then
  same seed001 "$LAB/seed001_cuda_memory.ptx"
  same seed004 "$LAB/seed004_global_memory.ptx"
fi
same gt_subset "$PT" --kernel madd_c --sample 4
same local_heap "$PT" --kernel local_heap
# (b) kernels run on rank 0 alone: global atomics and volatile (seed003 has
# both, among sharded ones), the device heap, a cooperative grid
same seed003 "$LAB/seed003_memories.ptx"
has() { if grep -q "$2" "$T/$1"; then passed=$((passed + 1)); else bad "$1 lacks '$2'"; fi; }
has seed003.1.two.err "atomic_sum runs on rank 0 alone.*global atomics"
same heap "$COR/device_heap.ptx"
same coop "$COR/cg_grid.ptx" --kernel grid_scan
# a decoupled look-back chain (blocks spin on their predecessor's flag):
# its spin counts depend on the host threads' timing with 2 threads, even
# in one process, so with 1
THREADS=1 same lookback "$COR/cg_grid.ptx"
# (c) faults: the lowest faulting block wins, whichever rank runs it
# (chunks of 32 blocks: block 40 is rank 1's, block 70 rank 0's, and every
# later block faults too); a failing launch among others (assert: exit 4)
same fault_rank1 "$PT" --kernel copy_k --grid 16384 --block 256 --arg buf:f32:4194304 --arg buf:f32:10240 --arg i32:4194304
same fault_rank0 "$PT" --kernel copy_k --grid 16384 --block 256 --arg buf:f32:4194304 --arg buf:f32:17920 --arg i32:4194304
has fault_rank1.1.two.err "block (40,0,0)"
has fault_rank0.1.two.err "block (70,0,0)"
same assert "$COR/assert.ptx"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
