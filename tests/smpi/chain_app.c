/* The application of the SMPI chain test (chain.sh): MPI_Gather of N MPI_INT per rank (default
 * 256: 1 KiB) to rank 0, repeated, each result checked. Under SMPI's Open MPI selector on 16
 * ranks of examples/platforms/small-8x8.xml the library's binomial gather of 1 KiB takes 3.14 us
 * and the linear MPI_Gatherv 1.72 us (a violation of "MPI_Gather <= MPI_Gatherv"), which tune
 * repairs. usage: chain_app [CALLS [N]]; prints "chain_app: K passed, M failed". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p, calls = argc > 1 ? atoi(argv[1]) : 20, N = argc > 2 ? atoi(argv[2]) : 256;
    int failed = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int *mine = malloc(sizeof(int) * N), *all = malloc(sizeof(int) * N * (size_t)p);
    for (int c = 0; c < calls; c++) {
        for (int i = 0; i < N; i++) mine[i] = rank * 100000 + c * 1000 + i;
        MPI_Gather(mine, N, MPI_INT, all, N, MPI_INT, 0, MPI_COMM_WORLD);
        int bad = 0;
        for (int r = 0; rank == 0 && r < p; r++)
            for (int i = 0; i < N; i++) bad |= all[(size_t)r * N + i] != r * 100000 + c * 1000 + i;
        failed += bad;
    }
    if (rank == 0) printf("chain_app: %d passed, %d failed\n", calls - failed, failed);
    free(mine);
    free(all);
    MPI_Finalize();
    return failed ? 1 : 0;
}
