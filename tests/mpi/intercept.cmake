# Interception tests: libmpiguide LD_PRELOADed into C and Fortran programs built
# without any link to it, forced and tuned selection seen in the report, ranks with different
# environments, every kind of bad input, MPI_Init(NULL, NULL), MPI_THREAD_MULTIPLE,
# MPIGUIDE_OFF, MPIGUIDE_VERIFY, the communicator opt-out, and a linked program counting its
# allocations. Each case runs through intercept_run.cmake (exit code + expected output lines).
include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz.cmake)

# Programs that know nothing of mpiguide.
add_executable(intercept_app mpi/intercept_app.c)
target_link_libraries(intercept_app PRIVATE MPI::MPI_C)
add_executable(intercept_threads mpi/intercept_threads.c)
target_link_libraries(intercept_threads PRIVATE MPI::MPI_C pthread)
# the same linked with libmpiguide, for the ThreadSanitizer tree (tests/mpi/tsan.cmake)
add_executable(intercept_threads_linked mpi/intercept_threads.c)
target_link_libraries(intercept_threads_linked PRIVATE mpiguide MPI::MPI_C pthread)
set_target_properties(intercept_threads_linked PROPERTIES BUILD_RPATH "${CMAKE_BINARY_DIR}/lib")

# Fortran variants (mpif.h, use mpi, mpi_f08), built with the MPI's own mpifort when present.
string(REPLACE "mpicc" "mpifort" MG_MPIFORT_NAME "${MPI_C_COMPILER}")
get_filename_component(MG_MPIFORT_NAME "${MG_MPIFORT_NAME}" NAME)
find_program(MG_MPIFORT NAMES ${MG_MPIFORT_NAME})
set(MG_FORTRAN_APPS "")
if(MG_MPIFORT)
  # gfortran >= 10 rejects mpif.h calls with differing argument ranks unless told otherwise
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/fcheck.f90 "end\n")
  execute_process(COMMAND ${MG_MPIFORT} -fallow-argument-mismatch -c fcheck.f90 -o fcheck.o
                  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} RESULT_VARIABLE rc
                  OUTPUT_QUIET ERROR_QUIET)
  set(MG_F77_FLAGS "")
  if(rc EQUAL 0)
    set(MG_F77_FLAGS -fallow-argument-mismatch)
  endif()
  foreach(variant f77 mod f08)
    set(defs ${MG_F77_FLAGS})
    if(variant STREQUAL "mod")
      set(defs -DUSE_MPI_MODULE)
    elseif(variant STREQUAL "f08")
      set(defs -DUSE_MPI_F08)
    endif()
    set(out ${CMAKE_CURRENT_BINARY_DIR}/intercept_${variant})
    set(moddir ${CMAKE_CURRENT_BINARY_DIR}/intercept_${variant}_mod)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${moddir}
      COMMAND ${MG_MPIFORT} -cpp ${defs} -J${moddir} -o ${out}
              ${CMAKE_CURRENT_SOURCE_DIR}/mpi/intercept_f.F90
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/mpi/intercept_f.F90
      COMMENT "Fortran test program intercept_${variant} (${MG_MPIFORT_NAME})")
    add_custom_target(intercept_${variant} ALL DEPENDS ${out})
    list(APPEND MG_FORTRAN_APPS ${variant})
  endforeach()
else()
  message(STATUS "mpiguide: ${MG_MPIFORT_NAME} not found; Fortran interception tests skipped")
endif()

# Profiles and config files of the cases, written at configure time.
set(IC ${CMAKE_CURRENT_BINARY_DIR}/ic)
file(REMOVE_RECURSE ${IC})
set(IC_GOOD_BCAST "MPI_Bcast\n3\n2\n1 bcast_as_allgatherv\n2 bcast_as_scatter_allgather\n2\n4 4 1\n20 20 2\n")
function(ic_profile dir name text)
  file(WRITE ${IC}/${dir}/${name} "${text}")
endfunction()
ic_profile(many bcast_p3.prf "${IC_GOOD_BCAST}")
ic_profile(many allreduce_p3.prf
  "#@mpi_library=${MPIGUIDE_MPI}\nMPI_Allreduce\n3\n1\n1 allreduce_as_reducescatterblock_allgather\n1\n0 100000 1\n")
ic_profile(many allreduce_p2.prf
  "MPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n1\n0 9223372036854775807 1\n")
ic_profile(many scan_p3.prf "MPI_Scan\n3\n1\n5 scan_as_exscan_reducelocal\n1\n1 1000 5\n")
ic_profile(many reduce_p2.prf "MPI_Reduce\n2\n1\n1 reduce_as_allreduce\n1\n0 1000 1\n")
ic_profile(many gatherv_p3.prf "MPI_Gatherv\n3\n1\n1 default\n1\n0 9223372036854775807 1\n")
ic_profile(many alltoall_p3.prf "MPI_Alltoall\n3\n1\n1 alltoall_as_alltoallv\n2\n1 4 1\n20 20 1\n")
ic_profile(prov allgather_p3.prf
  "#@mpi_library=Some Other MPI 9.9\n#@nodes=7\n#@ppn=5\nMPI_Allgather\n3\n0\n0\n")
