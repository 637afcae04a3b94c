/* Reproducer of the MPICH defect mpich-packed-into-mixed-type (docs/defects.md): a message sent
 * as MPI_PACKED and received with a datatype whose elements have gaps and mixed basic types
 * (here {uint8_t at 0, uint64_t at 8}: 9 bytes of data in 16) fails with "Message truncated"
 * once it carries more than about 8 KiB (MPICH 4.0.2: 916 elements pass, 917 fail). The MPI
 * standard allows it: the packed bytes have the type signature of the receive. Not a
 * collective's defect, so not in known.txt: mpiguide's TUW Gatherv/Scatterv met it and receive
 * such messages into scratch and unpack them instead.
 *
 *   mpicc repro.c -o repro && mpiexec -n 2 ./repro
 *
 * Prints "correct" and exits 0, or names the failure and exits 1. Only MPI calls. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 2000

typedef struct {
    uint8_t a;
    uint64_t b;
} elem; /* a at 0, b at 8 (the struct type below describes exactly this layout) */

int main(int argc, char **argv) {
    int rank, wrong = 0, all = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int lens[2] = {1, 1};
    MPI_Aint displs[2] = {0, 8};
    MPI_Datatype parts[2] = {MPI_UINT8_T, MPI_UINT64_T}, t;
    MPI_Type_create_struct(2, lens, displs, parts, &t);
    MPI_Type_commit(&t);
    int size = 0;
    MPI_Type_size(t, &size);
    if (rank == 1) { /* pack N elements and send the bytes */
        elem *v = calloc(N, sizeof *v);
        char *packed = malloc((size_t)N * (size_t)size);
        for (int i = 0; i < N; i++) v[i].a = (uint8_t)i, v[i].b = 1000u * (uint64_t)i;
        int pos = 0;
        MPI_Pack(v, N, t, packed, N * size, &pos, MPI_COMM_WORLD);
        MPI_Send(packed, pos, MPI_PACKED, 0, 0, MPI_COMM_WORLD);
        free(v);
        free(packed);
    } else if (rank == 0) {
        elem *v = calloc(N, sizeof *v);
        int rc = MPI_Recv(v, N, t, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            char s[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(rc, s, &len);
            printf("rank 0: MPI_Recv of %d packed bytes into %d elements failed: %s\n", N * size, N,
                   s);
            wrong = N;
        } else {
            for (int i = 0; i < N; i++)
                wrong += v[i].a != (uint8_t)i || v[i].b != 1000u * (uint64_t)i;
        }
        free(v);
    }
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    MPI_Type_free(&t);
    MPI_Finalize();
    return all ? 1 : 0;
}
