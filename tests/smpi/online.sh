#!/bin/bash
# Online mode at scale, small: bench/online_sim.c (linked with libmpiguide-smpi.a) at 64 ranks of
# the small platform under SMPI's Open MPI selector, MPI_Gather and MPI_Scatter of 8 and 64 B per
# rank, the root moving with the call, run twice with MPIGUIDE_ONLINE=1, 1,200 calls each (budget
# 0.1: a simulated loop lasts milliseconds). The Open MPI selector's binomial MPI_Gather and
# MPI_Scatter make these loops slower than their v-variants (the loop gains 12.4x and 1.24x at 8 B
# from gather_as_gatherv and scatter_as_scatterv alone; docs/online.md "Pairs inside a pipelined
# loop"), so each of the four cells must commit a candidate (they do after calls 72-235), on every
# rank after the same call, the results must be correct, and as simulated time is deterministic
# (SMPI's injection of host computation off), the two runs must decide the same (state, winner,
# call of the decision, calls explored and run by a candidate). The Gather cells are the frontier
# time's (model/frontier.h): timed as each call's slowest rank they ended on the default.
# usage: online.sh SRC APP WORK
SRC=$1 APP=$2 WORK=$3
. "$SRC/tests/smpi/common.sh"
L="$LAUNCH -np 64 --cfg=smpi/coll-selector:ompi --cfg=smpi/simulate-computation:no"
decisions() {
    awk '$1 == "#@mpiguide" && $2 == "online" && ($3 == "MPI_Gather" || $3 == "MPI_Scatter") {
        for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        print $3, v["msize"], v["state"], v["winner"], v["after"], v["explored"], v["candidate_calls"], v["ranks_agree"]
    }' "$1"
}
for i in 1 2; do
    MPIGUIDE_ONLINE=1 MPIGUIDE_ONLINE_BUDGET=0.1 MPIGUIDE_REPORT=$WORK/report-$i.txt \
        timeout 300 $L "$APP" 1200 MPI_Gather,MPI_Scatter >run-$i.log 2>&1 || fail "online run $i: $?"
    grep -q "^online_sim: 64 ranks, correct" run-$i.log || fail "online run $i: wrong results"
    decisions report-$i.txt >decided-$i.txt
done
[ "$(wc -l <decided-1.txt)" -eq 4 ] || fail "not four cells: $(cat decided-1.txt)"
while read -r coll msize state winner after _ _ agree; do
    [ "$state" = committed ] && [ "$winner" != - ] || fail "$coll $msize B: $state $winner"
    [ "$agree" = yes ] || fail "$coll $msize B: ranks_agree=$agree"
done <decided-1.txt
cmp -s decided-1.txt decided-2.txt ||
    fail "the two runs decided differently: $(paste -d'|' decided-1.txt decided-2.txt)"
echo "decided (collective msize state winner after explored candidate_calls ranks_agree):"
cat decided-1.txt
echo "1 passed, 0 failed"
