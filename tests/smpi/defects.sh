#!/bin/bash
# The known SMPI defects (src/defects/known.txt, family smpi): each reproducer, built with
# smpicc, fails as written under the Open MPI selector at 4 ranks (a crash or WRONG), and the same
# program linked with libmpiguide-smpi.a and run with MPIGUIDE_REPAIR=1 is correct, its report
# counting the calls as known_defect and repaired by the entry's first repair.
# usage: defects.sh SRC WORK NAME PLAIN REPAIRED COLLECTIVE REPAIR [NAME PLAIN ...]
SRC=$1 WORK=$2
shift 2
. "$SRC/tests/smpi/common.sh"
L="$LAUNCH -np 4 --cfg=smpi/coll-selector:ompi"
n=0
while [ $# -ge 5 ]; do
    name=$1 plain=$2 repaired=$3 coll=$4 alg=$5
    shift 5
    timeout 120 $L "$plain" >"$name.asis.log" 2>&1
    rc=$?
    grep -q '^correct' "$name.asis.log" && fail "$name: correct as written (rc $rc)"
    [ $rc -ne 0 ] || fail "$name: exit 0 as written"
    MPIGUIDE_REPAIR=1 MPIGUIDE_REPORT=1 timeout 120 $L "$repaired" >"$name.repaired.log" 2>&1 ||
        fail "$name: repaired run exited with $?"
    grep -q '^correct (0 wrong elements)' "$name.repaired.log" || fail "$name: repaired run not correct"
    grep -Eq "^#@mpiguide calls MPI_$coll total=[0-9]+ .* known_defect=[1-9][0-9]* repaired=[1-9]" \
        "$name.repaired.log" || fail "$name: the report counts no repaired call"
    grep -q "^#@pgmpi alg MPI_$coll [0-9]* $alg$" "$name.repaired.log" || fail "$name: not repaired by $alg"
    ! grep -q 'mpiguide: \(error\|warning\)' "$name.repaired.log" || fail "$name: diagnostics"
    echo "$name: fails as written (exit $rc), correct repaired by $alg"
    n=$((n + 1))
done
[ $n -eq 2 ] || fail "$n defects tested, expected the 2 of family smpi"
echo "1 passed, 0 failed"
