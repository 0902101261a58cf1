#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs if the
# machine lacks jansson, cmocka, lz4 or zstd):
#   bash tools/gpu/hierarchy_ncu.sh [all|SET...|NAME=PTX...|NAME:PTX...]
# Builds warpmem, then measures the hierarchy probes
# (groundtruth/hierarchy_kernels.cu, issue 13) on this GPU, buffers
# zero-filled: every launch profiled once with Nsight Compute (every Nsight
# metric warpmem reports, caches flushed before each: ncu-hierarchy.csv) and
# timed with events (gpu run, cold and hot: times-hierarchy.json).  With
# `all`, the seed launches and their large sizes too (groundtruth/
# seed_kernels.cu and seed_launches_large.cu, as measured on the H200 in
# groundtruth/): ncu-seed.csv, ncu-large.csv, times-*.json.  With a SET
# such as `polybench`, `public` or `merge`, only groundtruth/SET_kernels.cu
# (PolyBench-style code, public-code-style code, L1 store merging):
# ncu-SET.csv, times-SET.json.  Everything goes
# to $OUT/hierarchy-ncu.tgz (default OUT: /tmp); EXTRA_METRICS (a comma
# list) adds Nsight metrics warpmem does not report; tools/compare_ncu.py
# compares each ncu CSV with `warpmem sim --format csv` on any machine.
source "$(dirname "$0")/ncu_prologue.sh"
[ -n "${EXTRA_METRICS:-}" ] && metrics="$metrics,$EXTRA_METRICS"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "gpu: $gpu" >> "$out/env.txt"
large=$(mktemp -d)
cp groundtruth/ptx/seed_kernels.ptx "$large/seed_launches_large.ptx"
cp groundtruth/seed_launches_large.cu "$large/seed_launches_large.cu"
# each set: NAME=PTX (buffers zero-filled) or NAME:PTX (buffers as the
# launch lines ask, e.g. the lab's :rand)
sets="hierarchy=groundtruth/ptx/hierarchy_kernels.ptx"
[ "${1:-}" = all ] && sets="$sets seed=groundtruth/ptx/seed_kernels.ptx large=$large/seed_launches_large.ptx"
if [ $# -gt 0 ] && [ "$1" != all ] && [ "$1" != hierarchy ]; then
  sets=""
  for a in "$@"; do
    case "$a" in *[=:]*) sets="$sets $a" ;; *) sets="$sets $a=groundtruth/ptx/${a}_kernels.ptx" ;; esac
  done
fi
for s in $sets; do
  case "$s" in *=*) n=${s%%=*} p=${s#*=} init="--init zero" ;; *) n=${s%%:*} p=${s#*:} init="" ;; esac
  timeout 400 ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
    --log-file "$out/ncu-$n.csv" $W gpu run "$p" $init --no-time > "$out/ncu-$n.out" 2>&1
  echo "$n: ncu exit $?, $(grep -c '^"[0-9]' "$out/ncu-$n.csv") profiled, $(( $(date +%s) - t0 )) s"
  timeout 300 $W gpu run "$p" $init --budget 0.2 --format json > "$out/times-$n.json" 2> "$out/times-$n.err"
  echo "$n: gpu run exit $?, $(( $(date +%s) - t0 )) s"
done
tar czf "$dest/hierarchy-ncu.tgz" -C "$out" .
cat "$out/env.txt"
echo "done in $(( $(date +%s) - t0 )) s"
