#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   OUT=... bash tools/gpu/spread_runs.sh [RUNS]
# How much the seed launches that still miss (mm_g, local_heap) vary
# between runs of the same launch on one GPU: the seed module profiled
# RUNS times (default 5) with Nsight Compute, only those two launches
# (ncu -k), after the module's other launches as in the ground truth; then
# each launch alone (gpu run --only) RUNS times.  Everything in
# $OUT/spread-runs.tgz, for docs/results/h*-2026-11-26-spread.
set -u
dest=${OUT:-/tmp}; out=$(mktemp -d)
bash tools/gpu/build_on_device.sh build-device > "$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
source build-device/device-env.sh
W=$PWD/build-device/warpmem
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$out/env.txt" 2>&1
for i in $(seq 1 "${1:-5}"); do
  ncu --clock-control none --csv --page raw --print-units base -k 'regex:^(mm_g|local_heap)$' --metrics $M \
    --log-file "$out/ncu-module-run$i.csv" $W gpu run groundtruth/ptx/seed_kernels.ptx --init zero --no-time > "$out/module-run$i.out" 2>&1
  echo "module run $i: $?"
  for k in mm_g local_heap; do
    ncu --clock-control none --csv --page raw --print-units base --metrics $M \
      --log-file "$out/ncu-$k-alone-run$i.csv" $W gpu run groundtruth/ptx/seed_kernels.ptx --only $k --init zero --no-time > "$out/$k-alone-run$i.out" 2>&1
    echo "$k alone run $i: $?"
  done
done
tar czf "$dest/spread-runs.tgz" -C "$out" . && ls "$out" | wc -l
