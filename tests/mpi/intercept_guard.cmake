# The in-application guard (docs/interception.md "The guard"), on the test
# variant of the library (MPIGUIDE_TEST_ALGORITHMS): a profile entry made deliberately wrong
# (MPIGUIDE_TEST_SLOW_ALG makes allreduce_as_reduce_bcast 200 us slower) is switched off (or,
# when the samples are too noisy, left undecided: both run the default) on every rank at the
# same call, the run completes with correct results and the report says so;
# a good entry against the slow-default variant (MPIGUIDE_TEST_SLOW_DEFAULT) is confirmed and
# kept; with MPIGUIDE_GUARD=0 the wrong entry runs to the end. Runs through ic_test
# (intercept.cmake, included before this file).
if(NOT TARGET mpiguide_testalgs)
  return()
endif()
add_executable(guard_app mpi/guard_app.c)
target_link_libraries(guard_app PRIVATE MPI::MPI_C)

set(GD ${IC}/guard)
foreach(p 2 3)
  file(WRITE ${GD}/allreduce_p${p}.prf
    "MPI_Allreduce\n${p}\n1\n1 allreduce_as_reduce_bcast\n1\n0 9223372036854775807 1\n")
  file(WRITE ${GD}/bcast_p${p}.prf
    "MPI_Bcast\n${p}\n1\n1 bcast_as_allgatherv\n1\n0 9223372036854775807 1\n")
endforeach()
set(GD_RUN env LD_PRELOAD=$<TARGET_FILE:mpiguide_testalgs> MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${GD} MPIGUIDE_TEST_SLOW_ALG=allreduce_as_reduce_bcast
  MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Bcast)
set(GD_OK "guard_app: [0-9]+ passed, 0 failed")
# 3 ranks on the 2-core machine only under Open MPI, which yields when oversubscribed: MPICH
# busy-polls, a collective then costs a scheduler time slice, and no local timing (the guard's
# or the benchmark's) can be trusted (docs/interception.md, "The guard")
set(GD_NPS 2)
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(GD_NPS 2 3)
endif()
# The wrong entry must end off or undecided (both run the default from then on), never
# confirmed or still checking, on both communicators, with a line saying which; the good entry
# decided too. Quiet: the good one confirmed, or undecided with the report saying
# that windows were disturbed (ranks switched out of their cores: 3 ranks on 2 cores, or other
# jobs on the machine). Label `load` (one busy process per core besides): the same checks on the
# wrong entry, and the good one not left checking.
# (an entry switched off hands its later calls to the fast path, so its line counts the calls up
# to the first that ran the default: ic.guard_off_fast checks those took the fast path)
set(GD_WRONG "MPI_Allreduce p=NP msize=1024 alg=allreduce_as_reduce_bcast calls=")
foreach(np ${GD_NPS})
  string(REPLACE "NP" "${np}" wrong "${GD_WRONG}")
  set(expect ${GD_OK}
    "mpiguide: warning: libmpiguide: guard: MPI_Allreduce 1024 B on ${np} ranks: allreduce_as_reduce_bcast (is slower than the default|undecided)"
    "#@mpiguide guard ${wrong}([0-9]+ [^#]*state=off off_after|300 [^#]*state=undecided undecided_after)=[0-9]+ ranks_agree=yes"
    "#@mpiguide guard ${wrong}([0-9]+ [^#]*state=off off_after|300 [^#]*state=undecided undecided_after)=[0-9]+\n"
    "#@pgmpi alg MPI_Allreduce 1024 default\n"
    "calls MPI_Allreduce total=601 mockup=[0-9]+ [^#]* guard_default=[1-9]")
  set(reject "ranks_agree=no" "guard ${wrong}[0-9]+ [^#]*state=(confirmed|checking)"
    "guard MPI_Bcast p=${np} msize=1024 [^#]*state=checking")
  # WORLD and a duplicate freed before the end: each communicator has its own guard
  ic_test(guard_wrong_entry_np${np} NP ${np} RUN ${GD_RUN} $<TARGET_FILE:guard_app> --dup
    EXPECT ${expect}
      "#@mpiguide guard MPI_Bcast p=${np} msize=1024 alg=bcast_as_allgatherv calls=300 [^#]*(state=confirmed|disturbed=[1-9][0-9]* state=undecided undecided_after=[0-9]+) ranks_agree=yes"
    REJECT ${reject} "guard MPI_Bcast [^#]*state=off")
  ic_test(guard_wrong_entry_np${np} LOAD NP ${np} RUN ${GD_RUN} $<TARGET_FILE:guard_app> --dup
    EXPECT ${expect} REJECT ${reject})
