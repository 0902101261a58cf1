#!/usr/bin/env bash
# The replay's clock against the time model's chain (issue 34): each probe
# set simulated twice, as the model is and with the latency bound read from
# the replay's clock (WARPMEM_CLOCK=1, mem/replay_clock.c), one line each
# of tools/gpu/probe_times.py's summary (within 25%, median, worst); the
# details in OUT/SET/{model,clock}/times.txt.  From the repository root:
#   bash tools/accuracy/clock_sets.sh build/warpmem OUT
set -uo pipefail
bin=$(realpath "$1"); out=$2
cd "$(dirname "$0")/../.."
for s in h200-2026-11-26-hierarchy:hierarchy h200-2026-11-26-public:public h200-2026-11-27-race:race \
         h200-2026-11-25-polybench:polybench h200-2026-11-26-policy:policy h200-2026-11-26-merge:merge \
         h200-2026-11-26-share:share h200-2026-11-26-near:near h200-2026-11-26-fill:fill \
         h200-2026-11-27-queue:queue; do
  res=${s%%:*} set=${s#*:}
  for mode in model clock; do
    d=$out/$set/$mode; mkdir -p "$d"
    cp "docs/results/$res/ncu-$set.csv" "docs/results/$res/times-$set.json" "$d/"
    if [ $mode = clock ]; then export WARPMEM_CLOCK=1; else unset WARPMEM_CLOCK; fi
    "$bin" sim "groundtruth/ptx/${set}_kernels.ptx" --arch h200 --init zero --format csv > "$d/sim-$set.csv" 2>/dev/null
    python3 tools/gpu/probe_times.py "$d" "$set" > "$d/times.txt" 2>&1
    echo "$set $mode: $(tail -1 "$d/times.txt")"
  done
done
