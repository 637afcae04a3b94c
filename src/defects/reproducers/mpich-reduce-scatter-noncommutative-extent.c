/* Reproducer of the known defect mpich-reduce-scatter-noncommutative-extent (src/defects/known.txt,
 * docs/defects.md): MPI_Reduce_scatter_block and MPI_Reduce_scatter with a non-commutative op on
 * a datatype whose extent differs from its true extent, at a power-of-two number of processes
 * with equal blocks. MPICH 4.0.2 returns wrong data (and with more elements overruns its
 * temporary buffers and crashes).
 *
 *   mpicc repro.c -o repro && mpiexec -n 2 ./repro     (also -n 4, -n 8)
 *
 * The op keeps its left operand (x op y = x): associative, not commutative, so the reduction in
 * rank order is rank 0's input. The type is one int with extent 8 (true extent 4). Prints
 * "correct" and exits 0, or names the first wrong element and exits 1. Only MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 8 /* elements per process */

static void keep_left(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    for (int i = 0; i < *len; i++) ((int *)inout)[2 * i] = ((int *)in)[2 * i];
}

int main(int argc, char **argv) {
    int rank, p, wrong = 0, first = -1, got = 0, want = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Datatype padded; /* an int followed by 4 bytes of gap */
    MPI_Type_create_resized(MPI_INT, 0, 8, &padded);
    MPI_Type_commit(&padded);
    MPI_Op op;
    MPI_Op_create(keep_left, 0, &op);
    int *in = calloc(2 * (size_t)BLOCK * (size_t)p, sizeof(int));
    int *out = calloc(2 * (size_t)BLOCK, sizeof(int));
    int *counts = malloc(sizeof(int) * (size_t)p);
    for (int i = 0; i < BLOCK * p; i++) in[2 * i] = 1000 * rank + i;
    for (int i = 0; i < p; i++) counts[i] = BLOCK;
    for (int call = 0; call < 2; call++) {
        if (call == 0)
            MPI_Reduce_scatter_block(in, out, BLOCK, padded, op, MPI_COMM_WORLD);
        else
            MPI_Reduce_scatter(in, out, counts, padded, op, MPI_COMM_WORLD);
        for (int i = 0; i < BLOCK; i++) /* rank 0's element rank * BLOCK + i */
            if (out[2 * i] != rank * BLOCK + i && !wrong++) {
                first = i;
                got = out[2 * i];
                want = rank * BLOCK + i;
            }
        if (first >= 0)
            printf("rank %d: %s: element %d is %d, expected %d\n", rank,
                   call ? "MPI_Reduce_scatter" : "MPI_Reduce_scatter_block", first, got, want);
        first = -1;
    }
    int all = 0;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    MPI_Op_free(&op);
    MPI_Type_free(&padded);
    free(in);
    free(out);
    free(counts);
    MPI_Finalize();
    return all ? 1 : 0;
}