endforeach()
# once off, the wrong entry's calls take the wrapper's fast path (the memo of the default)
add_test(NAME ic.guard_off_fast COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/guard_off_fast.sh
  ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:mpiguide_testalgs> ${GD} MPI_Allreduce
  allreduce_as_reduce_bcast 2000 $<TARGET_FILE:guard_app> --calls=2000)
set_tests_properties(ic.guard_off_fast PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
  TIMEOUT 800)
# the same wrong entry without the guard: it runs on every call, nothing is switched off
foreach(load "" LOAD)
  ic_test(guard_off ${load} NP 2 RUN ${GD_RUN} MPIGUIDE_GUARD=0 $<TARGET_FILE:guard_app> --calls=150
    EXPECT ${GD_OK} "calls MPI_Allreduce total=151 mockup=151 [^#]* guard_default=0"
      "#@pgmpi alg MPI_Allreduce 1024 allreduce_as_reduce_bcast\n"
    REJECT "#@mpiguide guard" "libmpiguide: guard:")
endforeach()

# The guard of nonblocking collectives (nb_guard.c; docs/interception.md "The guard of
# nonblocking collectives"): a profile entry of MPI_Iallreduce, a library algorithm, without
# MPIGUIDE_NONBLOCKING. Made 200 us slower (MPIGUIDE_TEST_SLOW_ALG), it is switched off (or left
# undecided: both run the default) on every rank at the same call, agreed at a blocking
# MPI_Allreduce, with correct results; against the slow default (MPIGUIDE_TEST_SLOW_DEFAULT) it is
# kept (confirmed, or undecided with disturbed windows). Without the guard neither has a line.
add_executable(nb_guard_app mpi/nb_guard_app.c)
target_link_libraries(nb_guard_app PRIVATE MPI::MPI_C)
# (NBG2_GOOD: the other algorithm of ic.nb_guard_two_types below)
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(NBG_ALG iallreduce_lib_ring)
  set(NBG2_GOOD iallreduce_lib_binomial)
else()
  set(NBG_ALG iallreduce_lib_sched_recursive_doubling)
  set(NBG2_GOOD iallreduce_lib_sched_naive)
endif()
set(NBG ${IC}/nbguard)
file(WRITE ${NBG}/iallreduce_p2.prf
  "MPI_Iallreduce\n2\n1\n1 ${NBG_ALG}\n1\n0 9223372036854775807 1\n")
set(NBG_RUN env LD_PRELOAD=$<TARGET_FILE:mpiguide_testalgs> MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${NBG})
set(NBG_LINE "#@mpiguide guard MPI_Iallreduce p=2 msize=1024 alg=${NBG_ALG} calls=")
ic_test(nb_guard_wrong_entry NP 2 RUN ${NBG_RUN} MPIGUIDE_TEST_SLOW_ALG=${NBG_ALG}
    $<TARGET_FILE:nb_guard_app> 300
  EXPECT "nb_guard_app: 600 passed, 0 failed"
    "mpiguide: warning: libmpiguide: guard: MPI_Iallreduce 1024 B on 2 ranks: ${NBG_ALG} (is slower than the default|undecided)"
    "${NBG_LINE}([0-9]+ [^#]*state=off off_after|300 [^#]*state=undecided undecided_after)=[0-9]+ ranks_agree=yes"
    "calls MPI_Iallreduce total=300 [^#]* guard_default=[1-9]"
  REJECT "ranks_agree=no" "state=(confirmed|checking)")
# once off, the nonblocking entry's starts take the wrapper's fast path too
add_test(NAME ic.nb_guard_off_fast COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/guard_off_fast.sh
  ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:mpiguide_testalgs> ${NBG} MPI_Iallreduce ${NBG_ALG} 1000
  $<TARGET_FILE:nb_guard_app> 1000)
set_tests_properties(ic.nb_guard_off_fast PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
  TIMEOUT 800)
