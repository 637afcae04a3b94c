#!/usr/bin/env bash
# Online mode on a simulated cluster (SMPI; docs/online.md "At scale"): bench/online_sim.c built
# with smpicc and linked with libmpiguide-smpi.a, run once untuned and twice with
# MPIGUIDE_ONLINE=1 (simulated time is deterministic: the two online runs must decide alike).
# Prints per (collective, size) the simulated time per call untuned and online, online mode's
# decision in each run and whether they are identical (state, winner, the call of the decision,
# calls explored and run by a candidate; SMPI's injection of host computation is off, so that
# the simulated times are the collectives' alone and repeat exactly), and with OFFLINE=DIR (the profiles
# directory of an offline tune, e.g. `MPI=smpi scripts/quickstart.sh`'s out/quick-smpi-np256/
# profiles) the offline tune's validated entry of that size. Then the whole run's simulated
# collective time online / untuned, over the loops where online mode committed nothing (all its
# cost there is exploring: the 2 % goal of docs/online.md) and over every loop. Ratios and
# decisions, never assertions (the smpi test smpi.online asserts a small case).
#   usage: bench/online_sim.sh [BUILD_DIR] [NP] [PLATFORM] [CALLS] [COLLECTIVES]
#          (default build/smpi, 256, examples/platforms/cluster-16x16.xml, 2000, all six)
#   SELECTOR=ompi|mpich (default ompi); WORK=DIR (default a new directory under /tmp);
#   UNTUNED=0: no untuned run (its times and the ratios are then "-"); COLLECTIVES entries
#   NAME:BYTES run that size only (e.g. MPI_Allgather:64,MPI_Gather);
#   BUDGET=share (MPIGUIDE_ONLINE_BUDGET, default 0.1: the simulated loops last milliseconds of
#   simulated time, and at the default 0.01 a cell affords one probe per few thousand calls)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build/smpi}" && pwd)
np=${2:-256}
platform=$(realpath "${3:-examples/platforms/cluster-16x16.xml}")
calls=${4:-2000}
colls=${5:-}
archive=$build/lib/libmpiguide-smpi.a
[ -f "$archive" ] || { echo "online_sim.sh: no $archive (scripts/build.sh smpi)" >&2; exit 2; }
work=${WORK:-$(mktemp -d /tmp/online_sim.XXXXXX)}
mkdir -p "$work"
smpicc -O2 -o "$work/online_sim" bench/online_sim.c \
    -Wl,--whole-archive "$archive" -Wl,--no-whole-archive -lm
scripts/smpi-hostfile.sh "$platform" >"$work/hosts"
run() { # run NAME [VAR=VALUE...]: one launch, its output in WORK/NAME.out
    local name=$1
    shift
    (cd "$work" && env "$@" timeout 3600 smpirun -np "$np" -platform "$platform" \
        -hostfile "$work/hosts" --cfg=smpi/coll-selector:"${SELECTOR:-ompi}" \
        --cfg=smpi/simulate-computation:no --log=root.thres:warning "$work/online_sim" "$calls" $colls >"$name.out" 2>&1) ||
        { echo "online_sim.sh: $name failed ($work/$name.out)" >&2; exit 1; }
    grep -q "^online_sim: $np ranks, correct" "$work/$name.out" ||
        { echo "online_sim.sh: $name: wrong results ($work/$name.out)" >&2; exit 1; }
}
t0=$(date +%s)
[ "${UNTUNED:-1}" = 1 ] && run default
t1=$(date +%s)
for i in 1 2; do
    run "online-$i" MPIGUIDE_ONLINE=1 MPIGUIDE_ONLINE_BUDGET="${BUDGET:-0.1}" \
        MPIGUIDE_REPORT="$work/online-$i.report" \
        MPIGUIDE_PROFILES_OUT="$work/learned-$i"
