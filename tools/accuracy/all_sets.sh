#!/usr/bin/env bash
# Every accuracy set of docs/accuracy.md's summary, simulated by one warpmem
# binary against the measurements committed under docs/results, one line a
# set (the details in OUT).  About twelve minutes on 2 cores.  From the repository
# root:
#   bash tools/accuracy/all_sets.sh build/warpmem OUT
set -uo pipefail
bin=$(realpath "$1"); out=$2
mkdir -p "$out/b"
cd "$(dirname "$0")/../.."
cp "$bin" "$out/b/warpmem"
sh tools/accuracy/run.sh "$out/b" > "$out/h200-seed.txt" 2>&1
echo "seed: $(python3 tools/accuracy/seed_levels.py "$out/h200-seed.txt"); $(grep -m2 median "$out/h200-seed.txt" | paste -sd' ')"
# a probe set: NAME ARCH RESULTS-DIR PTX-NAME
probe_set() {
  local name=$1 arch=$2 res=$3 set=$4 d="$out/$1"
  mkdir -p "$d"
  cp "docs/results/$res/ncu-$set.csv" "docs/results/$res/times-$set.json" "$d/"
  "$bin" sim "groundtruth/ptx/${set}_kernels.ptx" --arch "$arch" --init zero --format csv > "$d/sim-$set.csv" 2>/dev/null
  python3 tools/gpu/probe_times.py "$d" "$set" > "$d/times.txt" 2>&1
  python3 tools/accuracy/levels.py "$d" "$set" > "$d/levels.txt" 2>&1
  echo "$name: $(tail -1 "$d/levels.txt"); time $(tail -1 "$d/times.txt")"
}
probe_set h200-hierarchy h200 h200-2026-11-26-hierarchy hierarchy
probe_set h100-hierarchy hopper h100-2026-11-25-hierarchy hierarchy
probe_set h200-merge h200 h200-2026-11-26-drift merge
probe_set h100-merge hopper h100-2026-11-26-drift merge
probe_set h200-near h200 h200-2026-11-26-near near
probe_set h100-near hopper h100-2026-11-26-near near
probe_set h200-fill h200 h200-2026-11-26-fill fill
probe_set h100-fill hopper h100-2026-11-26-fill fill
probe_set h200-share h200 h200-2026-11-26-share share
probe_set h200-polybench h200 h200-2026-11-25-polybench polybench
probe_set h200-policy h200 h200-2026-11-26-policy policy
probe_set h100-policy hopper h100-2026-11-26-policy policy
probe_set h200-race h200 h200-2026-11-27-race race
probe_set h100-race hopper h100-2026-11-27-race race
probe_set h200-queue h200 h200-2026-11-27-queue queue
probe_set h100-queue hopper h100-2026-11-27-queue queue
probe_set h200-public h200 h200-2026-11-26-public public
probe_set h100-public hopper h100-2026-11-26-public public
probe_set h200-readback h200 h200-2026-11-27-readback readback
probe_set h200-rows h200 h200-2026-11-27-rows rows
probe_set h100-rows hopper h100-2026-11-27-rows rows
probe_set h200-variant h200 h200-2026-11-27-variant variant
probe_set h100-variant hopper h100-2026-11-27-variant variant
# the lab catalogue, buffers as its launch lines ask: its five files as one set
lab_set() {
  local name=$1 arch=$2 res=$3 d="$out/$1" ok=0 all=0 tok=0 tall=0
  mkdir -p "$d"
  for f in lab/ptx/*.ptx; do
    local b; b=$(basename "$f" .ptx)
    cp "docs/results/$res/ncu-$b.csv" "docs/results/$res/times-$b.json" "$d/"
    "$bin" sim "$f" --arch "$arch" --format csv > "$d/sim-$b.csv" 2>/dev/null
    python3 tools/gpu/probe_times.py "$d" "$b" > "$d/times-$b.txt" 2>&1
    python3 tools/accuracy/levels.py "$d" "$b" > "$d/levels-$b.txt" 2>&1
    set -- $(tail -1 "$d/levels-$b.txt"); ok=$((ok + $1)) all=$((all + $3))
    set -- $(tail -1 "$d/times-$b.txt"); tok=$((tok + $1)) tall=$((tall + $3))
  done
  echo "$name: $ok of $all agree (L2 5%, DRAM 10%, or within 4 KB); time $tok of $tall within 25%"
}
lab_set h200-lab h200 h200-2026-11-27-labncu
lab_set h100-lab hopper h100-2026-11-27-labncu
python3 tools/accuracy/fabric.py "$bin" h200 docs/results/h200-2026-11-26-fabric -v > "$out/h200-fabric.txt" 2>&1
echo "h200-$(tail -1 "$out/h200-fabric.txt")"
python3 tools/accuracy/fabric.py "$bin" hopper docs/results/h100-2026-11-26-fabric -v > "$out/h100-fabric.txt" 2>&1
echo "h100-$(tail -1 "$out/h100-fabric.txt")"
mkdir -p "$out/corpus"
echo "h100-corpus: $(python3 tools/accuracy/corpus_levels.py "$bin" "$out/corpus" | tail -1)"
python3 tools/accuracy/lab_times.py "$bin" > "$out/lab.txt" 2>&1
echo "lab: $(grep -i within "$out/lab.txt" | tail -1)"
python3 tools/accuracy/hopper_times.py "$bin" -v > "$out/hopper.txt" 2>&1
echo "$(tail -1 "$out/hopper.txt")"
