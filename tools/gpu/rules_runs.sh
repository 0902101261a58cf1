#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   bash tools/gpu/rules_runs.sh
# Issue 33's counting rules and the times of the Hopper corpus:
#  - the probe sets groundtruth/bulk_group_kernels.cu (TMA requests of
#    commits and prefetches, TMA stores at the tensor's edges) and
#    dsm_atom_kernels.cu (DSM atomics by pattern): every launch in a process
#    of its own, its outputs checked against the emulator's (check-SET.txt),
#    then Nsight Compute (ncu-SET.csv);
#  - the SASS of bulk_group_kernels.cu's `commits` (sass-commits.txt: which
#    instructions the commit, the wait and the prefetch become);
#  - each launch of the Hopper corpus files (TIMES) timed alone, cold and
#    hot (times-NAME.json, one JSON document a launch, in order), so that
#    a launch the H200 stops leaves the others' times.
# Everything goes to $OUT/rules.tgz.
source "$(dirname "$0")/ncu_prologue.sh"
labels() {
  local src
  src=$(sed -n 's|^// *warpmem source: *||p' "$1" | head -1)
  [ -n "$src" ] || src=$(echo "$1" | sed 's|/ptx/\([^/]*\)\.ptx$|/\1.cu|')
  grep -h '^//@ ' "$src" | awk '{print $2}'
}
for s in bulk_group=groundtruth/ptx/bulk_group_kernels.ptx dsm_atom=groundtruth/ptx/dsm_atom_kernels.ptx; do
  n=${s%%=*} p=${s#*=}
  : > "$out/check-$n.txt"
  : > "$out/ncu-$n.csv"
  for l in $(labels "$p"); do
    echo "== $l" >> "$out/check-$n.txt"
    timeout 60 $W gpu run "$p" --only "$l" --check --no-time >> "$out/check-$n.txt" 2>&1
    echo "== $l: exit $?" >> "$out/check-$n.txt"
    ncu_one "$p" "$l" "$n"
  done
  echo "$n: $(grep -c ': exit 0$' "$out/check-$n.txt") of $(grep -c ': exit' "$out/check-$n.txt") ran, $(grep -c '^"[0-9]' "$out/ncu-$n.csv") profiled, $(( $(date +%s) - t0 )) s"
done
nvcc -cubin -arch=sm_90a -O3 -o "$out/bg.cubin" groundtruth/bulk_group_kernels.cu > "$out/sass-commits.txt" 2>&1 &&
  cuobjdump -sass -fun commits "$out/bg.cubin" >> "$out/sass-commits.txt" 2>&1
rm -f "$out/bg.cubin"
echo "sass: $(grep -c 'UTMA\|UBLK\|DEPBAR\|SYNCS' "$out/sass-commits.txt") TMA lines, $(( $(date +%s) - t0 )) s"
for s in ${TIMES:-tma_copy=tests/corpus/ptx/tma_copy.ptx cluster_dsm=tests/corpus/ptx/cluster_dsm.ptx hopper_gemm=tests/corpus/ptx/hopper_gemm.ptx wgmma_gemm=tests/corpus/ptx/wgmma_gemm.ptx dsm_atom=groundtruth/ptx/dsm_atom_kernels.ptx}; do
  n=${s%%=*} p=${s#*=}
  : > "$out/times-$n.json"
  for l in $(labels "$p"); do
    timeout 60 $W gpu run "$p" --only "$l" --budget 0.1 --format json >> "$out/times-$n.json" 2>> "$out/times-$n.err"
    echo "== $l: exit $?" >> "$out/times-$n.err"
  done
  echo "$n: times of $(grep -c ': exit 0$' "$out/times-$n.err") launches, $(( $(date +%s) - t0 )) s"
done
tar czf "$dest/rules.tgz" -C "$out" .
cat "$out/env.txt"
echo "done in $(( $(date +%s) - t0 )) s"
