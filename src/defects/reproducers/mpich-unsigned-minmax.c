/* Reproducer of the known defect mpich-unsigned-minmax (src/defects/known.txt, docs/defects.md):
 * MPI_MIN and MPI_MAX on an unsigned integer type compare the values as signed. MPICH 4.0.2
 * returns 0xf0000000 as the minimum of 0xf0000000 and 1 (and 1 as the maximum).
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
    unsigned in = rank == 0 ? 0xf0000000u : 1u, min = 0, max = 0;
    MPI_Allreduce(&in, &min, 1, MPI_UNSIGNED, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &max, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD);
    if (min != 1u || max != 0xf0000000u) {
        printf("rank %d: MPI_MIN gave 0x%x (expected 0x1), MPI_MAX 0x%x (expected 0xf0000000)\n",
               rank, min, max);
        wrong = 1;
    }
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
