#!/bin/sh
# run_apps.sh - the ctest of `mpirun -np 2 warpmem run APP` (docs/mpi.md):
# each application runs under warpmem as one process and under mpirun with
# 2 ranks (each rank runs the application; the stand-in runtime joins the
# ranks and shards each launch), and must give the same exit status, the
# same output on stdout (rank 0's; the others' is silent) and the same JSON
# report (tools/same_counters.py; wall time aside).  The applications are
# tests/apps', built by CMake when nvcc is present.
#
#   run_apps.sh WARPMEM APP_DIR SOURCE_DIR [PYTHON]
#
# Exit 77 (skipped) without mpirun, without the applications (no nvcc), or
# with a warpmem built without MPI.
set -u
W=$1 APPS=$2 SRC=$3 PY=${4:-python3}
MPIRUN=$(command -v mpirun || command -v mpiexec || true)
[ -n "$MPIRUN" ] || { echo "SKIP: mpirun is absent (scripts/setup.sh installs openmpi-bin)"; exit 77; }
[ -x "$APPS/vectorAdd" ] || { echo "SKIP: the sample applications were not built (nvcc is absent)"; exit 77; }
OPTS="--oversubscribe"
if [ "$(id -u)" = 0 ]; then
  OPTS="$OPTS --allow-run-as-root"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "$MPIRUN" $OPTS -np 2 "$W" version > /dev/null 2> "$T/err"; then
  grep -q "built without MPI" "$T/err" && { echo "SKIP: this warpmem was built without MPI"; exit 77; }
  echo "FAIL: mpirun -np 2 warpmem version:"; cat "$T/err"; exit 1
fi
fail=0
# vectorAdd, matrixMul (tiled, shared memory), transpose (several launches,
# events), histogram (global atomics: rank 0 alone), faultOOB (a fault: the
# application's own error path, the same status)
for app in vectorAdd matrixMul transpose histogram faultOOB; do
  WARPMEM_THREADS=1 "$W" run --format json --out "$T/one.json" "$APPS/$app" > "$T/one.out" 2> "$T/one.err"
  s1=$?
  WARPMEM_THREADS=1 ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "$MPIRUN" $OPTS -np 2 \
    "$W" run --format json --out "$T/two.json" "$APPS/$app" > "$T/two.out" 2> "$T/two.err"
  s2=$?
  if [ "$s1" != "$s2" ]; then
    echo "FAIL: $app: exit status $s1 as one process, $s2 under mpirun -np 2"; cat "$T/two.err"; fail=1; continue
  fi
  if ! cmp -s "$T/one.out" "$T/two.out"; then
    echo "FAIL: $app: stdout differs under mpirun -np 2:"; diff "$T/one.out" "$T/two.out" | head -20; fail=1; continue
  fi
  if ! "$PY" "$SRC/tools/same_counters.py" "$T/one.json" "$T/two.json" > "$T/diff"; then
    echo "FAIL: $app: the report differs under mpirun -np 2:"; cat "$T/diff"; fail=1; continue
  fi
  echo "ok: $app (exit status $s1)"
done
exit $fail
