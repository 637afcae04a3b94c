/* The record merge at MPI_Finalize as the job grows (bench/scale.sh): an application built with
 * smpicc and linked with libmpiguide-smpi.a whole makes CALLS calls each of MPI_Allreduce and
 * MPI_Bcast at four sizes (eight record slots per rank), then rank 0 times its MPI_Finalize:
 * with MPIGUIDE_RECORD set, that is where every rank's slots go to rank 0 and are merged.
 * Printed: "record_merge: p=P finalize_cpu_s=C before_finalize_sim_s=S": C the CPU seconds
 * of the simulation process during rank 0's MPI_Finalize, all ranks' finalize and SimGrid
 * included (wall time on a shared machine measures the other jobs; SMPI's helper header makes
 * clock_gettime simulated, the name in parentheses is the C library's, not the macro), S the
 * simulated seconds from MPI_Init to MPI_Finalize (the
 * record's #@wall_s, simulated seconds from MPI_Init to the merge, minus S is the simulated
 * time of the merge's communication). usage: record_merge [CALLS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void) {
    struct timespec t;
    (clock_gettime)(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    double start = MPI_Wtime();
    int rank, p, calls = argc > 1 ? atoi(argv[1]) : 5;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    static const int counts[] = {2, 16, 128, 1024}; /* 8 B .. 4 KiB of MPI_INT */
    int *in = calloc(1024, sizeof(int)), *out = calloc(1024, sizeof(int));
    for (int c = 0; c < calls; c++)
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            MPI_Allreduce(in, out, counts[k], MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            MPI_Bcast(in, counts[k], MPI_INT, 0, MPI_COMM_WORLD);
        }
    free(in);
    free(out);
    double before = MPI_Wtime() - start, c0 = cpu();
    MPI_Finalize();
    if (rank == 0)
        printf("record_merge: p=%d finalize_cpu_s=%.6f before_finalize_sim_s=%.9e\n", p, cpu() - c0,
               before);
    return 0;
}
