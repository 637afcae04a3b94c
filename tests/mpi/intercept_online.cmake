# Online mode (MPIGUIDE_ONLINE; docs/online.md) on the test variant of the library
# (MPIGUIDE_TEST_ALGORITHMS) with guard_app (intercept_guard.cmake): with MPI_Allreduce's default
# made 200 us slower, the run commits a faster candidate on every rank after the same call, its
# results are correct, the report shows the cell's exploring and its winner, and the profile it
# writes (MPIGUIDE_PROFILES_OUT) passes `profile check`; a second run started from that profile
# explores nothing for that cell and runs the entry under the guard (which on a busy machine may
# also find it undecided and warn: the guard's rule, docs/interception.md). With every candidate
# slower (online_budget.sh), nothing is committed and exploring stays within its budget (also under
# load). MPIGUIDE_ONLINE=rotate (every call the next candidate) is the correctness check:
# intercept_app runs correct under it, also with MPIGUIDE_VERIFY (and the matrix's
# intercepted:COLL and `selftest --random --intercepted` run every candidate through the public
# calls on their cases: matrix.cmake, selftest_random.cmake); under MPI_THREAD_MULTIPLE online
# mode is off with one line.
if(NOT TARGET mpiguide_testalgs)
  return()
endif()
set(OL ${IC}/online)
file(MAKE_DIRECTORY ${OL})
set(OL_TEST $<TARGET_FILE:mpiguide_testalgs>)
set(OL_LINE "#@mpiguide online MPI_Allreduce p=2 bytes=1024-2047 msize=1024 datatype=MPI_INT op=MPI_SUM")
# (a budget of 3 %: one descheduled probe on this shared machine can cost milliseconds, which
# the default's 1 % of the calls of ~200 us takes the whole run to pay back; 20,000 calls: on a
# quiet machine the cell commits after about 1,300, but with 2 MPICH ranks under a load of 7-10
# on 2 cores, whose waiting ranks busy-poll away their time slices, most pairs are disturbed,
# their charged cost pauses the cell, and it committed after 4,372 and 5,941 calls, past the
# 6,000 this test used to run)
ic_test(online_slow_default NP 2 RUN env LD_PRELOAD=${OL_TEST} MPIGUIDE_ONLINE=1 MPIGUIDE_REPORT=1
  MPIGUIDE_ONLINE_BUDGET=0.03 MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Allreduce MPIGUIDE_TEST_SLOW_DEFAULT_ALL=1
  MPIGUIDE_PROFILES_OUT=${OL}/learned $<TARGET_FILE:guard_app> --calls=20000
  EXPECT "guard_app: 40000 passed, 0 failed"
    "${OL_LINE} calls=20000 fast=[1-9][0-9]* explored=[0-9]+ candidate_calls=[1-9][0-9]* cost_s=[-0-9.e]+ budget_s=[0-9.e-]+ over_s=[0-9.e-]+ candidates=[1-9][0-9]* dropped=[0-9]+ paused=[0-9]+ state=committed winner=[a-z_]+ best=[a-z_]+ speedup=[0-9.e+]+ ci95=[0-9.e+-]+[.][.][0-9.e+-]+ after=[0-9]+ ranks_agree=yes"
    "#@mpiguide guard MPI_Allreduce p=2 msize=1024 alg=[a-z_]+ calls=[1-9][0-9]* [^#]*state=(confirmed|checking|undecided)"
    "#@mpiguide online all cells=[0-9]+ raced=[1-9][0-9]* committed=[1-9][0-9]* [^#]*profiles_written=[1-9]"
  REJECT "ranks_agree=no" "mpiguide: error" "mpiguide: warning: MPIGUIDE")
set_tests_properties(ic.online_slow_default PROPERTIES FIXTURES_SETUP online_learned)
# the same with the ranks' clocks taken as on several nodes (MPIGUIDE_TEST_CLOCKS=apart: the
# frontier times on each rank's scale from its exit of the last agreement, comm_private.h)
ic_test(online_clocks_apart NP 2 RUN env LD_PRELOAD=${OL_TEST} MPIGUIDE_ONLINE=1 MPIGUIDE_REPORT=1
  MPIGUIDE_ONLINE_BUDGET=0.03 MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Allreduce MPIGUIDE_TEST_SLOW_DEFAULT_ALL=1
  MPIGUIDE_TEST_CLOCKS=apart $<TARGET_FILE:guard_app> --calls=20000
  EXPECT "guard_app: 40000 passed, 0 failed"
    "${OL_LINE} calls=20000 [^#]* state=committed winner=[a-z_]+ [^#]*ranks_agree=yes"
  REJECT "ranks_agree=no" "mpiguide: error" "mpiguide: warning: MPIGUIDE")
