# Library algorithms (src/libalg/): discovery under the launcher, the discovered names
# against the library's own parsing of them, forced and tuned selection, every kind of bad input,
# the agreed fallback when a shadow communicator cannot be created, MPIGUIDE_VERIFY, bench, the
# selftest, the library's default unchanged by libmpiguide's Open MPI setting, and `mpiguide
# export` run without libmpiguide. The correctness matrix of every library algorithm is in
# matrix.cmake. Uses ic_test / ic_cli of intercept.cmake.

add_executable(libalg_fp mpi/libalg_fp.c)          # knows nothing of mpiguide
target_link_libraries(libalg_fp PRIVATE MPI::MPI_C)
add_executable(libalg_read mpi/libalg_read.c)
target_link_libraries(libalg_read PRIVATE MPI::MPI_C)

set(LA_CLI $<TARGET_FILE:mpiguide_cli>)
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(LA_MIN_ALLREDUCE 5) # at least 5 for MPI_Allreduce on Open MPI (Open MPI 4.1 has 6 or 7)
  set(LA_ALLREDUCE allreduce_lib_ring)
  set(LA_ALLREDUCE2 allreduce_lib_basic_linear)
  set(LA_FORCE_ALL
    "MPIGUIDE_ALG=allgather=allgather_lib_two_proc,allreduce=allreduce_lib_ring,alltoall=alltoall_lib_pairwise,bcast=bcast_lib_scatter_allgather,gather=gather_lib_binomial,reduce=reduce_lib_binomial,reduce_scatter_block=reduce_scatter_block_lib_butterfly,reduce_scatter=reduce_scatter_lib_ring,scan=scan_lib_recursive_doubling,scatter=scatter_lib_binomial")
  set(LA_FORCED_COLLS Allgather Allreduce Alltoall Bcast Gather Reduce Reduce_scatter_block
    Reduce_scatter Scan Scatter)
  set(LA_OTHER mpich)
  set(LA_OTHER_LIBRARY "MPICH Version: 4.0.2")
else()
  set(LA_MIN_ALLREDUCE 3) # ... and at least 3 on MPICH
  set(LA_ALLREDUCE allreduce_lib_recursive_doubling)
  set(LA_ALLREDUCE2 allreduce_lib_nb)
  set(LA_FORCE_ALL
    "MPIGUIDE_ALG=allgather=allgather_lib_ring,allreduce=allreduce_lib_recursive_doubling,alltoall=alltoall_lib_pairwise,bcast=bcast_lib_scatter_ring_allgather,gather=gather_lib_binomial,reduce=reduce_lib_binomial,reduce_scatter_block=reduce_scatter_block_lib_recursive_halving,reduce_scatter=reduce_scatter_lib_recursive_halving,scan=scan_lib_recursive_doubling,scatter=scatter_lib_binomial,gatherv=gatherv_lib_linear,scatterv=scatterv_lib_linear")
  set(LA_FORCED_COLLS Allgather Allreduce Alltoall Bcast Gather Reduce Reduce_scatter_block
    Reduce_scatter Scan Scatter Gatherv Scatterv)
  set(LA_OTHER openmpi)
  set(LA_OTHER_LIBRARY "Open MPI v4.1.4")
endif()

# --- discovery: `mpirun -np 4 mpiguide info` lists them (rank 0 only, after MPI_Init) ---
set(re "")
foreach(i RANGE 1 ${LA_MIN_ALLREDUCE})
  string(APPEND re "MPI_Allreduce +allreduce_lib_[a-z0-9_]+ +library: [^\n]*\n")
endforeach()
ic_test(libalg_info_np4 NP 4 RUN ${LA_CLI} info
  EXPECT "${re}" "library algorithms: [0-9]+, selectable"
  REJECT "library algorithms: off" "library algorithms: [0-9]+, selectable[^\n]*\n[^\n]*library algorithms:")
# every discovered name selects, set by name in the environment, the value mpiguide writes
add_test(NAME libalg.names COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/libalg_names.sh ${LA_CLI}
  $<TARGET_FILE:libalg_read> ${MPIGUIDE_MPI})
