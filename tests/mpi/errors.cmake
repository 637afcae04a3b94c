# An MPI error inside a mock-up is returned to the caller under MPI_ERRORS_RETURN (invalid
# datatype for every algorithm, invalid op for the reductions, invalid root for Scatter(v);
# the documented declines of exscan_as_scan_inverse and the own-op repairs),
# never swallowed, fatal or hung. One test per algorithm at np = 3 (at np = 1 several mock-ups
# rightly make no MPI call at all), so an abort in one does not hide the others.
mg_mpi_test(errors SOURCES mpi/errors.c NPS) # the executable; tests below

set(MG_ALGDEF ${CMAKE_SOURCE_DIR}/src/catalog/algorithms.def)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${MG_ALGDEF})
file(STRINGS ${MG_ALGDEF} MG_ALG_ROWS REGEX "^MG_ALG\\(")
foreach(row ${MG_ALG_ROWS})
  # MPI_Barrier's mock-ups: no argument but the communicator, checked by dispatch (errors.c)
  if(row MATCHES "MG_AF_TESTONLY" OR row MATCHES "^MG_ALG\\(BARRIER,")
    continue()
  endif()
  string(REGEX REPLACE "^MG_ALG\\([A-Z_]+, *([a-z0-9_]+),.*" "\\1" alg "${row}")
  add_test(NAME mpi.errors.${alg}.np3
    COMMAND timeout 120 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 3 ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:errors> ${MPIEXEC_POSTFLAGS} --np=3 --alg=${alg})
  set_tests_properties(mpi.errors.${alg}.np3 PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2)
endforeach()
