#!/usr/bin/env bash
# Installs what warpmem needs to build and test, if missing (Debian 12):
# cmake, a C compiler, pkg-config, jansson (JSON), cmocka (tests), lz4 and
# zstd (the compressed PTX in applications' fat binaries), Open MPI
# (warpmem sim over MPI ranks), python3 with nm for the layout check, and
# Chromium (the HTML report's test renders its pages headless).
# The CUDA toolkit (nvcc) is optional: without it, give warpmem .ptx files.
# The Python package's tests (tests/python, docs/python.md) run in a venv,
# .venv, with python/requirements-test.txt from the package index (NumPy,
# pytest, Triton, Numba's CUDA target); python3-venv makes it on Debian.
# `setup.sh fuzz` (make fuzz) also installs clang and its compiler-rt
# (libFuzzer and the sanitizers' runtimes: libclang-rt-dev, only a
# recommendation of clang's packages) for the harnesses of fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."   # the venv lives in the repository (.venv, ignored)
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v cc >/dev/null || need+=(gcc)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v python3 >/dev/null || need+=(python3)   # tools/check_layout.py
command -v nm >/dev/null || need+=(binutils)
pkg-config --exists jansson 2>/dev/null || need+=(libjansson-dev)
pkg-config --exists cmocka 2>/dev/null || need+=(libcmocka-dev)
pkg-config --exists liblz4 2>/dev/null || need+=(liblz4-dev)   # fat binaries (warpmem run)
pkg-config --exists libzstd 2>/dev/null || need+=(libzstd-dev)
# Open MPI: `mpirun -np N warpmem sim` (docs/mpi.md) and its test
{ command -v mpirun >/dev/null && pkg-config --exists ompi-c 2>/dev/null; } || need+=(openmpi-bin libopenmpi-dev)
# Chromium: the html_chromium test (tools/html_check.py) renders --format html
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || need+=(chromium)
[ -x .venv/bin/python ] || python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
if [ "${1:-}" = fuzz ]; then
  command -v clang >/dev/null || need+=(clang)
  if ! command -v clang >/dev/null || [ ! -f "$(clang -print-runtime-dir)/libclang_rt.fuzzer-x86_64.a" ]; then
    need+=(libclang-rt-dev)
  fi
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ "${1:-}" != fuzz ]; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  if ! .venv/bin/python -c 'import numpy, pytest, triton, numba.cuda' 2>/dev/null; then
    echo "setup: installing python/requirements-test.txt into .venv" >&2
    .venv/bin/pip install -q --disable-pip-version-check -r python/requirements-test.txt
  fi
  # nvdisasm (CUDA's, from the package index where the toolkit lacks it):
  # which mul-add pairs ptxas fused, read from its code (src/ptx/ptx_sass.c)
  if ! command -v nvdisasm >/dev/null && [ ! -x /usr/local/cuda/bin/nvdisasm ] &&
     ! ls .venv/lib/python3*/site-packages/nvidia/cu*/bin/nvdisasm >/dev/null 2>&1; then
    echo "setup: installing nvidia-cuda-nvdisasm into .venv" >&2
    .venv/bin/pip install -q --disable-pip-version-check nvidia-cuda-nvdisasm ||
      echo "setup: no nvdisasm: warpmem will warn where ptxas may fuse a mul and an add" >&2
  fi
fi
