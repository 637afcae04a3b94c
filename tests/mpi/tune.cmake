# End-to-end test of `mpiguide tune` on the test variant of the tool (a deliberately slow
# MPI_Bcast default, MPIGUIDE_TEST_ALGORITHMS; see tests/mpi/bench.cmake for the variant).
if(TARGET mpiguide_testalgs_cli)
  add_test(NAME mpi.tune_e2e.np2
    COMMAND timeout 600 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/tune_e2e.sh
            $<TARGET_FILE:mpiguide_testalgs_cli> ${MPIEXEC_EXECUTABLE} 2
            ${CMAKE_CURRENT_BINARY_DIR}/tune_e2e)
  set_tests_properties(mpi.tune_e2e.np2 PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2)
endif()
