/* The application of docs/at-scale.md's MPI_Allreduce repair: CALLS calls of MPI_Allreduce of
 * BYTES / 4 MPI_INTs with MPI_SUM on MPI_COMM_WORLD, each result checked, through the public
 * call only, so that libmpiguide (linked whole under SMPI) applies a profile to it. Prints
 * "allreduce_sim: p=P bytes=B calls=C per_call_s=T failed=F": T the time per call (the largest
 * over the ranks; simulated time under SMPI), F the calls whose result was wrong on some rank
 * (checked by an MPI_Reduce, so that every MPI_Allreduce of the run is one of the CALLS).
 * usage: allreduce_sim [CALLS [BYTES]]   (default 5 calls of 1 MiB) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p, calls = argc > 1 ? atoi(argv[1]) : 5, n = (argc > 2 ? atoi(argv[2]) : 1 << 20) / 4;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int *in = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1)),
        *out = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    int failed = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int c = 0; c < calls; c++) {
        for (int i = 0; i < n; i++) in[i] = rank + c + i % 7, out[i] = -1;
        MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int bad = 0, any = 0;
        for (int i = 0; i < n; i++) bad |= out[i] != p * (p - 1) / 2 + p * (c + i % 7);
        MPI_Reduce(&bad, &any, 1, MPI_INT, MPI_MAX, 0,
                   MPI_COMM_WORLD); /* not an Allreduce: the
                               record's coverage is the 1 MiB calls' */
        failed += any;
    }
    double t = (MPI_Wtime() - t0) / (calls > 0 ? calls : 1), most = 0.0;
    MPI_Reduce(&t, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("allreduce_sim: p=%d bytes=%d calls=%d per_call_s=%.9e failed=%d\n", p, 4 * n, calls,
               most, failed);
    free(in);
    free(out);
    MPI_Finalize();
    return failed ? 1 : 0;
}
