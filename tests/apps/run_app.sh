#!/bin/sh
# run_app.sh - one ctest of `warpmem run` on a sample application of
# tests/apps (built by CMake with nvcc -cudart shared into build/apps).
#
#   run_app.sh WARPMEM APP NAME [MODE [ARG...]] [-- WARPMEM-RUN-OPTIONS...]
#
# MODE:
#   (none)              APP exits 0 and prints "NAME: PASSED"; the text
#                       report follows and names every kernel in KERNELS
#                       (env, space-separated), its summary table included
#   --expect FILE       APP's output, sorted, equals FILE (printf)
#   --stderr-has TEXT   as (none), and warpmem's stderr contains TEXT (a
#                       located fault names the kernel)
#   --json CHECK        as (none) with --format json, then
#                       python3 check_report.py CHECK REPORT
# Exit 77 (ctest: skipped) with the reason when APP was not built (no nvcc)
# or warpmem's runtime is not built beside WARPMEM.
set -u
WARPMEM=$1 APP=$2 NAME=$3
shift 3
MODE=${1:-} ARG=
case "$MODE" in
--expect | --json | --stderr-has) ARG=${2:?"$MODE needs a value"}; shift 2 ;;
-- | "") MODE= ;;
*) echo "run_app.sh: unknown mode $MODE"; exit 2 ;;
esac
[ "${1:-}" = "--" ] && shift
HERE=$(dirname "$0")

if [ ! -x "$APP" ]; then
  echo "SKIP: $APP was not built: CMake found no nvcc (PATH, /usr/local/cuda/bin) to build tests/apps"
  exit 77
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/wm-app-XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
fail() {
  echo "FAIL ($NAME): $*"
  echo "--- stdout"; cat "$TMP/out"
  echo "--- stderr"; cat "$TMP/err"
  exit 1
}

RT=${WARPMEM_RT_DIR:-$(dirname "$WARPMEM")/rt}
if [ ! -e "$RT/libcudart.so.13" ]; then
  echo "SKIP: warpmem's CUDA runtime is not built ($RT/libcudart.so.13 is missing)"
  exit 77
fi
# the driver API, and the static runtime, which reaches warpmem through it
if { [ "$NAME" = driverLoader ] || [ "${APP%_static}" != "$APP" ]; } && [ ! -e "$RT/libcuda.so.1" ]; then
  echo "SKIP: warpmem's CUDA driver API is not built ($RT/libcuda.so.1 is missing)"
  exit 77
fi

# the stand-ins for NVIDIA's libraries
for lib in libcublas.so.13:cublasGemm libcublasLt.so.13:cublasLt libcurand.so.10:curandHost; do
  if [ "$NAME" = "${lib#*:}" ] && [ ! -e "$RT/${lib%%:*}" ]; then
    echo "SKIP: warpmem's ${lib%%:*} is not built (no CUDA headers for it)"
    exit 77
  fi
done

case "$MODE" in
--expect)
  "$WARPMEM" run -q --out "$TMP/report" "$@" "$APP" >"$TMP/out" 2>"$TMP/err" || fail "exit status $?"
  LC_ALL=C sort "$TMP/out" >"$TMP/sorted"
  diff -u "$ARG" "$TMP/sorted" || fail "the output differs from $ARG"
  echo "ok: $NAME printed what $ARG holds"
  exit 0 ;;
--json)
  "$WARPMEM" run -q --format json --out "$TMP/report.json" "$@" "$APP" >"$TMP/out" 2>"$TMP/err" ||
    fail "exit status $?"
  grep -q "^$NAME: PASSED" "$TMP/out" || fail "no '$NAME: PASSED'"
  python3 "$HERE/check_report.py" "$ARG" "$TMP/report.json" || fail "the report's numbers (above)"
  echo "ok: $NAME passed, report checked ($ARG)"
  exit 0 ;;
esac

"$WARPMEM" run -q "$@" "$APP" >"$TMP/out" 2>"$TMP/err" || fail "exit status $?"
grep -q "^$NAME: PASSED" "$TMP/out" || fail "no '$NAME: PASSED'"
if [ "$MODE" = "--stderr-has" ]; then
  grep -qF -- "$ARG" "$TMP/err" || fail "stderr has no '$ARG'"
fi
# the report, after the app's last line, names every kernel
sed -n "/^$NAME: PASSED/,\$p" "$TMP/out" >"$TMP/report"
for k in ${KERNELS:-}; do
  grep -q "$k" "$TMP/report" || fail "the report does not name $k"
done
echo "ok: $NAME passed"
