# The random differential test in CI (docs/defects.md): a fixed-seed run of
# `mpiguide selftest --random` at p = 3 over every collective fails on any mock-up defect, new
# library defect, unexplained mismatch or error (its exit code), and must say so in its summary.
# 1,000 calls per collective (12,000 calls) on both MPIs. MPICH busy-polls with 3 ranks on 2
# cores (a small collective then takes one scheduler tick, ~4 ms), so its ranks preload
# bench/ucx_yield.c, which yields the core when a UCX poll found nothing (semantics unchanged;
# 23-30 s in the full suite, where 84 calls per collective without it took 93 s);
# bench/fuzz_collectives.sh does the same for the full count.
# Then --repro: a case of a known library defect of this MPI, named by seed and number, writes
# a reproducer that builds with this MPI's mpicc and fails, and the case is the same one the
# full run drew (tests/mpi/selftest_repro.sh). And the MPICH 4.0.2 defect TUW routes around:
# its reproducer fails as is on MPICH, and the Gatherv case that found it is correct.
set(MG_RANDOM_CASES 1000)
set(MG_RANDOM_PRELOAD)
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(MG_MPICC mpicc.openmpi)
else()
  set(MG_MPICC mpicc.mpich)
  add_library(ucx_yield MODULE ${CMAKE_SOURCE_DIR}/bench/ucx_yield.c)
  target_link_libraries(ucx_yield PRIVATE ${CMAKE_DL_LIBS})
  set(MG_RANDOM_PRELOAD env LD_PRELOAD=$<TARGET_FILE:ucx_yield>)
endif()
set(MG_TOOL $<TARGET_FILE:mpiguide_cli>)
# --time-limit 150: the run ends by itself well inside the 240 s of ic_test's timeout,
# whatever the machine's load (35-60 s on a quiet machine: all 1,000 cases), and says how many
# cases ran; the test is decided by that result, never by the timeout.
set(MG_RANDOM_ARGS selftest --random ${MG_RANDOM_CASES} --seed 2026 --time-limit 150)
set(MG_RANDOM_EXPECT "selftest --random ${MG_RANDOM_CASES} --seed 2026 on 3 ranks"
  "MPI_Gatherv +gatherv_as_tuw +[1-9][0-9]* +[1-9]"
  "ran [1-9][0-9]* of ${MG_RANDOM_CASES} cases per collective in [0-9.]+ s"
  "library defects: 0 new, [0-9]+ known; mock-up defects: 0; unexplained mismatches: 0; errors: 0")
ic_test(selftest_random_p3 NP 3 RUN ${MG_RANDOM_PRELOAD} ${MG_TOOL} ${MG_RANDOM_ARGS}
  EXPECT ${MG_RANDOM_EXPECT} REJECT "MOCK-UP DEFECT" "MISMATCH" "LIBRARY DEFECT \\(new")
set_tests_properties(ic.selftest_random_p3 PROPERTIES LABELS mpi)
# the same with one busy process per core besides (label `load`), 60 s of cases so that the
# label stays short: --time-limit ends it by itself, whatever the load
string(REPLACE "--time-limit;150" "--time-limit;60" MG_RANDOM_LOAD_ARGS "${MG_RANDOM_ARGS}")
ic_test(selftest_random_p3 LOAD NP 3 RUN ${MG_RANDOM_PRELOAD} ${MG_TOOL} ${MG_RANDOM_LOAD_ARGS}
  EXPECT ${MG_RANDOM_EXPECT} REJECT "MOCK-UP DEFECT" "MISMATCH" "LIBRARY DEFECT \\(new")

