#!/usr/bin/env bash
# On the device machine, from the repository root (the run tool starts there):
#   bash tools/gpu/corpus_on_gpu.sh           (carry .gpu-debs if the machine lacks jansson/cmocka)
# Builds warpmem and runs the corpus (tests/corpus, one lab group per file)
# on the GPU: every launch's outputs against the emulator's, and with Nsight
# Compute its counters against the simulator's.  Writes to $OUT (default
# /tmp/gpu-corpus):
#   env.txt              GPU, driver, tools
#   build.log            the build
#   corpus/              warpmem lab --dir tests/corpus --ncu --no-time --format markdown:
#                        results.md, results.json, ncu.md
#   lab.md, lab.err      the lab's report and its stderr (progress, the ncu command)
#   run/NAME.txt         warpmem gpu run tests/corpus/ptx/NAME.ptx --check --no-time
#                        (the committed PTX, as the lab and the tests use; its
#                        //@ lines come from tests/corpus/NAME.cu)
#   summary.txt          the table printed last
# WARPMEM_BIN=build-device/warpmem skips the build (after `source
# build-device/device-env.sh`).
# The corpus launches are small (ncu replays each kernel once per pass of
# counters), so the whole takes a few minutes on an H100; the lab is cut at
# 420 s and the file runs at 570 s from the start (30 s each at most), so
# that the summary always comes within the run tool's 10 minutes.  Exit status 0
# when every file ran; a file whose launches the emulator refuses or faults
# on by design (assert, refuse_one) reports exit 4 in the table.
set -uo pipefail
out=${OUT:-/tmp/gpu-corpus}
mkdir -p "$out/run"
cd "$(dirname "$0")/../.." || exit 1
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  (command -v ncu || ls /usr/local/cuda/bin/ncu) 2>&1; ncu --version 2>&1 | tail -1
} > "$out/env.txt" 2>&1
cat "$out/env.txt"

t0=$(date +%s)
W=${WARPMEM_BIN:-}   # a warpmem already built: no build (to run the corpus again)
if [ -z "$W" ]; then
  if ! bash tools/gpu/build_on_device.sh build-device > "$out/build.log" 2>&1; then
    tail -40 "$out/build.log"; exit 1
  fi
  echo "== built in $(( $(date +%s) - t0 )) s"
  # shellcheck disable=SC1091
  source build-device/device-env.sh
  W=build-device/warpmem
fi
command -v ncu >/dev/null 2>&1 || echo "(ncu is not on PATH: the lab runs without --ncu's table)"

echo "== warpmem lab --dir tests/corpus --ncu"
t1=$(date +%s)
# no timing: the corpus is about outputs and counters, and some kernels
# (filter_k appends with atomicAdd) must not run twice on the same buffers
timeout $(( t0 + 420 - $(date +%s) )) "$W" lab --dir tests/corpus --ncu --no-time --out "$out/corpus" --format markdown \
  > "$out/lab.md" 2> "$out/lab.err"
lab_rc=$?
lab_s=$(( $(date +%s) - t1 ))
echo "lab exit status $lab_rc in $lab_s s"

echo "== warpmem gpu run --check, file by file"
rows=()
for cu in tests/corpus/*.cu; do
  name=$(basename "$cu" .cu)
  ptx=tests/corpus/ptx/$name.ptx
  [ -f "$ptx" ] || continue
  t2=$(date +%s)
  left=$(( t0 + 570 - t2 ))   # the run tool stops a command at 600 s
  if [ "$left" -lt 5 ]; then
    rows+=("$(printf '%-18s skipped: out of time' "$name")")
    continue
  fi
  timeout $(( left < 30 ? left : 30 )) "$W" gpu run "$ptx" --check --no-time > "$out/run/$name.txt" 2>&1
  rc=$?
  equal=$(grep -c "outputs equal to the emulator's" "$out/run/$name.txt")
  bad=$(grep -cE "^[^ ].* \(line [0-9]+\): (refused|failed):" "$out/run/$name.txt")
  diff=$(grep -c "elements differ" "$out/run/$name.txt")
  rows+=("$(printf '%-18s %4d %6d %6d %6d %5ss' "$name" "$rc" "$equal" "$diff" "$bad" "$(( $(date +%s) - t2 ))")")
done

# the lab's per-launch outputs column (markdown tables: '| equal |' etc.)
lab_equal=$(grep -c "| equal |" "$out/lab.md")
lab_race=$(grep -c "| race ok |" "$out/lab.md")
lab_differ=$(grep -c "| DIFFER |" "$out/lab.md")
ncu_rows=$( [ -f "$out/corpus/ncu.md" ] && grep -c "^| " "$out/corpus/ncu.md" || echo 0)
{
  echo
  echo "== summary ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(( $(date +%s) - t0 )) s in all)"
  echo "lab --dir tests/corpus --ncu: exit $lab_rc in ${lab_s} s; outputs: $lab_equal equal, $lab_race race ok, $lab_differ DIFFER; ncu.md rows: $ncu_rows (with the header)"
  printf '%-18s %4s %6s %6s %6s %6s\n' file exit equal differ notrun time
  for r in "${rows[@]}"; do echo "$r"; done
  echo "(exit 4: some launches refused or failed, by design in assert and refuse_one; details in run/NAME.txt)"
} | tee "$out/summary.txt"
[ "$lab_rc" -eq 0 ] || [ "$lab_rc" -eq 4 ]
