#!/usr/bin/env bash
# Configures and builds one tree per MPI: build/openmpi and build/mpich (or those named as
# arguments: openmpi, mpich, smpi). Each tree uses its own MPI's compiler wrapper AND launcher, so MPI tests of the
# MPICH tree never run under Open MPI's mpiexec.
set -euo pipefail
cd "$(dirname "$0")/.."
mpis=("$@")
[ ${#mpis[@]} -gt 0 ] || mpis=(openmpi mpich)
for mpi in "${mpis[@]}"; do
  case "$mpi" in
    openmpi|mpich) cc="mpicc.$mpi" run="mpirun.$mpi" ;;
    # SimGrid's simulated MPI: smpicc is the C compiler itself (it links programs as the shared
    # objects smpirun loads), smpirun the launcher
    smpi) cc=smpicc run=smpirun ;;
    *) echo "build.sh: unknown MPI $mpi (openmpi|mpich|smpi)" >&2; exit 2;;
  esac
  extra=()
  [ "$mpi" = smpi ] && extra=(-DCMAKE_C_COMPILER="$(command -v smpicc)")
  cmake -S . -B "build/$mpi" -DMPI_C_COMPILER="$cc" -DMPIEXEC_EXECUTABLE="$(command -v "$run")" \
        "${extra[@]}" -DMPIGUIDE_WERROR="${MPIGUIDE_WERROR:-ON}" ${MPIGUIDE_CMAKE_ARGS:-} >/dev/null
  # MPIGUIDE_TARGETS: build only these targets (quickstart needs the library and the tool)
  cmake --build "build/$mpi" -j "$(nproc)" ${MPIGUIDE_TARGETS:+--target $MPIGUIDE_TARGETS}
done
