#!/usr/bin/env bash
# The ThreadSanitizer check of MPI_THREAD_MULTIPLE (tests/mpi/tsan.cmake):
#   run.sh SRC TREE MPI LAUNCHER PROFILES FORCED
# configures TREE as a separate build of SRC with -DMPIGUIDE_TSAN=ON, builds only libmpiguide and
# intercept_threads_linked (4 threads, each collectives on its own communicator), runs it at 2
# processes with the mock-ups FORCED and then tuned by the PROFILES directory, and fails on any
# ThreadSanitizer report (suppressions: tests/tsan/tsan.supp, MPI-internal only), a wrong
# result, or a run in which the mock-ups did not run.
set -uo pipefail
src=$1 tree=$2 mpi=$3 launcher=$4 profiles=$5 forced=$6
cmake -S "$src" -B "$tree" -DMPI_C_COMPILER="mpicc.$mpi" -DMPIEXEC_EXECUTABLE="$launcher" \
      -DMPIGUIDE_TSAN=ON -DMPIGUIDE_WERROR=ON >"$tree.configure.log" 2>&1 ||
  { cat "$tree.configure.log"; echo "tsan: configuring $tree failed"; exit 1; }
cmake --build "$tree" --target intercept_threads_linked -j "$(nproc)" >"$tree.build.log" 2>&1 ||
  { tail -40 "$tree.build.log"; echo "tsan: building $tree failed"; exit 1; }
export TSAN_OPTIONS="halt_on_error=0 history_size=7 suppressions=$src/tests/tsan/tsan.supp"
# MPICH over UCX: UCX's malloc and mmap hooks and ThreadSanitizer's interceptors crash together
export UCX_MEM_MALLOC_HOOKS=no UCX_MEM_MMAP_HOOK_MODE=none
status=0
for mode in forced tuned; do
  if [ "$mode" = forced ]; then sel="MPIGUIDE_ALG=$forced"; else sel="MPIGUIDE_PROFILES=$profiles"; fi
  out=$("$launcher" -n 2 env MPIGUIDE_REPORT=1 "$sel" "$tree/bin/intercept_threads_linked" \
        --iter=60 2>&1)
  rc=$?
  echo "$out" | grep -E "intercept_threads:|comm_scratch|calls MPI_Allreduce"
  reports=$(echo "$out" | grep -c "WARNING: ThreadSanitizer")
  if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ] ||
     ! echo "$out" | grep -q "intercept_threads: 4 threads, 0 failed" ||
     ! echo "$out" | grep -qE "calls MPI_Allreduce total=240 mockup=240 "; then
    echo "$out" | sed -n '/WARNING: ThreadSanitizer/,/^SUMMARY/p' | head -200
    echo "tsan: $mode: exit code $rc, $reports ThreadSanitizer report(s)"
    status=1
  else
    echo "tsan: $mode: clean"
  fi
done
exit $status
