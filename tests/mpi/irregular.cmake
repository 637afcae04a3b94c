# Irregular collectives (TUW Gatherv/Scatterv and the padding guideline): the correctness
# matrix with the default configuration and with heavy graceful degradation and a small pool,
# and the distributed tree construction against the pure tree. p = 1..9 with Open MPI, 1..3 with
# MPICH.
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(MG_IRREGULAR_NPS 1 2 3 4 5 6 7 8 9)
else()
  set(MG_IRREGULAR_NPS 1 2 3)
endif()

# Linked with the core objects (as the unit tests are): the harness uses internal symbols that
# libmpiguide.so keeps hidden.
add_executable(irregular mpi/irregular.c mpi/mpitest.c $<TARGET_OBJECTS:mgcore>)
target_include_directories(irregular PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include
  ${CMAKE_CURRENT_SOURCE_DIR}/mpi)
target_link_libraries(irregular PRIVATE mgpure MPI::MPI_C)
mg_mpi_test(irregular NPS ${MG_IRREGULAR_NPS} TIMEOUT 600)

# Degradation everywhere: subtrees above 64 bytes go straight to the root, buffers above the
# 2048-byte pool too (and the padding mock-ups fall back after their Allreduce).
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/irregular_degrade.conf
  "tuw_degrade_bytes 64\nsize_msg_buffer_bytes 2048\n")
foreach(np ${MG_IRREGULAR_NPS})
  add_test(NAME mpi.irregular_degrade.np${np}
    COMMAND timeout 600 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np}
            ${MPIEXEC_PREFLAGS} $<TARGET_FILE:irregular> ${MPIEXEC_POSTFLAGS} --np=${np} --big)
  set_tests_properties(mpi.irregular_degrade.np${np} PROPERTIES ENVIRONMENT
    "${MG_MPI_ENV};MPIGUIDE_CONFIG=${CMAKE_CURRENT_BINARY_DIR}/irregular_degrade.conf"
    PROCESSORS 2)
endforeach()

# The distributed construction is internal: link the core objects directly.
add_executable(irregular_tree mpi/irregular_tree.c mpi/mpitest.c $<TARGET_OBJECTS:mgcore>)
target_include_directories(irregular_tree PRIVATE ${CMAKE_SOURCE_DIR}/src
  ${CMAKE_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/mpi)
target_link_libraries(irregular_tree PRIVATE mgpure MPI::MPI_C)
mg_mpi_test(irregular_tree NPS ${MG_IRREGULAR_NPS} TIMEOUT 300)

# The irregular benchmark program (bench/irregular.sh runs it): public API only.
add_executable(bench_irregular ${CMAKE_SOURCE_DIR}/bench/irregular.c)
target_include_directories(bench_irregular PRIVATE ${CMAKE_SOURCE_DIR}/src
  ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(bench_irregular PRIVATE mpiguide mgpure MPI::MPI_C)
set_target_properties(bench_irregular PROPERTIES BUILD_RPATH "${CMAKE_BINARY_DIR}/lib")