# what it learned: a valid profile that says so
ic_test(online_profile_check NP 1 RUN $<TARGET_FILE:mpiguide_cli> profile check ${OL}/learned
  EXPECT "MPI_Allreduce_p2.prf: MPI_Allreduce, 2 processes"
    "measured with: mpi_library=[^\n]* datatype=MPI_INT operation=MPI_SUM"
    "learned online at 1024 bytes: [a-z_]+ \\([0-9]+ calls, [0-9]+ timed, [1-9][0-9]* candidates, cost [^,]+, speed-up [0-9.e+]+, 95% interval"
    "valid profiles?, 0 problems")
set_tests_properties(ic.online_profile_check PROPERTIES FIXTURES_REQUIRED online_learned)
# the next run starts from it: that cell is the profile's (the guard checks it), nothing explored
ic_test(online_from_profile NP 2 RUN env LD_PRELOAD=${OL_TEST} MPIGUIDE_ONLINE=1 MPIGUIDE_REPORT=1
  MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Allreduce MPIGUIDE_TEST_SLOW_DEFAULT_ALL=1 MPIGUIDE_PROFILES=${OL}/learned
  $<TARGET_FILE:guard_app> --calls=1000
  EXPECT "guard_app: 2000 passed, 0 failed"
    "#@mpiguide guard MPI_Allreduce p=2 msize=1024 alg=[a-z_]+ calls=1000 [^#]*state=(confirmed|checking|undecided)"
    "#@mpiguide calls MPI_Allreduce total=1001 (mockup=[1-9]|mockup=0 [^#]* library=[1-9])"
  REJECT "${OL_LINE}" "mpiguide: error" "mpiguide: warning: MPIGUIDE")
set_tests_properties(ic.online_from_profile PROPERTIES FIXTURES_REQUIRED online_learned)

# every candidate slower: never committed, within budget (a larger share than the default, so
# that the 200 us of each probe are affordable within a short run)
set(OL_BUDGET ${CMAKE_CURRENT_SOURCE_DIR}/mpi/online_budget.sh ${MPIEXEC_EXECUTABLE} 2 ${OL_TEST}
  $<TARGET_FILE:guard_app> 20000 0.5)
add_test(NAME ic.online_all_slower COMMAND ${OL_BUDGET})
set_tests_properties(ic.online_all_slower PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
  TIMEOUT 300)
mg_load_test(online_all_slower TIMEOUT 300 COMMAND ${MG_UNDER_LOAD} env TOLERANCE_S=0.02
  ${OL_BUDGET})

# a cell paused by the budget takes the fast path between its timed calls, and every call counts
add_test(NAME ic.online_fast COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/online_fast.sh
  ${MPIEXEC_EXECUTABLE} 2 ${OL_TEST} $<TARGET_FILE:guard_app> 20000)
set_tests_properties(ic.online_fast PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
  TIMEOUT 300)

# correctness: every candidate in turn (rotate), through the public calls
set(OL_ROT env MPIGUIDE_ONLINE=rotate MPIGUIDE_REPORT=1)
ic_test(online_rotate NP 3 RUN ${OL_ROT} LD_PRELOAD=${IC_LIB} ${IC_APP}
  EXPECT ${IC_OK} "#@mpiguide online MPI_Allreduce p=3 [^#]*candidate_calls=[1-9][0-9]* [^#]*state=rotating"
  REJECT "mpiguide: (error|warning)")
ic_test(online_rotate_verify NP 2 RUN ${OL_ROT} MPIGUIDE_VERIFY=1 LD_PRELOAD=${IC_LIB} ${IC_APP}
  EXPECT ${IC_OK} "calls MPI_Allreduce [^#]*verified=[1-9][0-9]* verify_mismatch=0"
  REJECT "verify_mismatch=[1-9]")
ic_test(online_threads NP 2 RUN env MPIGUIDE_ONLINE=1 MPIGUIDE_REPORT=1 LD_PRELOAD=${IC_LIB}
  $<TARGET_FILE:intercept_threads>
  EXPECT "intercept_threads: 4 threads, 0 failed"
    "mpiguide: warning: MPIGUIDE_ONLINE: not available under MPI_THREAD_MULTIPLE; online mode off"
  REJECT "#@mpiguide online")
# the matrix and the random selftest through online mode: matrix.cmake, selftest_random.cmake
