#!/bin/sh
# Measurements skipped for lack of memory do not pass silently. On the test variant of the
# tool, MPIGUIDE_TEST_NOMEM=1024 fails the allocations of every measurement of 1024 B and more
# (buffers on the last rank, the interleaved observation arrays on rank 0). Each case must:
# exit 5, end its standard error with the one line that counts the skipped measurements and
# names where, mark every skipped measurement in the raw data (#@skipped=COLL ALG MSIZE WHY),
# and keep every measurement that fitted, complete.
#  1. bench, one measurement at a time (the buffers fail: mg_meas_open)
#  2. bench --interleave (the group's observation arrays fail first)
#  3. check (interleaved and spread by default), whose summary.txt lists the skipped ones
#  4. tune: its check and validation launches skip, it still writes the analysis and profiles
# usage: bench_nomem.sh MPIGUIDE_TESTALGS_BIN MPIEXEC NP WORKDIR
set -u
bin=$(realpath "$1") mpiexec=$2 np=$3 work=$4
fail() { echo "FAIL: $*"; for f in "$work"/*.log; do sed "s|^|  $(basename "$f"): |" "$f" | tail -15; done; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || fail "cannot create $work"
nomem="env MPIGUIDE_TEST_NOMEM=1024"
algs=default,allreduce_as_reduce_bcast

# exit code $1 of case $2 is 5 and the last line mpiguide wrote to standard error ($2.log; the
# launcher may add its own after it) says N=$3 measurements skipped
incomplete() {
    [ "$1" -eq 5 ] || fail "$2: exit code $1, want 5 (incomplete)"
    last=$(grep '^mpiguide' "$2.log" | tail -n 1)
    case "$last" in
    "mpiguide: incomplete: $3 measurements skipped for lack of memory"*) ;;
    *) fail "$2: last line is not the count of $3 skipped measurements: $last" ;;
    esac
}
# raw file $1 has a #@skipped line for each of the algorithms at each size of $2 and nothing else
# skipped, and $3 rows per algorithm at each size of $4
marked() {
    for s in $2; do
        for a in $(echo $algs | tr , ' '); do
            grep -q "^#@skipped=MPI_Allreduce $a $s out of memory" "$1" ||
                fail "$1: no #@skipped line for $a at $s B"
        done
    done
    want=$(($(echo $2 | wc -w) * 2))
    got=$(grep -c '^#@skipped=' "$1")
    [ "$got" -eq "$want" ] || fail "$1: $got #@skipped lines, want $want"
    for s in $4; do
        for a in $(echo $algs | tr , ' '); do
            n=$(awk -v a=$a -v s=$s '$1 == "MPI_Allreduce" && $2 == a && $4 == s' "$1" | wc -l)
            [ "$n" -eq "$3" ] || fail "$1: $n rows of $a at $s B, want $3"
        done
    done
}

# 1 and 2: bench, plain and interleaved
for mode in plain interleave; do
    extra=""
    [ $mode = interleave ] && extra=--interleave=5
    timeout 120 $mpiexec -n "$np" $nomem "$bin" bench --calls-list=MPI_Allreduce \
        --msizes-list=8,64,1024,4096 --algs=$algs --nrep=20 --output-file=$mode.dat $extra \
        >$mode.out 2>$mode.log
    incomplete $? $mode 4
    grep -q "in $mode.dat" $mode.log || fail "$mode: the last line does not name $mode.dat"
    marked $mode.dat "1024 4096" 20 "8 64"
    echo "bench ($mode): exit 5, 4 measurements skipped and marked, the 4 that fitted complete"
done

# 3. check
echo 'MPI_Allreduce --msizes-list=8,2048 --nrep=20 --rt-bench-time-ms=300 --algs=allreduce_as_reduce_bcast' >in.txt
timeout 300 $mpiexec -n "$np" $nomem "$bin" check -f in.txt -o out --quiet >check.out 2>check.log
incomplete $? check 2
marked out/raw/launch-1/MPI_Allreduce.dat 2048 20 8
grep -q 'Skipped for lack of memory' out/summary.txt || fail "check: summary.txt does not list the skipped measurements"
grep -q 'MPI_Allreduce allreduce_as_reduce_bcast 2 KiB' out/summary.txt ||
    fail "check: summary.txt does not name the skipped measurement"
echo "check: exit 5, 2 measurements skipped and marked, summary.txt lists them, the others complete"

# 4. tune: the skips of its check launch and of its validation launch, the analysis written
timeout 600 "$bin" tune --launcher "$mpiexec -n $np $nomem" -f in.txt -o tuned --launches 1 \
    --validate-launches 1 --quiet >tune.out 2>tune.log
rc=$?
incomplete $rc tune 4
marked tuned/raw/launch-1/MPI_Allreduce.dat 2048 20 8
v=tuned/tuned/launch-1/MPI_Allreduce.dat
grep -q '^#@skipped=MPI_Allreduce default 2048 ' $v || fail "tune: the validation launch did not mark its skip"
grep -q '^MPI_Allreduce default .* 8 ' $v || fail "tune: the validation launch measured nothing at 8 B"
[ -f tuned/summary.txt ] && [ -f tuned/profiles/MPI_Allreduce_p$np.prf ] ||
    fail "tune: no summary.txt or profile: what was measured was lost"
echo "tune: exit 5, 4 measurements skipped (check and validation launch), analysis and profile written"
echo "PASS"
