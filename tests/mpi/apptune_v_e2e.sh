#!/bin/sh
# End to end of issue 27: every collective an application calls. An MPI program of the test
# suite (apptune_v_app: MPI_Gatherv with irregular counts, MPI_Allgatherv, MPI_Alltoallv,
# MPI_Barrier and MPI_Iallreduce completed by MPI_Wait or MPI_Waitall, on MPI_COMM_WORLD and on
# a split of half its size, and MPI_Allreduce of 512 bytes both as MPI_DOUBLE/MPI_SUM and as
# MPI_INT/MPI_MAX) is recorded (MPIGUIDE_RECORD), its MPI_Iallreduce rows with every
# completion seen,
# `tune --for` plans from the record (the v-collectives with the problem type their counts
# matched) and tunes with the test variant whose MPI_Allgatherv and MPI_Iallreduce defaults are
# 200 us slower (the nonblocking one measured as start + wait, its candidates the library's
# algorithms through coll_libnbc_iallreduce_algorithm or MPIR_CVAR_IALLREDUCE_INTRA_ALGORITHM), and
# the tuned run's report must show every call of every one of them covered by a measured
# decision on both communicator sizes, with correct results; MPI_Allgatherv and MPI_Iallreduce,
# whose defaults are slow, must run an alternative (the padding mock-up or a library algorithm;
# for MPI_Iallreduce a library algorithm set for that start) unless tune said the timings were not
# trustworthy. Both MPI_Allreduce kinds get a plan line and a profile of their own (files named
# with the datatype and op) and the tuned run covers both (other_type=0).
# usage: apptune_v_e2e.sh MPIGUIDE_TESTALGS_BIN TESTALGS_LIB APP MPIEXEC NP WORKDIR
set -u
bin=$1 lib=$2 app=$3 mpiexec=$4 np=$5 work=$6
half=$((np / 2))
colls="MPI_Gatherv MPI_Allgatherv MPI_Alltoallv MPI_Barrier MPI_Iallreduce"
fail() {
    echo "FAIL: $*"
    for f in tune.log record.txt out/plan.txt report.txt; do
        [ -f "$work/$f" ] && sed "s|^|  $f: |" "$work/$f" | tail -40
    done
    exit 1
}
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
cd "$work" || fail "cannot enter $work"

# 1. record the application (untuned): a row per collective and communicator size
timeout 120 $mpiexec -n "$np" env LD_PRELOAD="$lib" MPIGUIDE_RECORD="$work/record.txt" "$app" 4 \
    >app1.log 2>&1 || fail "recording run failed: $(cat app1.log)"
grep -q "apptune_v_app: [0-9]* passed, 0 failed" app1.log || fail "recording run: $(cat app1.log)"
for p in "$np" "$half"; do
    for c in $colls; do
        grep -q "^$c p=$p " record.txt || fail "record has no $c row for p=$p"
    done
    grep -Eq "^MPI_Gatherv p=$p .* datatype=MPI_INT .* block=[0-9]+ spread=[a-z]+:4 roots=0:4" record.txt ||
        fail "the MPI_Gatherv row for p=$p lacks its datatype, block, spread or root"
    grep -Eq "^MPI_Iallreduce p=$p .* datatype=MPI_DOUBLE .* op=MPI_SUM .* calls=4 .* completed=4$" record.txt ||
        fail "the MPI_Iallreduce row for p=$p lacks its datatype, op or its 4 completions"
    grep -Eq "^MPI_Allreduce p=$p .* datatype=MPI_DOUBLE .* op=MPI_SUM bytes=512-1023 calls=4 " record.txt &&
        grep -Eq "^MPI_Allreduce p=$p .* datatype=MPI_INT .* op=MPI_MAX bytes=512-1023 calls=4 " record.txt ||
        fail "the record lacks an MPI_Allreduce row of each kind for p=$p"
done

# 2. plan from the record and tune, the default of MPI_Allgatherv made slow in the measurements
launcher="$mpiexec -n $np env MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Allgatherv,MPI_Iallreduce"
timeout 600 "$bin" tune --launcher "$launcher" --for record.txt -o out --launches 1 --cover 1 \
    --nrep 20 --time-ms 200 --quiet >tune.log 2>&1 || fail "tune --for exited with $?"
for p in "$np" "$half"; do
    grep -Eq "^MPI_Gatherv --comm-sizes=$p --irregular=[a-z]+ --msizes-list=[0-9]+ --root=0 " out/plan.txt ||
        fail "plan.txt has no MPI_Gatherv line with a problem type and the root for p=$p"
    for c in $colls; do
        [ -f "out/profiles/${c}_p$p.prf" ] || fail "no profile out/profiles/${c}_p$p.prf"
    done
    for t in "MPI_DOUBLE --op=MPI_SUM" "MPI_INT --op=MPI_MAX"; do
        grep -q "^MPI_Allreduce --comm-sizes=$p --datatype=$t " out/plan.txt ||
            fail "plan.txt has no MPI_Allreduce line for p=$p with $t"
    done
    for t in MPI_DOUBLE_MPI_SUM MPI_INT_MPI_MAX; do
        f=out/profiles/MPI_Allreduce_p${p}_$t.prf
        [ -f "$f" ] || fail "no profile $f: $(ls out/profiles)"
    done
