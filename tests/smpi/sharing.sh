#!/bin/bash
# An application linked with the shared libmpiguide-smpi.so: SMPI copies the program per rank,
# not the library, so all ranks would share one copy of libmpiguide's state. libmpiguide must
# notice (one error line naming the fix) and pass everything through, the application staying
# correct; with the library privatised (--cfg=smpi/privatize-libs:ABSOLUTE_PATH) it works: the
# record is written.
# usage: sharing.sh SRC APP_SHARED LIB WORK
SRC=$1 APP=$2 LIB=$3 WORK=$4
. "$SRC/tests/smpi/common.sh"
MPIGUIDE_RECORD=$WORK/shared.rec timeout 120 $LAUNCH -np 8 "$APP" 5 >shared.log 2>&1 ||
    fail "shared run exited with $?"
grep -q "chain_app: 5 passed, 0 failed" shared.log || fail "shared run was wrong"
[ "$(grep -c 'mpiguide: error:' shared.log)" -eq 1 ] || fail "not one error line"
grep -q "mpiguide: error: libmpiguide: 8 ranks share one copy of its state: .*privatize-libs" shared.log ||
    fail "no error about the shared state"
[ ! -e shared.rec ] || fail "a record was written from the shared state"
MPIGUIDE_RECORD=$WORK/private.rec timeout 120 $LAUNCH -np 8 --cfg=smpi/privatize-libs:"$LIB" \
    "$APP" 5 >private.log 2>&1 || fail "privatised run exited with $?"
grep -q "chain_app: 5 passed, 0 failed" private.log || fail "privatised run was wrong"
! grep -q 'mpiguide: error' private.log || fail "privatised run: an error"
grep -q '^MPI_Gather p=8 nodes=1 ppn=8 ' private.rec || fail "privatised run: no record row"
echo "shared: detected and passed through; privatised: recorded"
echo "1 passed, 0 failed"
