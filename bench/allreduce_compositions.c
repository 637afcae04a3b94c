/* MPI_Allreduce against two of its compositions, timed directly (no mpiguide), for the table
 * "MPI_Allreduce of 1 MiB at 256 ranks" in docs/at-scale.md: per size N (bytes, the arguments)
 * one MPI_Allreduce of N MPI_BYTE with MPI_BOR, then MPI_Reduce + MPI_Bcast, then
 * MPI_Reduce_scatter_block of N/p + in-place MPI_Allgather, each after MPI_Barrier and timed as
 * the slowest rank; two rounds, since under SMPI the first collective on a communicator pays its
 * set-up (docs/at-scale.md "First calls"). Also prints the host CPU each took (the simulator's).
 *   usage: smpirun ... ./allreduce_compositions N [N ...] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_s(void) {
    struct timespec t;
    /* parenthesised: SMPI's helper header replaces clock_gettime by its simulated clock */
    (clock_gettime)(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void variant(int k, char *in, char *out, int n, int p) {
    if (k == 0) {
        MPI_Allreduce(in, out, n, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    } else if (k == 1) {
        MPI_Reduce(in, out, n, MPI_BYTE, MPI_BOR, 0, MPI_COMM_WORLD);
        MPI_Bcast(out, n, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (n / p > 0) {
        MPI_Reduce_scatter_block(in, out, n / p, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_BYTE, out, n / p, MPI_BYTE, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv) {
    int r, p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int a = 1; a < argc; a++) {
        int n = atoi(argv[a]);
        char *in = calloc((size_t)n + 1, 1), *out = calloc((size_t)n + 1, 1);
        for (int round = 0; round < 2; round++) {
            double t[3], c[3];
            for (int k = 0; k < 3; k++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double c0 = cpu_s(), t0 = MPI_Wtime();
                variant(k, in, out, n, p);
                double mine = MPI_Wtime() - t0;
                MPI_Reduce(&mine, &t[k], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
                c[k] = cpu_s() - c0;
            }
            if (r == 0)
                printf("n=%d rep=%d allreduce %.2f us (cpu %.2f s) | reduce+bcast %.2f us (cpu "
                       "%.2f) | rsb+allgather %.2f us (cpu %.2f) | factor %.2f %.2f\n",
                       n, round, t[0] * 1e6, c[0], t[1] * 1e6, c[1], t[2] * 1e6, c[2], t[0] / t[1],
                       t[0] / t[2]);
            fflush(stdout);
        }
        free(in);
        free(out);
    }
    MPI_Finalize();
    return 0;
}
