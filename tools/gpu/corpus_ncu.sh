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
set -uo pipefail
dest=${OUT:-/tmp}
mkdir -p "$dest"
out=$(mktemp -d)
cd "$(dirname "$0")/../.."
t0=$(date +%s)
if ! bash tools/gpu/build_on_device.sh build-device > "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"; exit 1
fi
source build-device/device-env.sh
W=$PWD/build-device/warpmem
metrics=$(grep -o '"[a-z0-9_]*__[a-z0-9_.]*"' src/mem/metrics.h | tr -d '"' | grep -v '^warpmem__' | sort -u | paste -sd, -)
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; ncu --version | tail -1; } > "$out/env.txt" 2>&1
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