# The nonblocking collectives' library algorithms (named: --random draws them only then), each
# start on the cases of its blocking collective completed by MPI_Wait, at p = 2: those of the
# collectives the correctness matrix passes on this MPI (tests/mpi/matrix.cmake says which
# crash), 200 calls each.
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(MG_RANDOM_NB MPI_Iallgather MPI_Iallreduce MPI_Ibcast MPI_Ireduce MPI_Iexscan MPI_Iscan)
else()
  # all sixteen: the tsp_* algorithms this found wrong on the interleaved datatype (Iallgather's
  # tsp_recexch_*, Ialltoall's tsp_scattered, Ialltoallv's tsp_scattered and tsp_blocked) and
  # Ialltoall's sched_brucks on MPI_SHORT_INT never run there (src/libalg/restrict.c)
  set(MG_RANDOM_NB MPI_Iallgather MPI_Iallgatherv MPI_Iallreduce MPI_Ialltoall MPI_Ialltoallv
    MPI_Ibarrier MPI_Ibcast MPI_Iexscan MPI_Igather MPI_Igatherv MPI_Ireduce MPI_Ireduce_scatter
    MPI_Ireduce_scatter_block MPI_Iscan MPI_Iscatter MPI_Iscatterv)
endif()
set(expect)
foreach(c ${MG_RANDOM_NB})
  list(APPEND expect "\n${c} +[a-z_]+_lib_[a-z_]+ +[1-9][0-9]* +[1-9][0-9]* ")
endforeach()
ic_test(selftest_random_nb_p2 NP 2 RUN ${MG_TOOL} selftest --random 200 --seed 2026
  --time-limit 60 ${MG_RANDOM_NB}
  EXPECT ${expect} "ran [1-9][0-9]* of 200 cases per collective"
    "library defects: 0 new, [0-9]+ known; mock-up defects: 0; unexplained mismatches: 0; errors: 0"
  REJECT "MOCK-UP DEFECT" "MISMATCH" "LIBRARY DEFECT \\(new" "\nMPI_(Allreduce|Bcast) ")

# online mode's check: every case through the public call as well, each call of a collective on a
# communicator the next candidate in turn (MPIGUIDE_ONLINE=rotate)
ic_test(selftest_random_online_p3 NP 3 RUN env MPIGUIDE_ONLINE=rotate ${MG_RANDOM_PRELOAD} ${MG_TOOL}
  selftest --random 300 --seed 2026 --time-limit 100 --intercepted
  EXPECT "MPI_Allreduce +intercepted +[1-9][0-9]* +[1-9][0-9]* +[0-9]+ +0\n"
    "MPI_Gatherv +intercepted +[1-9][0-9]* +[1-9][0-9]* +[0-9]+ +0\n"
    "library defects: 0 new, [0-9]+ known; mock-up defects: 0; unexplained mismatches: 0; errors: 0"
  REJECT "MOCK-UP DEFECT" "MISMATCH" "LIBRARY DEFECT \\(new")

add_test(NAME ic.selftest_repro
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/selftest_repro.sh ${MPIEXEC_EXECUTABLE} ${MG_TOOL}
          ${MG_MPICC} ${MPIGUIDE_MPI} ${CMAKE_CURRENT_BINARY_DIR}/selftest_repro)
set_tests_properties(ic.selftest_repro PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
  TIMEOUT 300 LABELS mpi)

add_executable(defect_mpich_packed_into_mixed_type
  ${CMAKE_SOURCE_DIR}/src/defects/reproducers/mpich-packed-into-mixed-type.c)
target_link_libraries(defect_mpich_packed_into_mixed_type PRIVATE MPI::MPI_C)
if(MPIGUIDE_MPI STREQUAL "mpich")
  ic_test(defect_mpich-packed-into-mixed-type_as_is NP 2 FAIL
    RUN $<TARGET_FILE:defect_mpich_packed_into_mixed_type> EXPECT "Message truncated" "WRONG")
else()
  ic_test(defect_mpich-packed-into-mixed-type_other_mpi NP 2
    RUN $<TARGET_FILE:defect_mpich_packed_into_mixed_type> EXPECT "correct \\(0 wrong elements\\)")
