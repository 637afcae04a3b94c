# Issue 26: a bad clock model never hangs the benchmark (bounded waits), and a hang the bounds
# cannot prevent ends with the watchdog's one line, resumable raw data and tune naming the
# launch (tests/mpi/bench_clock.sh). On the test variant of the tool, whose
# MPIGUIDE_TEST_CLOCK_* variables inject the bad model (tests/mpi/bench.cmake builds it).
if(NOT TARGET mpiguide_testalgs_cli)
  return()
endif()
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(np 3) # two ranks inside the collective, one waiting for its start, as once seen in a hang
else()
  set(np 2) # MPICH busy-polls with more ranks than cores
endif()
add_test(NAME mpi.bench_clock.np${np}
  COMMAND timeout 600 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/bench_clock.sh
          $<TARGET_FILE:mpiguide_testalgs_cli> ${MPIEXEC_EXECUTABLE} ${np} ${MPIGUIDE_MPI}
          ${CMAKE_CURRENT_BINARY_DIR}/bench_clock)
set_tests_properties(mpi.bench_clock.np${np} PROPERTIES ENVIRONMENT "${MG_MPI_ENV}"
  PROCESSORS 2 TIMEOUT 700)
