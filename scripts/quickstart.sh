#!/usr/bin/env bash
# The main job on this machine: installs what is missing, builds mpiguide for one MPI, checks
# that every mock-up matches the library's own collective, then tunes the library: three check
# launches of examples/quick.txt, profiles, and two validation launches of the tuned library.
#   MPI=openmpi|mpich (default openmpi)   NP=ranks (default min(4, cores): more ranks than cores
#   give timings that cannot be trusted, and the analysis says so)
#   INPUT=input file (default examples/quick.txt)   OUT=output directory (default out/quick-$MPI-np$NP)
# MPI=smpi tunes a simulated cluster instead (SimGrid's SMPI, docs/workflow.md "Before you have
# the cluster: simulate it"): NP=256 ranks on PLATFORM=examples/platforms/cluster-16x16.xml
# (16 nodes x 16 cores) under SELECTOR=ompi (Open MPI's algorithms), input examples/smpi.txt;
# the simulation is deterministic, so one check launch and one validation launch suffice.
set -euo pipefail
cd "$(dirname "$0")/.."
MPI=${MPI:-openmpi}
cores=$(nproc)
if [ "$MPI" = smpi ]; then
  NP=${NP:-256}
  INPUT=${INPUT:-examples/smpi.txt}
else
  NP=${NP:-$((cores < 4 ? cores : 4))}
  INPUT=${INPUT:-examples/quick.txt}
fi
OUT=${OUT:-out/quick-$MPI-np$NP}
scripts/deps.sh
MPIGUIDE_TARGETS="mpiguide mpiguide_cli" scripts/build.sh "$MPI"
bin="$PWD/build/$MPI/bin/mpiguide"
launcher="mpirun.$MPI -np $NP"
launches=(--launches 3)
selftest_np=$NP
if [ "$MPI" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launcher="$launcher --oversubscribe"
elif [ "$MPI" = smpi ]; then
  PLATFORM=${PLATFORM:-examples/platforms/cluster-16x16.xml}
  SELECTOR=${SELECTOR:-ompi}
  mkdir -p "$OUT"
  scripts/smpi-hostfile.sh "$PLATFORM" >"$OUT/hosts" # every node, one rank per core
  launcher="smpirun -np $NP -platform $(realpath "$PLATFORM") -hostfile $(realpath "$OUT/hosts")"
  launcher="$launcher --cfg=smpi/coll-selector:$SELECTOR --log=root.thres:warning"
  launches=(--launches 1 --validate-launches 1)
  selftest_np=$((NP < 64 ? NP : 64)) # its cases go up to 1000 elements per rank: 64 is quick
fi
csv=$("$bin" info --csv)
echo "== mpiguide info ($MPI): $(grep -c ',mockup,' <<<"$csv") mock-ups, $(grep -c ',library,' <<<"$csv") library algorithms =="
"$bin" info | tail -1
echo "== selftest: every algorithm next to the library's own, $selftest_np ranks =="
timeout 900 ${launcher/-np $NP /-np $selftest_np } "$bin" selftest
echo
if [ "$MPI" = smpi ]; then
  echo "== tune: 1 check launch of $INPUT, profiles, 1 validation launch (simulated time is deterministic) =="
  rm -rf "$OUT/raw" "$OUT/tuned" "$OUT/profiles"
else
  echo "== tune: 3 check launches of $INPUT, profiles, 2 validation launches of the tuned library =="
  rm -rf "$OUT"
fi
timeout 3600 "$bin" tune --launcher "$launcher" -f "$INPUT" -o "$OUT" "${launches[@]}" -v --quiet
