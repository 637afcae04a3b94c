/* The baseline of bench/scale.sh's launch cost: the collectives that one `mpiguide bench`
 * launch measures, without the benchmark harness. For each call of CALLS, size of SIZES (bytes
 * of MPI_BYTE, MPI_BOR: bench's defaults) and algorithm of ALGS that belongs to the call (default
 * or a mock-up; one the arguments make decline is left out, as bench leaves it out) it runs
 * PER calls through mpiguide_run on MPI_COMM_WORLD, the communicator bench measures on. PER is
 * what bench runs per measurement with --proc-sync=window and no --window: one probe, three
 * calls that size the window, NREP observations (bench/scale.sh passes NREP + 4). Before them,
 * like the harness, it duplicates MPI_COMM_WORLD once and runs one MPI_Allreduce on the
 * duplicate: under SMPI a communicator's set-up is a ring allgather over its ranks, charged to
 * its first collective. So a bench launch's CPU time minus this program's is the harness's own
 * (clock fits, windows, the reductions of the times, the raw data), and the simulated time this
 * program prints is what the measured calls themselves cost on the simulated machine.
 * Linked with libmpiguide-smpi.a whole, like an application: MPI_Init sets up the library.
 * Printed by rank 0: "collectives_baseline: p=P calls=N sim_s=S" (N calls per rank, S simulated
 * seconds from after the duplicate's set-up to the last call).
 * usage: collectives_baseline CALLS ALGS SIZES PER   (lists comma-separated) */
#include <mpi.h>
#include <mpiguide.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 32

/* splits s (modified) at commas into at most MAXN items; returns how many */
static int split(char *s, char **item) {
    int n = 0;
    for (char *t = strtok(s, ","); t && n < MAXN; t = strtok(NULL, ",")) item[n++] = t;
    return n;
}

/* PER calls of alg on an msize-byte vector; 0 calls when the algorithm declines them */
static int run(int alg, int coll, long long msize, int per, void *in, void *out, long long *n) {
    mpiguide_args a;
    memset(&a, 0, sizeof a);
    a.sendbuf = in;
    a.recvbuf = out;
    a.sendcount = a.recvcount = (int)msize;
    a.sendtype = a.recvtype = MPI_BYTE;
    a.op = MPI_BOR;
    a.comm = MPI_COMM_WORLD;
    int outcome = MPIGUIDE_RAN_DEFAULT;
    unsigned declined = 0;
    int rc = mpiguide_plan(alg, &a, &outcome, &declined);
    if (rc != MPI_SUCCESS) return rc;
    if (alg != mpiguide_default_algorithm(coll) && outcome != MPIGUIDE_RAN_MOCKUP) return rc;
    for (int i = 0; i < per && rc == MPI_SUCCESS; i++) rc = mpiguide_run(alg, &a, NULL, NULL);
    *n += per;
    return rc;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc != 5) {
        if (rank == 0) fprintf(stderr, "usage: collectives_baseline CALLS ALGS SIZES PER\n");
        MPI_Finalize();
        return 2;
    }
    char *calls[MAXN], *algs[MAXN], *sizes[MAXN];
    int nc = split(argv[1], calls), na = split(argv[2], algs), ns = split(argv[3], sizes);
    int per = atoi(argv[4]);
    long long most = 0;
    for (int s = 0; s < ns; s++)
        if (atoll(sizes[s]) > most) most = atoll(sizes[s]);
    /* room for the largest vector on every rank (an allgather mock-up's receive side) */
    char *in = calloc((size_t)most * (size_t)p + 1, 1),
         *out = calloc((size_t)most * (size_t)p + 1, 1);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int one = 1, sum = 0, rc = MPI_SUCCESS;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
    double t0 = MPI_Wtime();
    long long n = 0;
    for (int c = 0; c < nc && rc == MPI_SUCCESS; c++) {
        int coll = mpiguide_collective_id(calls[c]);
        if (coll < 0 || !in || !out) {
            if (rank == 0)
                fprintf(stderr, "collectives_baseline: %s: unknown or no memory\n", calls[c]);
            rc = MPI_ERR_ARG;
            break;
        }
        for (int s = 0; s < ns && rc == MPI_SUCCESS; s++)
            for (int k = 0; k < na && rc == MPI_SUCCESS; k++) {
                int alg = mpiguide_algorithm_id(coll, algs[k]);
                if (alg >= 0) rc = run(alg, coll, atoll(sizes[s]), per, in, out, &n);
            }
    }
    double sim = MPI_Wtime() - t0;
    MPI_Comm_free(&dup);
    free(in);
    free(out);
    if (rank == 0 && rc == MPI_SUCCESS)
        printf("collectives_baseline: p=%d calls=%lld sim_s=%.9e\n", p, n, sim);
    MPI_Finalize();
    return rc == MPI_SUCCESS ? 0 : 1;
}
