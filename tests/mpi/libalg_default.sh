#!/usr/bin/env bash
# Open MPI: libmpiguide turns coll_tuned_use_dynamic_rules on before MPI_Init (library
# algorithms need it); the library's default must stay exactly what it was. The reductions of
# libalg_fp reveal the algorithm by their result (an order-dependent op), so the outputs with and
# without libmpiguide must be identical while the variable differs.
#   usage: libalg_default.sh MPIEXEC LIBMPIGUIDE LIBALG_FP NP...
set -u
mpiexec=$1 lib=$2 fp=$3
shift 3
rc=0
for np in "$@"; do
  plain=$(timeout 120 "$mpiexec" -n "$np" "$fp" 2>&1) || { echo "FAIL: plain run: $plain"; exit 1; }
  pre=$(timeout 120 "$mpiexec" -n "$np" env LD_PRELOAD="$lib" MPIGUIDE_REPORT=1 "$fp" 2>&1) ||
    { echo "FAIL: preloaded run: $pre"; exit 1; }
  grep -q '^dynamic_rules=0$' <<<"$plain" || { echo "FAIL: np $np: without libmpiguide: $(grep dynamic <<<"$plain")"; rc=1; }
  grep -q '^dynamic_rules=1$' <<<"$pre" || { echo "FAIL: np $np: libmpiguide did not turn dynamic rules on"; rc=1; }
  grep -q '^#@mpiguide calls MPI_Allreduce' <<<"$pre" || { echo "FAIL: np $np: libmpiguide not loaded"; rc=1; }
  a=$(grep '^fp ' <<<"$plain") b=$(grep '^fp ' <<<"$pre")
  if [ "$a" != "$b" ] || [ -z "$a" ] || grep -q WRONG <<<"$a$b"; then
    echo "FAIL: np $np: the default changed"; diff <(echo "$a") <(echo "$b"); rc=1
  else
    echo "np $np: $(wc -l <<<"$a") fingerprints identical with and without libmpiguide"
  fi
done
exit $rc
