#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   OUT=... bash tools/gpu/race_runs.sh
# groundtruth/race_kernels.cu measured three times (hierarchy_ncu.sh race,
# then twice its L1 and L2 read counters alone), and the seed's mm_g and
# mm_s three times (ncu -k), for docs/results/h*-2026-11-27-race; and the
# SASS ptxas makes of the set (cuobjdump -sass: race.sass).
source "$(dirname "$0")/set_runs.sh" race
OUT=$work
for i in 1 2 3; do
  ncu --clock-control none --csv --page raw --print-units base -k regex:'mm_[gs]$' --metrics $M --log-file $OUT/ncu-mm-run$i.csv build-device/warpmem gpu run groundtruth/ptx/seed_kernels.ptx --init zero --no-time > $OUT/mm-run$i.out 2>&1; echo "mm run $i: $?"
done
nvcc -cubin -arch=sm_90 -O3 -o $OUT/race.cubin groundtruth/race_kernels.cu && cuobjdump -sass $OUT/race.cubin > $OUT/race.sass; rm -f $OUT/race.cubin
tar czf "$dest/race-runs.tgz" -C "$OUT" . && ls -la "$OUT"
