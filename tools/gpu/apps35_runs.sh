#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs):
#   bash tools/gpu/apps35_runs.sh
# Issue 35's checks on the H200 (docs/results/h200-2026-12-03-apps):
#  - device-attrs.txt: every cuDeviceGetAttribute of device 0 and a few
#    cudaDeviceProp fields (tools/gpu/device_attrs.cu);
#  - apps-native.txt: sample applications of tests/apps built as nvcc
#    builds them by default (the static runtime) and run natively: each
#    prints NAME: PASSED (clockAssert: a failed assert is cudaErrorAssert,
#    sticky; thrustSort: CUB's radix sort; benchLoop: a timed loop);
#  - contract.txt: `warpmem gpu run --exact` (outputs bit for bit) of
#    groundtruth/contract_kernels.ptx and the corpus's calls_noinline, with
#    the contractions read from ptxas's code and, for comparison, without
#    (WARPMEM_NVDISASM pointing nowhere: rounded twice).
# Everything goes to $OUT/apps35.tgz.
source "$(dirname "$0")/ncu_prologue.sh"
mkdir -p "$out/apps"
nvcc -arch=sm_90 -o "$out/device_attrs" tools/gpu/device_attrs.cu -lcuda > "$out/device-attrs.build" 2>&1 &&
  "$out/device_attrs" > "$out/device-attrs.txt" 2>&1
echo "device attributes: exit $?"
build() { # APP SOURCES... [-- FLAGS...]: nvcc's defaults, -cudart static
  local app=$1; shift
  nvcc -arch=sm_90 -O2 -I tests/apps -o "$out/apps/$app" "$@" >> "$out/apps-native.build" 2>&1
}
for a in vectorAdd managedMemory faultOOB printf clockAssert benchLoop thrustSort; do
  build "$a" "tests/apps/$a.cu" &
done
build driverLoader tests/apps/driverLoader.cu -lcuda &
build separateCompilation -rdc=true tests/apps/separateCompilation.cu tests/apps/separateCompilation_lib.cu &
wait
: > "$out/apps-native.txt"
for a in vectorAdd managedMemory faultOOB printf clockAssert benchLoop thrustSort driverLoader separateCompilation; do
  echo "== $a" >> "$out/apps-native.txt"
  if [ -x "$out/apps/$a" ]; then timeout 120 "$out/apps/$a" >> "$out/apps-native.txt" 2>&1; echo "== $a: exit $?" >> "$out/apps-native.txt"
  else echo "== $a: not built" >> "$out/apps-native.txt"; fi
done
echo "apps: $(grep -c ': PASSED' "$out/apps-native.txt") of 9 passed natively"
: > "$out/contract.txt"
for f in groundtruth/contract_kernels.ptx tests/corpus/ptx/calls_noinline.ptx; do
  echo "== $f, contractions read from ptxas's code" >> "$out/contract.txt"
  timeout 300 $W gpu run "$f" --exact --no-time >> "$out/contract.txt" 2>&1; echo "== exit $?" >> "$out/contract.txt"
  echo "== $f, rounded twice (no nvdisasm)" >> "$out/contract.txt"
  WARPMEM_NVDISASM=/nonexistent timeout 300 $W gpu run "$f" --exact --no-time >> "$out/contract.txt" 2>&1
  echo "== exit $?" >> "$out/contract.txt"
done
grep '^== exit' "$out/contract.txt"
tar czf "$dest/apps35.tgz" -C "$out" .
cat "$out/env.txt"
echo "done in $(( $(date +%s) - t0 )) s"
