#!/usr/bin/env bash
# Runs the whole test suite: installs missing Debian packages, builds build/openmpi and
# build/mpich with warnings as errors, runs every test of both trees. Exits non-zero on any
# failure.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh || { echo "test.sh: installing dependencies failed" >&2; exit 1; }
MPIGUIDE_WERROR=ON scripts/build.sh openmpi mpich || { echo "test.sh: build failed" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
status=0
total_pass=0
total_fail=0
for mpi in openmpi mpich; do
  echo "=== tests: $mpi ==="
  log="build/$mpi/ctest.log"
  ctest --test-dir "build/$mpi" --output-on-failure --timeout 900 ${CTEST_ARGS:-} 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$log" | tail -1)
  n=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  f=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$line")
  if [ -z "$line" ]; then status=1; continue; fi
  total_pass=$((total_pass + n - f))
  total_fail=$((total_fail + f))
done
echo "total: $total_pass passed, $total_fail failed"
exit $status
