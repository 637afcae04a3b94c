/* Reproducer of the known defect openmpi-allgatherv-types-differ (src/defects/known.txt,
 * docs/defects.md): MPI_Allgatherv whose ranks describe the same bytes with datatypes of
 * different sizes (here contiguous(2, MPI_INT) against 2 MPI_INTs, which MPI allows: the type
 * signatures match) hangs on 3 or more ranks at some sizes (Open MPI 4.1.4, 3 ranks: 10 and 200
 * pairs per block pass, 50 and 2000 hang). Each rank sizes the message by its own send datatype
 * and the receive counts, so the ranks choose different algorithms. Found by the correctness
 * matrix of mpiguide (its reference call of allgatherv_as_allgather's cases).
 *
 *   mpicc repro.c -o repro && mpiexec -n 3 ./repro [PAIRS_PER_BLOCK]
 *
 * Prints "correct" and exits 0, or names the failure and exits 1 (a call that has not returned
 * after 10 s counts as hung). Only MPI calls, and alarm() to bound the wait. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void hung(int sig) {
    static const char msg[] = "WRONG (MPI_Allgatherv did not return within 10 s: hung)\n";
    (void)sig;
    (void)!write(1, msg, sizeof msg - 1);
    _exit(1);
}

int main(int argc, char **argv) {
    int rank, p, n = 50, wrong = 0, all = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc > 1) n = atoi(argv[1]);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    /* rank i's block: n + i pairs of ints; even ranks send pairs and receive ints, odd ranks
     * send ints and receive pairs */
    int even = rank % 2 == 0, total = 0;
    int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
    for (int i = 0; i < p; i++) {
        counts[i] = even ? 2 * (n + i) : n + i;
        displs[i] = even ? 2 * total : total;
        total += n + i;
    }
    int *mine = malloc(sizeof(int) * 2 * (size_t)(n + rank));
    int *got = malloc(sizeof(int) * 2 * (size_t)total);
    for (int k = 0; k < 2 * (n + rank); k++) mine[k] = rank * 100000 + k;
    signal(SIGALRM, hung);
    alarm(10);
    MPI_Allgatherv(mine, even ? n + rank : 2 * (n + rank), even ? pair : MPI_INT, got, counts,
                   displs, even ? MPI_INT : pair, MPI_COMM_WORLD);
    alarm(0);
    for (int i = 0, at = 0; i < p; at += 2 * (n + i), i++)
        for (int k = 0; k < 2 * (n + i); k++) wrong += got[at + k] != i * 100000 + k;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    MPI_Type_free(&pair);
    free(counts), free(displs), free(mine), free(got);
    MPI_Finalize();
    return all ? 1 : 0;
}
