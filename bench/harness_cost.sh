#!/usr/bin/env bash
# Harness cost of `mpiguide bench`: the observation loop timing an empty operation next to the
# cost of the timer, allocations per observation, and the dispatch cost of the default.
# Usage: bench/harness_cost.sh [BUILD_DIR] [NPROCS] [NREP]   (defaults: build/openmpi 2 20000)
# The build directory must have been configured by CMake (target bench_harness_cost).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/openmpi}
np=${2:-2}
nrep=${3:-20000}
cmake --build "$build" --target bench_harness_cost >/dev/null
launcher=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
timeout 600 "$launcher" -n "$np" "$build/bin/bench_harness_cost" --nrep="$nrep"
