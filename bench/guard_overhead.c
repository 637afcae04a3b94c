/* What the guard costs the calls it does not sample (at most 1.02x the direct call),
 * at p = 2: alternating blocks of MPI_Allreduce(1 int) through libmpiguide in tuned mode, whose
 * profile sends it to allreduce_as_reduce_bcast, and of that mock-up called directly through
 * mpiguide_run (no interception, no guard), in one program run. Linked with the test variant
 * of the library; bench/guard_overhead.sh sets MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Allreduce so the
 * guard confirms the entry during the warm-up and samples only 1 call in 4096 after it: the
 * median over blocks of 500 calls is then the cost of unsampled calls. Prints both medians and
 * their ratio (wall clock and CPU time of rank 0). Usage: guard_overhead [BLOCKS] */
#include "mpiguide.h"
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CALLS 500

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int blocks = argc > 1 ? atoi(argv[1]) : 400;
    int rank, p, x = 1, y = 0, wrong = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int alg =
        mpiguide_algorithm_id(mpiguide_collective_id("MPI_Allreduce"), "allreduce_as_reduce_bcast");
    mpiguide_args a = {0};
    a.sendbuf = &x;
    a.recvbuf = &y;
    a.sendcount = a.recvcount = 1;
    a.sendtype = a.recvtype = MPI_INT;
    a.op = MPI_SUM;
    a.comm = MPI_COMM_WORLD;
    double *t[2], *c[2];
    for (int k = 0; k < 2; k++) {
        t[k] = malloc(sizeof(double) * (size_t)blocks);
        c[k] = malloc(sizeof(double) * (size_t)blocks);
    }
    /* warm-up: the guard confirms the entry window by window until its period is 4096 */
    for (int i = 0; i < 80000; i++) MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 2000; i++) mpiguide_run(alg, &a, NULL, NULL);
    for (int b = 0; b < 2 * blocks; b++) {
        int via = (b % 2) ^ ((b / 2) % 2); /* ABBA order cancels drift */
        PMPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime(), c0 = cpu();
        if (via)
            for (int i = 0; i < CALLS; i++)
                MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else
            for (int i = 0; i < CALLS; i++) mpiguide_run(alg, &a, NULL, NULL);
        t[via][b / 2] = (MPI_Wtime() - t0) / CALLS;
        c[via][b / 2] = (cpu() - c0) / CALLS;
        wrong += y != p;
    }
    if (rank == 0) {
        double mv = median(t[1], blocks), md = median(t[0], blocks);
        double cv = median(c[1], blocks), cd = median(c[0], blocks);
        printf("blocks %d x %d calls per kind, p = %d, MPI_Allreduce of 1 MPI_INT\n", blocks, CALLS,
               p);
        printf("median intercepted (tuned entry, guard):  %.1f ns per call (CPU time %.1f)\n",
               mv * 1e9, cv * 1e9);
        printf("median direct (mpiguide_run of the mock-up): %.1f ns per call (CPU time %.1f)\n",
               md * 1e9, cd * 1e9);
        printf("ratio: %.4f (CPU time: %.4f)%s\n", mv / md, cv / cd,
               wrong ? "  (WRONG RESULTS)" : "");
    }
    MPI_Finalize();
    return wrong != 0;
}
