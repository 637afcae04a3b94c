#!/usr/bin/env bash
# Online mode's fast path between timed calls: with every candidate slower
# (MPIGUIDE_TEST_SLOW_ALG=all on the test variant) and the default budget, a cell spends most of
# its calls paused. Those calls must take the wrapper's fast path (a countdown on the memo:
# docs/online.md "What it costs"), yet every rank must count every one of them. guard_app runs CALLS
# rounds on MPI_COMM_WORLD and on a duplicate freed before MPI_Finalize (the countdowns of a freed
# communicator are credited too), with an MPI_Barrier per round (a collective without a size,
# which online mode did not memoise before 2026-12-07); for each cell of its message size and
# each MPI_Barrier cell the report must show:
#   - a racing cell counted every call of the application (calls = CALLS);
#   - the calls neither timed nor taken by the fast path (calls - fast - explored) are at most
#     those that start a countdown or end the race: the first call, one per pause, one per
#     dropped candidate and the decision (without the countdown it is nearly every call);
#   - the ranks agree where the cell decided.
#   usage: online_fast.sh MPIEXEC NP LIBMPIGUIDE_TESTALGS GUARD_APP CALLS
set -u
mpiexec=$1 np=$2 lib=$3 app=$4 calls=$5
out=$(timeout 240 "$mpiexec" -n "$np" env LD_PRELOAD="$lib" MPIGUIDE_ONLINE=1 MPIGUIDE_REPORT=1 \
    MPIGUIDE_TEST_SLOW_ALG=all "$app" --calls="$calls" --dup --barrier 2>&1)
rc=$?
echo "$out" | grep -v '^#@pgmpi'
[ $rc -eq 0 ] || { echo "FAIL: the run exited with $rc"; exit 1; }
grep -q "guard_app: [0-9]* passed, 0 failed" <<<"$out" || { echo "FAIL: wrong results"; exit 1; }
awk -v calls="$calls" '
    /^#@mpiguide online / && $3 != "all" && (/ msize=1024 / || $3 == "MPI_Barrier") {
        for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        cells++
        if (v["fast"] == "") { print "FAIL: no fast= field: " $0; bad = 1; next }
        if (v["state"] == "racing" && v["calls"] != calls) {
            print "FAIL: a racing cell counted " v["calls"] " of " calls " calls: " $0; bad = 1
        }
        slow = v["calls"] - v["fast"] - v["explored"]
        most = 2 + v["paused"] + v["dropped"]
        if (slow > most) {
            print "FAIL: " slow " untimed calls took the general path (at most " most "): " $0; bad = 1
        }
        if (v["paused"] > 0 && v["fast"] == 0) { print "FAIL: paused, yet no fast call: " $0; bad = 1 }
        if (v["ranks_agree"] == "no") { print "FAIL: ranks disagree: " $0; bad = 1 }
        fast += v["fast"]; paused += v["paused"]
    }
    END {
        if (cells < 3) { print "FAIL: " cells + 0 " online cells, expected 3 (MPI_Allreduce and MPI_Bcast at 1024 bytes, MPI_Barrier)"; bad = 1 }
        else if (!paused) { print "FAIL: no cell paused (the test needs paused cells)"; bad = 1 }
        if (!bad) print "OK: " cells " cells, " paused " pauses, " fast " calls on the fast path, every call counted"
        exit bad
    }' <<<"$out"
