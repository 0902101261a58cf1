#!/usr/bin/env bash
# Run HERE (a Debian 12 machine with apt), not on the device machine: downloads
# the .deb files of the libraries warpmem builds against (jansson, cmocka,
# lz4, zstd) and
# of pkg-config, into .gpu-debs/ at the repository root, which git ignores
# (.git/info/exclude).  The device machine cannot reach a registry; name
# .gpu-debs in the run tool's `carry`, and build_on_device.sh unpacks them
# into /tmp/warpmem-deps (never into /) when the machine lacks them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$root/.gpu-debs"
[ -d "$root/.git" ] && mkdir -p "$root/.git/info"
grep -qx '/.gpu-debs/' "$root/.git/info/exclude" 2>/dev/null || echo '/.gpu-debs/' >> "$root/.git/info/exclude"
cd "$root/.gpu-debs"
apt-get download libjansson4 libjansson-dev libcmocka0 libcmocka-dev pkgconf pkgconf-bin libpkgconf3 \
  liblz4-1 liblz4-dev libzstd1 libzstd-dev
ls -l "$root/.gpu-debs"
