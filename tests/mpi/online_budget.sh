#!/usr/bin/env bash
# Online mode when every candidate is slower than the default (MPIGUIDE_TEST_SLOW_ALG=all on the
# test variant of the library makes each 200 us slower): guard_app runs correct, no cell commits a
# candidate, and every cell's exploring cost (the report's cost_s) stays within its budget
# (budget_s) plus what one window cost beyond the allowance it was planned within (over_s: a
# descheduled call, a probe far slower than projected; the rule pauses the cell until its share
# covers that), as does the run's (run_cost_s within share x run_s); the cells raced at all.
# TOLERANCE_S (seconds, default 0) is added to each budget: under tests/mpi/under_load.sh one
# descheduled candidate call can cost more than any probe could be projected to.
# The report prints 4 significant digits, so each comparison allows the printing's rounding
# (0.1 %): a cost equal to its budget plus overrun once read 0.001492 against 0.0002657 + 0.001226.
#   usage: online_budget.sh MPIEXEC NP LIBMPIGUIDE_TESTALGS GUARD_APP CALLS BUDGET
set -u
mpiexec=$1 np=$2 lib=$3 app=$4 calls=$5 budget=$6
tol=${TOLERANCE_S:-0}
out=$(timeout 240 "$mpiexec" -n "$np" env LD_PRELOAD="$lib" MPIGUIDE_ONLINE=1 \
    MPIGUIDE_ONLINE_BUDGET="$budget" MPIGUIDE_REPORT=1 MPIGUIDE_TEST_SLOW_ALG=all \
    "$app" --calls="$calls" 2>&1)
rc=$?
echo "$out" | grep -v '^#@pgmpi'
[ $rc -eq 0 ] || { echo "FAIL: the run exited with $rc"; exit 1; }
grep -q "guard_app: [0-9]* passed, 0 failed" <<<"$out" || { echo "FAIL: wrong results"; exit 1; }
awk -v tol="$tol" -v rnd=1.001 '
    /^#@mpiguide online / {
        for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        if ($3 == "all") {
            if (v["run_cost_s"] > v["share"] * v["run_s"] * rnd + tol) {
                print "FAIL: the run spent " v["run_cost_s"] " s, over " v["share"] " of " v["run_s"] " s"
                bad = 1
            }
            next
        }
        if (v["state"] == "committed") { print "FAIL: committed: " $0; bad = 1 }
        if (v["cost_s"] > (v["budget_s"] + v["over_s"]) * rnd + tol) { print "FAIL: over its budget: " $0; bad = 1 }
        raced += v["candidate_calls"] > 0
        cells++
    }
    END {
        if (!cells) { print "FAIL: no online lines in the report"; bad = 1 }
        else if (!raced) { print "FAIL: no cell raced a candidate"; bad = 1 }
        if (!bad) print "OK: " cells " cells, " raced " raced, none committed, every cost within its budget (+ over_s)"
        exit bad
    }' <<<"$out"