endif()
# the case that found it: Gatherv of 8,644 struct {u8, u64} elements at p = 3 into root 2
ic_test(selftest_tuw_packed_mixed NP 3 RUN ${MG_TOOL} selftest --random 4 --seed 12 --case 3
  --verbose MPI_Gatherv
  EXPECT "case 3: MPI_Gatherv p=3 comm=dup type=struct_u8_u64 count=4966"
    "MPI_Gatherv +gatherv_as_tuw +1 +1 +0 +0"
    "mock-up defects: 0; unexplained mismatches: 0; errors: 0")
# MPICH's in-place Alltoall on a mixed-type datatype (found by bench/fuzz_collectives.sh): the
# reproducer fails on MPICH and is correct on Open MPI; selftest counts the case as a known
# defect, alltoall_as_alltoallv (which meets it inside MPI_Alltoallv) as failing alike
add_executable(defect_mpich_alltoall_inplace_mixed_type
  ${CMAKE_SOURCE_DIR}/src/defects/reproducers/mpich-alltoall-inplace-mixed-type.c)
target_link_libraries(defect_mpich_alltoall_inplace_mixed_type PRIVATE MPI::MPI_C)
if(MPIGUIDE_MPI STREQUAL "mpich")
  ic_test(defect_mpich-alltoall-inplace-mixed-type_as_is NP 2 FAIL
    RUN $<TARGET_FILE:defect_mpich_alltoall_inplace_mixed_type> EXPECT "Message truncated" "WRONG")
  ic_test(selftest_known_alltoall_inplace_mixed NP 2 RUN ${MG_TOOL} selftest --random 72 --seed 1
    --case 71 MPI_Alltoall
    EXPECT "MPI_Alltoall +alltoall_as_alltoallv +1 +1 +0 +1 +\\(known defects: 1\\)"
      "known library defect mpich-alltoall-inplace-mixed-type: [1-9][0-9]* call\\(s\\), error returned"
      "library defects: 0 new, 1 known; mock-up defects: 0; unexplained mismatches: 0; errors: 0")
else()
  ic_test(defect_mpich-alltoall-inplace-mixed-type_other_mpi NP 2
    RUN $<TARGET_FILE:defect_mpich_alltoall_inplace_mixed_type> EXPECT "correct \\(0 wrong elements\\)")
endif()

# The MPICH 4.0.2 fuzz found allgather_as_allgatherv failing ("Message truncated" in MPICH's
# ring Allgatherv) where ranks describe the data with different datatypes (a vector of doubles
# on one rank, doubles on the other): it now moves packed bytes. The case, on both MPIs; the
# EXPECT on its description fails if a change of the generator moves the case away.
ic_test(selftest_allgatherv_sides NP 2 RUN ${MG_TOOL} selftest --random 2551 --seed 1 --case 2550
    --verbose MPI_Allgather
  EXPECT "case 2550: MPI_Allgather p=2 [^\n]*count=29852 [^\n]*sides=mixed"
    "MPI_Allgather +allgather_as_allgatherv +1 +1 +0 +0"
    "mock-up defects: 0; unexplained mismatches: 0; errors: 0"
  REJECT "MOCK-UP DEFECT")
# The same for bcast_as_allgatherv: the root describes the message with a wider datatype than
# the others (p = 3, MPICH's ring Allgatherv failed in the mock-up's inner call).
ic_test(selftest_bcast_allgatherv_sides NP 3 RUN ${MG_TOOL} selftest --random 144 --seed 1 --case 143
    --verbose MPI_Bcast
  EXPECT "case 143: MPI_Bcast p=3 [^\n]*count=28292 [^\n]*sides=sendwide"
    "MPI_Bcast +bcast_as_allgatherv +1 +1 +0 +0"
    "mock-up defects: 0; unexplained mismatches: 0; errors: 0"
  REJECT "MOCK-UP DEFECT")
