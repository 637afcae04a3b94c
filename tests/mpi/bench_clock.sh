#!/bin/sh
# Issue 26 on the test variant of the tool: a bad clock model injected on rank 1
# (MPIGUIDE_TEST_CLOCK_SHIFT: its synchronised clock 5 s behind, as the drift of -0.0081 made
# it after 700 s) must not hang anything.
#  1. bounded waits: round-time and window runs complete, every observation flagged, the raw
#     file says the starts failed (#@clock_sync=failed_start) and has the drift bound;
#  2. with the waits unbounded as before the fix (MPIGUIDE_TEST_CLOCK_UNBOUNDED=1), rank 1
#     waits for its start while the others block inside the collective: the watchdog ends
#     bench with one line naming collective, algorithm, size and cause, the raw file keeps its
#     complete measurements, ends with #@stopped, and `bench --resume` completes it; the same
#     for nrep;
#  3. tune names the launch the watchdog stopped, with the watchdog's note.
# usage: bench_clock.sh MPIGUIDE_TESTALGS_BIN MPIEXEC NP MPI WORKDIR
set -u
bin=$1 mpiexec=$2 np=$3 mpi=$4 work=$5
fail() { echo "FAIL: $*"; for f in "$work"/*.log; do sed "s|^|  $(basename "$f"): |" "$f" | tail -15; done; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || fail "cannot create $work"
shift5="MPIGUIDE_TEST_CLOCK_SHIFT=1:5"
bench="$bin bench --calls-list=MPI_Allreduce --msizes-list=8,1024 --algs=default,allreduce_as_reduce_bcast --nrep=30"

# 1. bounded: both clock-driven methods complete, everything flagged
for sync in roundtime window; do
    start=$(date +%s)
    timeout 120 $mpiexec -n "$np" env $shift5 $bench --proc-sync=$sync --output-file=$sync.dat \
        >$sync.log 2>&1 || fail "$sync with a bad clock model: exit $?"
    took=$(($(date +%s) - start))
    grep -qx '#@clock_drift_max=0.0001' $sync.dat || fail "$sync: no #@clock_drift_max in the header"
    grep -Eq '^#@clock_sync=failed_start count=[1-9][0-9]* ahead=[45]' $sync.dat ||
        fail "$sync: no #@clock_sync=failed_start line"
    rows=$(grep -c '^MPI_Allreduce' $sync.dat)
    valid=$(awk '/^MPI_Allreduce/ && $6 == 0' $sync.dat | wc -l)
    [ "$rows" -eq 120 ] || fail "$sync: $rows rows, want 120"
    # round-time flags every observation; window may meet a start by chance after the others' call
    [ "$valid" -le 12 ] || fail "$sync: $valid of 120 observations not flagged"
    echo "$sync: 120 observations in ${took} s, $valid unflagged, failed starts said in the raw file"
done

# 2. unbounded (the code before the fix): the watchdog ends the hang
start=$(date +%s)
timeout 120 $mpiexec -n "$np" env $shift5 MPIGUIDE_TEST_CLOCK_UNBOUNDED=1 $bench --watchdog=3 \
    --output-file=hang.dat >hang.log 2>&1
rc=$?
took=$(($(date +%s) - start))
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "watchdog: launcher exit code $rc (0: no hang; 124: timeout)"
[ "$mpi" != openmpi ] || [ $rc -eq 4 ] || fail "watchdog: mpirun exit code $rc, want 4"
n=$(grep -c 'stopped by the watchdog' hang.log)
[ "$n" -eq 1 ] || fail "watchdog: $n lines, want exactly one"
grep -Eq '^mpiguide: error: MPI_Allreduce (default|allreduce_as_reduce_bcast) (8|1024): stopped by the watchdog: no progress for 3 s, rank 0 (inside the measured call|exchanging)' hang.log ||
    fail "watchdog: the line does not name collective, algorithm, size and cause"
tail -1 hang.dat | grep -Eq '^#@stopped=watchdog: MPI_Allreduce [a-z_]+ [0-9]+: no progress for 3 s, rank 0 ' ||
    fail "watchdog: the raw file does not end with #@stopped"
echo "watchdog: stopped after ${took} s (launcher exit code $rc): $(grep 'stopped by the watchdog' hang.log)"
timeout 120 $mpiexec -n "$np" $bench --output-file=hang.dat --resume >resume.log 2>&1 ||
    fail "bench --resume after the watchdog: exit $?"
rows=$(grep -c '^MPI_Allreduce' hang.dat)
[ "$rows" -eq 120 ] || fail "bench --resume completed $rows of 120 rows"
for m in "default 8" "default 1024" "allreduce_as_reduce_bcast 8" "allreduce_as_reduce_bcast 1024"; do
    k=$(awk -v a="${m% *}" -v s="${m#* }" '$1 == "MPI_Allreduce" && $2 == a && $4 == s' hang.dat | wc -l)
    [ "$k" -eq 30 ] || fail "after --resume: $m has $k rows, want 30"
done
echo "bench --resume completed the stopped file"
timeout 120 $mpiexec -n "$np" env $shift5 MPIGUIDE_TEST_CLOCK_UNBOUNDED=1 MPIGUIDE_WATCHDOG=3 \
    $bin nrep --calls-list=MPI_Allreduce --msizes-list=8 --output-file=nrep.txt >nrep.log 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "nrep watchdog: launcher exit code $rc"
[ "$(grep -c 'stopped by the watchdog' nrep.log)" -eq 1 ] || fail "nrep watchdog: not one line"
tail -1 nrep.txt | grep -q '^#@stopped=watchdog: MPI_Allreduce default 8: ' ||
    fail "nrep watchdog: the file does not end with #@stopped"
echo "nrep: stopped by the watchdog (launcher exit code $rc)"

# a bad watchdog time is a usage error naming the variable or the option, before measuring
timeout 60 $mpiexec -n "$np" env MPIGUIDE_WATCHDOG=5min $bench >badenv.log 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q '^mpiguide: error: MPIGUIDE_WATCHDOG: expected seconds' badenv.log &&
    ! grep -q '^MPI_Allreduce' badenv.log || fail "MPIGUIDE_WATCHDOG=5min: exit $rc"
timeout 60 $mpiexec -n "$np" $bench --watchdog=-1 >badopt.log 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q '^mpiguide: error: --watchdog' badopt.log || fail "--watchdog=-1: exit $rc"
echo "bad watchdog times: usage errors"

# 3. tune names the launch and the cause
printf 'MPI_Allreduce --msizes-list=8 --nrep=20\n' >in.txt
timeout 120 $bin tune --launcher "$mpiexec -n $np env $shift5 MPIGUIDE_TEST_CLOCK_UNBOUNDED=1 MPIGUIDE_WATCHDOG=3" \
    -f in.txt -o out --quiet >tune.log 2>&1
rc=$?
[ $rc -eq 1 ] || fail "tune: exit code $rc, want 1"
grep -Eq '^mpiguide: error: tune: check launch 1 of 3 failed with exit code [0-9]+: stopped by the watchdog: MPI_Barrier default 0: no progress for 3 s, rank 0 ' tune.log ||
    fail "tune does not name the launch the watchdog stopped"
echo "tune: $(grep 'tune: check launch' tune.log)"
echo "1 passed, 0 failed"
