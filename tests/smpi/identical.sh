#!/bin/bash
# Simulated time is deterministic (docs/benchmark.md, "Simulated time (SMPI)"): two identical
# launches of `mpiguide bench` write identical raw data, byte for byte, apart from the line
# documented to differ (#@date). The run covers the default, mock-ups and the tuned path,
# round-time synchronisation with its clock fit, a shuffled order with --seed, interleaving,
# and a sub-communicator. Also: the header states what the simulated time includes.
# usage: identical.sh SRC BIN WORK
SRC=$1 BIN=$2 WORK=$3
. "$SRC/tests/smpi/common.sh"
for k in 1 2; do
    timeout 300 $LAUNCH -np 16 --cfg=smpi/coll-selector:ompi "$BIN" bench \
        --calls-list=MPI_Allreduce,MPI_Gather,MPI_Bcast --msizes-list=8,1024 --nrep=6 \
        --algs=default,tuned,allreduce_as_reduce_bcast,gather_as_gatherv,bcast_as_allgatherv \
        --shuffle --seed=7 --interleave=3 --comm-sizes=16,5 --output-file=run$k.dat --quiet \
        >run$k.log 2>&1 || fail "launch $k exited with $?"
done
grep -q '^MPI_Gather gather_as_gatherv ' run1.dat || fail "no gather_as_gatherv rows"
rows=$(grep -vc '^#' run1.dat)
[ "$rows" -gt 100 ] || fail "only $rows rows"
grep -v '^#@date=' run1.dat >a.txt
grep -v '^#@date=' run2.dat >b.txt
cmp -s a.txt b.txt || fail "the launches differ: $(diff a.txt b.txt | head -10)"
for key in '#@sim_computation=0' '#@sim_local_work=free' '#@sim_selector=ompi' \
    '#@launcher=smpirun' '#@nodes=2' '#@ppn=8' '#@oversubscribed=0'; do
    grep -qx -- "$key" run1.dat || fail "header lacks $key"
done
grep -q "^#@sim_platform=$PLATFORM\$" run1.dat || fail "header lacks the platform"
echo "two launches: $rows rows each, identical apart from #@date"
echo "1 passed, 0 failed"