# Without a blocking collective on the communicator no verdict is ever agreed: after its first
# window the slow entry waits for one running the default (guard_default counts those calls), and
# the run ends without a hang, its line still `checking`.
ic_test(nb_guard_no_blocking NP 2 RUN ${NBG_RUN} MPIGUIDE_TEST_SLOW_ALG=${NBG_ALG}
    $<TARGET_FILE:nb_guard_app> 600 nonblocking-only
  EXPECT "nb_guard_app: 1200 passed, 0 failed"
    "calls MPI_Iallreduce total=600 [^#]* guard_default=(4[0-9][0-9]|5[0-9][0-9]) "
    "${NBG_LINE}600 [^#]*state=checking")
ic_test(nb_guard_good_entry NP 2 RUN ${NBG_RUN} MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Iallreduce
    $<TARGET_FILE:nb_guard_app> 600
  EXPECT "nb_guard_app: 1200 passed, 0 failed"
    "${NBG_LINE}600 [^#]*(state=confirmed|disturbed=[1-9][0-9]* state=undecided undecided_after=[0-9]+) ranks_agree=yes"
  REJECT "state=off" "state=checking" "libmpiguide: guard: MPI_Iallreduce [^\n]*slower")
# Two profiles of one size, MPI_Iallreduce of 1,024 B as 128 MPI_DOUBLE and as 256 MPI_INT
# (nb_guard_app two-types, the calls alternating), choosing other library algorithms: the
# doubles' one made 200 us slower (MPIGUIDE_TEST_SLOW_ALG), the ints' one faster than the default
# made 100 us slower (MPIGUIDE_TEST_SLOW_DEFAULT_US). Each entry is guarded on its own samples
# (nb_guard.c: a slot per collective, size and algorithm): two lines of 600 calls, the slow entry
# switched off (or undecided), the good one kept (confirmed or still checking; on a loaded
# machine, whose disturbed windows the report counts, also switched off or undecided: a false
# "slower" is allowed by the guard's rule, guard_rule.c). One slot per size (before a86d5cc)
# gives one line of 1,200 calls judged on the samples of both (seen: undecided after call 252,
# the good entry's calls running the default with the slow one's).
set(NBG2 ${IC}/nbguard_two)
file(WRITE ${NBG2}/MPI_Iallreduce_p2_MPI_DOUBLE_MPI_SUM.prf
  "#@datatype=MPI_DOUBLE\n#@operation=MPI_SUM\nMPI_Iallreduce\n2\n1\n1 ${NBG_ALG}\n1\n0 9223372036854775807 1\n")
file(WRITE ${NBG2}/MPI_Iallreduce_p2_MPI_INT_MPI_SUM.prf
  "#@datatype=MPI_INT\n#@operation=MPI_SUM\nMPI_Iallreduce\n2\n1\n1 ${NBG2_GOOD}\n1\n0 9223372036854775807 1\n")
set(NBG2_LINE "#@mpiguide guard MPI_Iallreduce p=2 msize=1024 alg=")
ic_test(nb_guard_two_types NP 2 RUN env LD_PRELOAD=$<TARGET_FILE:mpiguide_testalgs>
    MPIGUIDE_REPORT=1 MPIGUIDE_PROFILES=${NBG2} MPIGUIDE_TEST_SLOW_ALG=${NBG_ALG}
    MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Iallreduce MPIGUIDE_TEST_SLOW_DEFAULT_US=100
    $<TARGET_FILE:nb_guard_app> 600 two-types
  EXPECT "nb_guard_app: 1200 passed, 0 failed"
    "mpiguide: warning: libmpiguide: guard: MPI_Iallreduce 1024 B on 2 ranks: ${NBG_ALG} (is slower than the default|undecided)"
    "${NBG2_LINE}${NBG_ALG} calls=([0-9]+ [^#]*state=off off_after|600 [^#]*state=undecided undecided_after)=[0-9]+ ranks_agree=yes"
    "${NBG2_LINE}${NBG2_GOOD} calls=(600 [^#]*(state=confirmed|state=checking|disturbed=[1-9][0-9]* state=undecided undecided_after=[0-9]+)|[0-9]+ [^#]*disturbed=[1-9][0-9]* state=off off_after=[0-9]+) ranks_agree=yes"
    "calls MPI_Iallreduce total=1200 [^#]* guard_default=[1-9]"
  REJECT "ranks_agree=no" "alg=${NBG_ALG} [^#]*state=(confirmed|checking)"
    "alg=${NBG2_GOOD} [^#]*disturbed=0 state=(off|undecided)")
