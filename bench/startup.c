/* bench/startup.sh's program: the wall-clock seconds of MPI_Init and of MPI_Finalize on rank 0
 * (one MPI_Allreduce between them, so that both sides of the library are exercised). */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    double t0 = now();
    MPI_Init(&argc, &argv);
    double t1 = now();
    int rank, one = 1, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    double t2 = now();
    MPI_Finalize();
    double t3 = now();
    if (rank == 0) printf("startup init_s %.6f finalize_s %.6f ranks %d\n", t1 - t0, t3 - t2, sum);
    return 0;
}