set_tests_properties(libalg.names PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" TIMEOUT 300)

# --- forced and tuned selection, results checked by the program ---
set(expect ${IC_OK})
foreach(c ${LA_FORCED_COLLS})
  list(APPEND expect "#@mpiguide calls MPI_${c} total=[0-9]+ mockup=0 [^\n]* library=[1-9]")
endforeach()
ic_test(libalg_forced NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 ${LA_FORCE_ALL} ${IC_APP}
  --subcomm --userop
  EXPECT ${expect} "#@pgmpi alg MPI_Allreduce 148 ${LA_ALLREDUCE}\n"
  REJECT "mpiguide: (error|warning)")
ic_test(libalg_verify NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_VERIFY=1
  MPIGUIDE_ALG=allreduce=${LA_ALLREDUCE},reduce=reduce_lib_binomial ${IC_APP}
  EXPECT ${IC_OK} "calls MPI_Allreduce [^\n]* library=[1-9][^\n]* verified=[1-9][0-9]* verify_mismatch=0"
  REJECT "differs from the default")
ic_profile(libalg_tuned allreduce_p3.prf
  "#@mpi_library=${MPIGUIDE_MPI}\nMPI_Allreduce\n3\n1\n1 ${LA_ALLREDUCE}\n1\n100 1000 1\n")
ic_profile(libalg_tuned bcast_p3.prf "${IC_GOOD_BCAST}")
ic_test(libalg_tuned NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/libalg_tuned ${IC_APP}
  EXPECT ${IC_OK} "alg MPI_Allreduce 148 ${LA_ALLREDUCE}\n" "alg MPI_Allreduce 4 default\n"
    "alg MPI_Bcast 4 bcast_as_allgatherv\n" "calls MPI_Allreduce [^\n]* library=[1-9]"
  REJECT "mpiguide: (error|warning)")

# --- bad input: one line, the default, nothing else lost ---
ic_test(libalg_bad_forced NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_STRICT=1
  MPIGUIDE_ALG=allreduce=allreduce_lib_magic,bcast=bcast_as_allgatherv ${IC_APP}
  EXPECT ${IC_OK}
    "mpiguide: warning: MPIGUIDE_ALG: unknown library algorithm `allreduce_lib_magic` for MPI_Allreduce under ${MPIGUIDE_MPI} \\(available: allreduce_lib_[a-z]"
    "calls MPI_Allreduce total=[0-9]+ mockup=0 [^\n]* library=0 " "calls MPI_Bcast total=[0-9]+ mockup=[1-9]"
  REJECT "mpiguide: error")
ic_profile(libalg_bad_profile allreduce_p3.prf
  "MPI_Allreduce\n3\n2\n1 allreduce_lib_magic\n2 ${LA_ALLREDUCE}\n2\n0 100 1\n101 1000 2\n")
ic_profile(libalg_bad_profile bcast_p3.prf "${IC_GOOD_BCAST}")
ic_test(libalg_bad_profile NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/libalg_bad_profile ${IC_APP}
  EXPECT ${IC_OK}
    "mpiguide: warning: ${IC}/libalg_bad_profile/allreduce_p3.prf:7: unknown library algorithm `allreduce_lib_magic` for MPI_Allreduce under ${MPIGUIDE_MPI} \\(available: [^\n]*\\); those sizes run the default"
    "alg MPI_Allreduce 4 default\n" "alg MPI_Allreduce 148 ${LA_ALLREDUCE}\n"
    "alg MPI_Bcast 4 bcast_as_allgatherv\n"
  REJECT "mpiguide: error")
# measured under the other MPI: `*_lib_recursive_doubling` exists in both, but is another
# implementation there
ic_profile(libalg_other_mpi allreduce_p3.prf
  "#@mpi_library=${LA_OTHER_LIBRARY}\nMPI_Allreduce\n3\n1\n1 allreduce_lib_recursive_doubling\n1\n0 1000 1\n")
ic_test(libalg_other_mpi NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/libalg_other_mpi ${IC_APP}
  EXPECT ${IC_OK}
    "warning: ${IC}/libalg_other_mpi/allreduce_p3.prf:7: library algorithm `allreduce_lib_recursive_doubling` was measured under ${LA_OTHER}, not ${MPIGUIDE_MPI}; those sizes run the default"
    "alg MPI_Allreduce 148 default\n" "calls MPI_Allreduce total=[0-9]+ [^\n]* library=0 ")
ic_test(libalg_bench_unknown NP 2 FAIL RUN ${LA_CLI} bench --calls-list=MPI_Allreduce
  --algs=default,allreduce_lib_magic
  EXPECT "mpiguide: error: --algs: unknown library algorithm 'allreduce_lib_magic' for MPI_Allreduce \\(available: allreduce_lib_")
ic_cli(libalg_profile_check RC 0 RUN ${LA_CLI} profile check ${IC}/libalg_tuned
  EXPECT "100-1000 bytes +-> ${LA_ALLREDUCE}")

# --- measuring them: bench and selftest ---
ic_test(libalg_bench NP 2 RUN ${LA_CLI} bench --calls-list=MPI_Allreduce --algs=default,library
  --msizes-list=8,4096 --nrep=3 --quiet
  EXPECT "\nMPI_Allreduce ${LA_ALLREDUCE} 0 8 " "\nMPI_Allreduce ${LA_ALLREDUCE2} 2 4096 "
    "\nMPI_Allreduce default 0 8 "
  REJECT "allreduce_as_")
# (the nonblocking ones too, each start completed by MPI_Wait: they were left out before)
ic_test(libalg_selftest NP 3 RUN ${LA_CLI} selftest
  EXPECT "MPI_Allreduce +${LA_ALLREDUCE} +MATCH" "MPI_Bcast +bcast_lib_[a-z_]+ +MATCH"
    "MPI_Iallreduce +iallreduce_lib_[a-z_]+ +MATCH +8/8 cases \\(it ran in [1-9]"
    "MPI_Ibcast +ibcast_lib_[a-z_]+ +MATCH +8/8 cases \\(it ran in [1-9]"
  REJECT "MISMATCH")

if(MPIGUIDE_MPI STREQUAL "openmpi")
  # a shadow communicator that cannot be created on one rank: every rank runs the default,
  # counted, no deadlock (test builds fail rank 1's creation on purpose)
  if(MPIGUIDE_TEST_ALGORITHMS)
    ic_test(libalg_shadow_fail NP 3 RUN env LD_PRELOAD=$<TARGET_FILE:mpiguide_testalgs>
      MPIGUIDE_REPORT=1 MPIGUIDE_TEST_SHADOW_FAIL=1 MPIGUIDE_ALG=allreduce=allreduce_lib_ring
      ${IC_APP} --subcomm
      EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ [^\n]* library=0 fallback_library=[1-9]"
      REJECT "mpiguide: (error|warning)")
  endif()
  # the library's default is unchanged by the dynamic rules libmpiguide turns on
  add_test(NAME libalg.default_unchanged COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/libalg_default.sh
    ${MPIEXEC_EXECUTABLE} ${IC_LIB} $<TARGET_FILE:libalg_fp> 3 4)
  set_tests_properties(libalg.default_unchanged PROPERTIES ENVIRONMENT "${MG_MPI_ENV}"
    PROCESSORS 2 TIMEOUT 300)
endif()

# --- export: the library alone runs what the profile chose ---
add_test(NAME libalg.export COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/libalg_export.sh
  ${MPIGUIDE_MPI} ${LA_CLI} ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:libalg_fp>
  ${CMAKE_CURRENT_BINARY_DIR}/libalg_export)
set_tests_properties(libalg.export PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
  TIMEOUT 300)
ic_cli(libalg_export_other_format RC 2 RUN ${LA_CLI} export
  --format=$<IF:$<STREQUAL:${MPIGUIDE_MPI},openmpi>,mpich-json,ompi-rules> ${IC}/libalg_tuned
  -o ${CMAKE_CURRENT_BINARY_DIR}/libalg_x
  EXPECT "mpiguide: error: --format: [a-z-]+ needs the [A-Za-z ]+ build")
# Two profiles of MPI_Allreduce at p = 3 for other datatypes and ops, and one of MPI_Iallreduce:
# the first MPI_Allreduce profile is written; the second is not expressible (a tuning file
# cannot select by datatype); MPI_Iallreduce is written to MPICH's selection (it has iallreduce
# rules) and not expressible in Open MPI's rules file (coll/tuned has no nonblocking rules).
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(LA_IALLREDUCE iallreduce_lib_binomial)
  set(LA_XFORMAT ompi-rules)
  set(LA_XEXPECT "not expressible: MPI_Iallreduce p=3 0-9223372036854775807 bytes -> ${LA_IALLREDUCE} \\(Open MPI's rules file cannot select"
    "1 range\\(s\\) of 3 profile\\(s\\) written to [^\n]*, 2 not expressible")
else()
  set(LA_IALLREDUCE iallreduce_lib_sched_naive)
  set(LA_XFORMAT mpich-json)
  set(LA_XEXPECT "2 range\\(s\\) of 3 profile\\(s\\) written to [^\n]*, 1 not expressible")
endif()
ic_profile(libalg_types a_double.prf
  "#@datatype=MPI_DOUBLE\n#@operation=MPI_SUM\nMPI_Allreduce\n3\n1\n1 ${LA_ALLREDUCE}\n1\n0 1000 1\n")
ic_profile(libalg_types b_int.prf
  "#@datatype=MPI_INT\n#@operation=MPI_MAX\nMPI_Allreduce\n3\n1\n1 ${LA_ALLREDUCE2}\n1\n0 1000 1\n")
ic_profile(libalg_types c_nonblocking.prf
  "MPI_Iallreduce\n3\n1\n1 ${LA_IALLREDUCE}\n1\n0 9223372036854775807 1\n")
ic_cli(libalg_export_types_nonblocking RC 0 RUN ${LA_CLI} export --format=${LA_XFORMAT}
  ${IC}/libalg_types -o ${CMAKE_CURRENT_BINARY_DIR}/libalg_types.out
  EXPECT "not expressible: MPI_Allreduce p=3 0-1000 bytes -> ${LA_ALLREDUCE2} \\(measured with MPI_INT MPI_MAX. the tuning file cannot select by datatype and op"
    ${LA_XEXPECT})

# --- off: one line says why, and names of library algorithms then select the default ---
# one rank without them (its own MPIGUIDE_OFF=1): the ranks agree to turn them off everywhere
ic_test(libalg_off_rank NP 1 RUN
  env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_ALG=allreduce=${LA_ALLREDUCE} ${IC_APP}
  : ${MPIEXEC_NUMPROC_FLAG} 1 env LD_PRELOAD=${IC_LIB} MPIGUIDE_OFF=1 ${IC_APP}
  EXPECT ${IC_OK} "#@mpiguide library_algorithms off: library algorithms are off on another rank"
    "calls MPI_Allreduce total=[0-9]+ [^\n]* library=0 ")
if(MPIGUIDE_MPI STREQUAL "openmpi")
  # the user keeps Open MPI's dynamic rules off: no library algorithm can run
  ic_test(libalg_off_dynamic_rules NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    OMPI_MCA_coll_tuned_use_dynamic_rules=0 MPIGUIDE_ALG=allreduce=allreduce_lib_ring ${IC_APP}
    EXPECT ${IC_OK}
      "warning: MPIGUIDE_ALG: unknown library algorithm `allreduce_lib_ring` for MPI_Allreduce under openmpi \\(library algorithms are off: Open MPI's coll_tuned_use_dynamic_rules is false"
      "#@mpiguide library_algorithms off: Open MPI's coll_tuned_use_dynamic_rules is false"
      "calls MPI_Allreduce total=[0-9]+ [^\n]* library=0 ")
  ic_test(libalg_info_off NP 2 RUN env OMPI_MCA_coll_tuned_use_dynamic_rules=0 ${LA_CLI} info
    EXPECT "library algorithms: off: Open MPI's coll_tuned_use_dynamic_rules is false")
endif()
