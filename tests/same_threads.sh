#!/bin/sh
# same_threads.sh - the counters do not depend on how the simulation runs:
# the same JSON report (every counter, per-line row and prediction; wall
# time aside) with 1, 2 and 3 host threads (blocks handed out in chunks to
# whichever thread is free, the L1 stage of the replay on those threads,
# the L2 stage on one), and with a replay budget so small that threads
# wait for the replay after every chunk.  Launches of the ground truth that
# cover stores merged in L1, atomics, local memory, shared memory, groups
# of blocks per SM and sampled waves; and cluster launches (a cluster's
# blocks run together on one host thread) from CLUSTER_PTX; and a TMA +
# wgmma GEMM of three waves from HOPPER_PTX, whose warps' clocks wait for
# lines that earlier waves fetched (emu_clock.c: the first block to touch
# a line in emulation order decided its time once, and runs differed).
#
#   same_threads.sh WARPMEM SAME_COUNTERS_PY PTX [CLUSTER_PTX [HOPPER_PTX]]
set -eu
warpmem=$1 same=$2 ptx=$3 cluster_ptx=${4:-} hopper_ptx=${5:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { # NAME THREADS TRACE_MB ARGS...
  name=$1 threads=$2 mb=$3
  shift 3
  WARPMEM_THREADS=$threads WARPMEM_TRACE_MB=$mb "$warpmem" sim "$ptx" --format json --lines --init zero "$@" \
    > "$dir/$name.$threads.$mb.json"
}
for k in inc_case f3_plain f3_smem tr_naive madd_nc setRowReadColDyn local_heap; do
  run "$k" 1 1024 --kernel "$k"
  for v in "2 1024" "3 1024" "2 1"; do
    set -- $v
    run "$k" "$1" "$2" --kernel "$k"
    python3 "$same" "$dir/$k.1.1024.json" "$dir/$k.$1.$2.json" > "$dir/diff" ||
      { echo "FAIL: $k with $1 threads and a $2 MiB trace budget differs from 1 thread:"; cat "$dir/diff"; exit 1; }
  done
  echo "ok: $k"
done
run stride 1 1024 --kernel stride_copy --sample 8
run stride 2 1024 --kernel stride_copy --sample 8
python3 "$same" "$dir/stride.1.1024.json" "$dir/stride.2.1024.json" > "$dir/diff" ||
  { echo "FAIL: stride_copy --sample 8 with 2 threads differs from 1:"; cat "$dir/diff"; exit 1; }
echo "ok: stride_copy --sample 8"
if [ -n "$cluster_ptx" ]; then
  for k in cluster_histogram cluster_sum4 cluster_ring dsm_ld_peer; do
    ptx=$cluster_ptx
    run "$k" 1 1024 --kernel "$k"
    for v in "2 1024" "3 1024" "2 1"; do
      set -- $v
      run "$k" "$1" "$2" --kernel "$k"
      python3 "$same" "$dir/$k.1.1024.json" "$dir/$k.$1.$2.json" > "$dir/diff" ||
        { echo "FAIL: cluster kernel $k with $1 threads and a $2 MiB trace budget differs from 1 thread:"; cat "$dir/diff"; exit 1; }
    done
    echo "ok: $k (clusters)"
  done
fi
if [ -n "$hopper_ptx" ]; then
  ptx=$hopper_ptx # 384 blocks, one an SM (the shared memory): 3 waves
  set -- --kernel gemm_1wg --grid 16,24 --block 128 --smem 132096 --arg tmap:bf16:1024x1536:box=64x64:swz=128 \
    --arg tmap:bf16:1024x1024:box=64x64:swz=128 --arg buf:bf16:1572864:zero --arg i32:1536 --arg i32:1024 --arg i32:1024
  run gemm 1 1024 "$@"
  for t in 2 3 2 3; do
    run gemm "$t" 1024 "$@"
    python3 "$same" "$dir/gemm.1.1024.json" "$dir/gemm.$t.1024.json" > "$dir/diff" ||
      { echo "FAIL: the TMA GEMM gemm_1wg with $t threads differs from 1 thread:"; cat "$dir/diff"; exit 1; }
  done
  echo "ok: gemm_1wg (TMA lines over 3 waves)"
fi
