#!/usr/bin/env bash
# A profile entry the guard switched off hands its later calls to the wrapper's fast path: on the
# test variant of the library (MPIGUIDE_TEST_SLOW_ALG makes the entry's mock-up 200 us slower),
# guard_app's MPI_Allreduce entry goes off after call A of N on every rank, and from the call
# after the first default that follows, every call of that size is a repeat of the memo (the
# report's `test memo_hits`, counted only on the fast path): at least N - A - 2 of them. Before,
# each such call went through the general path and the guard's lookup (about 580 instructions
# of libmpiguide against a few). A launch in which the guard could not decide (state
# undecided: the samples too disturbed on a busy machine) proves nothing and is repeated, up to
# 3 launches; none deciding is a failure.
#   usage: guard_off_fast.sh MPIEXEC LIBMPIGUIDE_TESTALGS GUARD_APP PROFILE_DIR CALLS
set -u
mpiexec=$1 lib=$2 app=$3 profiles=$4 calls=$5
norand=()
setarch -R true 2>/dev/null && norand=(setarch -R) # the cache is direct-mapped on handle bits
for try in 1 2 3; do
    out=$(timeout 240 "$mpiexec" -n 2 "${norand[@]}" env LD_PRELOAD="$lib" MPIGUIDE_REPORT=1 \
        MPIGUIDE_PROFILES="$profiles" MPIGUIDE_TEST_SLOW_ALG=allreduce_as_reduce_bcast \
        MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Bcast "$app" --calls="$calls" 2>&1)
    rc=$?
    echo "$out" | grep -v '^#@pgmpi'
    [ $rc -eq 0 ] || { echo "FAIL: the run exited with $rc"; exit 1; }
    grep -q "guard_app: [0-9]* passed, 0 failed" <<<"$out" || { echo "FAIL: wrong results"; exit 1; }
    line=$(grep '^#@mpiguide guard MPI_Allreduce p=2 msize=1024 alg=allreduce_as_reduce_bcast ' <<<"$out")
    [ -n "$line" ] || { echo "FAIL: no guard line for the entry"; exit 1; }
    if [[ $line == *" state=undecided "* ]]; then
        echo "launch $try: the guard left the entry undecided; again"
        continue
    fi
    at=$(sed -n 's/.* state=off off_after=\([0-9]*\) .*/\1/p' <<<"$line")
    [ -n "$at" ] || { echo "FAIL: the slowed entry was not switched off: $line"; exit 1; }
    hits=$(sed -n 's/^#@mpiguide test memo_hits MPI_Allreduce \([0-9]*\)$/\1/p' <<<"$out")
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
