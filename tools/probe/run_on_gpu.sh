#!/usr/bin/env bash
# Measures every //@ launch of groundtruth/probe_kernels.cu with Nsight
# Compute (groundtruth/h200-probe-counters.csv is what this measured on an
# H200).  Run on a machine with a GPU, from the repository root:
#   bash tools/probe/run_on_gpu.sh OUTDIR
set -euo pipefail
out=${1:-/tmp/probe}
mkdir -p "$out"
cd "$(dirname "$0")"
kernels=../../groundtruth/probe_kernels.cu
nvcc -O3 -arch=sm_90 -lineinfo -I ../../groundtruth -o "$out/probe_run" probe_run.cu
cuobjdump -sass "$out/probe_run" > "$out/probe.sass" || true
metrics=$(grep -o '"[a-z0-9_]*\.\(sum\|pct\)"' ../../src/mem/metrics.h | tr -d '"' | paste -sd, -)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
ncu --clock-control none --metrics "$metrics" --csv --page raw "$out/probe_run" "$kernels" > "$out/probe-ncu.csv"
"$out/probe_run" "$kernels"
