#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs if the
# machine lacks jansson/cmocka):
#   bash tools/gpu/corpus_ncu.sh
# Builds warpmem, then for every tests/corpus/*.cu: runs its //@ launches on
# the GPU with the outputs checked against the emulator's (gpu run --check),
# profiles them once each with Nsight Compute (every Nsight metric warpmem
# reports), and simulates them (sim --format csv): check.txt, ncu-NAME.csv,
# sim-NAME.csv in $OUT/corpus-ncu.tgz (default OUT: /tmp), which
# tools/compare_ncu.py compares on any machine.
source "$(dirname "$0")/ncu_prologue.sh"
for f in tests/corpus/*.cu; do
  n=$(basename "$f" .cu)
  p=tests/corpus/ptx/$n.ptx
  echo "== $n" >> "$out/check.txt"
  timeout 120 $W gpu run "$p" --check --no-time >> "$out/check.txt" 2>&1; echo "exit $?" >> "$out/check.txt"
  timeout 60 $W sim "$p" --format csv > "$out/sim-$n.csv" 2> "$out/sim-$n.err"
  timeout 200 ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
    $W gpu run "$p" --no-time > "$out/ncu-$n.csv" 2> "$out/ncu-$n.err"
  echo "$n: $(grep -c '^"[0-9]' "$out/ncu-$n.csv") profiled, $(( $(date +%s) - t0 )) s"
done
tar czf "$dest/corpus-ncu.tgz" -C "$out" .
cp "$out/check.txt" "$dest/check.txt"
grep -E '^== |exit |mismatch|differ|equal|FAILED|REFUSED' "$out/check.txt" | head -80
echo "done in $(( $(date +%s) - t0 )) s"
