#!/usr/bin/env bash
# Regenerates the PTX of every catalogue file (lab/seed*.cu) the way the lab
# and the simulator expect it: nvcc -ptx -arch=sm_90 -O3 -lineinfo.  The
# lab reads the committed .ptx, so it runs without nvcc; run this after
# editing a .cu and commit both.
set -euo pipefail
cd "$(dirname "$0")"
for cu in seed[0-9]*_*.cu; do
  nvcc -ptx -arch=sm_90 -O3 -lineinfo "$cu" -o "${cu%.cu}.ptx"
  echo "${cu%.cu}.ptx"
done
