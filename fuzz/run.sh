#!/bin/sh
# run.sh - runs the libFuzzer harnesses of fuzz/ over their corpora (docs/fuzzing.md).
#   fuzz/run.sh BINDIR SECONDS [HARNESS...]   (default: every harness)
# Each harness runs SECONDS over fuzz/corpus/NAME plus fresh mutations, all
# harnesses at once; new inputs go to a scratch folder (the repository's
# corpora are read, never written).  Exits non-zero, printing the report,
# when a harness crashes, leaks, hangs (-timeout=10) or runs out of memory.
set -u
BIN=$1
SECS=$2
shift 2
HARNESSES=${*:-ptx launch fatbin csv}
DIR=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for h in $HARNESSES; do
  mkdir -p "$TMP/$h/new" "$TMP/$h/art"
  "$BIN/fuzz_$h" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -dict="$DIR/$h.dict" \
    -artifact_prefix="$TMP/$h/art/" -print_final_stats=1 "$TMP/$h/new" "$DIR/corpus/$h" >"$TMP/$h/log" 2>&1 &
  echo $! >"$TMP/$h/pid"
done
rc=0
for h in $HARNESSES; do
  if wait "$(cat "$TMP/$h/pid")"; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TMP/$h/log")
    echo "fuzz_$h: ok, $runs executions in ${SECS} s"
  else
    echo "fuzz_$h: FAILED" >&2
    grep -v '^#\|^INFO\|^Loaded\|^stat::' "$TMP/$h/log" | tail -60 >&2
    for a in "$TMP/$h/art"/*; do [ -f "$a" ] && echo "  input (base64): $(base64 -w0 "$a" | head -c 2000)" >&2; done
    rc=1
  fi
done
exit $rc
