# The known MPI defects (src/defects/known.txt): every reproducer is built; on the MPI it names
# it fails as written (the defect is real here), and with libmpiguide preloaded and
# MPIGUIDE_REPAIR=1 it is correct, the report counting the calls as known_defect and repaired;
# on the other MPI it is correct with MPIGUIDE_REPAIR=1 too (plain, where that MPI has no defect
# of its own there). Then a mock-up whose inner call would meet a defect, forced and tuned,
# declines (fallback_defect) and the result is right.
set(MG_DEFECT_DIR ${CMAKE_SOURCE_DIR}/src/defects/reproducers)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/defects/known.txt)
# name | MPI it concerns | np | collective | repair expected in the report (- : the alg line is
# not checked, when the reproducer's last call has the same message size; none: the library
# cannot see the condition, which depends on another rank's datatype, so nothing repairs it)
set(MG_DEFECT_CASES
  "mpich-reduce-scatter-noncommutative-extent|mpich|2|Reduce_scatter_block|reducescatterblock_as_reduce_scatter"
  "mpich-reduce-inplace-root|mpich|2|Reduce|reduce_as_copy_reduce"
  "openmpi-allreduce-ring-true-lb|openmpi|3|Allreduce|allreduce_as_reduce_bcast"
  "mpich-unsigned-minmax|mpich|2|Allreduce|-"
  "openmpi-unsigned-long-minmax|openmpi|2|Allreduce|allreduce_with_own_op"
  "openmpi-op-avx-saturating-sum|openmpi|2|Allreduce|allreduce_with_own_op"
  "mpich-gather-mixed-type|mpich|4|Gather|gather_as_gatherv"
  "mpich-scatter-mixed-type|mpich|2|Scatter|scatter_as_scatterv"
  "openmpi-allgatherv-types-differ|openmpi|3|Allgatherv|none"

  # SMPI's: run in the SMPI tree by tests/smpi/defects.sh; here they are correct on both MPIs
  "smpi-reduce-ompi-count-zero|smpi|4|Reduce|reduce_as_allreduce"
  "smpi-reduce-scatter-ompi-zero-counts|smpi|4|Reduce_scatter|reducescatter_as_allreduce")
foreach(case ${MG_DEFECT_CASES})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 mpi)
  list(GET parts 2 np)
  list(GET parts 3 coll)
  list(GET parts 4 alg)
  set(exe defect_${name})
  string(REPLACE "-" "_" exe "${exe}")
  add_executable(${exe} ${MG_DEFECT_DIR}/${name}.c)
  target_link_libraries(${exe} PRIVATE MPI::MPI_C)
  if(mpi STREQUAL MPIGUIDE_MPI AND alg STREQUAL "none")
    ic_test(defect_${name}_as_is NP ${np} FAIL RUN $<TARGET_FILE:${exe}> REJECT "^correct")
  elseif(mpi STREQUAL MPIGUIDE_MPI)
    ic_test(defect_${name}_as_is NP ${np} FAIL RUN $<TARGET_FILE:${exe}> REJECT "^correct")
    set(alg_line "")
    if(NOT alg STREQUAL "-")
      set(alg_line "#@pgmpi alg MPI_${coll} [0-9]+ ${alg}\n")
    endif()
    ic_test(defect_${name}_repaired NP ${np} RUN env LD_PRELOAD=$<TARGET_FILE:mpiguide>
      MPIGUIDE_REPAIR=1 MPIGUIDE_REPORT=1 $<TARGET_FILE:${exe}>
      EXPECT "correct \\(0 wrong elements\\)"
        "calls MPI_${coll} total=[0-9]+ mockup=0 [^\n]* known_defect=([1-9]) repaired=[1-9]"
        ${alg_line}
      REJECT "mpiguide: (error|warning)")
  else()
    ic_test(defect_${name}_other_mpi NP ${np} RUN env LD_PRELOAD=$<TARGET_FILE:mpiguide>
      MPIGUIDE_REPAIR=1 $<TARGET_FILE:${exe}> EXPECT "correct \\(0 wrong elements\\)")
  endif()
endforeach()

add_executable(defect_calls mpi/defect_calls.c)
target_link_libraries(defect_calls PRIVATE MPI::MPI_C)
set(IC_DC $<TARGET_FILE:defect_calls>)
if(MPIGUIDE_MPI STREQUAL "mpich")
  # GL18's inner Reduce_scatter would meet the defect: it declines, and the repair runs
  ic_test(defect_decline_forced NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    MPIGUIDE_REPAIR=1 MPIGUIDE_ALG=reduce_scatter_block=reducescatterblock_as_reducescatter
    ${IC_DC} --call=reduce_scatter_block --type=padded --op=noncomm
    EXPECT "defect_calls: correct"
      "calls MPI_Reduce_scatter_block total=1 mockup=0 [^\n]* fallback_defect=1 known_defect=1 repaired=1")
  # without repair the known_defect is counted (the report is on), not repaired; GL17 runs
  # as forced: its inner Reduce is safe
  ic_test(defect_forced_safe NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    MPIGUIDE_ALG=reduce_scatter_block=reducescatterblock_as_reduce_scatter
    ${IC_DC} --call=reduce_scatter_block --type=padded --op=noncomm
    EXPECT "defect_calls: correct"
      "calls MPI_Reduce_scatter_block total=1 mockup=1 [^\n]* fallback_defect=0 known_defect=0 repaired=0")
  # MPI_Reduce on the repair condition, not in place: the repair runs the library's MPI_Reduce
  ic_test(defect_repair_not_inplace NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    MPIGUIDE_REPAIR=1 ${IC_DC} --call=reduce --type=padded --op=comm --count=600 --root=1
    EXPECT "defect_calls: correct" "calls MPI_Reduce total=1 mockup=0 [^\n]* known_defect=1 repaired=1")
