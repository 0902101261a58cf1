#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs if the
# machine lacks jansson, cmocka, lz4 or zstd):
#   bash tools/gpu/apps_ncu.sh
# Builds warpmem and the sample applications of tests/apps (nvcc -cudart
# shared), then for each application: runs it natively on the GPU (its own
# check), profiles it with Nsight Compute (every Nsight metric warpmem
# reports, ncu-NAME.csv) and runs it under `warpmem run --format csv`
# (sim-NAME.csv), so that tools/compare_ncu.py compares them launch by
# launch on any machine.  Also re-checks the texture corpus on the GPU
# (gpu run --check) with its ncu and sim counters.  Everything goes to
# $OUT/apps-ncu.tgz (default OUT: /tmp).
source "$(dirname "$0")/ncu_prologue.sh"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H200*) arch=h200 ;; *) arch=hopper ;; esac
echo "warpmem preset: $arch" >> "$out/env.txt"
for app in build-device/apps/*; do
  n=$(basename "$app")
  case "$n" in *_static) continue ;; esac
  { echo "== $n"; timeout 120 "$app"; echo "native exit $?"; } >> "$out/native.txt" 2>&1
  { echo "== $n"; timeout 300 $W run --arch "$arch" --format csv --out "$out/sim-$n.csv" "$app"; echo "warpmem run exit $?"; } \
    >> "$out/warpmem-run.txt" 2>&1
  [ "$n" = faultOOB ] && continue   # an illegal address on purpose: nothing to profile
  timeout 300 ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
    --log-file "$out/ncu-$n.csv" "$app" > "$out/ncu-$n.out" 2>&1
  echo "$n: $(grep -c '^"[0-9]' "$out/ncu-$n.csv") profiled, $(( $(date +%s) - t0 )) s"
done
for n in tex_sampling wmma_gemm; do
  p=tests/corpus/ptx/$n.ptx
  { echo "== $n"; timeout 120 $W gpu run "$p" --check --no-time; echo "exit $?"; } >> "$out/corpus-check.txt" 2>&1
  timeout 60 $W sim "$p" --format csv > "$out/corpus-sim-$n.csv" 2> /dev/null
  timeout 200 ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
    --log-file "$out/corpus-ncu-$n.csv" $W gpu run "$p" --no-time > /dev/null 2>&1
done
tar czf "$dest/apps-ncu.tgz" -C "$out" .
grep -E "^== |exit|PASS|FAIL" "$out/native.txt" | paste - - - 2>/dev/null | head -20
grep -E "exit" "$out/warpmem-run.txt" | sort | uniq -c
grep -E "^== |exit|mismatch|differ|FAIL" "$out/corpus-check.txt" | head -20
echo "done in $(( $(date +%s) - t0 )) s"
