#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   OUT=... bash tools/gpu/race_runs.sh
# groundtruth/race_kernels.cu measured three times (hierarchy_ncu.sh race,
# then twice its L1 and L2 read counters alone), and the seed's mm_g and
# mm_s three times (ncu -k), for docs/results/h*-2026-11-27-race; and the
# SASS ptxas makes of the set (cuobjdump -sass: race.sass).
set -u
dest=$OUT; OUT=$(mktemp -d)
OUT=$OUT bash tools/gpu/hierarchy_ncu.sh race > $OUT/hier.log 2>&1; tail -5 $OUT/hier.log
source build-device/device-env.sh
M=lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_lookup_miss.sum,l1tex__t_sectors_lookup_hit.sum,l1tex__m_xbar2l1tex_read_sectors.sum,gpu__time_duration.sum
for i in 2 3; do
  ncu --clock-control none --csv --page raw --print-units base --metrics $M --log-file $OUT/ncu-race-run$i.csv build-device/warpmem gpu run groundtruth/ptx/race_kernels.ptx --init zero --no-time > $OUT/race-run$i.out 2>&1; echo "race run $i: $?"
done
for i in 1 2 3; do
  ncu --clock-control none --csv --page raw --print-units base -k regex:'mm_[gs]$' --metrics $M --log-file $OUT/ncu-mm-run$i.csv build-device/warpmem gpu run groundtruth/ptx/seed_kernels.ptx --init zero --no-time > $OUT/mm-run$i.out 2>&1; echo "mm run $i: $?"
done
nvcc -cubin -arch=sm_90 -O3 -o $OUT/race.cubin groundtruth/race_kernels.cu && cuobjdump -sass $OUT/race.cubin > $OUT/race.sass; rm -f $OUT/race.cubin
tar czf "$dest/race-runs.tgz" -C "$OUT" . && ls -la "$OUT"
