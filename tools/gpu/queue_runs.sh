#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   OUT=... bash tools/gpu/queue_runs.sh
# groundtruth/queue_kernels.cu measured three times: hierarchy_ncu.sh queue
# (every metric warpmem reports, and gpu run's times), then twice its L1
# and L2 read counters alone; for docs/results/h*-2026-11-27-queue.
set -u
dest=$OUT; OUT=$(mktemp -d)
OUT=$OUT bash tools/gpu/hierarchy_ncu.sh queue > $OUT/hier.log 2>&1; tail -5 $OUT/hier.log
source build-device/device-env.sh
M=lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_lookup_miss.sum,l1tex__t_sectors_lookup_hit.sum,l1tex__m_xbar2l1tex_read_sectors.sum,gpu__time_duration.sum
for i in 2 3; do
  ncu --clock-control none --csv --page raw --print-units base --metrics $M --log-file $OUT/ncu-queue-run$i.csv build-device/warpmem gpu run groundtruth/ptx/queue_kernels.ptx --init zero --no-time > $OUT/queue-run$i.out 2>&1; echo "queue run $i: $?"
done
tar czf "$dest/queue-runs.tgz" -C "$OUT" . && ls -la "$OUT"
