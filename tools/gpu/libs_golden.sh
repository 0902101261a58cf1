#!/bin/sh
# libs_golden.sh - on a GPU: build the library apps of tests/apps
# (cublasGemm, cublasLt, curandHost) against NVIDIA's cuBLAS, cuBLASLt and
# cuRAND, run each natively (its own CPU-reference checks), and record the
# libraries' outputs as golden values (tests/apps/app_golden.h) in $OUT:
#
#   OUT=/tmp/out sh tools/gpu/libs_golden.sh
#
# Then tests/data/libs/*.golden are these files, the full_* cases of
# curandHost's left out (tools/gpu/libs_golden_trim.py).
set -u
OUT=${OUT:?set OUT to a folder}
mkdir -p "$OUT"
B=$(mktemp -d)
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  nvcc --version | tail -2
  ls -l /usr/local/cuda/lib64/libcublas.so.* /usr/local/cuda/lib64/libcublasLt.so.* /usr/local/cuda/lib64/libcurand.so.*
} >"$OUT/env.txt" 2>&1
st=0
for app in cublasGemm:-lcublas cublasLt:-lcublasLt curandHost:-lcurand; do
  name=${app%%:*} lib=${app#*:}
  nvcc -arch=sm_90 -O2 -cudart shared -o "$B/$name" "tests/apps/$name.cu" "$lib" || { st=1; continue; }
  WM_GOLDEN_RECORD="$OUT/$name.golden" WM_GOLDEN_FULL=1 "$B/$name" >"$OUT/$name.log" 2>&1 || st=1
  # the same again, compared with what was just recorded: the library is deterministic
  echo "--- again, compared with the values just recorded" >>"$OUT/$name.log"
  WM_GOLDEN="$OUT/$name.golden" "$B/$name" >>"$OUT/$name.log" 2>&1 || st=1
  grep -E "PASSED|FAILED" "$OUT/$name.log"
done
gzip -9 -f "$OUT/curandHost.golden"
exit $st
