# The tests of the SMPI tree (label smpi; tests/CMakeLists.txt includes only this file there):
# the chain under smpirun on examples/platforms/small-8x8.xml. Each script prints what failed
# and `1 passed, 0 failed`; every launch is bounded by timeout.
#
# The other tests are not registered here (docs/dev/contributing.md, "The SMPI tree"): the unit
# tests and fuzzers check MPI-free code that is the same in every tree and run in the Open MPI
# and MPICH trees; the MPI tests start their programs as Open MPI and MPICH do (`mpiexec -n N
# env VAR=... prog`, LD_PRELOAD of libmpiguide.so), which smpirun cannot (its first word is the
# program, a preloaded library is neither privatised nor seen by the program); libalg needs
# MPI_T, which SMPI lacks; Fortran, valgrind, tsan, slurm, browser and package test things
# SMPI does not have or that do not depend on the MPI.
set(MG_SMPI_DIR ${CMAKE_CURRENT_SOURCE_DIR}/smpi)
set(MG_SMPI_WORK ${CMAKE_CURRENT_BINARY_DIR}/smpi)

# The application of the chain, built with smpicc and linked with libmpiguide-smpi.a whole (SMPI
# declares the MPI functions weak, so an archive member is not pulled in by a reference).
add_executable(smpi_chain_app ${MG_SMPI_DIR}/chain_app.c)
add_dependencies(smpi_chain_app mpiguide_static)
target_link_libraries(smpi_chain_app PRIVATE
  "-Wl,--whole-archive" $<TARGET_FILE:mpiguide_static> "-Wl,--no-whole-archive")

# The same application linked with the shared libmpiguide-smpi.so (the test of sharing.sh); as
# the references are weak, only --no-as-needed keeps the library (Debian's gcc links as needed).
add_executable(smpi_chain_app_shared ${MG_SMPI_DIR}/chain_app.c)
target_link_options(smpi_chain_app_shared PRIVATE "LINKER:--no-as-needed")
target_link_libraries(smpi_chain_app_shared PRIVATE mpiguide)
set_target_properties(smpi_chain_app_shared PROPERTIES BUILD_RPATH "${CMAKE_BINARY_DIR}/lib")

# bench/online_sim.c, linked the same way: online mode at 64 ranks (online.sh)
add_executable(smpi_online_sim ${CMAKE_SOURCE_DIR}/bench/online_sim.c)
add_dependencies(smpi_online_sim mpiguide_static)
target_link_libraries(smpi_online_sim PRIVATE
  "-Wl,--whole-archive" $<TARGET_FILE:mpiguide_static> "-Wl,--no-whole-archive")

# bench/online_pairs.c (docs/online.md "Pairs inside a pipelined loop"), built so that it
# compiles under -Werror; it needs no libmpiguide
add_executable(smpi_online_pairs ${CMAKE_SOURCE_DIR}/bench/online_pairs.c)

# mg_smpi_test(NAME SCRIPT ARGS...)
function(mg_smpi_test name script)
  add_test(NAME smpi.${name}
    COMMAND timeout 900 bash ${MG_SMPI_DIR}/${script} ${CMAKE_SOURCE_DIR} ${ARGN})
  set_tests_properties(smpi.${name} PROPERTIES LABELS smpi PROCESSORS 1
    FAIL_REGULAR_EXPRESSION "FAIL:")
endfunction()

set(bin $<TARGET_FILE:mpiguide_cli>)
mg_smpi_test(selftest.ompi selftest.sh ${bin} ompi ${MG_SMPI_WORK}/selftest_ompi)
mg_smpi_test(selftest.mpich selftest.sh ${bin} mpich ${MG_SMPI_WORK}/selftest_mpich)
mg_smpi_test(identical identical.sh ${bin} ${MG_SMPI_WORK}/identical)
mg_smpi_test(layout layout.sh ${bin} $<TARGET_FILE:smpi_chain_app> ${MG_SMPI_WORK}/layout)
mg_smpi_test(chain chain.sh ${bin} $<TARGET_FILE:smpi_chain_app> ${MG_SMPI_WORK}/chain)
mg_smpi_test(online online.sh $<TARGET_FILE:smpi_online_sim> ${MG_SMPI_WORK}/online)
mg_smpi_test(sharing sharing.sh $<TARGET_FILE:smpi_chain_app_shared>
  ${CMAKE_BINARY_DIR}/lib/$<TARGET_SONAME_FILE_NAME:mpiguide> ${MG_SMPI_WORK}/sharing)

# The reproducers of the known SMPI defects, as written and linked with the library.
set(mg_smpi_defects)
foreach(d "smpi-reduce-ompi-count-zero|Reduce|reduce_as_allreduce"
          "smpi-reduce-scatter-ompi-zero-counts|Reduce_scatter|reducescatter_as_allreduce")
  string(REPLACE "|" ";" parts "${d}")
  list(GET parts 0 name)
  list(GET parts 1 coll)
  list(GET parts 2 alg)
  string(REPLACE "-" "_" exe "smpi_defect_${name}")
  add_executable(${exe} ${CMAKE_SOURCE_DIR}/src/defects/reproducers/${name}.c)
  add_executable(${exe}_mg ${CMAKE_SOURCE_DIR}/src/defects/reproducers/${name}.c)
  add_dependencies(${exe}_mg mpiguide_static)
  target_link_libraries(${exe}_mg PRIVATE
    "-Wl,--whole-archive" $<TARGET_FILE:mpiguide_static> "-Wl,--no-whole-archive")
  list(APPEND mg_smpi_defects ${name} $<TARGET_FILE:${exe}> $<TARGET_FILE:${exe}_mg> ${coll} ${alg})
endforeach()
mg_smpi_test(defects defects.sh ${MG_SMPI_WORK}/defects ${mg_smpi_defects})
