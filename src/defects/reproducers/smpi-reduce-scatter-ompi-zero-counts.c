/* Reproducer of the known defect smpi-reduce-scatter-ompi-zero-counts (src/defects/known.txt,
 * docs/defects.md): MPI_Reduce_scatter in which some ranks receive no element, under SMPI's
 * Open MPI algorithms. SimGrid 3.32 picks recursive halving, ring or butterfly for it, which
 * need every count above zero (Open MPI's own decision falls back to its non-overlapping
 * algorithm then; SMPI's copy has that check commented out): wrong results on 4 or more ranks.
 *
 *   smpicc repro.c -o repro && smpirun -np 4 -platform P.xml -hostfile H \
 *       --cfg=smpi/coll-selector:ompi ./repro
 *
 * Prints "correct" and exits 0, or names the first wrong element and exits 1. Only MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define B 100 /* ints received by each even rank; odd ranks receive none */

int main(int argc, char **argv) {
    int rank, p, wrong = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int *counts = malloc(sizeof(int) * (size_t)p), n = 0, before = 0;
    for (int i = 0; i < p; i++) {
        counts[i] = i % 2 ? 0 : B;
        if (i < rank) before += counts[i];
        n += counts[i];
    }
    int *in = malloc(sizeof(int) * (size_t)n), *out = malloc(sizeof(int) * B);
    for (int i = 0; i < n; i++) in[i] = rank * 1000 + i;
    for (int i = 0; i < B; i++) out[i] = -1;
    MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < counts[rank]; i++) {
        int want = 1000 * p * (p - 1) / 2 + p * (before + i);
        if (out[i] != want && !wrong++)
            printf("rank %d: element %d is %d, expected %d\n", rank, i, out[i], want);
    }
    int all = 0;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    free(counts);
    free(in);
    free(out);
    MPI_Finalize();
    return all ? 1 : 0;
}
