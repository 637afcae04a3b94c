/* The shape memo of the interception (src/intercept/general_path.c, mg_shape_memo): a call that
 * repeats the scalar arguments of the last mock-up call on its communicator reuses that call's
 * plan. Calls that differ from the memo only in what the key holds must not reuse it; this program
 * mixes them on one communicator and checks every result. Preloaded with libmpiguide in forced mode
 * (tests/mpi/intercept_plan_memo.cmake); plain MPI otherwise.
 *   - MPI_Allreduce of N ints, alternately with and without MPI_IN_PLACE: the in-place plan of
 *     allreduce_as_reducescatter_allgatherv needs scratch the small pool of the test's config
 *     lacks (a fallback), the other needs none (the mock-up): the report counts both.
 *   - the same count as MPI_FLOAT (same size, another datatype), and with a user-defined op
 *     (never memoised: its handle could come back as another op once freed);
 *   - MPI_Reduce with the root alternating;
 *   - communicators duplicated and freed in every round, and split into halves: a freed
 *     handle that MPI hands out again must not find the old communicator's plan (both MPIs do
 *     hand it out again; the output says how often, and the test asserts that it happened). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N      1024
#define ROUNDS 6

static int fails, reused;

static void check(int ok, const char *what, int round) {
    if (!ok) {
        fails++;
        fprintf(stderr, "plan_memo: wrong result: %s, round %d\n", what, round);
    }
}

/* MPI_Allreduce(SUM) of rank + i + 1 over comm, in place or not, checked element by element. */
static void allreduce_ints(MPI_Comm comm, int inplace, int round, const char *what) {
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    int *in = malloc(sizeof(int) * N), *out = malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++) in[i] = out[i] = rank + i + 1;
    MPI_Allreduce(inplace ? MPI_IN_PLACE : in, out, N, MPI_INT, MPI_SUM, comm);
    int ok = 1;
    for (int i = 0; i < N; i++) ok &= out[i] == p * (p - 1) / 2 + p * (i + 1);
    check(ok, what, round);
    free(in);
    free(out);
}

static void sum_ints(void *in, void *inout, int *len, MPI_Datatype *t) {
    (void)t;
    for (int i = 0; i < *len; i++) ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Op own_sum;
    MPI_Op_create(sum_ints, 1, &own_sum);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int r = 0; r < ROUNDS; r++) {
        allreduce_ints(MPI_COMM_WORLD, r % 2, r, r % 2 ? "in place" : "send buffer");
        allreduce_ints(MPI_COMM_WORLD, !(r % 2), r, r % 2 ? "send buffer" : "in place");

        float f[N], g[N];
        for (int i = 0; i < N; i++) f[i] = (float)(rank + 1);
        MPI_Allreduce(f, g, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        int ok = 1;
        for (int i = 0; i < N; i++) ok &= g[i] == (float)(p * (p + 1) / 2);
        check(ok, "MPI_FLOAT", r);

        int a[N], b[N]; /* the memo's key again but for the op: a user-defined sum */
        for (int i = 0; i < N; i++) a[i] = rank + 1;
        MPI_Allreduce(a, b, N, MPI_INT, own_sum, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i < N; i++) ok &= b[i] == p * (p + 1) / 2;
        check(ok, "user-defined op", r);

        int root = r % p, x = rank + 1, sum = -1;
        MPI_Reduce(&x, &sum, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        check(rank != root || sum == p * (p + 1) / 2, "MPI_Reduce root", r);

        MPI_Comm dup, half, was;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        allreduce_ints(dup, 0, r, "duplicate");
        was = dup;
        MPI_Comm_free(&dup);
        MPI_Comm_split(MPI_COMM_WORLD, rank < p / 2, rank, &half);
        reused += !memcmp(&was, &half, sizeof half); /* the case the memo must survive */
        allreduce_ints(half, 0, r, "half");
        MPI_Comm_free(&half);
    }
    MPI_Op_free(&own_sum);
    int all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("plan_memo: %s; the freed duplicate's handle came back as the half %d of %d times\n",
               all ? "FAILED" : "all results correct", reused, ROUNDS);
    MPI_Finalize();
    return all != 0;
}
