#!/usr/bin/env bash
# The names mpiguide discovered for the library's algorithms (MPI_T enumerations, or MPICH's
# descriptions, src/libalg/desc.c) must select the values mpiguide writes: for every library
# algorithm of `mpiguide info --csv`, the variable is set to the item by name in the
# environment, as a user would, and the library's own reading of it (libalg_read) must be the
# discovered value.   usage: libalg_names.sh MPIGUIDE LIBALG_READ openmpi|mpich
set -u
bin=$1 reader=$2 mpi=$3
csv=$("$bin" info --csv) || { echo "FAIL: mpiguide info --csv"; exit 1; }
n=0 bad=0
while IFS= read -r line; do
  case "$line" in *,library,*) ;; *) continue ;; esac
  value=${line##*,}
  rest=${line%,*}
  var=${rest##*,}
  item=$(sed -n 's/.*(\([^,]*\), [a-z]*)".*/\1/p' <<<"$line")
  name=$(cut -d, -f2 <<<"$line")
  envname=$var
  [ "$mpi" = openmpi ] && envname=OMPI_MCA_$var
  got=$(env "$envname=$item" "$reader" "$var" 2>&1)
  n=$((n + 1))
  if [ "$got" != "$value" ]; then
    echo "FAIL: $name: $envname=$item reads as $got, mpiguide uses $value"
    bad=$((bad + 1))
  fi
done <<<"$csv"
echo "libalg_names: $n library algorithm names checked, $bad wrong"
[ "$n" -gt 0 ] || { echo "FAIL: no library algorithm listed"; exit 1; }
[ "$bad" -eq 0 ]
