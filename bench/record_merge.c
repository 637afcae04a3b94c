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
 * time of the merge's communication).
 * With BARE_BYTES > 0 rank 0 also times, before MPI_Finalize, the collectives of the merge on
 * their own, with that many bytes per rank (what the merge's MPI_Gatherv carries: the slots
 * times the size of one), and prints " bare_cpu_s=C bare_sim_s=S" on the line: MPI_Allreduce of
 * an int, MPI_Reduce of a uint64, MPI_Gather of an int, MPI_Bcast of an int, MPI_Gatherv of
 * BARE_BYTES from every rank to rank 0. They call PMPI_* so that a record does not count them:
 * bench/scale.sh runs them with MPIGUIDE_RECORD set, in the state of the simulation the merge
 * starts from. What the merge costs beyond them is mpiguide's own part.
 * usage: record_merge [CALLS [BARE_BYTES]] */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void) {
    struct timespec t;
    (clock_gettime)(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the merge's collectives (src/intercept/record.c, mg_record_finish) with `bytes` per rank and
 * nothing merged; rank 0's CPU seconds and the simulated seconds they took */
static int bare_merge(int rank, int p, int bytes, double *cpu_s, double *sim_s) {
    char *mine = calloc((size_t)bytes, 1),
         *all = rank == 0 ? malloc((size_t)bytes * (size_t)p) : NULL;
    int *counts = rank == 0 ? malloc(sizeof(int) * 2 * (size_t)p) : NULL;
    int ok = mine && (rank != 0 || (all && counts)), all_ok = 0, room = 1;
    PMPI_Barrier(MPI_COMM_WORLD);
    double c0 = cpu(), t0 = MPI_Wtime();
    int rc = PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    uint64_t lost = 0, lost_max = 0;
    if (rc == MPI_SUCCESS && all_ok)
        rc = PMPI_Reduce(&lost, &lost_max, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS && all_ok)
        rc = PMPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS && all_ok && rank == 0)
        for (int i = 0; i < p; i++) counts[p + i] = i * bytes;
    if (rc == MPI_SUCCESS && all_ok) rc = PMPI_Bcast(&room, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS && all_ok)
        rc = PMPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, counts ? counts + p : NULL, MPI_BYTE,
                          0, MPI_COMM_WORLD);
    *sim_s = MPI_Wtime() - t0;
    *cpu_s = cpu() - c0;
    free(mine);
    free(all);
    free(counts);
    return rc == MPI_SUCCESS && all_ok ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    double start = MPI_Wtime();
    int rank, p, calls = argc > 1 ? atoi(argv[1]) : 5, bare = argc > 2 ? atoi(argv[2]) : 0;
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
    double before = MPI_Wtime() - start, bare_cpu = 0.0, bare_sim = 0.0;
    if (bare > 0 && bare_merge(rank, p, bare, &bare_cpu, &bare_sim) != MPI_SUCCESS) bare = -1;
    double c0 = cpu();
    MPI_Finalize();
    if (rank == 0) {
        printf("record_merge: p=%d finalize_cpu_s=%.6f before_finalize_sim_s=%.9e", p, cpu() - c0,
               before);
        if (bare > 0) printf(" bare_cpu_s=%.6f bare_sim_s=%.9e", bare_cpu, bare_sim);
        printf("\n");
    }
    if (bare < 0) return 1;
    return 0;
}
