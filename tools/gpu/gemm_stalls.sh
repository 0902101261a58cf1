#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   bash tools/gpu/gemm_stalls.sh
# Nsight Compute's issue and stall counters for the Hopper GEMMs of
# groundtruth/hopper_kernels.cu at 2048 (gemm_ws, the multicast gemm_mc,
# gemm_1wg): why the multicast one takes the H200 twice as long.
# Everything goes to $OUT/mc.tgz.
source tools/gpu/ncu_prologue.sh
stalls=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum
stalls=$stalls,$(for r in barrier branch_resolving dispatch_stall drain imc_miss lg_throttle long_scoreboard math_pipe_throttle membar mio_throttle misc no_instruction not_selected selected short_scoreboard sleeping tex_throttle wait; do printf 'smsp__average_warps_issue_stalled_%s_per_issue_active.ratio,' $r; done | sed 's/,$//')
for l in gemm_ws#2048 gemm_mc#2048 gemm_1wg#2048; do
  timeout 100 ncu --clock-control none --csv --page raw --print-units base --metrics "$stalls" --log-file "$out/one.csv" $W gpu run groundtruth/ptx/hopper_kernels.ptx --only "$l" --no-time > "$out/ncu-$l.out" 2>&1
  echo "== $l" >> "$out/ncu-gemm-stalls.csv"; cat "$out/one.csv" >> "$out/ncu-gemm-stalls.csv"; rm -f "$out/one.csv"
  echo "$l: $(( $(date +%s) - t0 )) s"
done
tar czf "$dest/mc.tgz" -C "$out" .