done
t2=$(date +%s)
# UNTUNED=0: no untuned run (at 256 ranks each run takes many minutes): its times are "-"
[ "${UNTUNED:-1}" = 1 ] ||
    awk '$1 == "online_sim" && $2 ~ /^MPI_/ { print $1, $2, $3, "-" }' "$work/online-1.out" >"$work/default.out"
# the decision of (collective, size) in a report: state winner after explored candidate_calls
# (with speedup and ci95 when FIGURES=1)
decision() {
    awk -v c="$2" -v s="$3" -v fig="${4:-0}" '$1 == "#@mpiguide" && $2 == "online" && $3 == c {
        for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        if (v["msize"] != s) next
        printf "%s %s after=%s explored=%s cand=%s", v["state"], v["winner"], v["after"], v["explored"], v["candidate_calls"]
        if (fig) printf " %.3gx %s", v["speedup"], v["ci95"]
        printf "\n"
    }' "$1" | head -1
}
echo "Online mode on $(basename "$platform"), $np ranks, selector ${SELECTOR:-ompi}, $calls calls per (collective, size), budget ${BUDGET:-0.1}"
echo "(wall: untuned $((t1 - t0)) s, two online runs $((t2 - t1)) s; load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-14s %5s %11s %11s %7s %-9s  %-75s %s\n' collective bytes untuned_s online_s on/unt identical \
    "online decision (run 1: state winner after explored candidate_calls speed-up ci95)" offline
same_all=1
while read -r _ c s tdef; do
    ton=$(awk -v c="$c" -v s="$s" '$1 == "online_sim" && $2 == c && $3 == s { print $4 }' "$work/online-1.out")
    d1=$(decision "$work/online-1.report" "$c" "$s")
    d2=$(decision "$work/online-2.report" "$c" "$s")
    fig=$(decision "$work/online-1.report" "$c" "$s" 1)
    same=yes
    [ "$d1" = "$d2" ] || same=no same_all=0
    off=-
    prf=${OFFLINE:-}/${c}_p$np.prf
    if [ -n "${OFFLINE:-}" ] && [ -f "$prf" ]; then
        off=$(awk -v s="$s" -F'[= ]' '/^#@validated=/ && $2 == s { print $3, $4 "=" $5 }' "$prf" | head -1)
        off=${off:-default}
    fi
    awk -v c="$c" -v s="$s" -v d="$tdef" -v o="$ton" -v same="$same" -v dec="$fig" -v off="$off" 'BEGIN {
        if (d == "-") printf "%-14s %5d %11s %11.4g %7s %-9s  %-75s %s\n", c, s, "-", o, "-", same, dec, off
        else printf "%-14s %5d %11.4g %11.4g %7.3f %-9s  %-75s %s\n", c, s, d, o, o / d, same, dec, off }'
done < <(grep '^online_sim MPI_' "$work/default.out")
# the whole run: every (collective, size) loop has CALLS calls, so the sum of the per-call times
# is the run's collective time; over the loops where online mode committed nothing (its whole
# cost there is exploring) and over all of them
[ "${UNTUNED:-1}" = 1 ] && paste <(grep '^online_sim MPI_' "$work/default.out") <(grep '^online_sim MPI_' "$work/online-1.out") |
    while read -r _ c s tdef _ _ _ ton; do
        st=$(decision "$work/online-1.report" "$c" "$s" | cut -d' ' -f1)
        echo "$c $s $tdef $ton ${st:-none}"
    done | awk '{ d += $3; o += $4 } $5 != "committed" { nd += $3; no += $4; n++ }
        END {
            if (n) printf "whole run, the %d loops where online committed nothing: online / untuned %.4f (%.6g s against %.6g s simulated)\n", n, no / nd, no * '"$calls"', nd * '"$calls"'
            printf "whole run, every loop: online / untuned %.4f\n", o / d
        }'
echo "decisions identical in the two online runs: $([ $same_all = 1 ] && echo yes || echo NO)"
echo "work directory: $work"
