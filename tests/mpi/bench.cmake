# Tests of the benchmark (mpiguide bench / nrep) under the tree's own launcher, and the build
# pieces they need. Included by tests/CMakeLists.txt.
#
# MPIGUIDE_TEST_ALGORITHMS (default ON) builds a test variant of the library and the CLI,
# `mpiguide-testalgs`, whose registry also holds the deliberately wrong algorithms of
# src/algorithms/testonly.c (rows under #ifdef MPIGUIDE_TEST_ALGORITHMS at the end of
# algorithms.def). The test of `bench --verify` runs that binary; the real library and
# `mpiguide` never contain those rows.
option(MPIGUIDE_TEST_ALGORITHMS "Build the mpiguide-testalgs variant for the tests of --verify" ON)

set(MG_BENCH_SRC ${CMAKE_SOURCE_DIR}/src/bench)
file(GLOB MG_BENCH_SOURCES CONFIGURE_DEPENDS ${MG_BENCH_SRC}/*.c)
list(REMOVE_ITEM MG_BENCH_SOURCES ${mg_pure_abs} ${MG_VARIANT_SKIP})

if(MPIGUIDE_TEST_ALGORITHMS)
  get_target_property(mg_core_sources mgcore SOURCES)
  # its own catalog, with the test rows, binds inside the library before mgpure's
  add_library(mgcore_testalgs OBJECT ${mg_core_sources} ${CMAKE_SOURCE_DIR}/src/catalog/catalog.c)
  target_include_directories(mgcore_testalgs PUBLIC ${CMAKE_SOURCE_DIR}/src
    ${CMAKE_SOURCE_DIR}/include)
  target_compile_definitions(mgcore_testalgs PUBLIC MPIGUIDE_TEST_ALGORITHMS)
  target_link_libraries(mgcore_testalgs PUBLIC MPI::MPI_C mgpure)
  set_target_properties(mgcore_testalgs PROPERTIES C_VISIBILITY_PRESET hidden)
  add_library(mpiguide_testalgs SHARED $<TARGET_OBJECTS:mgcore_testalgs>)
  target_link_libraries(mpiguide_testalgs PUBLIC MPI::MPI_C PRIVATE mgpure)
  set_target_properties(mpiguide_testalgs PROPERTIES C_VISIBILITY_PRESET hidden
    OUTPUT_NAME mpiguide-testalgs)
  get_target_property(mg_cli_sources mpiguide_cli SOURCES)
  add_executable(mpiguide_testalgs_cli ${mg_cli_sources})
  set_target_properties(mpiguide_testalgs_cli PROPERTIES OUTPUT_NAME mpiguide-testalgs
    BUILD_RPATH "${CMAKE_BINARY_DIR}/lib")
  # MPIGUIDE_TEST_HOOKS: the tool's test-only variables (MPIGUIDE_TEST_CLOCK_*, src/bench/clock.c)
  target_compile_definitions(mpiguide_testalgs_cli PRIVATE MG_BUILT_MPI="${MPIGUIDE_MPI}"
    MPIGUIDE_TEST_HOOKS)
  target_include_directories(mpiguide_testalgs_cli PRIVATE ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(mpiguide_testalgs_cli PRIVATE mpiguide_testalgs mgpure MPI::MPI_C)
endif()

# The harness-cost benchmark (bench/harness_cost.sh runs it): the observation loop on an empty
# operation, with malloc wrapped so allocations per observation can be counted.
add_executable(bench_harness_cost ${CMAKE_SOURCE_DIR}/bench/harness_cost.c ${MG_BENCH_SOURCES})
target_include_directories(bench_harness_cost PRIVATE ${CMAKE_SOURCE_DIR}/src
  ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(bench_harness_cost PRIVATE mpiguide mgpure MPI::MPI_C)
target_link_options(bench_harness_cost PRIVATE -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc)
set_target_properties(bench_harness_cost PROPERTIES BUILD_RPATH "${CMAKE_BINARY_DIR}/lib")

# MPI test of the observation loop itself (sync methods, budget, stop agreement, clocks).
mg_mpi_test(bench_loop SOURCES mpi/bench_loop.c ${MG_BENCH_SOURCES} NPS 1 2 3 TIMEOUT 300)
target_link_libraries(bench_loop PRIVATE mgpure)

# mg_bench_cli_test(CASE NPS n... [BIN path]): runs tests/mpi/bench_cli.cmake in script mode,
# which starts the CLI under the launcher (every run bounded by a timeout) and checks its files.
function(mg_bench_cli_test case)
  cmake_parse_arguments(T "" "BIN" "NPS" ${ARGN})
  if(NOT T_BIN)
    set(T_BIN $<TARGET_FILE:mpiguide_cli>)
  endif()
  foreach(np ${T_NPS})
    set(work ${CMAKE_CURRENT_BINARY_DIR}/bench_cli/${case}.np${np})
    add_test(NAME mpi.bench_cli.${case}.np${np}
      COMMAND timeout 600 ${CMAKE_COMMAND} -DCASE=${case} -DNP=${np} -DBIN=${T_BIN}
              -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNPFLAG=${MPIEXEC_NUMPROC_FLAG}
              -DWORK=${work} -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/bench_cli.cmake)
    set_tests_properties(mpi.bench_cli.${case}.np${np} PROPERTIES
      ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2)
  endforeach()
endfunction()

mg_bench_cli_test(rows NPS 1 2 3)
mg_bench_cli_test(usage NPS 2)
mg_bench_cli_test(budget NPS 2 3)
mg_bench_cli_test(resume NPS 2)
mg_bench_cli_test(locked NPS 2)
mg_bench_cli_test(sync NPS 2 3)
mg_bench_cli_test(nrep NPS 2)
mg_bench_cli_test(order NPS 2)
mg_bench_cli_test(interleave NPS 2)
mg_bench_cli_test(summary NPS 2)
mg_bench_cli_test(table NPS 2)
mg_bench_cli_test(appcond NPS 2)
mg_bench_cli_test(declines NPS 2)
mg_bench_cli_test(check_algs NPS 2)
if(MPIGUIDE_TEST_ALGORITHMS)
  mg_bench_cli_test(verify NPS 2 3 BIN $<TARGET_FILE:mpiguide_testalgs_cli>)
endif()
add_test(NAME mpi.bench_harness_cost.np2
  COMMAND timeout 300 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2
          $<TARGET_FILE:bench_harness_cost> --check --nrep=1000)
set_tests_properties(mpi.bench_harness_cost.np2 PROPERTIES ENVIRONMENT "${MG_MPI_ENV}"
  PROCESSORS 2)
