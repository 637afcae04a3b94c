#!/usr/bin/env bash
# Installs the Debian packages mpiguide needs, only those missing. Run as root (or with sudo).
#   compilers and build: gcc, make, cmake, pkg-config; gfortran for the Fortran interception tests
#   the two MPIs the project builds against: Open MPI and MPICH (headers, launchers)
#   valgrind: memory checking of a test subset; clang: the fuzz harness (libFuzzer)
#   dpkg-dev, file: the .deb's dependencies (CPack finds the ELF files with file, dpkg-shlibdeps
#   names their packages), built by the package test
#   chromium: renders report.html headless in the browser test (JavaScript errors, charts,
#   tables, the verdict on the first screen)
#   libsimgrid-dev: SimGrid's SMPI (smpicc, smpirun), the third build, which runs the tool on
#   simulated clusters of hundreds to thousands of ranks (docs/workflow.md)
# With arguments, installs those packages instead (scripts/slurm-local.sh: slurm-wlm munge).
set -euo pipefail
pkgs=(gcc make cmake pkg-config gfortran libopenmpi-dev openmpi-bin libmpich-dev mpich
      valgrind clang procps dpkg-dev file chromium libsimgrid-dev)
[ $# -eq 0 ] || pkgs=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >&2
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
