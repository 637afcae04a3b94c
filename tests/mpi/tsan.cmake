# ThreadSanitizer over MPI_THREAD_MULTIPLE: a separate small tree (build/<mpi>/tsan)
# with -DMPIGUIDE_TSAN=ON builds only libmpiguide and intercept_threads_linked, and
# tests/tsan/run.sh runs the 4-thread test forced and tuned; any report but those of the MPI's
# own code (tests/tsan/tsan.supp) fails. About 30 s, most of it building. Label `tsan`.
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_FLAGS -fsanitize=thread)
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=thread)
check_c_source_compiles("int main(void) { return 0; }" MG_TSAN_WORKS)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(MG_TSAN_WORKS AND NOT MPIGUIDE_TSAN)
  string(REPLACE ";" "," IC_THREAD_FORCED "${IC_THREAD_ALGS}")
  add_test(NAME tsan.threads
    COMMAND timeout 600 ${CMAKE_SOURCE_DIR}/tests/tsan/run.sh ${CMAKE_SOURCE_DIR}
            ${CMAKE_BINARY_DIR}/tsan ${MPIGUIDE_MPI} ${MPIEXEC_EXECUTABLE} ${IC}/threads
            ${IC_THREAD_FORCED})
  set_tests_properties(tsan.threads PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
    LABELS tsan TIMEOUT 700)
elseif(NOT MG_TSAN_WORKS)
  message(STATUS "mpiguide: the compiler cannot build with -fsanitize=thread; tsan.threads skipped")
endif()
