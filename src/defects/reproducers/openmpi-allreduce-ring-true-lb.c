/* Reproducer of the known defect openmpi-allreduce-ring-true-lb (src/defects/known.txt,
 * docs/defects.md): MPI_Allreduce with a commutative op on a datatype whose data does not start
 * at its origin (true lower bound -4 here). Open MPI 4.1.4's ring algorithm, which it picks for
 * this size at 2 and 3 processes, receives into a temporary buffer without shifting it by the
 * true lower bound and writes 4 bytes before it: glibc aborts ("double free or corruption").
 *
 *   mpicc repro.c -o repro && mpiexec -n 2 ./repro     (also -n 3)
 *
 * The type holds ints at -4 and 8 in an element of extent 24 starting at -8; the op adds both
 * fields. Prints "correct" and exits 0, or names the first wrong element and exits 1. Only MPI
 * calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1001 /* elements: 24 KiB */

static int *field(void *buf, int i, int k) { /* field k (0: at -4, 1: at 8) of element i */
    return (int *)((char *)buf + 24 * i + (k ? 8 : -4));
}

static void add(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    for (int i = 0; i < *len; i++)
        for (int k = 0; k < 2; k++) *field(inout, i, k) += *field(in, i, k);
}

int main(int argc, char **argv) {
    int rank, p, wrong = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int lens[2] = {1, 1};
    MPI_Aint displs[2] = {-4, 8};
    MPI_Datatype ints[2] = {MPI_INT, MPI_INT}, inner, type;
    MPI_Type_create_struct(2, lens, displs, ints, &inner);
    MPI_Type_create_resized(inner, -8, 24, &type);
    MPI_Type_commit(&type);
    MPI_Op op;
    MPI_Op_create(add, 1, &op);
    char *in = calloc(24 * N, 1), *out = calloc(24 * N, 1);
    void *sendbuf = in + 8, *recvbuf = out + 8; /* the element starts 8 bytes before its origin */
    for (int i = 0; i < N; i++) {
        *field(sendbuf, i, 0) = rank + i;
        *field(sendbuf, i, 1) = rank;
    }
    MPI_Allreduce(sendbuf, recvbuf, N, type, op, MPI_COMM_WORLD);
    for (int i = 0; i < N; i++)
        if ((*field(recvbuf, i, 0) != p * i + p * (p - 1) / 2 ||
             *field(recvbuf, i, 1) != p * (p - 1) / 2) &&
            !wrong++)
            printf("rank %d: element %d is (%d, %d), expected (%d, %d)\n", rank, i,
                   *field(recvbuf, i, 0), *field(recvbuf, i, 1), p * i + p * (p - 1) / 2,
                   p * (p - 1) / 2);
    int all = 0;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    MPI_Op_free(&op);
    MPI_Type_free(&type);
    MPI_Type_free(&inner);
    free(in);
    free(out);
    MPI_Finalize();
    return all ? 1 : 0;
}
