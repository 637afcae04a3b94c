# The launcher check of the MPI subcommands (src/bench/launcher.c), run as singletons with the
# environment of srun's tasks: no scheduler needed. Included by tests/CMakeLists.txt.
add_test(NAME mpi.launcher_check
  COMMAND timeout 300 bash ${CMAKE_CURRENT_SOURCE_DIR}/mpi/launcher_check.sh
          $<TARGET_FILE:mpiguide_cli> ${CMAKE_CURRENT_BINARY_DIR}/launcher_check)
set_tests_properties(mpi.launcher_check PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2)
