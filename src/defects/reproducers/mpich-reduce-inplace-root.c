/* Reproducer of the known defect mpich-reduce-inplace-root (src/defects/known.txt,
 * docs/defects.md; pmodels/mpich#6540): MPI_Reduce with MPI_IN_PLACE at a root other than 0 and
 * more than 2048 bytes of data. MPICH 4.0.2 crashes at the root (segmentation fault).
 *
 *   mpicc repro.c -o repro && mpiexec -n 2 ./repro
 *
 * Prints "correct" and exits 0, or names the first wrong element and exits 1. Only MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 513 /* ints: 2052 bytes */

int main(int argc, char **argv) {
    int rank, p, wrong = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int root = p - 1;
    int *v = malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++) v[i] = rank + i;
    if (rank == root)
        MPI_Reduce(MPI_IN_PLACE, v, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    else
        MPI_Reduce(v, NULL, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root)
        for (int i = 0; i < N; i++)
            if (v[i] != p * i + p * (p - 1) / 2 && !wrong++)
                printf("rank %d: element %d is %d, expected %d\n", rank, i, v[i],
                       p * i + p * (p - 1) / 2);
    int all = 0;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    free(v);
    MPI_Finalize();
    return all ? 1 : 0;
}
