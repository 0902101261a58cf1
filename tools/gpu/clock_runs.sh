#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs, and
# .ext/fastcu for the fast.cu part):
#   bash tools/gpu/clock_runs.sh
# Issue 33's measurements for the warps' clock (emu/emu_clock.c):
#  - the probe sets of SETS (default groundtruth/tma_size_kernels.cu: TMA
#    round trips by box size and a pair of copies a step): times-NAME.json
#    (gpu run, cold and hot), ncu-NAME.csv;
#  - the fast.cu series (if .ext/fastcu holds its checkout's examples/:
#    tools/gpu/fastcu_harness.cu around the twelve kernels, built as their
#    authors build them but with -cudart shared): native times at 2048 (fastcu-native.txt) and,
#    for kernels 1 and 3, Nsight Compute's instruction, issue and stall
#    counters (ncu-fastcu-stalls.csv).
# Everything goes to $OUT/clock.tgz.
# SETS: the probe sets (NAME=PTX ...); FASTCU=0 leaves the fast.cu part out
source "$(dirname "$0")/ncu_prologue.sh"
for set in ${SETS:-tma_size=groundtruth/ptx/tma_size_kernels.ptx}; do
  n=${set%%=*} p=${set#*=}
  timeout 200 $W gpu run "$p" --budget 0.2 --format json > "$out/times-$n.json" 2> "$out/times-$n.err"
  echo "$n: times exit $?, $(( $(date +%s) - t0 )) s"
  timeout 200 ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
    --log-file "$out/ncu-$n.csv" $W gpu run "$p" --no-time > "$out/ncu-$n.out" 2>&1
  echo "$n: ncu $(grep -c '^"[0-9]' "$out/ncu-$n.csv") profiled, $(( $(date +%s) - t0 )) s"
done
f=.ext/fastcu
if [ "${FASTCU:-1}" = 1 ] && [ -f "$f/examples/matmul/matmul_12.cuh" ]; then
  (nvcc -std=c++17 -O3 -DNDEBUG -w --expt-relaxed-constexpr --expt-extended-lambda --use_fast_math \
    -Xcompiler=-fPIE -Xcompiler=-Wno-psabi -Xcompiler=-fno-strict-aliasing -arch=compute_90a \
    -code=sm_90a,compute_90a -cudart shared -lineinfo -I "$f" -o "$out/harness" tools/gpu/fastcu_harness.cu -lcuda) > "$out/fastcu-build.txt" 2>&1
  echo "fastcu: build exit $?, $(( $(date +%s) - t0 )) s"
  timeout 120 "$out/harness" 2048 50 1 2 3 4 5 6 7 8 9 10 11 12 > "$out/fastcu-native.txt" 2>&1
  echo "fastcu: native exit $?, $(( $(date +%s) - t0 )) s"
  stalls=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active
  stalls=$stalls,$(for r in barrier branch_resolving dispatch_stall drain imc_miss lg_throttle long_scoreboard math_pipe_throttle membar mio_throttle misc no_instruction not_selected selected short_scoreboard sleeping tex_throttle wait; do
    printf 'smsp__average_warps_issue_stalled_%s_per_issue_active.ratio,' $r; done | sed 's/,$//')
  timeout 200 ncu --clock-control none --csv --page raw --print-units base --metrics "$stalls" \
    --log-file "$out/ncu-fastcu-stalls.csv" "$out/harness" 2048 0 1 3 4 12 > "$out/ncu-fastcu-stalls.out" 2>&1
  echo "fastcu: ncu stalls exit $?, $(( $(date +%s) - t0 )) s"
  rm -f "$out/harness"
fi
tar czf "$dest/clock.tgz" -C "$out" .
cat "$out/env.txt"
echo "done in $(( $(date +%s) - t0 )) s"
