# The interception's memos. The shape memo (src/intercept/general_path.c, mg_shape_memo): calls that repeat a
# mock-up call's scalar arguments on a communicator reuse its plan; calls that differ in
# MPI_IN_PLACE, datatype, root or communicator must not. tests/mpi/plan_memo.c mixes them on one
# communicator and checks every result. The pool is too small for the in-place plan of
# allreduce_as_reducescatter_allgatherv (1,024 ints on 3 ranks need ~1.4 KB of scratch), which
# needs none without MPI_IN_PLACE: were the in-place calls to take the other plan, they would run
# the mock-up without its scratch. Rank 0 per round: 5 Allreduce calls run the mock-up (send
# buffer, MPI_FLOAT, user-defined op, duplicate, half) and 1 falls back for memory (in place); the
# final check of the results is one more mock-up call.
add_executable(plan_memo mpi/plan_memo.c)
target_link_libraries(plan_memo PRIVATE MPI::MPI_C)
file(WRITE ${IC}/small_pool.cfg "size_msg_buffer_bytes 256\n")
ic_test(plan_memo NP 3 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_CONFIG=${IC}/small_pool.cfg
  MPIGUIDE_ALG=allreduce=allreduce_as_reducescatter_allgatherv,reduce=reduce_as_allreduce
  $<TARGET_FILE:plan_memo>
  EXPECT "plan_memo: all results correct; the freed duplicate's handle came back as the half [1-9]"
    "#@mpiguide calls MPI_Allreduce total=37 mockup=31 fallback_memory=6 "
    "#@mpiguide calls MPI_Reduce total=6 mockup=6 "
  REJECT "wrong result" "mpiguide: (error|warning)")

# The decision memo of the collectives whose size is not one count (mg_memo_key): the sum of
# recvcounts for MPI_Reduce_scatter, read on every call although the array is the same, and the
# communicator alone for MPI_Gatherv (tests/mpi/decision_memo.c). Were the memo to repeat a
# default it must not, the mock-up counts would fall short.
add_executable(decision_memo mpi/decision_memo.c)
target_link_libraries(decision_memo PRIVATE MPI::MPI_C)
file(WRITE ${IC}/decision_memo/MPI_Reduce_scatter_p2.prf
  "MPI_Reduce_scatter\n2\n1\n1 reducescatter_as_allreduce\n1\n64 128 1\n")
file(WRITE ${IC}/decision_memo/MPI_Gatherv_p2.prf
  "MPI_Gatherv\n2\n1\n1 gatherv_as_tuw\n1\n0 9223372036854775807 1\n")
ic_test(decision_memo NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_GUARD=0
  MPIGUIDE_PROFILES=${IC}/decision_memo $<TARGET_FILE:decision_memo>
  EXPECT "decision_memo: all results correct"
    "#@mpiguide calls MPI_Reduce_scatter total=35 mockup=15 "
    "#@mpiguide calls MPI_Gatherv total=10 mockup=5 "
  REJECT "wrong result" "mpiguide: (error|warning)")
# The same on the test variant of the library, whose footer also counts the repeats the memo
# took (#@mpiguide test memo_hits): a key that never matched would pass the test above. The
# first call on a communicator takes the general path (it fills the communicator's cache entry),
# the second decides and sets the memo. Rank 0, Reduce_scatter: round 1 repeats {4, 0} and
# {0, 4} (the sum of 4 ints of the second {2, 2}), later rounds those and both {2, 2}: 2 + 4 * 4
# = 18; Gatherv: the one-rank communicator's calls from the third on, 3 (MPI_COMM_WORLD runs
# the mock-up, never a repeat).
# The communicator cache is direct-mapped on the handle's bits: with address randomisation two
# of the program's communicators (MPI_COMM_WORLD and the split) shared a slot in about 1 run of
# 20, which evicts entries and costs repeats (14 instead of 18 seen), so the ranks run without
# it (setarch -R) and the layout is the same in every run.
if(TARGET mpiguide_testalgs)
  ic_test(decision_memo_hits NP 2 RUN setarch -R env LD_PRELOAD=$<TARGET_FILE:mpiguide_testalgs>
    MPIGUIDE_REPORT=1 MPIGUIDE_GUARD=0 MPIGUIDE_PROFILES=${IC}/decision_memo
    $<TARGET_FILE:decision_memo>
    EXPECT "decision_memo: all results correct"
      "#@mpiguide calls MPI_Reduce_scatter total=35 mockup=15 "
      "#@mpiguide test memo_hits MPI_Reduce_scatter 18\n"
      "#@mpiguide test memo_hits MPI_Gatherv 3\n"
    REJECT "wrong result" "mpiguide: (error|warning)")
