#!/usr/bin/env bash
# Configures and builds one tree per MPI: build/openmpi and build/mpich (or those named as
# arguments). Each tree uses its own MPI's compiler wrapper AND launcher, so MPI tests of the
# MPICH tree never run under Open MPI's mpiexec.
set -euo pipefail
cd "$(dirname "$0")/.."
mpis=("$@")
[ ${#mpis[@]} -gt 0 ] || mpis=(openmpi mpich)
for mpi in "${mpis[@]}"; do
  case "$mpi" in openmpi|mpich) ;; *) echo "build.sh: unknown MPI $mpi (openmpi|mpich)" >&2; exit 2;; esac
  cmake -S . -B "build/$mpi" -DMPI_C_COMPILER="mpicc.$mpi" \
        -DMPIEXEC_EXECUTABLE="$(command -v "mpirun.$mpi")" \
        -DMPIGUIDE_WERROR="${MPIGUIDE_WERROR:-ON}" ${MPIGUIDE_CMAKE_ARGS:-} >/dev/null
  # MPIGUIDE_TARGETS: build only these targets (quickstart needs the library and the tool)
  cmake --build "build/$mpi" -j "$(nproc)" ${MPIGUIDE_TARGETS:+--target $MPIGUIDE_TARGETS}
done
