#!/usr/bin/env bash
# On the device machine, from the repository root (carry .gpu-debs if the
# machine lacks jansson, cmocka, lz4 or zstd):
#   bash tools/gpu/sanitizer_check.sh
# Builds warpmem, then runs every //@ launch of tests/check/*.cu (kernels
# written to have one bug each, and their corrected twins) on the GPU under
# each of compute-sanitizer's four tools (sanitizer.txt in $OUT, default
# /tmp), to compare with `warpmem check FILE`'s findings, launch by launch.
source "$(dirname "$0")/ncu_prologue.sh"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in tests/check/*.cu; do
  n=$(basename "$f" .cu) p=tests/check/ptx/$n.ptx
  for l in $(grep -o '^//@ [A-Za-z0-9_#]*' "$f" | cut -c5-); do
    for tool in memcheck racecheck synccheck initcheck; do
      echo "== $n $l $tool"
      timeout 120 "$cs" --tool "$tool" --print-limit 8 $W gpu run "$p" --only "$l" --no-time 2>&1 | grep -E "^=========" | grep -vE "^========= *$|COMPUTE-SANITIZER" | head -12
      echo "exit ${PIPESTATUS[0]}"
    done
  done
done > "$dest/sanitizer.txt" 2>&1
cat "$out/env.txt" > "$dest/env.txt"
grep -cE "^== " "$dest/sanitizer.txt"
echo "done in $(( $(date +%s) - t0 )) s"
