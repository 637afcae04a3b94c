#!/usr/bin/env bash
# A profile entry the guard switched off hands its later calls to the wrapper's fast path: on the
# test variant of the library (MPIGUIDE_TEST_SLOW_ALG makes the entry's algorithm 200 us
# slower), the entry of COLL goes off after call A of the CALLS the application makes of it, on
# every rank, and from the call after the first default that follows, every call of that size is
# a repeat of the memo (the report's `test memo_hits`, counted only on the fast path): at least
# CALLS - A - 2 of them. Before, each such call went through the general path and the guard's
# lookup (585 instructions of libmpiguide against 34). A launch in which the guard could not
# decide (state undecided: the samples too disturbed on a busy machine), or decided only after
# half the calls, proves too little and is repeated, up to 3 launches; none deciding is a failure.
#   usage: guard_off_fast.sh MPIEXEC LIBMPIGUIDE_TESTALGS PROFILE_DIR COLL ALG CALLS APP [ARG...]
set -u
mpiexec=$1 lib=$2 profiles=$3 coll=$4 alg=$5 calls=$6 app=$7
shift 7
norand=()
setarch -R true 2>/dev/null && norand=(setarch -R) # the cache is direct-mapped on handle bits
for try in 1 2 3; do
    out=$(timeout 240 "$mpiexec" -n 2 "${norand[@]}" env LD_PRELOAD="$lib" MPIGUIDE_REPORT=1 \
        MPIGUIDE_PROFILES="$profiles" MPIGUIDE_TEST_SLOW_ALG="$alg" "$app" "$@" 2>&1)
    rc=$?
    echo "$out" | grep -v '^#@pgmpi'
    [ $rc -eq 0 ] || { echo "FAIL: the run exited with $rc"; exit 1; }
    grep -Eq "(guard_app|nb_guard_app): [0-9]* passed, 0 failed" <<<"$out" ||
        { echo "FAIL: wrong results"; exit 1; }
    line=$(grep "^#@mpiguide guard $coll p=2 msize=1024 alg=$alg " <<<"$out")
    [ -n "$line" ] || { echo "FAIL: no guard line for the entry"; exit 1; }
    if [[ $line == *" state=undecided "* ]]; then
        echo "launch $try: the guard left the entry undecided; again"
        continue
    fi
    at=$(sed -n 's/.* state=off off_after=\([0-9]*\) .*/\1/p' <<<"$line")
    [ -n "$at" ] || { echo "FAIL: the slowed entry was not switched off: $line"; exit 1; }
    if [ "$at" -gt $((calls / 2)) ]; then # too few calls left to show the fast path
        echo "launch $try: off only after call $at of $calls; again"
        continue
    fi
    hits=$(sed -n "s/^#@mpiguide test memo_hits $coll \([0-9]*\)\$/\1/p" <<<"$out")
    want=$((calls - at - 2))
    if [ "${hits:-0}" -lt "$want" ]; then
        echo "FAIL: off after call $at of $calls, but only ${hits:-0} of the later calls took the fast path (want >= $want)"
        exit 1
    fi
    echo "PASS: off after call $at of $calls; $hits later calls took the fast path"
    exit 0
done
echo "FAIL: the guard decided in none of 3 launches"
exit 1
