#!/usr/bin/env bash
# Runs the whole test suite: installs missing Debian packages, builds build/openmpi,
# build/mpich and build/smpi (SimGrid's simulated MPI) with warnings as errors, runs every test
# of the three trees. Exits non-zero on any
# failure. Skipped tests (the label `slurm` ones where no Slurm daemons can be started) are
# counted and listed with their reason, never as passed; MPIGUIDE_REQUIRE_SLURM=1 (set by
# .ci/run) makes them fail instead.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh || { echo "test.sh: installing dependencies failed" >&2; exit 1; }
# The slurm tests start a private cluster (scripts/slurm-local.sh); without its packages they
# skip, and say so below.
scripts/slurm-local.sh install ||
  echo "test.sh: installing slurm-wlm and munge failed; the slurm tests will be skipped" >&2
MPIGUIDE_WERROR=ON scripts/build.sh openmpi mpich smpi || { echo "test.sh: build failed" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
status=0
total_pass=0
total_fail=0
total_skip=0
skipped=()
for mpi in openmpi mpich smpi; do
  echo "=== tests: $mpi ==="
  log="build/$mpi/ctest.log"
  ctest --test-dir "build/$mpi" --output-on-failure --timeout 900 ${CTEST_ARGS:-} 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$log" | tail -1)
  n=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  f=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$line")
  if [ -z "$line" ]; then status=1; continue; fi
  # ctest counts a skipped test among the passed ones; take them out.
  s=$(grep -cE '^[[:space:]]*[0-9]+ - .* \((Skipped|Disabled)\)$' "$log")
  before=${#skipped[@]}
  while IFS= read -r why; do
    [ -n "$why" ] && skipped+=("$mpi: $why")
  done < <(grep -h '^SKIP: ' "build/$mpi/Testing/Temporary/LastTest.log" 2>/dev/null | sed 's/^SKIP: //')
  if [ "$s" -gt 0 ] && [ "${#skipped[@]}" -eq "$before" ]; then
    skipped+=("$mpi: $s test(s), see $log")
  fi
  total_pass=$((total_pass + n - f - s))
  total_fail=$((total_fail + f))
  total_skip=$((total_skip + s))
done
for why in "${skipped[@]}"; do echo "SKIPPED $why"; done
echo "total: $total_pass passed, $total_fail failed, $total_skip skipped"
exit $status
