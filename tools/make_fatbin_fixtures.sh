#!/bin/sh
# make_fatbin_fixtures.sh - regenerates the fat binaries of tests/data/fatbin
# (tests/test_fatbin.c; the format: docs/fatbin.md) from add.cu, scale.cu and
# app.cu there, and the PTX that `nvcc -ptx` gives for the same code (the
# golden text the entries must hold).  Records which nvcc made them in
# NVCC_VERSION.  Usage: tools/make_fatbin_fixtures.sh [NVCC]
set -eu
NVCC=${1:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
DIR=$(cd "$(dirname "$0")/../tests/data/fatbin" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$DIR"

# one kernel, -arch=sm_90 (SASS sm_90 + PTX compute_90), each compression
"$NVCC" -fatbin -arch=sm_90 --compress-mode=none add.cu -o add_none.fatbin
"$NVCC" -fatbin -arch=sm_90 --compress-mode=speed add.cu -o add_lz4.fatbin
"$NVCC" -fatbin -arch=sm_90 add.cu -o add_zstd.fatbin               # nvcc's default
"$NVCC" -fatbin -arch=sm_90 --compress-mode=size add.cu -o add_size.fatbin  # the ELF too
# several arches: PTX for 80 and 100, SASS for all three
"$NVCC" -fatbin --compress-mode=size \
  -gencode arch=compute_80,code=[sm_80,compute_80] -gencode arch=compute_90,code=sm_90 \
  -gencode arch=compute_100,code=[sm_100,compute_100] add.cu -o add_multi.fatbin
# SASS only: nothing warpmem can run
"$NVCC" -fatbin --compress-mode=size -gencode arch=compute_90,code=sm_90 add.cu -o add_sass.fatbin
# LTO IR only (-dlto): nothing warpmem can run either
"$NVCC" -fatbin -gencode arch=compute_90,code=lto_90 add.cu -o add_lto.fatbin
# ptxas options nvcc records in the PTX entry's header
"$NVCC" -fatbin --compress-mode=size -arch=sm_90 -maxrregcount=32 -Xptxas -O2 add.cu -o add_opts.fatbin
# arch-specific: compute_90 and compute_90a PTX, sm_90a SASS
"$NVCC" -fatbin --compress-mode=size -arch=sm_90a add.cu -o add_sm90a.fatbin
# an application's .nv_fatbin: nvcc's device-link module, then one fat
# binary per translation unit (app.cu's has no kernels)
"$NVCC" -cudart shared -arch=sm_90 --compress-mode=size app.cu add.cu scale.cu -o "$TMP/app"
objcopy -O binary --only-section=.nv_fatbin "$TMP/app" app_section.bin

# the PTX the entries must hold
for a in 80 90 100; do "$NVCC" -ptx -arch=sm_$a add.cu -o add_sm$a.ptx; done
"$NVCC" -ptx -arch=sm_90 scale.cu -o scale_sm90.ptx
"$NVCC" --version | tail -n 2 > NVCC_VERSION
ls -l "$DIR"
