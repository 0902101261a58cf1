#!/usr/bin/env bash
# On the device machine, from the repository root (the run tool starts there):
#   bash tools/gpu/check_on_gpu.sh            (carry .gpu-debs if the machine lacks jansson/cmocka)
# Builds warpmem, runs the GPU runner's tests and a few timed launches, and
# writes everything to $OUT (default /tmp/gpu-check):
#   env.txt            GPU, driver, clocks, tools
#   build.log          the build
#   test_gpu.log       tests/test_gpu.c on the GPU
#   runs.txt           gpu info, bandwidth, cuBLAS SGEMM 4096, seed launches
#   runs.json          the same measurements as JSON
set -uo pipefail
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
  uname -r; gcc --version | head -1; cmake --version | head -1
  (command -v nvcc || ls /usr/local/cuda/bin/nvcc) 2>&1; /usr/local/cuda/bin/nvcc --version 2>&1 | tail -1
  ls /usr/local/cuda/lib64/libcublas.so* 2>&1
  for p in pkg-config; do command -v $p || echo "$p: missing"; done
  pkg-config --modversion jansson cmocka 2>&1
} > "$out/env.txt" 2>&1
cat "$out/env.txt"

t0=$(date +%s)
if ! bash tools/gpu/build_on_device.sh build-device > "$out/build.log" 2>&1; then
  tail -40 "$out/build.log"; exit 1
fi
echo "== built in $(( $(date +%s) - t0 )) s"
source build-device/device-env.sh
W=build-device/warpmem

echo "== test_gpu"
build-device/test_gpu > "$out/test_gpu.log" 2>&1; rc=$?
grep -E "^\[  (PASSED|FAILED|SKIPPED|ERROR) |skipped|: cc |copy_k|copy 256|cuBLAS|failed for|JIT log" "$out/test_gpu.log"
echo "test_gpu exit status $rc"

{
  echo "== warpmem gpu info"; $W gpu info
  echo "== warpmem gpu bandwidth (1 GiB)"; $W gpu bandwidth
  echo "== warpmem gpu sgemm --n 4096"; $W gpu sgemm --n 4096
  echo "== seed sizes, outputs checked against the emulator"
  $W gpu run groundtruth/seed_kernels.cu --only copy_k --only tr_naive --check
  echo "== large sizes (groundtruth/seed_launches_large.cu, as in h200-large-times.md)"
  $W gpu run groundtruth/seed_launches_large.cu --only copy_k --only tr_naive --only tr_smem_pad
} 2>&1 | tee "$out/runs.txt"

{
  echo '{"bandwidth":'; $W gpu bandwidth --format json
  echo ',"sgemm4096":'; $W gpu sgemm --n 4096 --format json
  echo ',"large":'; $W gpu run groundtruth/seed_launches_large.cu --only copy_k --only tr_naive --only tr_smem_pad --format json
  echo '}'
} > "$out/runs.json" 2> "$out/runs.json.err"
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader >> "$out/env.txt"
echo "== done in $(( $(date +%s) - t0 )) s"
exit $rc
