/* Reproducer of the known defect openmpi-unsigned-long-minmax (src/defects/known.txt,
 * docs/defects.md): MPI_MIN and MPI_MAX on MPI_UNSIGNED_LONG compare the values as signed long.
 * Open MPI 4.1.4 returns 0xf000000000000000 as the minimum of it and 1 (and 1 as the maximum);
 * MPI_UNSIGNED_LONG_LONG and MPI_UINT64_T are right.
 *
 *   mpicc repro.c -o repro && mpiexec -n 2 ./repro
 *
 * Prints "correct" and exits 0, or names the wrong result and exits 1. Only MPI calls. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, wrong = 0, all = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    unsigned long big = 0xf000000000000000ul, in = rank == 0 ? big : 1ul, min = 0, max = 0;
    MPI_Allreduce(&in, &min, 1, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &max, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (min != 1ul || max != big) {
        printf("rank %d: MPI_MIN gave 0x%lx (expected 0x1), MPI_MAX 0x%lx (expected 0x%lx)\n", rank,
               min, max, big);
        wrong = 1;
    }
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
