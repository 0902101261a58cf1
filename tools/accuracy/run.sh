#!/bin/sh
# The comparison tables of docs/accuracy.md: simulated (warpmem's default
# h200 preset) vs measured on an H200.  About a minute on 2 cores.
#   sh tools/accuracy/run.sh [BUILD_DIR [ARCH GPU]]
# ARCH GPU: another preset against groundtruth/GPU-seed-counters.csv and
# GPU-large-counters.csv (hopper h100: the H100's).
set -e
cd "$(dirname "$0")/../.."
wm=${1:-build}/warpmem
arch=${2:-h200} gpu=${3:-h200}
d=$(mktemp -d)
# the seed launches, whole
$wm sim groundtruth/ptx/seed_kernels.ptx --arch "$arch" --init zero --format csv > "$d/seed.csv"
# the large launches: every 8th wave of blocks (their blocks touch data of
# their own), except mm_g and mm_s, whose blocks share A and B through L2
cp groundtruth/ptx/seed_kernels.ptx "$d/seed_launches_large.ptx"
cp groundtruth/seed_launches_large.cu "$d/seed_launches_large.cu"
$wm sim "$d/seed_launches_large.ptx" --arch "$arch" --init zero --format csv --sample 8 > "$d/large.csv"
for k in mm_g mm_s; do
  $wm sim groundtruth/ptx/seed_kernels.ptx --arch "$arch" --init zero --format csv --kernel $k --grid 64,64 --block 16,16 \
    --arg buf:f32:1048576 --arg buf:f32:1048576 --arg buf:f32:1048576 --arg i32:1024 > "$d/$k.csv"
done
echo "## seed launches ($gpu-seed-counters.csv)"; echo
python3 tools/accuracy/compare.py groundtruth/$gpu-seed-counters.csv "$d/seed.csv"
echo; echo "## large launches ($gpu-large-counters.csv)"; echo
python3 tools/accuracy/compare.py groundtruth/$gpu-large-counters.csv "$d/large.csv" "$d/mm_g.csv" "$d/mm_s.csv"
rm -rf "$d"
