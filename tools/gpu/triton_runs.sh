#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   bash tools/gpu/triton_runs.sh
# Issue 36: the Triton tutorials' kernels (vector add, fused softmax,
# matmul, layer norm) as Triton 3.9 compiles them for sm_90 and sm_80,
# committed as groundtruth/triton/*.ptx with their //@ launches (made by
# groundtruth/triton/make_ptx.py; Triton is not needed here), each launch
# in a process of its own:
#  - its outputs checked against the emulator's (check-triton.txt);
#  - Nsight Compute's counters (ncu-triton.csv, the metrics warpmem reports);
#  - its time alone, cold and hot (times-triton.json, a JSON document a
#    launch, in order).
# The simulator's predictions, made before this ran, are in
# docs/results/h200-2026-12-03-python/.  Everything goes to $OUT/triton.tgz.
# FILES (default groundtruth/triton/*.ptx) takes a subset, to split the run
# over two commands: FILES="groundtruth/triton/*sm90*.ptx", then *sm80*.
source "$(dirname "$0")/ncu_prologue.sh"
: > "$out/check-triton.txt"
: > "$out/ncu-triton.csv"
: > "$out/times-triton.json"
for p in ${FILES:-groundtruth/triton/*.ptx}; do
  for l in $(grep -h '^//@ ' "$p" | awk '{print $2}'); do
    echo "== $p $l" >> "$out/check-triton.txt"
    timeout 120 $W gpu run "$p" --only "$l" --check --no-time >> "$out/check-triton.txt" 2>&1
    echo "== $l: exit $?" >> "$out/check-triton.txt"
    ncu_one "$p" "$l" triton 120
    timeout 120 $W gpu run "$p" --only "$l" --budget 0.1 --format json >> "$out/times-triton.json" 2>> "$out/times-triton.err"
    echo "== $l: exit $?" >> "$out/times-triton.err"
  done
  echo "$p: $(( $(date +%s) - t0 )) s"
done
echo "triton: $(grep -c ': exit 0$' "$out/check-triton.txt") of $(grep -c ': exit' "$out/check-triton.txt") checked, $(grep -c '^"[0-9]' "$out/ncu-triton.csv") profiled, $(grep -c ': exit 0$' "$out/times-triton.err") timed"
tar czf "$dest/triton.tgz" -C "$out" .
cat "$out/env.txt"
echo "done in $(( $(date +%s) - t0 )) s"
