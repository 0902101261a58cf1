#!/usr/bin/env bash
# On the device machine, from the repository root:
#   OUT=DIR bash tools/gpu/place_race.sh
# Builds groundtruth/place_race.cu and runs it three times under Nsight
# Compute (one pass of metrics, so the placement each run writes,
# place-runN.txt, is that of the launch it measures: ncu-runN.csv).
set -uo pipefail
out=${OUT:-/tmp/place_race}; mkdir -p "$out"
nvcc -arch=sm_90 -O3 -o /tmp/place_race groundtruth/place_race.cu || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > "$out/env.txt"
m=l1tex__t_sectors_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum
for i in 1 2 3; do
  ncu --clock-control none --csv --page raw --print-units base --metrics "$m" --log-file "$out/ncu-run$i.csv" \
    /tmp/place_race "$out/place-run$i.txt" > "$out/run$i.out" 2>&1
  echo "run $i: ncu exit $?"
done
