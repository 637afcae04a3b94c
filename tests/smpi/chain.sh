#!/bin/bash
# The whole chain under smpirun for an application built with smpicc (tests/smpi/chain_app.c,
# linked with libmpiguide-smpi.a): under SMPI's Open MPI selector at 16 ranks of the small
# platform, MPI_Gather of 1 KiB violates "MPI_Gather <= MPI_Gatherv" (the library's binomial
# tree 3.1 us, the linear Gatherv 1.7 us). Record the application (MPIGUIDE_RECORD), tune for the
# record (plan, one check launch, analysis, one validation launch of the tuned library), and run
# the application tuned: the profile entry must be validated, and the tuned run's report must
# show every MPI_Gather call covered and run by the mock-up, with correct results and the guard
# on.
# usage: chain.sh SRC BIN APP WORK
SRC=$1 BIN=$2 APP=$3 WORK=$4
. "$SRC/tests/smpi/common.sh"
L="$LAUNCH -np 16 --cfg=smpi/coll-selector:ompi"
# 1. record (untuned)
MPIGUIDE_RECORD=$WORK/app.rec timeout 120 $L "$APP" 20 >record.log 2>&1 || fail "recording run: $?"
grep -q "chain_app: 20 passed, 0 failed" record.log || fail "recording run was wrong"
grep -q '^MPI_Gather p=16 nodes=2 ppn=8 datatype=MPI_INT esize=4 .* sizes=1024:20:' app.rec ||
    fail "the record has no MPI_Gather row of 1 KiB"
# 2. tune for the record: plan, check, analysis, validation
timeout 900 "$BIN" tune --launcher "$L" --for app.rec -o out --launches 1 --validate-launches 1 \
    --nrep 10 --exit-code >tune.log 2>&1
rc=$?
[ $rc -eq 3 ] || fail "tune exit code $rc, expected 3 (a violation)"
grep -q '^MPI_Gather --comm-sizes=16 --datatype=MPI_INT --msizes-list=1024 ' out/plan.txt ||
    fail "plan: $(cat out/plan.txt)"
prf=out/profiles/MPI_Gather_p16.prf
[ -f "$prf" ] || fail "no profile $prf"
grep -q '^1 gather_as_gatherv$' "$prf" || fail "the profile does not select gather_as_gatherv"
grep -Eq '^#@validated=1024 gather_as_gatherv speedup=1\.[5-9]' "$prf" ||
    fail "the entry was not validated at 1.5x or more: $(grep validated "$prf")"
grep -q '^#@mpi_library=SMPI Version' "$prf" || fail "the profile does not name SMPI"
# 3. the tuned application: every call covered by the entry, run by the mock-up
MPIGUIDE_PROFILES=$WORK/out/profiles MPIGUIDE_REPORT=$WORK/report.txt MPIGUIDE_RECORD=$WORK/tuned.rec \
    timeout 120 $L "$APP" 20 >tuned.log 2>&1 || fail "tuned run: $?"
grep -q "chain_app: 20 passed, 0 failed" tuned.log || fail "tuned run was wrong"
grep -q '^#@pgmpi alg MPI_Gather 1024 gather_as_gatherv$' report.txt || fail "report: $(cat report.txt)"
line=$(grep '^#@mpiguide coverage MPI_Gather p=16 ' report.txt) || fail "no coverage line"
[[ $line == *" calls=20 covered=20 "* ]] || fail "not every call covered: $line"
calls=$(grep '^#@mpiguide calls MPI_Gather ' report.txt)
mock=$(sed -n 's/.* mockup=\([0-9]*\).*/\1/p' <<<"$calls")
[ "${mock:-0}" -gt 0 ] || fail "no call ran the mock-up: $calls"
grep -q '^#@mpiguide guard MPI_Gather p=16 msize=1024 alg=gather_as_gatherv ' report.txt ||
    fail "the guard did not watch the entry"
echo "validated: $(grep '^#@validated' "$prf")"
echo "tuned run: $line"
echo "1 passed, 0 failed"
