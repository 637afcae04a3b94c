#!/usr/bin/env bash
# `mpiguide export` end to end, without libmpiguide in the run: a profile selects one library
# algorithm for an exact range of sizes; the exported file, given to the MPI library alone, must
# make it run that algorithm inside the range (the fingerprint of libalg_fp equals the one of
# the algorithm forced through its own variable) and its default outside (the plain run's), with
# correct results everywhere.
#   usage: libalg_export.sh openmpi|mpich MPIGUIDE MPIEXEC LIBALG_FP WORKDIR
set -u
mpi=$1 bin=$2 mpiexec=$3 fp=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir/profiles" || exit 1
np=4
if [ "$mpi" = openmpi ]; then
  # Allreduce of 1024 to 4096 bytes by the ring; 256 and 1024 unsigned are inside
  coll=allreduce alg=ring counts=255,256,1024,1025 inside="256 1024"
  printf '#@mpi_library=Open MPI\nMPI_Allreduce\n4\n2\n1 allreduce_lib_ring\n2 allreduce_as_reduce_bcast\n2\n1024 4096 1\n8192 8192 2\n' \
    >"$dir/profiles/MPI_Allreduce_p4.prf"
  format=ompi-rules file=$dir/rules.txt
  value=$("$bin" info --csv | grep ',allreduce_lib_ring,' | sed 's/.*,//')
  forced=(OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm="$value")
  with=(OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_dynamic_rules_filename="$file")
else
  # Reduce_scatter_block of 400-byte blocks by pairwise exchange: 100 unsigned per block
  coll=reduce_scatter_block alg=pairwise counts=99,100,101 inside="100"
  printf '#@mpi_library=MPICH\nMPI_Reduce_scatter_block\n4\n2\n1 reduce_scatter_block_lib_pairwise\n2 reducescatterblock_as_allreduce\n2\n400 400 1\n4096 4096 2\n' \
    >"$dir/profiles/MPI_Reduce_scatter_block_p4.prf"
  format=mpich-json file=$dir/selection.json
  forced=(MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=pairwise)
  with=(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$file")
fi
out=$("$bin" export --format=$format "$dir/profiles" -o "$file" 2>&1)
echo "$out"
grep -q "1 range(s) of 1 profile(s) written to $file, 1 not expressible" <<<"$out" ||
  { echo "FAIL: export"; exit 1; }
grep -q "not expressible: .* (a mock-up: only libmpiguide runs it)" <<<"$out" ||
  { echo "FAIL: the mock-up entry is not listed as not expressible"; exit 1; }
run() { timeout 120 "$mpiexec" -n $np env "$@" "$fp" --colls=$coll --counts=$counts 2>&1; }
plain=$(run MPIGUIDE_UNUSED=1) && forced_out=$(run "${forced[@]}") && exported=$(run "${with[@]}") ||
  { echo "FAIL: a run failed: $plain $forced_out $exported"; exit 1; }
rc=0
for c in ${counts//,/ }; do
  p=$(grep "^fp $coll $c " <<<"$plain") f=$(grep "^fp $coll $c " <<<"$forced_out")
  e=$(grep "^fp $coll $c " <<<"$exported")
  case " $inside " in
    *" $c "*) want=$f what="the forced $alg"
      [ "$p" != "$f" ] || { echo "FAIL: count $c: $alg is indistinguishable from the default here"; rc=1; } ;;
    *) want=$p what="the default" ;;
  esac
  if [ -z "$e" ] || [ "$e" != "$want" ] || grep -q WRONG <<<"$e"; then
    echo "FAIL: count $c: exported file gave '$e', $what gives '$want'"; rc=1
  else
    echo "count $c: the exported file runs $what ($e)"
  fi
done
exit $rc
