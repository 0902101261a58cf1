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