# One bad profile per directory, next to a good one that must still apply:
#   name | text | expected message (regex)
set(IC_BAD
  "unknown_coll|MPI_Allgatherx\n3\n0\n0\n|bad.prf:1: unknown collective `MPI_Allgatherx`"
  "unknown_alg|MPI_Allreduce\n3\n1\n1 allreduce_as_magic\n0\n|bad.prf:4: unknown algorithm `allreduce_as_magic` for MPI_Allreduce"
  "malformed|MPI_Allreduce\nthree\n0\n0\n|bad.prf:2: expected the number of processes"
  "truncated|MPI_Allreduce\n3\n1\n1 allreduce_as_reduce_bcast\n3\n0 10 1\n|bad.prf:6: truncated: 1 of 3 range"
  "too_many|MPI_Allreduce\n3\n1\n1 allreduce_as_reduce_bcast\n1\n0 10 1\n20 30 1\n|bad.prf:7: unexpected `20` after the 1 declared range"
  "overlap|MPI_Allreduce\n3\n1\n1 allreduce_as_reduce_bcast\n2\n0 100 1\n50 200 1\n|bad.prf:7: range 50-200 overlaps range 0-100"
  "start_end|MPI_Allreduce\n3\n1\n1 allreduce_as_reduce_bcast\n1\n200 100 1\n|bad.prf:6: range start 200 > end 100"
  "undeclared|MPI_Allreduce\n3\n1\n1 allreduce_as_reduce_bcast\n1\n0 100 4\n|bad.prf:6: undeclared algorithm id 4"
  "gatherv_range|MPI_Gatherv\n3\n1\n1 default\n1\n0 100 1\n|bad.prf:6: MPI_Gatherv selects by communicator size only")
foreach(case ${IC_BAD})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 text)
  ic_profile(bad_${name} bad.prf "${text}")
  ic_profile(bad_${name} good_bcast.prf "${IC_GOOD_BCAST}")
endforeach()
ic_profile(unreadable good_bcast.prf "${IC_GOOD_BCAST}")
file(CREATE_LINK /nonexistent/mpiguide/profile ${IC}/unreadable/gone.prf SYMBOLIC)
file(WRITE ${IC}/user_ops.cfg "tune_user_ops 1\n")
file(WRITE ${IC}/bad.cfg "size_msg_buffer_bytes lots\nsize_int_buffer_bytes 5000\n")
# tuned mode with 10,000 ranges that never match (the allocation test's tuned case)
set(ranges "")
foreach(i RANGE 1 10000)
  math(EXPR lo "${i} * 10")
  string(APPEND ranges "${lo} ${lo} 1\n")
endforeach()
file(WRITE ${IC}/big/allreduce_p2.prf
  "MPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n10000\n${ranges}")

set(IC_LIB $<TARGET_FILE:mpiguide>)
set(IC_APP $<TARGET_FILE:intercept_app>)
set(IC_OK "intercept_app: [0-9]+ passed, 0 failed")
set(IC_FORCE_ALL
  "MPIGUIDE_ALG=allgather=allgather_as_gather_bcast,allreduce=allreduce_as_reduce_bcast,alltoall=alltoall_as_alltoallv,bcast=bcast_as_scatter_allgather,gather=gather_as_gatherv,reduce=reduce_as_allreduce,reduce_scatter_block=reducescatterblock_as_reducescatter,reduce_scatter=reducescatter_as_allreduce,scan=scan_as_exscan_reducelocal,scatter=scatter_as_scatterv")
set(IC_FORCED_COLLS Allgather Allreduce Alltoall Bcast Gather Reduce Reduce_scatter_block
  Reduce_scatter Scan Scatter)

# ic_test(NAME NP n RUN args... [EXPECT re...] [REJECT re...] [FAIL] [REPORT_FILE f EXPECT_FILE re...]
#         [NEED_FILE f])  RUN follows `mpiexec -n NP` (MPMD blocks allowed).
# LOAD: the test `load.NAME` of label `load` instead, the same command under
# tests/mpi/under_load.sh (one extra busy process per core; tests/CMakeLists.txt).
function(ic_test name)
  cmake_parse_arguments(T "FAIL;LOAD" "NP;REPORT_FILE;NEED_FILE" "RUN;EXPECT;REJECT;EXPECT_FILE" ${ARGN})
  set(cmd "timeout;240;${MPIEXEC_EXECUTABLE};${MPIEXEC_NUMPROC_FLAG};${T_NP};${T_RUN}")
  set(test ic.${name})
  if(T_LOAD)
    set(cmd "${MG_UNDER_LOAD};${cmd}")
    set(test load.${name})
  endif()
  string(REPLACE ";" "@@" cmd "${cmd}")
  string(REPLACE ";" "@@" expect "${T_EXPECT}")
  string(REPLACE ";" "@@" reject "${T_REJECT}")
  string(REPLACE ";" "@@" expect_file "${T_EXPECT_FILE}")
  add_test(NAME ${test}
    COMMAND ${CMAKE_COMMAND} "-DCMD=${cmd}" "-DEXPECT=${expect}" "-DREJECT=${reject}"
            "-DFAIL=${T_FAIL}" "-DREPORT_FILE=${T_REPORT_FILE}" "-DEXPECT_FILE=${expect_file}"
            "-DNEED_FILE=${T_NEED_FILE}" -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/intercept_run.cmake)
  set_tests_properties(${test} PROPERTIES ENVIRONMENT "${MG_MPI_ENV}" PROCESSORS 2
    TIMEOUT 300 SKIP_REGULAR_EXPRESSION "SKIPPED:")
  if(T_LOAD)
    set_tests_properties(${test} PROPERTIES RUN_SERIAL TRUE LABELS load)
  endif()
endfunction()

# --- forced mode: every regular collective through a mock-up, results checked ---
set(expect ${IC_OK})
foreach(c ${IC_FORCED_COLLS})
  list(APPEND expect "#@mpiguide calls MPI_${c} total=[0-9]+ mockup=[1-9]")
