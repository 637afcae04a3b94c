/* The application of docs/at-scale.md's MPI_Allreduce repair: CALLS calls of MPI_Allreduce of
 * BYTES bytes on MPI_COMM_WORLD, each result checked, through the public call only, so that
 * libmpiguide (linked whole under SMPI) applies a profile to it. TYPE `byte` (default):
 * MPI_BYTE with MPI_BOR, the datatype and op of mpiguide bench's defaults, so that a tune of an
 * input line without --datatype/--op covers it; `int`: BYTES / 4 MPI_INTs with MPI_SUM. (The
 * two do not take the same simulated time under SimGrid's MPICH selector, docs/at-scale.md.) Prints
 * "allreduce_sim: p=P bytes=B type=T calls=C per_call_s=S failed=F": S the time per call (the
 * largest over the ranks; simulated time under SMPI), F the calls whose result was wrong on some
 * rank (checked by an MPI_Reduce, so that every MPI_Allreduce of the run is one of the CALLS).
 * usage: allreduce_sim [CALLS [BYTES [TYPE]]]   (default 5 calls of 1 MiB of bytes) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p, calls = argc > 1 ? atoi(argv[1]) : 5, bytes = argc > 2 ? atoi(argv[2]) : 1 << 20;
    int ints = argc > 3 && !strcmp(argv[3], "int"), n = ints ? bytes / 4 : bytes;
    MPI_Datatype type = ints ? MPI_INT : MPI_BYTE;
    MPI_Op op = ints ? MPI_SUM : MPI_BOR;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    size_t len = (size_t)(bytes > 0 ? bytes : 1);
    unsigned char *in = malloc(len), *out = malloc(len);
    int failed = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int c = 0; c < calls; c++) {
        int bad = 0, any = 0;
        if (ints) {
            int *a = (int *)in, *b = (int *)out;
            for (int i = 0; i < n; i++) a[i] = rank + c + i % 7, b[i] = -1;
            MPI_Allreduce(in, out, n, type, op, MPI_COMM_WORLD);
            for (int i = 0; i < n; i++) bad |= b[i] != p * (p - 1) / 2 + p * (c + i % 7);
        } else {
            /* byte i of rank r holds bit (r + i + c) % 8: the OR over 8 or more ranks is 0xff */
            for (int i = 0; i < n; i++)
                in[i] = (unsigned char)(1u << ((rank + i + c) % 8)), out[i] = 0;
            MPI_Allreduce(in, out, n, type, op, MPI_COMM_WORLD);
            unsigned char want[8] = {0}; /* by (i + c) % 8: the OR over the first 8 ranks */
            for (int k = 0; k < 8; k++)
                for (int r = 0; r < p && r < 8; r++)
                    want[k] |= (unsigned char)(1u << ((r + k) % 8));
            for (int i = 0; i < n; i++) bad |= out[i] != want[(i + c) % 8];
        }
        MPI_Reduce(&bad, &any, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
        failed += any;
    }
    double t = (MPI_Wtime() - t0) / (calls > 0 ? calls : 1), most = 0.0;
    MPI_Reduce(&t, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("allreduce_sim: p=%d bytes=%d type=%s calls=%d per_call_s=%.9e failed=%d\n", p,
               bytes, ints ? "int" : "byte", calls, most, failed);
    free(in);
    free(out);
    MPI_Finalize();
    return failed ? 1 : 0;
}
