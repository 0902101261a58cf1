#!/usr/bin/env bash
# Builds warpmem (the binary, the tests, the benchmarks) on the device machine,
# or on any x86-64 Linux with gcc and cmake >= 3.25:
#   bash tools/gpu/build_on_device.sh [BUILD_DIR]        (default: build-device)
# then, before running what it built:
#   source BUILD_DIR/device-env.sh
#
# jansson, cmocka and pkg-config come from the system when it has them;
# otherwise from the .deb files in .gpu-debs/ (made here by
# tools/gpu/fetch_debs.sh and carried to the device machine), unpacked into
# /tmp/warpmem-deps (WARPMEM_USE_DEBS=1 forces this, for testing).  nvcc (for .cu files) is looked for on PATH and in
# /usr/local/cuda/bin.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-device}
case "$build" in /*) ;; *) build="$root/$build" ;; esac
deps=/tmp/warpmem-deps
envfile_lines=()
if [ -d /usr/local/cuda/bin ]; then
  export PATH="$PATH:/usr/local/cuda/bin"
  envfile_lines+=("export PATH=\"\$PATH:/usr/local/cuda/bin\"")
fi
# cuBLAS is dlopen'ed by name; its toolkit folder holds libcublasLt beside it
if [ -d /usr/local/cuda/lib64 ]; then
  envfile_lines+=("export LD_LIBRARY_PATH=\"\${LD_LIBRARY_PATH:+\$LD_LIBRARY_PATH:}/usr/local/cuda/lib64\"")
fi

have_system_deps() {
  [ -z "${WARPMEM_USE_DEBS:-}" ] && command -v pkg-config >/dev/null 2>&1 && pkg-config --exists jansson cmocka liblz4 libzstd
}
cmake_extra=()
if have_system_deps; then
  echo "build_on_device: jansson and cmocka from the system"
else
  if ! ls "$root"/.gpu-debs/*.deb >/dev/null 2>&1; then
    echo "build_on_device: jansson, cmocka or pkg-config is missing here, and there is no .gpu-debs/:" >&2
    echo "  run tools/gpu/fetch_debs.sh where apt works and carry .gpu-debs" >&2
    exit 1
  fi
  echo "build_on_device: jansson, cmocka and pkg-config from .gpu-debs/ into $deps"
  rm -rf "$deps" && mkdir -p "$deps"
  for f in "$root"/.gpu-debs/*.deb; do dpkg -x "$f" "$deps"; done
  libdir=$deps/usr/lib/x86_64-linux-gnu
  # the .pc files name /usr: point them at the unpacked tree
  sed -i -e "s|=/usr|=$deps/usr|" -e "s|-L/usr/|-L$deps/usr/|g" -e "s|-I/usr/|-I$deps/usr/|g" "$libdir"/pkgconfig/*.pc
  export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  envfile_lines+=("export LD_LIBRARY_PATH=\"$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\"")
  if ! command -v pkg-config >/dev/null 2>&1; then
    cmake_extra+=("-DPKG_CONFIG_EXECUTABLE=$deps/usr/bin/pkgconf")
  fi
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${cmake_extra[@]}"
cmake --build "$build" -j "$(nproc)" ${WARPMEM_BUILD_TARGET:+--target $WARPMEM_BUILD_TARGET}
printf '%s\n' "# made by tools/gpu/build_on_device.sh" "${envfile_lines[@]}" > "$build/device-env.sh"
echo "build_on_device: built $build/warpmem; source $build/device-env.sh before running it"
