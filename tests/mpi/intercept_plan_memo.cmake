# The interception's plan memo (src/intercept/select.c, mg_plan): calls that repeat a mock-up
# call's scalar arguments on a communicator reuse its plan; calls that differ in MPI_IN_PLACE,
# datatype, root or communicator must not. tests/mpi/plan_memo.c mixes them on one
# communicator and checks every result. The pool is too small for the in-place plan of
# allreduce_as_reducescatter_allgatherv (1,024 ints on 3 ranks need ~1.4 KB of scratch), which
# needs none without MPI_IN_PLACE: were the in-place calls to take the other plan, they would
# run the mock-up without its scratch. Rank 0 per round: 5 Allreduce calls run the mock-up (send
# buffer, MPI_FLOAT, user-defined op, duplicate, half) and 1 falls back for memory (in place);
# the final check of the results is one more mock-up call.
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
