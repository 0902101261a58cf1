#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   OUT=... bash tools/gpu/set_runs.sh SET
# groundtruth/SET_kernels.cu measured three times: hierarchy_ncu.sh SET
# (every metric warpmem reports, and gpu run's times), then twice its L1
# and L2 read counters alone (ncu-SET-run2.csv, -run3.csv); everything in
# $OUT/SET-runs.tgz.  Sourced by race_runs.sh, which measures more in the
# same folder ($work) before packing it.
set -u
set_name=$1
dest=$OUT; work=$(mktemp -d)
OUT=$work bash tools/gpu/hierarchy_ncu.sh "$set_name" > $work/hier.log 2>&1; tail -5 $work/hier.log
source build-device/device-env.sh
M=lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_lookup_miss.sum,l1tex__t_sectors_lookup_hit.sum,l1tex__m_xbar2l1tex_read_sectors.sum,gpu__time_duration.sum
for i in 2 3; do
  ncu --clock-control none --csv --page raw --print-units base --metrics $M --log-file $work/ncu-$set_name-run$i.csv \
    build-device/warpmem gpu run groundtruth/ptx/${set_name}_kernels.ptx --init zero --no-time > $work/$set_name-run$i.out 2>&1
  echo "$set_name run $i: $?"
done
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  tar czf "$dest/$set_name-runs.tgz" -C "$work" . && ls -la "$work"
fi