done
"$bin" profile check --record record.txt out/profiles >check.log 2>&1 ||
    fail "profile check: $(cat check.log)"
! grep -q "NOT measured\|no range" check.log || fail "a recorded size is not covered: $(cat check.log)"

# 3. the tuned application: every call covered on both sizes, correct results (the nonblocking
# profiles apply by default, under their guard)
timeout 120 $mpiexec -n "$np" env LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$work/out/profiles" \
    MPIGUIDE_REPORT="$work/report.txt" MPIGUIDE_RECORD="$work/tuned.txt" "$app" 4 >app2.log 2>&1 ||
    fail "tuned run failed: $(cat app2.log)"
grep -q "apptune_v_app: [0-9]* passed, 0 failed" app2.log || fail "tuned run: $(cat app2.log)"
for p in "$np" "$half"; do
    for c in $colls; do
        line=$(grep "^#@mpiguide coverage $c p=$p " report.txt) ||
            fail "no $c p=$p coverage line in the report"
        calls=$(printf '%s\n' "$line" | sed -n 's/.* calls=\([0-9]*\).*/\1/p')
        covered=$(printf '%s\n' "$line" | sed -n 's/.* covered=\([0-9]*\).*/\1/p')
        [ -n "$calls" ] && [ "$calls" -gt 0 ] && [ "$covered" = "$calls" ] ||
            fail "$c p=$p not fully covered: $line"
        echo "$c p=$p: $covered of $calls calls covered"
    done
    for c in MPI_Allgatherv MPI_Iallreduce; do
        line=$(grep "^#@mpiguide coverage $c p=$p " report.txt)
        mockup=$(printf '%s\n' "$line" | sed -n 's/.* mockup=\([0-9]*\).*/\1/p')
        if [ "$p" -gt 1 ] && [ "$mockup" -eq 0 ]; then
            said=$(grep -m1 'timings are not trustworthy' tune.log) ||
                fail "$c p=$p: the slow default still ran: $line"
            echo "$c p=$p: no alternative ran, and tune said: $said"
        else
            echo "$c p=$p: an alternative ran in $mockup calls"
        fi
    done
done
for p in "$np" "$half"; do
    line=$(grep "^#@mpiguide coverage MPI_Allreduce p=$p " report.txt) ||
        fail "no MPI_Allreduce p=$p coverage line in the report"
    case "$line" in *" calls=8 covered=8 "*" other_type=0 "*) ;; *) fail "MPI_Allreduce p=$p: both kinds not covered: $line" ;; esac
    echo "MPI_Allreduce p=$p: MPI_DOUBLE/MPI_SUM and MPI_INT/MPI_MAX covered: $line"
done
grep -q "^#@mpiguide uncovered" report.txt && fail "the report names uncovered calls"

# 4. with MPIGUIDE_NONBLOCKING=0 the nonblocking profiles are not applied, one line says so, and
# the blocking ones still are
timeout 120 $mpiexec -n "$np" env LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$work/out/profiles" \
    MPIGUIDE_NONBLOCKING=0 MPIGUIDE_REPORT="$work/report_nb0.txt" \
    MPIGUIDE_RECORD="$work/tuned_nb0.txt" "$app" 4 \
    >app3.log 2>&1 || fail "tuned run with MPIGUIDE_NONBLOCKING=0 failed: $(cat app3.log)"
grep -q "apptune_v_app: [0-9]* passed, 0 failed" app3.log || fail "run 4: $(cat app3.log)"
[ "$(grep -c 'profile(s) of nonblocking collectives not applied' app3.log)" = 1 ] ||
    fail "run 4 did not say once that the nonblocking profiles were left out: $(cat app3.log)"
for p in "$np" "$half"; do
    line=$(grep "^#@mpiguide coverage MPI_Iallreduce p=$p " report_nb0.txt) ||
        fail "run 4: no MPI_Iallreduce p=$p coverage line"
    case "$line" in *" covered=0 "* | *" covered=0") ;; *) fail "run 4 applied a nonblocking profile: $line" ;; esac
    grep -Eq "^#@mpiguide coverage MPI_Allgatherv p=$p .* covered=[1-9]" report_nb0.txt ||
        fail "run 4: MPI_Allgatherv p=$p lost its profile"
done
echo "1 passed, 0 failed"