endif()

# Several profiles of one (collective, p), one per datatype and op (src/profile/seltab.h chains;
# tests/mpi/two_types.c): each call takes its own, a third type runs the default as other_type,
# and the memo of the last size does not carry one profile's decision over to the other (which
# would make 20 mock-up calls). Rank 0: 31 calls, 10 of MPI_DOUBLE/MPI_SUM run the mock-up, 10 of
# MPI_INT/MPI_MAX the default their profile names, 11 of MPI_INT/MPI_SUM (the final check's
# included) are other_type. The fast path (report only) and the general path (record) agree.
add_executable(two_types mpi/two_types.c)
target_link_libraries(two_types PRIVATE MPI::MPI_C)
file(WRITE ${IC}/two_types/MPI_Allreduce_p2_MPI_DOUBLE_MPI_SUM.prf
  "#@datatype=MPI_DOUBLE\n#@operation=MPI_SUM\nMPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n1\n0 9223372036854775807 1\n")
file(WRITE ${IC}/two_types/MPI_Allreduce_p2_MPI_INT_MPI_MAX.prf
  "#@datatype=MPI_INT\n#@operation=MPI_MAX\nMPI_Allreduce\n2\n1\n1 default\n1\n0 9223372036854775807 1\n")
ic_test(two_types NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_GUARD=0
  MPIGUIDE_PROFILES=${IC}/two_types $<TARGET_FILE:two_types>
  EXPECT "two_types: all results correct"
    "#@mpiguide calls MPI_Allreduce total=31 mockup=10 [^\n]* other_type=11 "
  REJECT "wrong result" "mpiguide: (error|warning)")
ic_test(two_types_record NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1 MPIGUIDE_GUARD=0
  MPIGUIDE_RECORD=${IC}/two_types.rec MPIGUIDE_PROFILES=${IC}/two_types $<TARGET_FILE:two_types>
  EXPECT "two_types: all results correct"
    "#@mpiguide calls MPI_Allreduce total=31 mockup=10 [^\n]* other_type=11 "
    "coverage MPI_Allreduce p=2 calls=31 covered=20 mockup=10 other_type=11 "
  REJECT "wrong result" "mpiguide: (error|warning)")
# With the guard: the two profiles select other mock-ups at the same size, and each is guarded on
# its own (an entry per algorithm): two guard lines of 10 calls each, not one of 20.
file(WRITE ${IC}/two_types_guard/MPI_Allreduce_p2_MPI_DOUBLE_MPI_SUM.prf
  "#@datatype=MPI_DOUBLE\n#@operation=MPI_SUM\nMPI_Allreduce\n2\n1\n1 allreduce_as_reduce_bcast\n1\n0 9223372036854775807 1\n")
file(WRITE ${IC}/two_types_guard/MPI_Allreduce_p2_MPI_INT_MPI_MAX.prf
  "#@datatype=MPI_INT\n#@operation=MPI_MAX\nMPI_Allreduce\n2\n1\n1 allreduce_as_reducescatter_allgatherv\n1\n0 9223372036854775807 1\n")
ic_test(two_types_guard NP 2 RUN env LD_PRELOAD=${IC_LIB} MPIGUIDE_REPORT=1
  MPIGUIDE_PROFILES=${IC}/two_types_guard $<TARGET_FILE:two_types>
  EXPECT "two_types: all results correct"
    "#@mpiguide guard MPI_Allreduce p=2 msize=8 alg=allreduce_as_reduce_bcast calls=10 "
    "#@mpiguide guard MPI_Allreduce p=2 msize=8 alg=allreduce_as_reducescatter_allgatherv calls=10 "
  REJECT "wrong result" "mpiguide: (error|warning)")
