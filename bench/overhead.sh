#!/usr/bin/env bash
# Interception overhead: at p = 2, alternating blocks of MPI_Allreduce(1 int) through
# libmpiguide in tuned mode -- a profile of 10,000 ranges for MPI_Allreduce at p = 2, none of
# which holds 4 bytes, so the default runs -- and direct PMPI_Allreduce, in one program run.
# Prints the median of each and the ratio (target: at most 1.02). A ratio, never an assertion.
# The same with MPIGUIDE_REPORT=FILE on (the documentation recommends the finalize report for
# production runs, so it must cost no more). As a control it also runs the same program with
# libmpiguide preloaded but unconfigured (the wrapper is one compare and a jump): its ratio
# shows the noise of the machine. RUNS=N repeats all three (default 1).
# Usage: bench/overhead.sh [BUILD_DIR...] [-- BLOCKS CALLS]
#   (default build/openmpi build/mpich, each if it exists; BLOCKS 400, CALLS 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
builds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do builds+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
blocks=${1:-400}
calls=${2:-2000}
if [ ${#builds[@]} -eq 0 ]; then
  for b in build/openmpi build/mpich; do [ -d "$b" ] && builds+=("$b"); done
fi
[ ${#builds[@]} -gt 0 ] || { echo "overhead.sh: no build directory (run scripts/build.sh)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/profiles"
{
  echo "# 10,000 ranges for MPI_Allreduce at p = 2; 1 MPI_INT (4 bytes) falls in none"
  # measured with the call's datatype and op, as analyze writes them: every call also passes
  # the element-size and op-class match (MPIGUIDE_MATCH)
  echo "#@datatype=MPI_INT"; echo "#@operation=MPI_SUM"
  echo "MPI_Allreduce"; echo 2; echo 1; echo "1 allreduce_as_reduce_bcast"; echo 10000
  for i in $(seq 1 10000); do echo "$((i * 10)) $((i * 10 + 4)) 1"; done
} > "$tmp/profiles/MPI_Allreduce_p2.prf"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export HYDRA_LAUNCHER=fork
for build in "${builds[@]}"; do
  cmake --build "$build" --target mpiguide >/dev/null
  mpicc=$(sed -n 's/^MPI_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
  launcher=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
  lib=$(cd "$build/lib" && pwd)/libmpiguide.so
  "$mpicc" -O2 -o "$tmp/overhead" bench/overhead.c
  echo "=== $build ($("$mpicc" -show | awk '{print $1}') / $(basename "$launcher")) ==="
  # the tuned path really runs: the report counts every call, none ran a mock-up
  timeout 120 "$launcher" -n 2 env LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$tmp/profiles" \
    MPIGUIDE_REPORT=1 "$tmp/overhead" 2 100 2>&1 | grep "calls MPI_Allreduce" | cut -c1-60
  for run in $(seq 1 "${RUNS:-1}"); do
    echo "--- tuned mode (run $run)"
    timeout 600 "$launcher" -n 2 env LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$tmp/profiles" \
      "$tmp/overhead" "$blocks" "$calls"
    echo "--- tuned mode with MPIGUIDE_REPORT (run $run)"
    timeout 600 "$launcher" -n 2 env LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$tmp/profiles" \
      MPIGUIDE_REPORT="$tmp/report.txt" "$tmp/overhead" "$blocks" "$calls" | grep ratio
    echo "--- control: preloaded, unconfigured (run $run)"
    timeout 600 "$launcher" -n 2 env LD_PRELOAD="$lib" "$tmp/overhead" "$blocks" "$calls" |
      grep ratio
  done
done
echo "machine load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
