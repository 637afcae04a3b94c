#!/usr/bin/env bash
# The guard's cost on the calls it does not sample (at most 1.02x the direct
# call): bench/guard_overhead.c at p = 2, intercepted tuned calls of a profile entry against the
# same mock-up called directly, interleaved in one run; with the guard (its default) and, as the
# reference, with MPIGUIDE_GUARD=0. The report line of the guarded run shows the entry confirmed
# and how few calls were sampled. Ratios, never assertions; run it alone on a shared machine.
# Usage: bench/guard_overhead.sh [BUILD_DIR...] [-- BLOCKS]
#   (default build/openmpi build/mpich, each if it exists; BLOCKS 400). Needs the test variant
#   (libmpiguide-testalgs, built by default with the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
builds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do builds+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
blocks=${1:-400}
if [ ${#builds[@]} -eq 0 ]; then
  for b in build/openmpi build/mpich; do [ -d "$b" ] && builds+=("$b"); done
fi
[ ${#builds[@]} -gt 0 ] || { echo "guard_overhead.sh: no build directory (run scripts/build.sh)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/profiles"
printf 'MPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n1\n0 9223372036854775807 1\n' \
  >"$tmp/profiles/MPI_Allreduce_p2.prf"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HYDRA_LAUNCHER=fork
for build in "${builds[@]}"; do
  cmake --build "$build" --target mpiguide_testalgs >/dev/null
  mpicc=$(sed -n 's/^MPI_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
  launcher=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
  libdir=$(cd "$build/lib" && pwd)
  "$mpicc" -O2 -Iinclude -o "$tmp/guard_overhead" bench/guard_overhead.c -L"$libdir" \
    -lmpiguide-testalgs -Wl,-rpath,"$libdir"
  echo "=== $build ($(basename "$launcher")) ==="
  for guard in 1 0; do
    echo "--- MPIGUIDE_GUARD=$guard"
    timeout 600 "$launcher" -n 2 env MPIGUIDE_PROFILES="$tmp/profiles" MPIGUIDE_GUARD=$guard \
      MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Allreduce MPIGUIDE_REPORT="$tmp/report.txt" \
      "$tmp/guard_overhead" "$blocks"
    grep -E "^#@mpiguide (guard|calls MPI_Allreduce)" "$tmp/report.txt" | cut -c1-150 || true
  done
done
echo "machine load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
