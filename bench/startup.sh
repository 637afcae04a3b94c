#!/usr/bin/env bash
# What libmpiguide adds to a launch's MPI_Init and MPI_Finalize: bench/startup.c launched
# LAUNCHES times per arm, the arms interleaved launch by launch: bare (no libmpiguide),
# preloaded without settings, preloaded with MPIGUIDE_ONLINE=1. Prints per arm the medians of
# rank 0's MPI_Init and MPI_Finalize seconds and each arm's ratio to bare. Ratios measured side
# by side, never assertions (docs/interception.md, "What libmpiguide costs at start-up").
#   usage: bench/startup.sh [BUILD_DIR] [LAUNCHES] [NP]   (default build/openmpi, 9, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/apps.sh # median
build=$(cd "${1:-build/openmpi}" && pwd)
launches=${2:-9}
np=${3:-2}
lib=$build/lib/libmpiguide.so
[ -f "$lib" ] || { echo "startup.sh: no build in $build" >&2; exit 2; }
mpicc=$(sed -n 's/^MPI_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
launcher=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HYDRA_LAUNCHER=fork
work=$(mktemp -d /tmp/startup_bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$mpicc" -O2 -o "$work/startup" bench/startup.c
arms="bare preload online"
for i in $(seq 1 "$launches"); do
    for arm in $arms; do
        case $arm in
        bare) env=() ;;
        preload) env=(LD_PRELOAD="$lib") ;;
        online) env=(LD_PRELOAD="$lib" MPIGUIDE_ONLINE=1) ;;
        esac
        timeout 120 $launcher -np "$np" env "${env[@]}" "$work/startup" |
            awk '$1 == "startup" { print $3, $5 }' >>"$work/$arm"
    done
done
echo "MPI_Init and MPI_Finalize of rank 0, $np ranks, $("$build/bin/mpiguide" --version | head -1)"
echo "medians of $launches launches per arm, interleaved; ratio: arm / bare"
printf '%-8s %10s %10s %10s %10s\n' arm init_s finalize_s init/bare fin/bare
bi=$(awk '{ print $1 }' "$work/bare" | median)
bf=$(awk '{ print $2 }' "$work/bare" | median)
for arm in $arms; do
    i=$(awk '{ print $1 }' "$work/$arm" | median)
    f=$(awk '{ print $2 }' "$work/$arm" | median)
    awk -v a="$arm" -v i="$i" -v f="$f" -v bi="$bi" -v bf="$bf" \
        'BEGIN { printf "%-8s %10.4f %10.4f %10.3f %10.3f\n", a, i, f, i / bi, f / bf }'
done
