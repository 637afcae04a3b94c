#!/usr/bin/env bash
# Issue 27, "what it missed" 4: MPICH's MPI_Gather with a profile whose one range selects the
# default ran at 0.950-0.960 of the untuned library in an application's launches. Is the
# profile's default path slower, or was that noise? Per launch and size, bench/gather_default.c
# times MPI_Gather and PMPI_Gather in ABBA blocks within one run, under three configurations
# whose launches alternate: `profile` (libmpiguide preloaded, a profile selecting `default` for
# every size: the path in question), `preload` (preloaded, no profile: the wrapper's compare
# and jump) and `none` (nothing preloaded: both calls are the library's, the machine's noise).
# Prints every launch's ratio direct / intercepted (below 1: the intercepted call slower) side
# by side, then per configuration and size the median and range over the launches.
# Usage: bench/gather_default.sh [BUILD_DIR] [LAUNCHES] [NP]  (default build/mpich, 5, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/mpich}
launches=${2:-5}
np=${3:-2}
sizes="16384 32768 65536 524288"
[ -d "$build" ] || { echo "gather_default.sh: no build in $build (scripts/build.sh)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/profiles"
printf '#@datatype=MPI_BYTE\nMPI_Gather\n%d\n1\n1 default\n1\n0 9223372036854775807 1\n' "$np" \
    >"$tmp/profiles/MPI_Gather_p$np.prf"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export HYDRA_LAUNCHER=fork
cmake --build "$build" --target mpiguide >/dev/null
mpicc=$(sed -n 's/^MPI_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
launcher=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
lib=$(cd "$build/lib" && pwd)/libmpiguide.so
"$mpicc" -O2 -o "$tmp/gather_default" bench/gather_default.c
# the profile's path really runs: every call covered, the default selected
timeout 120 "$launcher" -n "$np" env LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$tmp/profiles" \
    MPIGUIDE_REPORT="$tmp/report.txt" MPIGUIDE_RECORD="$tmp/record.txt" "$tmp/gather_default" 2 5 16384 >/dev/null
grep "^#@mpiguide coverage MPI_Gather p=$np " "$tmp/report.txt" | cut -c1-120
run() { # run CONFIG LAUNCH
    case $1 in
        profile) set -- env LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$tmp/profiles" ;;
        preload) set -- env LD_PRELOAD="$lib" ;;
        none) set -- env ;;
    esac
    timeout 600 "$launcher" -n "$np" "$@" "$tmp/gather_default" 40 50 $sizes
}
configs="profile preload none"
for l in $(seq 1 "$launches"); do
    for c in $configs; do
        run "$c" | awk -v c="$c" -v l="$l" '{ print c, l, $0 }' >>"$tmp/all.txt"
    done
done
echo "$($mpicc -show | awk '{print $1}'), $np ranks, $launches launches per configuration, alternating"
echo "ratio direct/intercepted per launch (median of 40 ABBA blocks of 50 calls each):"
printf '%-8s %8s' config size
for l in $(seq 1 "$launches"); do printf ' %7s' "L$l"; done
printf ' %8s %8s %8s\n' median min max
for c in $configs; do
    for m in $sizes; do
        awk -v c="$c" -v m="$m" '$1 == c && $3 == m { print $6 }' "$tmp/all.txt" >"$tmp/r.txt"
        printf '%-8s %8s' "$c" "$m"
        while read -r r; do printf ' %7.3f' "$r"; done <"$tmp/r.txt"
        sort -g "$tmp/r.txt" | awk '{ v[NR] = $1 } END {
            med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf " %8.3f %8.3f %8.3f\n", med, v[1], v[NR] }'
    done
done
echo "machine load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
