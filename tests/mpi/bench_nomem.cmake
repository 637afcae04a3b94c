# Measurements skipped for lack of memory end bench, check and tune with exit code 5, one line
# counting them, #@skipped lines in the raw data and every measurement that fitted kept
# (tests/mpi/bench_nomem.sh). On the test variant of the tool, whose MPIGUIDE_TEST_NOMEM fails
# the allocations of large measurements on cue (tests/mpi/bench.cmake builds it).
if(NOT TARGET mpiguide_testalgs_cli)
  return()
endif()
add_test(NAME mpi.bench_nomem.np2
  COMMAND timeout 900 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/bench_nomem.sh
          $<TARGET_FILE:mpiguide_testalgs_cli> ${MPIEXEC_EXECUTABLE} 2
          ${CMAKE_CURRENT_BINARY_DIR}/bench_nomem)
set_tests_properties(mpi.bench_nomem.np2 PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
  TIMEOUT 1000)
