#!/bin/sh
# TUW Gatherv/Scatterv against the library's own MPI_Gatherv/MPI_Scatterv: for every problem type
# and b = 1, 10, 100, 1000, 10000, the ratio library/TUW of minimum times from one run, next to
# `mpiguide simulate`'s prediction (direct-to-root over TUW) with alpha and beta fitted on this
# machine by a ping-pong. Open MPI at 8 ranks (oversubscribed on a small machine: a smoke run,
# labelled so) and at 2 ranks, MPICH at 2 ranks. Prints the paper's Table 1-5 layout as well.
#
#   bench/irregular.sh [OPENMPI_BUILD [MPICH_BUILD]]     default build/openmpi, build/mpich
#   NREP=40 WARMUP=5 B_LIST=1,10,100,1000,10000 OMPI_NP=8 bench/irregular.sh
# Each build needs the targets bench_irregular and mpiguide (make bench_irregular mpiguide_cli).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ob=${1:-$top/build/openmpi}
mb=${2:-$top/build/mpich}
nrep=${NREP:-40}
warmup=${WARMUP:-5}
blist=${B_LIST:-1,10,100,1000,10000}
ompi_np=${OMPI_NP:-8}
cores=$(nproc 2>/dev/null || echo 1)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run LABEL BUILD LAUNCHER NP [launcher options...]
run() {
    label=$1 build=$2 launcher=$3 np=$4
    shift 4
    if [ ! -x "$build/bin/bench_irregular" ]; then
        echo "== $label: skipped ($build/bin/bench_irregular not built)"
        return 0
    fi
    sim=${MPIGUIDE:-$build/bin/mpiguide}
    log=$out/run.txt
    timeout 1800 "$launcher" "$@" -n "$np" "$build/bin/bench_irregular" --fit --nrep="$nrep" \
        --warmup="$warmup" --b-list="$blist" --label="$label" >"$log"
    alpha=$(awk '/^FIT/ { sub("alpha=", "", $2); print $2 }' "$log")
    beta=$(awk '/^FIT/ { sub("beta=", "", $3); print $3 }' "$log")
    echo "== $label: p=$np, fitted alpha=$alpha s, beta=$beta s/byte (ping-pong, ranks 0-1)"
    grep -v '^RATIO\|^FIT' "$log"
    printf '%-9s %-12s %6s %10s %10s %8s %8s %10s %10s\n' coll problem b lib_min_us tuw_min_us \
        lib/tuw model tuw_model direct_mod
    grep '^RATIO' "$log" | while read -r _ coll problem b lib tuw _ _ _; do
        lib=${lib#lib_min=}
        tuw=${tuw#tuw_min=}
        pred=$("$sim" simulate --problem="$problem" --p="$np" --b="$b" --alpha="$alpha" \
            --beta="$beta" 2>/dev/null | awk '$1 == "tuw" { t = $6 } $1 == "direct" { d = $6 }
                END { if (t > 0) printf "%.3f %.2f %.2f", d / t, t, d; else print "- - -" }')
        set -- $pred
        awk -v c="$coll" -v pr="$problem" -v b="$b" -v l="$lib" -v t="$tuw" -v m="$1" \
            -v tm="$2" -v dm="$3" 'BEGIN { printf "%-9s %-12s %6s %10.2f %10.2f %8.3f %8s %10s %10s\n",
                c, pr, b, l, t, (t > 0 ? l / t : 0), m, tm, dm }'
    done
    echo
}

echo "bench/irregular.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $cores cores; nrep=$nrep"
echo "lib/tuw > 1: TUW faster. model: simulate's direct/tuw for the same p with the fitted"
echo "alpha/beta (both libraries use a linear Gatherv/Scatterv at these p)."
echo
smoke=""
[ "$ompi_np" -gt "$cores" ] && smoke=" (oversubscribed on $cores cores: SMOKE RUN, times are not meaningful)"
run "Open MPI, $ompi_np ranks$smoke" "$ob" mpirun.openmpi "$ompi_np" --oversubscribe
run "Open MPI, 2 ranks" "$ob" mpirun.openmpi 2 --oversubscribe
run "MPICH, 2 ranks" "$mb" mpirun.mpich 2
