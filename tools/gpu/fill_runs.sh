#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   OUT=... bash tools/gpu/fill_runs.sh
# groundtruth/fill_kernels.cu measured three times (hierarchy_ncu.sh fill,
# then twice its L2 counters alone), and the seed's offset_copy launches
# three times (ncu -k), for docs/results/h*-2026-11-26-fill.
set -u
dest=$OUT; OUT=$(mktemp -d)
OUT=$OUT bash tools/gpu/hierarchy_ncu.sh fill > $OUT/hier.log 2>&1; tail -5 $OUT/hier.log
source build-device/device-env.sh
M=lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
for i in 2 3; do
  ncu --clock-control none --csv --page raw --print-units base --metrics $M --log-file $OUT/ncu-fill-run$i.csv build-device/warpmem gpu run groundtruth/ptx/fill_kernels.ptx --init zero --no-time > $OUT/fill-run$i.out 2>&1; echo "fill run $i: $?"
done
for i in 1 2 3; do
  ncu --clock-control none --csv --page raw --print-units base -k regex:offset_copy --metrics $M --log-file $OUT/ncu-offset-run$i.csv build-device/warpmem gpu run groundtruth/ptx/seed_kernels.ptx --init zero --no-time > $OUT/offset-run$i.out 2>&1; echo "offset run $i: $?"
done
tar czf "$dest/fill-runs.tgz" -C "$OUT" . && ls -la "$OUT"