else()
  # the MPI's own algorithm declines a call that meets a known defect (op/avx sums), and the
  # default runs: never less correct than the untuned program, counted as fallback_defect
  ic_test(defect_libalg_declines NP 2 FAIL RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    MPIGUIDE_ALG=allreduce=allreduce_lib_ring $<TARGET_FILE:defect_openmpi_op_avx_saturating_sum>
    EXPECT "calls MPI_Allreduce total=3 mockup=0 [^\n]* library=1 fallback_library=0 fallback_defect=2 ")
  # and with MPIGUIDE_REPAIR=1 the default due after that decline is repaired: correct
  ic_test(defect_libalg_repaired NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
    MPIGUIDE_REPAIR=1 MPIGUIDE_ALG=allreduce=allreduce_lib_ring
    $<TARGET_FILE:defect_openmpi_op_avx_saturating_sum>
    EXPECT "correct \\(0 wrong elements\\)"
      "calls MPI_Allreduce total=3 mockup=0 [^\n]* library=1 fallback_library=0 fallback_defect=2 known_defect=2 repaired=2")
  file(WRITE ${IC}/defect_tuned/reduce_p2.prf
    "MPI_Reduce\n2\n1\n1 reduce_as_allreduce\n1\n0 9223372036854775807 1\n")
  file(WRITE ${IC}/defect_tuned.cfg "tune_user_ops 1\n")
  foreach(mode forced tuned)
    if(mode STREQUAL "forced")
      set(sel MPIGUIDE_ALG=reduce=reduce_as_allreduce)
    else()
      set(sel MPIGUIDE_PROFILES=${IC}/defect_tuned MPIGUIDE_CONFIG=${IC}/defect_tuned.cfg)
    endif()
    # GL14's inner Allreduce (commutative op, true lower bound -4) would meet the ring defect
    ic_test(defect_decline_${mode} NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 ${sel}
      ${IC_DC} --call=reduce --type=true_lb --op=comm --count=1001
      EXPECT "defect_calls: correct"
        "calls MPI_Reduce total=1 mockup=0 [^\n]* fallback_defect=1 known_defect=0 repaired=0")
  endforeach()
endif()

# Datatypes of mixed basic types (the `mixed` fact, which the library decodes from the datatype):
# the mock-ups whose inner MPI_Gather or MPI_Scatter would meet MPICH's mixed-type defects
# decline there and the result is right (before, each aborted the program with "Message
# truncated"); below the defects' sizes, and on Open MPI, they run.
add_executable(mixed_calls mpi/mixed_calls.c)
target_link_libraries(mixed_calls PRIVATE MPI::MPI_C)
set(IC_MC $<TARGET_FILE:mixed_calls>)
# name | MPIGUIDE_ALG | arguments | collective
set(MG_MIXED_CASES
  "allgather_inplace|allgather=allgather_as_gather_bcast|--call=allgather --inplace|Allgather"
  "allgather_struct|allgather=allgather_as_gather_bcast|--call=allgather --type=struct|Allgather"
  "reduce|reduce=reduce_as_reducescatterblock_gather|--call=reduce --count=8000|Reduce"
  "reduce_scatter_block|reduce_scatter_block=reducescatterblock_as_reduce_scatter|--call=reduce_scatter_block|Reduce_scatter_block")
foreach(case ${MG_MIXED_CASES})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 alg)
  list(GET parts 2 args)
  list(GET parts 3 coll)
  separate_arguments(args)
  if(MPIGUIDE_MPI STREQUAL "mpich")
    set(want "mockup=0 [^\n]* fallback_defect=1 ")
  else()
    set(want "mockup=1 [^\n]* fallback_defect=0 ")
  endif()
  ic_test(mixed_${name} NP 4 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_ALG=${alg}
    ${IC_MC} ${args} EXPECT "mixed_calls: correct" "calls MPI_${coll} total=1 ${want}")
endforeach()
# small blocks of the same types stay clear of the defects: the mock-up runs
ic_test(mixed_allgather_small NP 4 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_ALG=allgather=allgather_as_gather_bcast ${IC_MC} --call=allgather --type=struct --count=10
  EXPECT "mixed_calls: correct" "calls MPI_Allgather total=1 mockup=1 [^\n]* fallback_defect=0 ")
