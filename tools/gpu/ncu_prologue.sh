# ncu_prologue.sh - sourced by the device scripts that profile with Nsight
# Compute (corpus_ncu.sh, apps_ncu.sh): builds warpmem into build-device and
# sets dest (where the .tgz goes: $OUT, default /tmp), out (a scratch
# folder), t0 (the start), W (the warpmem binary), metrics (every Nsight
# metric warpmem reports, for ncu --metrics) and writes out/env.txt; the
# caller may append to env.txt.  Run from anywhere: it changes to the
# repository root.
set -uo pipefail
dest=${OUT:-/tmp}
mkdir -p "$dest"
out=$(mktemp -d)
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
t0=$(date +%s)
if ! bash tools/gpu/build_on_device.sh build-device > "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"; exit 1
fi
source build-device/device-env.sh
W=$PWD/build-device/warpmem
metrics=$(grep -o '"[a-z0-9_]*__[a-z0-9_.]*"' src/mem/metrics.h | tr -d '"' | grep -v '^warpmem__' | sort -u | paste -sd, -)
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; ncu --version | tail -1; } > "$out/env.txt" 2>&1
# ncu_one PTX LABEL NAME [LIMIT]: Nsight Compute on launch LABEL of PTX,
# alone in a process (one launch that kills its context spares the
# others), its rows appended to $out/ncu-NAME.csv (the header once), ncu's
# own output to $out/ncu-NAME.out with a line "== LABEL: ncu exit N".
ncu_one() {
  local p=$1 l=$2 n=$3 limit=${4:-60}
  timeout "$limit" ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
    --log-file "$out/one.csv" $W gpu run "$p" --only "$l" --no-time >> "$out/ncu-$n.out" 2>&1
  echo "== $l: ncu exit $?" >> "$out/ncu-$n.out"
  if [ -s "$out/ncu-$n.csv" ]; then grep '^"[0-9]' "$out/one.csv" >> "$out/ncu-$n.csv"; else cat "$out/one.csv" >> "$out/ncu-$n.csv"; fi
  rm -f "$out/one.csv"
}
