#!/usr/bin/env bash
# On the device machine, from the repository root, after a script that
# sourced ncu_prologue.sh built build-device:
#   bash tools/gpu/kernel_metrics.sh FILE LAUNCH METRIC...
# Profiles launch LAUNCH (a label or kernel name, as `gpu run --only`) of
# FILE once per metric with Nsight Compute (caches flushed, buffers
# zero-filled) and prints "LAUNCH METRIC VALUE" lines; a metric this GPU
# does not have prints "n/a" instead of failing the others.  For metrics
# warpmem does not model, asked while explaining a miss (docs/accuracy.md).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
file=$1 launch=$2; shift 2
W=$PWD/build-device/warpmem
source build-device/device-env.sh 2>/dev/null || true
for m in "$@"; do
  log=$(mktemp)
  timeout 120 ncu --clock-control none --csv --page raw --print-units base --metrics "$m" --log-file "$log" \
    $W gpu run "$file" --only "$launch" --init zero --no-time > /dev/null 2>&1
  v=$(python3 - "$log" "$m" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
if len(rows) < 2 or sys.argv[2] not in rows[0]: print("n/a")
else: print(" ".join(r[rows[0].index(sys.argv[2])] for r in rows[1:] if r and r[0].isdigit()))
PY
)
  echo "$launch $m $v"
  rm -f "$log"
done
