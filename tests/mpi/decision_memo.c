/* The decision memo of the interception (src/intercept/intercept.h, mg_memo_key) for the
 * collectives whose size is not one count: a call that repeats the key of the last call that ran
 * the default on its communicator runs the default again without a decision. The key of
 * MPI_Reduce_scatter is the sum of recvcounts, read on every call; that of MPI_Gatherv is the
 * communicator alone. Preloaded with libmpiguide in tuned mode
 * (tests/mpi/intercept_plan_memo.cmake, ic.decision_memo): profiles at p = 2 name
 * reducescatter_as_allreduce for 64-128 bytes and gatherv_as_tuw for every size; the report's
 * counts say which calls ran a mock-up.
 *   - MPI_Reduce_scatter of ints with ONE recvcounts array whose entries change between calls
 *     (the same pointer): 16 bytes ({2, 2}, twice, then {4, 0} and {0, 4}: the same sum in
 *     other shares) run the default, 64 bytes ({10, 6}, {4, 12} after {4, 0}, {12, 4} after
 *     {0, 4}) the mock-up; a memo that kept the pointer, the first entry or the last would run
 *     the default there;
 *   - MPI_Gatherv alternately on MPI_COMM_WORLD (the profile's mock-up) and on a communicator
 *     of one rank per process (no profile: the default, memoised), so that the memo of one
 *     communicator must not decide for the other.
 * Every result is checked. Rank 0's report per round: 7 Reduce_scatter calls, 3 of them the
 * mock-up; 2 Gatherv calls, 1 the mock-up. */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 5

static int fails;

/* MPI_Reduce_scatter(SUM) of (rank + 1) * (i + 1) with the counts now in rc; checks this
 * rank's block. */
static void reduce_scatter(int *rc, int c0, int c1, int rank, int p, int round) {
    int in[32], out[32], off = rank ? c0 : 0;
    rc[0] = c0, rc[1] = c1;
    for (int i = 0; i < c0 + c1; i++) in[i] = (rank + 1) * (i + 1);
    MPI_Reduce_scatter(in, out, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < rc[rank]; i++)
        if (out[i] != p * (p + 1) / 2 * (off + i + 1)) {
            fails++;
            fprintf(stderr, "decision_memo: wrong result: Reduce_scatter {%d, %d}, round %d\n", c0,
                    c1, round);
            return;
        }
}

/* MPI_Gatherv of rank + 1 (ints) at root 0 of comm; the root checks. */
static void gatherv(MPI_Comm comm, int round) {
    int rank, p, mine[4], all[16], counts[4], displs[4];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    for (int r = 0; r < p; r++) counts[r] = r + 1, displs[r] = r * 4;
    for (int i = 0; i < rank + 1; i++) mine[i] = 100 * rank + i;
    MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 0, comm);
    if (rank) return;
    for (int r = 0; r < p; r++)
        for (int i = 0; i < r + 1; i++)
            if (all[r * 4 + i] != 100 * r + i) {
                fails++;
                fprintf(stderr, "decision_memo: wrong result: Gatherv on %d ranks, round %d\n", p,
                        round);
                return;
            }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p, rc[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p != 2) {
        if (!rank) fprintf(stderr, "decision_memo: needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm self;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &self);
    for (int round = 0; round < ROUNDS; round++) {
        reduce_scatter(rc, 2, 2, rank, p, round);
        reduce_scatter(rc, 2, 2, rank, p, round);
        reduce_scatter(rc, 10, 6, rank, p, round);
        reduce_scatter(rc, 4, 0, rank, p, round);
        reduce_scatter(rc, 4, 12, rank, p, round);
        reduce_scatter(rc, 0, 4, rank, p, round);
        reduce_scatter(rc, 12, 4, rank, p, round);
        gatherv(self, round);
        gatherv(MPI_COMM_WORLD, round);
    }
    MPI_Comm_free(&self);
    MPI_Allreduce(MPI_IN_PLACE, &fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!rank && !fails) printf("decision_memo: all results correct\n");
    MPI_Finalize();
    return fails != 0;
}
