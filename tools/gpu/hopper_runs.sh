#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs if the
# machine lacks jansson, cmocka, lz4 or zstd):
#   bash tools/gpu/hopper_runs.sh check|profile [SET...]
# Issue 33's measurements of Hopper's own instructions on the H200.
#   check    every launch of each SET on the GPU with its outputs compared
#            with the emulator's (gpu run --check: check-SET.txt), then
#            profiled once with Nsight Compute (every metric warpmem
#            reports: ncu-SET.csv);
#   profile  Nsight Compute as above and the times (gpu run, cold and hot:
#            times-SET.json), no output check (the large launches take the
#            emulator minutes).
# A SET is NAME=PTX; the default sets are the Hopper corpus files (check)
# or the Hopper ground-truth sets (profile).  The probe programs
# tools/gpu/wgmma_adder_probe.cu and tools/gpu/cluster_probe.cu run with
# `profile` (probe-*.txt).  Everything goes to $OUT/hopper-MODE.tgz.
source "$(dirname "$0")/ncu_prologue.sh"
mode=${1:-check}; shift || true
if [ $# -eq 0 ]; then
  if [ "$mode" = check ]; then
    set -- tma_copy=tests/corpus/ptx/tma_copy.ptx wgmma_gemm=tests/corpus/ptx/wgmma_gemm.ptx \
      cluster_dsm=tests/corpus/ptx/cluster_dsm.ptx hopper_gemm=tests/corpus/ptx/hopper_gemm.ptx \
      wgmma=groundtruth/ptx/wgmma_kernels.ptx tma_edges=groundtruth/ptx/tma_edge_kernels.ptx
  else
    set -- hopper=groundtruth/ptx/hopper_kernels.ptx tensor=groundtruth/ptx/tensor_kernels.ptx
  fi
fi
# The //@ labels of a set, from the .cu its PTX was made from.
labels() {
  local src
  src=$(sed -n 's|^// *warpmem source: *||p' "$1" | head -1)
  [ -n "$src" ] || src=$(echo "$1" | sed 's|/ptx/\([^/]*\)\.ptx$|/\1.cu|')
  grep -h '^//@ ' "$src" | awk '{print $2}'
}
# Sets in which one launch may kill the CUDA context (tile_raw#w16 did):
# each launch profiled in a process of its own, the CSVs joined.
split=" ${SPLIT:-tma_copy tma_edges} "
for s in "$@"; do
  n=${s%%=*} p=${s#*=}
  if [ "$mode" = check ]; then
    : > "$out/check-$n.txt"
    for l in $(labels "$p"); do   # a launch each: one that fails leaves the others' context alone
      echo "== $l" >> "$out/check-$n.txt"
      timeout 120 $W gpu run "$p" --only "$l" --check --no-time >> "$out/check-$n.txt" 2>&1
      echo "== $l: exit $?" >> "$out/check-$n.txt"
    done
    echo "$n: check $(grep -c ': exit 0$' "$out/check-$n.txt") launches exit 0 of $(grep -c ': exit' "$out/check-$n.txt"), $(grep -ciE 'differ|mismatch' "$out/check-$n.txt") differing lines, $(( $(date +%s) - t0 )) s"
  fi
  if [[ "$split" == *" $n "* ]]; then
    : > "$out/ncu-$n.csv"
    for l in $(labels "$p"); do
      ncu_one "$p" "$l" "$n"
    done
  else
    timeout 240 ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
      --log-file "$out/ncu-$n.csv" $W gpu run "$p" --no-time > "$out/ncu-$n.out" 2>&1
  fi
  echo "$n: ncu $(grep -c '^"[0-9]' "$out/ncu-$n.csv") profiled, $(( $(date +%s) - t0 )) s"
  if [ "$mode" = profile ]; then
    timeout 200 $W gpu run "$p" --budget 0.2 --format json > "$out/times-$n.json" 2> "$out/times-$n.err"
    echo "$n: times exit $?, $(( $(date +%s) - t0 )) s"
  fi
done
if [ "$mode" = profile ]; then
  for probe in wgmma_adder_probe cluster_probe; do
    nvcc -gencode arch=compute_90a,code=sm_90a -O2 -o "$out/$probe" "tools/gpu/$probe.cu" > "$out/probe-$probe.txt" 2>&1 &&
      timeout 120 "$out/$probe" >> "$out/probe-$probe.txt" 2>&1
    echo "$probe: exit $?, $(( $(date +%s) - t0 )) s"
    rm -f "$out/$probe"
  done
fi
tar czf "$dest/hopper-$mode.tgz" -C "$out" .
cat "$out/env.txt"
echo "done in $(( $(date +%s) - t0 )) s"