endforeach()
ic_test(forced NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 ${IC_FORCE_ALL} ${IC_APP}
  EXPECT ${expect} "#@pgmpi alg MPI_Allreduce 148 allreduce_as_reduce_bcast"
         "#@pgmpi alg MPI_Scatter 20 scatter_as_scatterv" "#@mpiguide calls MPI_Gatherv total="
         "#@pgmpi config size_msg_buffer_bytes 100000000"
  REJECT "mpiguide: (error|warning)")
ic_test(forced_np4 NP 4 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 ${IC_FORCE_ALL} ${IC_APP}
  --subcomm EXPECT ${expect})
ic_test(init_null NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_ALG=MPI_Allreduce=allreduce_as_reduce_bcast ${IC_APP} --init-null
  EXPECT ${IC_OK} "#@mpiguide calls MPI_Allreduce total=[0-9]+ mockup=[1-9]")

# --- tuned mode: the original's example profile, as written (p = 4 only) ---
set(IC_SIZES --sizes=8,16,17,32,64,100,128,1024,2048,4096)
ic_test(tuned_example NP 4 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${CMAKE_SOURCE_DIR}/examples/profiles ${IC_APP} ${IC_SIZES}
  EXPECT ${IC_OK} "alg MPI_Allgather 8 default\n" "alg MPI_Allgather 16 allgather_as_allreduce\n"
    "alg MPI_Allgather 17 default\n" "alg MPI_Allgather 32 allgather_as_alltoall\n"
    "alg MPI_Allgather 64 allgather_as_allreduce\n" "alg MPI_Allgather 100 allgather_as_allreduce\n"
    "alg MPI_Allgather 128 allgather_as_allreduce\n"
    "alg MPI_Allgather 1024 allgather_as_gather_bcast\n"
    "alg MPI_Allgather 2048 allgather_as_gather_bcast\n" "alg MPI_Allgather 4096 default\n"
  REJECT "mpiguide: (error|warning)")
ic_test(tuned_example_p3 NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${CMAKE_SOURCE_DIR}/examples/profiles ${IC_APP} ${IC_SIZES}
  EXPECT ${IC_OK} "alg MPI_Allgather 16 default\n" "alg MPI_Allgather 1024 default\n")
# several collectives and communicator sizes; a user-defined op skips tuned reductions
ic_test(tuned_many NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/many ${IC_APP} --userop
  EXPECT ${IC_OK} "alg MPI_Bcast 4 bcast_as_allgatherv\n" "alg MPI_Bcast 20 bcast_as_scatter_allgather\n"
    "alg MPI_Bcast 148 default\n" "alg MPI_Alltoall 4 alltoall_as_alltoallv\n"
    "alg MPI_Alltoall 148 default\n" "alg MPI_Scan 0 default\n" "alg MPI_Scan 4 scan_as_exscan_reducelocal\n"
    "alg MPI_Reduce 148 default\n" "alg MPI_Gatherv 0 default\n"
    "calls MPI_Allreduce total=[0-9]+ mockup=[1-9][0-9]* .*fallback_userop=[1-9]"
  REJECT "mpiguide: (error|warning)")
# MPI_Reduce has a profile for p = 2 only: its mock-ups come from rank 0's half communicator
ic_test(tuned_subcomm NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/many ${IC_APP} --subcomm
  EXPECT ${IC_OK} "calls MPI_Reduce total=[0-9]+ mockup=[1-9]")
ic_test(tuned_user_ops NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/many MPIGUIDE_CONFIG=${IC}/user_ops.cfg
  ${IC_APP} --userop
  EXPECT ${IC_OK} "calls MPI_Allreduce .*fallback_userop=0" "config tune_user_ops 1")
ic_test(pgmpi_params NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  "PGMPI_PARAMS=--module=allreduce=alg:allreduce_as_reduce_bcast --ppath=${IC}/many"
  ${IC_APP}
  EXPECT ${IC_OK} "alg MPI_Allreduce 148 allreduce_as_reduce_bcast\n"
    "alg MPI_Bcast 4 bcast_as_allgatherv\n")
