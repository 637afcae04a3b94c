#!/bin/bash
# scripts/smpi-hostfile.sh: block placement of NODES x PPN ranks on the small platform, and the
# node and rank-per-node counts mpiguide derives from it (MPI_COMM_TYPE_SHARED groups the ranks
# of a simulated host) in the raw header and in a record; its refusals.
# usage: layout.sh SRC BIN APP WORK
SRC=$1 BIN=$2 APP=$3 WORK=$4
. "$SRC/tests/smpi/common.sh"
gen="$SRC/scripts/smpi-hostfile.sh"
[ "$(wc -l <hosts)" -eq 64 ] || fail "the whole platform is not 64 ranks"
[ "$(uniq -c hosts | awk '{print $1}' | sort -u)" = 8 ] || fail "not 8 ranks per node"
"$gen" "$PLATFORM" 3 2 >h32 || fail "3 x 2"
printf 'node-0\nnode-0\nnode-1\nnode-1\nnode-2\nnode-2\n' | cmp -s - h32 || fail "3 x 2 is not block placement: $(cat h32)"
for bad in "9 1|has 8 nodes, not 9" "0 1|NODES '0'" "2 x|PPN 'x'"; do
    args=${bad%%|*} msg=${bad#*|}
    "$gen" "$PLATFORM" $args >/dev/null 2>err.txt && fail "$args accepted"
    grep -q "$msg" err.txt || fail "$args: $(cat err.txt)"
done
"$gen" /nonexistent 2>err.txt && fail "a missing platform accepted"
# 6 ranks on 3 nodes: #@nodes=3, #@ppn=2 in the raw header and in a record
timeout 120 smpirun -np 6 -platform "$PLATFORM" -hostfile "$WORK/h32" "$BIN" bench \
    --calls-list=MPI_Bcast --msizes-list=8 --nrep=2 --output-file=l.dat --quiet >bench.log 2>&1 ||
    fail "bench exited with $?"
for key in '#@nprocs=6' '#@nodes=3' '#@ppn=2' '#@hostname=node-0'; do
    grep -qx -- "$key" l.dat || fail "raw header lacks $key"
done
MPIGUIDE_RECORD=$WORK/rec.txt timeout 120 smpirun -np 6 -platform "$PLATFORM" -hostfile "$WORK/h32" \
    "$APP" 2 >app.log 2>&1 || fail "the application exited with $?"
grep -q '^#@nodes=3$' rec.txt && grep -q '^#@ppn=2$' rec.txt || fail "record: $(grep '^#@' rec.txt)"
grep -q '^MPI_Gather p=6 nodes=3 ppn=2 ' rec.txt || fail "record row: $(grep '^MPI_' rec.txt)"
echo "layouts 8 x 8 and 3 x 2 come out as written"
echo "1 passed, 0 failed"
