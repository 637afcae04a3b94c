#!/bin/bash
# `mpiguide selftest` at 64 simulated ranks (8 nodes x 8 cores) under one of SMPI's selectors:
# every mock-up MATCHes the selector's own collectives, on every case or with the cases left
# out where the library's own collective meets a known SMPI defect (src/defects/known.txt);
# and SMPI has no complaint about the calls libmpiguide makes (its warnings would show a
# wrong call, like the error handler restored as NULL that SMPI 3.32 hands out).
# usage: selftest.sh SRC BIN SELECTOR WORK
SRC=$1 BIN=$2 SEL=$3 WORK=$4
. "$SRC/tests/smpi/common.sh"
timeout 300 $LAUNCH -np 64 --cfg=smpi/coll-selector:"$SEL" "$BIN" selftest >selftest.log 2>&1 ||
    fail "selftest exited with $?"
grep -q "mpiguide selftest on 64 ranks" selftest.log || fail "no selftest header"
mockups=$("$BIN" info --csv | grep -c ',mockup,')
match=$(grep -c ' MATCH ' selftest.log)
[ "$match" -eq "$mockups" ] || fail "$match MATCH lines for $mockups mock-ups"
! grep -q MISMATCH selftest.log || fail "a MISMATCH"
! grep -E '/(WARNING|CRITICAL)\]' selftest.log | grep -v 'did not return 0' || fail "SMPI warned"
echo "selftest under $SEL: $match of $mockups mock-ups MATCH; $(grep -c 'left out' selftest.log) with cases left out"
echo "1 passed, 0 failed"
