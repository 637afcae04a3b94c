#!/usr/bin/env bash
# The main job on this machine: installs what is missing, builds mpiguide for one MPI, checks
# that every mock-up matches the library's own collective, then tunes the library: three check
# launches of examples/quick.txt, profiles, and two validation launches of the tuned library.
#   MPI=openmpi|mpich (default openmpi)   NP=ranks (default min(4, cores): more ranks than cores
#   give timings that cannot be trusted, and the analysis says so)
#   INPUT=input file (default examples/quick.txt)   OUT=output directory (default out/quick-$MPI-np$NP)
set -euo pipefail
cd "$(dirname "$0")/.."
MPI=${MPI:-openmpi}
cores=$(nproc)
NP=${NP:-$((cores < 4 ? cores : 4))}
INPUT=${INPUT:-examples/quick.txt}
OUT=${OUT:-out/quick-$MPI-np$NP}
scripts/deps.sh
MPIGUIDE_TARGETS="mpiguide mpiguide_cli" scripts/build.sh "$MPI"
bin="$PWD/build/$MPI/bin/mpiguide"
launcher="mpirun.$MPI -np $NP"
if [ "$MPI" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launcher="$launcher --oversubscribe"
fi
csv=$("$bin" info --csv)
echo "== mpiguide info ($MPI): $(grep -c ',mockup,' <<<"$csv") mock-ups, $(grep -c ',library,' <<<"$csv") library algorithms =="
"$bin" info | tail -1
echo "== selftest: every algorithm next to the library's own, $NP ranks =="
timeout 900 $launcher "$bin" selftest
echo
echo "== tune: 3 check launches of $INPUT, profiles, 2 validation launches of the tuned library =="
rm -rf "$OUT"
timeout 3600 "$bin" tune --launcher "$launcher" -f "$INPUT" -o "$OUT" --launches 3 -v --quiet
