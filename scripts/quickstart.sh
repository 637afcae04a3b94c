#!/usr/bin/env bash
# The main job on this machine: installs what is missing, builds mpiguide for one MPI, lists
# the registry and runs every mock-up of one collective next to the library's own.
#   MPI=openmpi|mpich (default openmpi)   NP=ranks (default 4)   COLL=collective (allreduce)
set -euo pipefail
cd "$(dirname "$0")/.."
MPI=${MPI:-openmpi}
NP=${NP:-4}
COLL=${COLL:-allreduce}
scripts/deps.sh
scripts/build.sh "$MPI"
bin="build/$MPI/bin/mpiguide"
launch=("mpirun.$MPI" -np "$NP")
if [ "$MPI" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launch+=(--oversubscribe)
fi
echo "== mpiguide info ($MPI) =="
"$bin" info
echo
echo "== every algorithm of $COLL on $NP ranks, next to the library's own =="
timeout 600 "${launch[@]}" "$bin" selftest "$COLL"