ic_test(argv NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_ARGV=1 ${IC_APP}
  --init-null --module=allreduce:alg=allreduce_as_reduce_bcast
  EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ mockup=[1-9]")
ic_test(argv_off NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 ${IC_APP}
  --module=allreduce:alg=allreduce_as_reduce_bcast
  EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ mockup=0 ")
ic_test(report_file NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=${IC}/report.txt
  MPIGUIDE_ALG=bcast=bcast_as_allgatherv ${IC_APP}
  EXPECT ${IC_OK} REJECT "#@" REPORT_FILE ${IC}/report.txt
  EXPECT_FILE "#@pgmpi alg MPI_Bcast 148 bcast_as_allgatherv\n" "calls MPI_Bcast total=[0-9]+ mockup=[1-9]")

# --- MPIGUIDE_RECORD: sub-communicators recorded by size with their layout and roots; a record
#     that cannot be written is one error line and the application still succeeds ---
ic_test(record NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_RECORD=${IC}/record.txt ${IC_APP}
  --subcomm
  EXPECT ${IC_OK} REJECT "#@" "mpiguide: error" REPORT_FILE ${IC}/record.txt
  EXPECT_FILE "^# mpiguide record" "\n#@record_version=2\n" "\n#@nprocs=3\n#@nodes=1\n#@ppn=3\n"
    "\n#@mode=untuned\n"
    "\nMPI_Allreduce p=3 nodes=1 ppn=3 datatype=MPI_INT esize=4 op=MPI_SUM bytes=16-31 calls=[0-9]+ "
    "\nMPI_Allreduce p=2 nodes=1 ppn=2 datatype=MPI_INT esize=4 op=MPI_SUM bytes=128-255 [^\n]* sizes=148:"
    "\nMPI_Bcast p=3 [^\n]* roots=2:1 roots_other=0 " "\nMPI_Bcast p=2 [^\n]* roots=1:1 "
    "\nMPI_Bcast p=1 [^\n]* roots=0:1 "
    "\nMPI_Scatterv p=3 nodes=1 ppn=3 datatype=MPI_INT esize=4 op=- bytes=0-0 [^\n]* sizes=4:1:[^\n]* block=152 spread=spikes:1,alternating:3 roots=2:4 "
    "\n# coverage: 0.0 % of " "\n#@end=[0-9]+\n$")
ic_test(record_unwritable NP 2 RUN env LD_PRELOAD=${IC_LIB}
  MPIGUIDE_RECORD=/nonexistent/mpiguide/record.txt ${IC_APP}
  EXPECT ${IC_OK}
    "mpiguide: error: /nonexistent/mpiguide/record.txt: cannot write the record \\(MPIGUIDE_RECORD\\): No such file")
# --- nonblocking collectives (nb_app: each of the sixteen, completed by each kind of wait and
#     test, results checked): recorded from the start to the completion the wrappers saw, and
#     forced to a library algorithm of each (set for that start; Open MPI's libnbc has them only
#     for Iallgather, Iallreduce, Ibcast, Ireduce, Iexscan and Iscan) ---
add_executable(nb_app mpi/nb_app.c)
target_link_libraries(nb_app PRIVATE MPI::MPI_C)
set(nb_rows)
foreach(c Iallgather Iallgatherv Iallreduce Ialltoall Ialltoallv Ibarrier Ibcast Iexscan Igather
    Igatherv Ireduce Ireduce_scatter Ireduce_scatter_block Iscan Iscatter Iscatterv)
  list(APPEND nb_rows "\nMPI_${c} p=3 nodes=1 ppn=3 [^\n]* calls=4 [^\n]* completed=4\n")
endforeach()
ic_test(nb_record NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_RECORD=${IC}/nb_record.txt
  $<TARGET_FILE:nb_app> 4
  EXPECT "nb_app: 192 passed, 0 failed" REJECT "mpiguide: error" REPORT_FILE ${IC}/nb_record.txt
  EXPECT_FILE ${nb_rows} "\nMPI_Ireduce [^\n]* op=MPI_MAX [^\n]* roots=2:4 "
    "\nMPI_Ibarrier p=3 nodes=1 ppn=3 datatype=- esize=0 op=- bytes=0-0 ")
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(nb_forced "iallgather=iallgather_lib_recursive_doubling,iallreduce=iallreduce_lib_ring,ibcast=ibcast_lib_knomial,ireduce=ireduce_lib_chain,iexscan=iexscan_lib_recursive_doubling,iscan=iscan_lib_recursive_doubling")
  set(nb_library Iallgather Iallreduce Ibcast Ireduce Iexscan Iscan)
else()
  # (not Iallgather's tsp_ring, Ialltoall's tsp_scattered, Ialltoallv's tsp_blocked, Igather's
  # tsp_tree: they never run, src/libalg/restrict.c)
  set(nb_forced "iallgather=iallgather_lib_sched_ring,iallreduce=iallreduce_lib_tsp_recexch_single_buffer,ialltoall=ialltoall_lib_sched_pairwise,ibarrier=ibarrier_lib_sched_recursive_doubling,ibcast=ibcast_lib_tsp_tree,ireduce=ireduce_lib_tsp_ring,iallgatherv=iallgatherv_lib_sched_ring,ialltoallv=ialltoallv_lib_sched_blocked,iexscan=iexscan_lib_sched_recursive_doubling,igather=igather_lib_sched_binomial,igatherv=igatherv_lib_tsp_linear,ireduce_scatter=ireduce_scatter_lib_sched_recursive_doubling,ireduce_scatter_block=ireduce_scatter_block_lib_tsp_recexch,iscan=iscan_lib_tsp_recursive_doubling,iscatter=iscatter_lib_sched_binomial,iscatterv=iscatterv_lib_sched_linear")
  set(nb_library Iallgather Iallreduce Ialltoall Ibarrier Ibcast Ireduce Iallgatherv Ialltoallv
    Iexscan Igather Igatherv Ireduce_scatter Ireduce_scatter_block Iscan Iscatter Iscatterv)
endif()
set(nb_expect "nb_app: 192 passed, 0 failed")
foreach(c ${nb_library})
  list(APPEND nb_expect "#@mpiguide calls MPI_${c} total=4 mockup=0 [^\n]* library=4 ")
endforeach()
ic_test(nb_forced_library NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_ALG=${nb_forced} $<TARGET_FILE:nb_app> 4
  EXPECT ${nb_expect} REJECT "warning" "mpiguide: error")

# no allocation per call while recording (the report cases above account too)
ic_test(alloc_record NP 2 RUN env MPIGUIDE_RECORD=${IC}/alloc_record.txt
  MPIGUIDE_PROFILES=${IC}/big $<TARGET_FILE:intercept_alloc>
  EXPECT "intercept_alloc: 10000 calls, 0 allocations by libmpiguide" REPORT_FILE
  ${IC}/alloc_record.txt EXPECT_FILE
  "\nMPI_Allreduce p=2 nodes=1 ppn=2 datatype=MPI_INT esize=4 op=MPI_SUM bytes=4-7 calls=10001 ")

# --- MPIGUIDE_MATCH: a profile measured with MPI_BYTE/MPI_BOR does not apply to MPI_INT/MPI_SUM
#     calls (other_type), unless MPIGUIDE_MATCH=size; one measured with MPI_INT/MPI_SUM does.
#     The fast path (report only) and the general path (record: coverage lines) agree ---
ic_test(match_other_fast NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/match_byte ${IC_APP}
  EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ mockup=0 .* other_type=[1-9]"
  REJECT "coverage")
ic_test(match_exact_fast NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/match_int ${IC_APP}
  EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ mockup=[1-9][0-9]* .* other_type=0")
ic_profile(match_byte allreduce_p2.prf "#@datatype=MPI_BYTE\n#@operation=MPI_BOR\nMPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n1\n0 9223372036854775807 1\n")
ic_profile(match_int allreduce_p2.prf "#@datatype=MPI_INT\n#@operation=MPI_SUM\nMPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n1\n0 9223372036854775807 1\n")
ic_test(match_other NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_RECORD=${IC}/match_other.rec MPIGUIDE_PROFILES=${IC}/match_byte ${IC_APP}
  EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ mockup=0 .* other_type=[1-9]"
    "coverage MPI_Allreduce p=2 calls=[0-9]+ covered=0 mockup=0 other_type=[1-9]")
ic_test(match_size NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_MATCH=size
  MPIGUIDE_RECORD=${IC}/match_size.rec MPIGUIDE_PROFILES=${IC}/match_byte ${IC_APP}
  EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ mockup=[1-9][0-9]* .* other_type=0"
    "coverage MPI_Allreduce p=2 [^\n]* calls_pct=100.0 ")
ic_test(match_exact NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_RECORD=${IC}/match_exact.rec MPIGUIDE_PROFILES=${IC}/match_int ${IC_APP}
  EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ mockup=[1-9][0-9]* .* other_type=0"
    "coverage MPI_Allreduce p=2 [^\n]* calls_pct=100.0 " "coverage all ")
ic_test(match_bad NP 1 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_MATCH=fuzzy ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: error: MPIGUIDE_MATCH: expected exact or size, not `fuzzy`")

# --- the same decision on every rank, whatever each rank's environment says ---
ic_test(env_differ NP 1 RUN
  env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_ALG=allreduce=allreduce_as_reduce_bcast
      MPIGUIDE_PROFILES=${IC}/many ${IC_APP} --subcomm
  : ${MPIEXEC_NUMPROC_FLAG} 1 env LD_PRELOAD=${IC_LIB}
      MPIGUIDE_ALG=allreduce=allreduce_as_reducescatterblock_allgather,bcast=bcast_as_allgatherv
      MPIGUIDE_PROFILES=/nonexistent/mpiguide MPIGUIDE_STRICT=1 ${IC_APP} --subcomm
  : ${MPIEXEC_NUMPROC_FLAG} 1 env LD_PRELOAD=${IC_LIB} MPIGUIDE_OFF=1
      MPIGUIDE_CONFIG=/nonexistent/mpiguide.cfg ${IC_APP} --subcomm
  EXPECT ${IC_OK} "alg MPI_Allreduce 148 allreduce_as_reduce_bcast\n"
    "calls MPI_Bcast total=[0-9]+ mockup=[1-9]"
  REJECT "mpiguide: (error|warning)")

# --- bad input: one message, then as if absent; the program completes correctly ---
foreach(case ${IC_BAD})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 2 message)
  ic_test(bad_profile_${name} NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    MPIGUIDE_PROFILES=${IC}/bad_${name} ${IC_APP}
    EXPECT ${IC_OK} "mpiguide: error: ${IC}/bad_${name}/${message}"
      "alg MPI_Bcast 4 bcast_as_allgatherv\n" "calls MPI_Allreduce total=[0-9]+ mockup=0 ")
endforeach()
ic_test(bad_profile_unreadable NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/unreadable ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: error: ${IC}/unreadable/gone.prf: cannot read profile"
    "alg MPI_Bcast 4 bcast_as_allgatherv\n")
ic_test(bad_profile_dir NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=/nonexistent/mpiguide ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: error: /nonexistent/mpiguide: cannot read profiles")
ic_test(bad_alg_collective NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_ALG=allreducex=default,bcast=bcast_as_allgatherv ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: error: MPIGUIDE_ALG: unknown collective `allreducex`"
    "calls MPI_Bcast total=[0-9]+ mockup=[1-9]")
ic_test(bad_alg_name NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_ALG=allreduce=allreduce_as_magic,bcast=bcast_as_allgatherv ${IC_APP}
  EXPECT ${IC_OK}
    "mpiguide: error: MPIGUIDE_ALG: unknown algorithm `allreduce_as_magic` for MPI_Allreduce"
    "calls MPI_Allreduce total=[0-9]+ mockup=0 " "calls MPI_Bcast total=[0-9]+ mockup=[1-9]")
ic_test(bad_config NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_CONFIG=${IC}/bad.cfg
  MPIGUIDE_ALG=allreduce=allreduce_as_reduce_bcast ${IC_APP}
  EXPECT ${IC_OK}
    "mpiguide: error: ${IC}/bad.cfg:1: size_msg_buffer_bytes: not a non-negative integer: lots"
    "config size_msg_buffer_bytes 100000000\n" "config size_int_buffer_bytes 5000\n"
    "calls MPI_Allreduce total=[0-9]+ mockup=[1-9]")
ic_test(bad_config_file NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_CONFIG=/nonexistent/mpiguide.cfg ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: error: /nonexistent/mpiguide.cfg: cannot read config file")
ic_test(bad_pgmpi_option NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  "PGMPI_PARAMS=--modul=allreduce=alg:allreduce_as_reduce_bcast" ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: error: PGMPI_PARAMS: unknown option `--modul=")
ic_test(bad_flag NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_VERIFY=2 ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: error: MPIGUIDE_VERIFY: expected 0 or 1")
ic_test(strict NP 2 FAIL RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_STRICT=1
  MPIGUIDE_ALG=allreduce=allreduce_as_magic ${IC_APP}
  EXPECT "mpiguide: error: MPIGUIDE_ALG: unknown algorithm"
    "mpiguide: error: MPIGUIDE_STRICT: 1 configuration error")
ic_test(provenance NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_PROFILES=${IC}/prov
  ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: warning: ${IC}/prov/allgather_p3.prf: profile measured on a different job: mpi_library=Some Other MPI 9.9 [^\n]* nodes=7 \\(running 1\\) ppn=5 \\(running 3\\)")
# the library of the other MPI preloaded (needs that tree built next to this one)
if(MPIGUIDE_MPI STREQUAL "openmpi")
  string(REGEX REPLACE "openmpi([^/]*)$" "mpich\\1" IC_OTHER "${CMAKE_BINARY_DIR}")
  set(IC_OTHER_KIND mpich)
else()
  string(REGEX REPLACE "mpich([^/]*)$" "openmpi\\1" IC_OTHER "${CMAKE_BINARY_DIR}")
  set(IC_OTHER_KIND openmpi)
endif()
ic_test(other_mpi NP 2 NEED_FILE ${IC_OTHER}/lib/libmpiguide.so RUN
  env LD_PRELOAD=${IC_OTHER}/lib/libmpiguide.so MPIGUIDE_REPORT=1
  MPIGUIDE_ALG=allreduce=allreduce_as_reduce_bcast ${IC_APP}
  EXPECT ${IC_OK} "mpiguide: error: libmpiguide: built for ${IC_OTHER_KIND} but running under ${MPIGUIDE_MPI}"
  REJECT "#@")

# --- switches ---
ic_test(off NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_OFF=1 MPIGUIDE_REPORT=1 ${IC_FORCE_ALL}
  MPIGUIDE_PROFILES=/nonexistent ${IC_APP} --optout
  EXPECT ${IC_OK} REJECT "#@" "mpiguide:")
ic_test(verify NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_VERIFY=1 MPIGUIDE_REPORT=1
  ${IC_FORCE_ALL} ${IC_APP}
  EXPECT ${IC_OK} "calls MPI_Allreduce total=[0-9]+ mockup=[1-9][^\n]* verified=[1-9][0-9]* verify_mismatch=0"
    "calls MPI_Gather total=[0-9]+ mockup=[1-9][^\n]* verified=[1-9][0-9]* verify_mismatch=0"
    "calls MPI_Scatter total=[0-9]+ mockup=[1-9][^\n]* verified=[1-9][0-9]* verify_mismatch=0"
  REJECT "differs from the default")
ic_test(optout NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 ${IC_FORCE_ALL} ${IC_APP}
  --optout
  EXPECT ${IC_OK}
    # 8 calls per communicator: world runs mock-ups; set_info, dup_with_info and a dup of that
    # (which keeps the hint) opt out
    "calls MPI_Allreduce total=32 mockup=8 [^\n]* optout=24 "
    "calls MPI_Bcast total=16 mockup=4 [^\n]* optout=12 ")
# MPI_THREAD_MULTIPLE: 4 threads, each on its own communicator, every call a mock-up that needs
# scratch (forced, or from profiles), each communicator's scratch made and released with it
set(IC_THREAD_ALGS allreduce=allreduce_as_reducescatterblock_allgather
  bcast=bcast_as_scatter_allgather allgather=allgather_as_gather_bcast
  reduce=reduce_as_reducescatter_gatherv reduce_scatter_block=reducescatterblock_as_allreduce
  scan=scan_as_exscan_reducelocal gather=gather_as_allgather)
set(IC_THREAD_COLLS "")
set(forced "")
foreach(entry ${IC_THREAD_ALGS})
  string(REPLACE "=" ";" kv "${entry}")
  list(GET kv 0 short)
  list(GET kv 1 alg)
  list(APPEND forced "${short}=${alg}")
  string(SUBSTRING ${short} 0 1 first)
  string(SUBSTRING ${short} 1 -1 rest)
  string(TOUPPER ${first} first)
  set(name "MPI_${first}${rest}")
  list(APPEND IC_THREAD_COLLS ${name})
  foreach(np 2 3)
    ic_profile(threads ${short}_p${np}.prf "${name}\n${np}\n1\n1 ${alg}\n1\n0 9223372036854775807 1\n")
  endforeach()
endforeach()
string(REPLACE ";" "," forced "${forced}")
set(IC_THREAD_EXPECT "intercept_threads: 4 threads, 0 failed"
  "comm_scratch created=16 released=16\n") # 4 communicators used per thread
foreach(name ${IC_THREAD_COLLS})
  list(APPEND IC_THREAD_EXPECT "calls ${name} total=400 mockup=400 [^\n]*fallback_threads=0 ")
endforeach()
# MPICH busy-polls: with more ranks than cores 4 threads per rank take 45 s instead of 0.2 s
set(IC_THREAD_NPS 2 3)
if(MPIGUIDE_MPI STREQUAL "mpich")
  set(IC_THREAD_NPS 2)
endif()
foreach(np ${IC_THREAD_NPS})
  ic_test(threads_forced_np${np} NP ${np} RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    MPIGUIDE_ALG=${forced} $<TARGET_FILE:intercept_threads>
    EXPECT ${IC_THREAD_EXPECT} REJECT "mpiguide: (error|warning)")
  ic_test(threads_tuned_np${np} NP ${np} RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    MPIGUIDE_PROFILES=${IC}/threads MPIGUIDE_CONFIG=${IC}/user_ops.cfg $<TARGET_FILE:intercept_threads>
    EXPECT ${IC_THREAD_EXPECT} REJECT "mpiguide: (error|warning)")
endforeach()
# scratch limited to 64 KiB per communicator: the large calls fall back on every rank alike
file(WRITE ${IC}/small_pool.cfg "size_msg_buffer_bytes 200\n")
ic_test(threads_small_pool NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_ALG=${forced} MPIGUIDE_CONFIG=${IC}/small_pool.cfg $<TARGET_FILE:intercept_threads>
  EXPECT "intercept_threads: 4 threads, 0 failed"
    "calls MPI_Allreduce total=400 mockup=[1-9][0-9]* fallback_memory=[1-9]")
if(MPIGUIDE_MPI STREQUAL "mpich")
  ic_test(large_count NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 ${IC_FORCE_ALL} ${IC_APP}
    --large --skip-all
    EXPECT ${IC_OK} "calls MPI_Allreduce total=4 mockup=[1-9]" "calls MPI_Bcast total=4 mockup=[1-9]")
endif()

# --- Fortran programs ---
foreach(variant ${MG_FORTRAN_APPS})
  ic_test(fortran_${variant} NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 ${IC_FORCE_ALL}
    ${CMAKE_CURRENT_BINARY_DIR}/intercept_${variant}
    EXPECT "intercept_f: 0 failed" "calls MPI_Allreduce total=[0-9]+ mockup=[1-9]"
      "calls MPI_Bcast total=1 mockup=1 " "calls MPI_Alltoall total=1 mockup=1 "
      "calls MPI_Reduce_scatter_block total=1 mockup=1 " "calls MPI_Scan total=1 mockup=1 "
      "calls MPI_Gatherv total=1 ")
endforeach()

# --- a program linked with libmpiguide: interception and the in-process API together, and
#     no allocation by libmpiguide's own code during 10,000 intercepted calls ---
add_executable(intercept_alloc mpi/intercept_alloc.c)
target_include_directories(intercept_alloc PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(intercept_alloc PRIVATE mpiguide MPI::MPI_C dl)
set_target_properties(intercept_alloc PROPERTIES ENABLE_EXPORTS ON
  BUILD_RPATH "${CMAKE_BINARY_DIR}/lib")
ic_test(alloc_forced NP 2 RUN env MPIGUIDE_REPORT=1
  MPIGUIDE_ALG=allreduce=allreduce_as_reduce_bcast $<TARGET_FILE:intercept_alloc>
  EXPECT "intercept_alloc: 10000 calls, 0 allocations by libmpiguide"
    "calls MPI_Allreduce total=10001 mockup=10001 ")
ic_test(alloc_tuned NP 2 RUN env MPIGUIDE_REPORT=1 MPIGUIDE_PROFILES=${IC}/big
  $<TARGET_FILE:intercept_alloc>
  EXPECT "intercept_alloc: 10000 calls, 0 allocations by libmpiguide"
    "calls MPI_Allreduce total=10001 mockup=0 ")
# tuned with an entry for every call: the guard samples, decides and agrees in the loop
file(WRITE ${IC}/allsizes/allreduce_p2.prf
  "MPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n1\n0 9223372036854775807 1\n")
ic_test(alloc_guard NP 2 RUN env MPIGUIDE_REPORT=1 MPIGUIDE_PROFILES=${IC}/allsizes
  $<TARGET_FILE:intercept_alloc>
  EXPECT "intercept_alloc: 10000 calls, 0 allocations by libmpiguide"
    "calls MPI_Allreduce total=10001 mockup=[0-9]+ .* guard_default=[1-9]"
    "guard MPI_Allreduce p=2 msize=4 alg=allreduce_as_reduce_bcast calls=[0-9]+ [^#]*state=")

# --- `mpiguide profile check` (no MPI) ---
function(ic_cli name)
  cmake_parse_arguments(T "" "RC" "RUN;EXPECT" ${ARGN})
  string(REPLACE ";" "@@" cmd "${T_RUN}")
  string(REPLACE ";" "@@" expect "${T_EXPECT}")
  add_test(NAME cli.${name} COMMAND ${CMAKE_COMMAND} "-DCMD=${cmd}" "-DEXPECT=${expect}"
    "-DRC=${T_RC}" -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/intercept_run.cmake)
endfunction()
ic_cli(profile_check_example RC 0 RUN $<TARGET_FILE:mpiguide_cli> profile check
  ${CMAKE_SOURCE_DIR}/examples/profiles
  EXPECT "MPI_Allgather, 4 processes, 4 ranges" "16-16 bytes +-> allgather_as_allreduce"
    "32-32 bytes +-> allgather_as_alltoall" "64-128 bytes +-> allgather_as_allreduce"
    "1024-2048 bytes +-> allgather_as_gather_bcast"
    "covered: 16-16, 32-32, 64-128, 1024-2048 bytes" "1 valid profile, 0 problems")
ic_cli(profile_check_bad RC 2 RUN $<TARGET_FILE:mpiguide_cli> profile check ${IC}/bad_overlap
  EXPECT "mpiguide: error: ${IC}/bad_overlap/bad.prf:7: range 50-200 overlaps"
    "good_bcast.prf: MPI_Bcast, 3 processes, 2 ranges" "1 valid profile, 1 problem")

# --- `mpiguide plan --from` (no MPI): a valid record, and the bad ones: cut short, not a
#     record, another MPI's, a job larger than --np ---
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(IC_REC_LIB "Open MPI v4.1.4, package: Debian OpenMPI")
  set(IC_REC_OTHER "MPICH Version: 4.0.2")
  set(IC_REC_OTHER_KIND mpich)
else()
  set(IC_REC_LIB "MPICH Version: 4.0.2")
  set(IC_REC_OTHER "Open MPI v4.1.4, package: Debian OpenMPI")
  set(IC_REC_OTHER_KIND openmpi)
endif()
set(IC_REC_ROW "MPI_Allreduce p=2 nodes=1 ppn=2 datatype=MPI_DOUBLE esize=8 op=MPI_SUM bytes=16-31 calls=3 time_s=1 median_s=0.1 covered=0 covered_s=0 mockup=0 other_type=0 b2b=0 sizes=24:3:1:0:0 sizes_other=0\n")
file(WRITE ${IC}/rec_ok.txt "#@record_version=2\n#@mpi_library=${IC_REC_LIB}\n#@nprocs=2\n${IC_REC_ROW}#@end=1\n")
file(WRITE ${IC}/rec_cut.txt "#@record_version=2\n#@mpi_library=${IC_REC_LIB}\n#@nprocs=2\n${IC_REC_ROW}")
file(WRITE ${IC}/rec_other.txt "#@record_version=2\n#@mpi_library=${IC_REC_OTHER}\n#@nprocs=2\n${IC_REC_ROW}#@end=1\n")
ic_cli(plan_ok RC 0 RUN $<TARGET_FILE:mpiguide_cli> plan --from ${IC}/rec_ok.txt --cover 1
  EXPECT "\nMPI_Allreduce --comm-sizes=2 --datatype=MPI_DOUBLE --op=MPI_SUM --msizes-list=16,24,32 ")
ic_cli(plan_cut RC 2 RUN $<TARGET_FILE:mpiguide_cli> plan --from ${IC}/rec_cut.txt
  EXPECT "mpiguide: error: ${IC}/rec_cut.txt:4: truncated: no #@end line")
ic_cli(plan_foreign RC 2 RUN $<TARGET_FILE:mpiguide_cli> plan --from ${IC}/match_int/allreduce_p2.prf
  EXPECT "mpiguide: error: ${IC}/match_int/allreduce_p2.prf:1: not an mpiguide record")
ic_cli(plan_other_mpi RC 2 RUN $<TARGET_FILE:mpiguide_cli> plan --from ${IC}/rec_other.txt
  EXPECT "mpiguide: error: ${IC}/rec_other.txt: recorded under ${IC_REC_OTHER_KIND} ")
ic_cli(plan_np RC 2 RUN $<TARGET_FILE:mpiguide_cli> plan --from ${IC}/rec_ok.txt --np 1
  EXPECT "mpiguide: error: ${IC}/rec_ok.txt: the application ran MPI_Allreduce on 2 processes")
# profile check --record: which recorded sizes a measurement covers (issue 27)
ic_profile(measured allreduce_p2.prf
  "#@measured=16,32,64\nMPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n1\n16 64 1\n")
string(REPLACE "bytes=16-31" "bytes=32-63" IC_REC_ROW32 "${IC_REC_ROW}")
string(REPLACE "sizes=24:" "sizes=32:" IC_REC_ROW32 "${IC_REC_ROW32}")
string(REPLACE "bytes=16-31" "bytes=64-127" IC_REC_ROW100 "${IC_REC_ROW}")
string(REPLACE "sizes=24:" "sizes=100:" IC_REC_ROW100 "${IC_REC_ROW100}")
file(WRITE ${IC}/rec_measured.txt "#@record_version=2\n#@mpi_library=${IC_REC_LIB}\n#@nprocs=2\n${IC_REC_ROW}${IC_REC_ROW32}${IC_REC_ROW100}#@end=3\n")
ic_cli(profile_check_record RC 0 RUN $<TARGET_FILE:mpiguide_cli> profile check --record
  ${IC}/rec_measured.txt ${IC}/measured
  EXPECT "measured: 16,32,64 bytes" "recorded sizes \\(bytes\\):"
    "24 +MPI_DOUBLE +3 calls  inside a range, NOT measured -> allreduce_as_reduce_bcast"
    "32 +MPI_DOUBLE +3 calls  measured -> allreduce_as_reduce_bcast"
    "100 +MPI_DOUBLE +3 calls  no range: the default runs, uncovered"
    "covered by a measurement: 1 of 3 recorded sizes, 3 of 9 calls" "1 valid profile, 0 problems")
ic_cli(profile_check_record_bad RC 2 RUN $<TARGET_FILE:mpiguide_cli> profile check --record
  ${IC}/rec_cut.txt ${IC}/measured
  EXPECT "mpiguide: error: ${IC}/rec_cut.txt:4: truncated")
ic_cli(plan_missing RC 2 RUN $<TARGET_FILE:mpiguide_cli> plan --from ${IC}/nonexistent.txt
  EXPECT "mpiguide: error: ${IC}/nonexistent.txt: cannot read the record")
