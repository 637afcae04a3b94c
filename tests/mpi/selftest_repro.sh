#!/usr/bin/env bash
# ic.selftest_repro (tests/mpi/selftest_random.cmake): the seed and case number reproduce a case
# exactly, and --repro writes a standalone program for a known library defect of this MPI that
# builds with its mpicc and fails (exit 1, "WRONG"). Seed 1, MPI_Allreduce case 14 at p = 3 is
# MPI_MIN on MPI_UNSIGNED_LONG, a known defect of both MPIs (openmpi-unsigned-long-minmax,
# mpich-unsigned-minmax). Usage: selftest_repro.sh MPIEXEC MPIGUIDE MPICC MPI DIR
set -uo pipefail
mpiexec=$1 tool=$2 mpicc=$3 mpi=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir" || exit 1
fail() { echo "selftest_repro: $*" >&2; exit 1; }
run() { timeout 240 "$mpiexec" -n 3 "$@"; }

# the whole run, every case described
run "$tool" selftest --random 15 --seed 1 --verbose MPI_Allreduce >"$dir/all.out" 2>&1 ||
  { cat "$dir/all.out"; fail "the run of 15 cases failed"; }
want=$(grep '^case 14: ' "$dir/all.out") || { cat "$dir/all.out"; fail "no case 14 in the run"; }
# the one case by its number: the same call, the known defect, and its reproducer
run "$tool" selftest --random 15 --seed 1 --case 14 --verbose --repro "$dir" MPI_Allreduce \
  >"$dir/one.out" 2>&1 || { cat "$dir/one.out"; fail "the run of case 14 failed"; }
cat "$dir/one.out"
got=$(grep '^case ' "$dir/one.out")
[ "$got" = "$want" ] || fail "case 14 differs: full run [$want], alone [$got]"
grep -q "^KNOWN LIBRARY DEFECT $mpi-unsigned" "$dir/one.out" || fail "no known defect of $mpi seen"
src="$dir/allreduce-default-seed1-case14.c"
[ -f "$src" ] || fail "no reproducer $src"
grep -q "reproducer: $src" "$dir/one.out" || fail "the tool did not name $src"
"$mpicc" -Wall -Werror "$src" -o "$dir/repro" || fail "$src does not build with $mpicc"
run "$dir/repro" >"$dir/repro.out" 2>&1
rc=$?
cat "$dir/repro.out"
[ $rc -ne 0 ] || fail "the reproducer exits 0 on $mpi"
grep -q '^WRONG' "$dir/repro.out" || fail "the reproducer does not report WRONG"
grep -q 'recvbuf byte .* expected 0x[0-9a-f]*, got' "$dir/repro.out" ||
  fail "the reproducer names no wrong byte"
echo "selftest_repro: case 14 reproduced; $src builds and fails on $mpi (exit $rc)"
