# End-to-end test of `mpiguide tune` on the test variant of the tool (a deliberately slow
# MPI_Bcast default, MPIGUIDE_TEST_ALGORITHMS; see tests/mpi/bench.cmake for the variant).
if(TARGET mpiguide_testalgs_cli)
  add_test(NAME mpi.tune_e2e.np2
    COMMAND timeout 600 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/tune_e2e.sh
            $<TARGET_FILE:mpiguide_testalgs_cli> ${MPIEXEC_EXECUTABLE} 2
            ${CMAKE_CURRENT_BINARY_DIR}/tune_e2e)
  set_tests_properties(mpi.tune_e2e.np2 PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2)
  # a disturbed validation launch (its default 10x slower than in the check) is set aside and
  # that line validated once more
  add_test(NAME mpi.tune_disturbed.np2
    COMMAND timeout 600 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/tune_disturbed.sh
            $<TARGET_FILE:mpiguide_testalgs_cli> ${MPIEXEC_EXECUTABLE} 2
            ${CMAKE_CURRENT_BINARY_DIR}/tune_disturbed)
  set_tests_properties(mpi.tune_disturbed.np2 PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2)
  # the same with one busy process per core besides (label `load`)
  mg_load_test(tune_e2e.np2 TIMEOUT 420
    COMMAND timeout 400 ${MG_UNDER_LOAD} env LOAD=1 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/tune_e2e.sh
            $<TARGET_FILE:mpiguide_testalgs_cli> ${MPIEXEC_EXECUTABLE} 2
            ${CMAKE_CURRENT_BINARY_DIR}/load_tune_e2e)
endif()

# End to end of tuning for an application: record a test program (MPI_Allreduce and MPI_Bcast on
# MPI_DOUBLE at irregular sizes, on MPI_COMM_WORLD and on a half-size split), `tune --for` the
# record with the slow MPI_Allreduce default of the test variant, then the tuned run must cover
# every MPI_Allreduce call with a mock-up on both communicator sizes. Open MPI at 4 ranks (halves
# of 2); MPICH at 2 (more ranks than cores busy-poll there, milliseconds per collective).
if(TARGET mpiguide_testalgs_cli)
  add_executable(apptune_app mpi/apptune_app.c)
  target_link_libraries(apptune_app PRIVATE MPI::MPI_C)
  if(MPIGUIDE_MPI STREQUAL "openmpi")
    set(np 4)
  else()
    set(np 2)
  endif()
  add_test(NAME mpi.apptune_e2e.np${np}
    COMMAND timeout 1200 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/apptune_e2e.sh
            $<TARGET_FILE:mpiguide_testalgs_cli> $<TARGET_FILE:mpiguide_testalgs>
            $<TARGET_FILE:apptune_app> ${MPIEXEC_EXECUTABLE} ${np}
            ${CMAKE_CURRENT_BINARY_DIR}/apptune_e2e)
  set_tests_properties(mpi.apptune_e2e.np${np} PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2)
  # under load at 2 ranks on both MPIs: 4 ranks and 2 busy processes on 2 cores took 516 s
  mg_load_test(apptune_e2e.np2 TIMEOUT 900
    COMMAND timeout 880 ${MG_UNDER_LOAD} env LOAD=1 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/apptune_e2e.sh
            $<TARGET_FILE:mpiguide_testalgs_cli> $<TARGET_FILE:mpiguide_testalgs>
            $<TARGET_FILE:apptune_app> ${MPIEXEC_EXECUTABLE} 2
            ${CMAKE_CURRENT_BINARY_DIR}/load_apptune_e2e)
endif()

# End to end of issue 27 (every collective an application calls): MPI_Gatherv (irregular),
# MPI_Allgatherv, MPI_Alltoallv and MPI_Barrier on MPI_COMM_WORLD and a half-size split,
# recorded, tuned for (slow MPI_Allgatherv default), every call covered in the tuned run.
# About 30-40 s at 4 ranks (Open MPI) or 2 (MPICH) on 2 cores.
if(TARGET mpiguide_testalgs_cli)
  add_executable(apptune_v_app mpi/apptune_v_app.c)
  target_link_libraries(apptune_v_app PRIVATE MPI::MPI_C)
  add_test(NAME mpi.apptune_v_e2e.np${np}
    COMMAND timeout 900 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/apptune_v_e2e.sh
            $<TARGET_FILE:mpiguide_testalgs_cli> $<TARGET_FILE:mpiguide_testalgs>
            $<TARGET_FILE:apptune_v_app> ${MPIEXEC_EXECUTABLE} ${np}
            ${CMAKE_CURRENT_BINARY_DIR}/apptune_v_e2e)
  set_tests_properties(mpi.apptune_v_e2e.np${np} PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2)
endif()
