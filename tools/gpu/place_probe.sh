#!/usr/bin/env bash
# On the device machine, from the repository root:
#   OUT=DIR bash tools/gpu/place_probe.sh
# Builds groundtruth/place_probe.cu, runs it natively (where each block ran
# and when: place.txt) and under Nsight Compute (L1 misses, L1<-L2 sectors,
# L2 read sectors, hits and misses a launch: ncu-place.csv).
set -uo pipefail
out=${OUT:-/tmp/place}; mkdir -p "$out"
nvcc -arch=sm_90 -O3 -o /tmp/place groundtruth/place_probe.cu || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > "$out/env.txt"
/tmp/place "$out/place-blocks.txt" > "$out/place.txt" 2>&1; echo "native exit $?"
m=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_lookup_miss.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__bytes_read.sum,gpu__time_duration.sum
ncu --clock-control none --csv --page raw --print-units base --metrics "$m" --log-file "$out/ncu-place.csv" /tmp/place > "$out/ncu-place.out" 2>&1
echo "ncu exit $?"
ncu --clock-control none --csv --page raw --print-units base --metrics l1tex__m_xbar2l1tex_read_sectors.sum --log-file "$out/ncu-place-xbar.csv" /tmp/place > "$out/ncu-place-xbar.out" 2>&1
echo "ncu xbar exit $?"
# the same with the L2 left warm (each launch after one that read the same data)
ncu --cache-control none --clock-control none --csv --page raw --print-units base --metrics "$m" --log-file "$out/ncu-place-warm.csv" /tmp/place > "$out/ncu-place-warm.out" 2>&1
echo "ncu warm exit $?"
