/* What a pair of timed calls sees inside a loop whose ranks run ahead of each other (docs/online.md
 * "How it decides"): bench/online_sim.c's loop of MPI_Gather or MPI_Scatter, the root moving with
 * the call, the default (the plain call) against its v-variant (gather_as_gatherv,
 * scatter_as_scatterv), without libmpiguide. Prints the loop's time per call, and for the timed
 * pairs (online mode's schedule: W pairs in a row, the order alternating, then G untimed default
 * calls and an agreement) the median ratio default / candidate per pair reduced over the ranks as
 * the slowest rank's time and as the mean of the ranks' times, with the median times per call.
 *   usage: smpirun ... online_pairs CALLS BYTES W G [MODE]
 *          BYTES per rank (a multiple of 4, at most 64); MODE: pairs (default), default or
 *          candidate (the loop of that one alone); ONLINE_PAIRS_SCATTER=1: MPI_Scatter;
 *          ONLINE_PAIRS_STRETCH=B: each half of a pair is B consecutive calls of one algorithm,
 *          timed as one (per call: its time / B), to see how long a stretch must be before a
 *          pair measures the loop rather than the pipeline the calls before set up */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int p, rank, scatter;
static int *a, *b, *counts, *displs;

/* One call with k ints per rank, the root moving with the call; alg 1: the v-variant. */
static void call(int alg, int it, int k) {
    int root = it % p;
    for (int i = 0; i < k; i++) a[i] = rank + it;
    if (scatter && alg)
        MPI_Scatterv(b, counts, displs, MPI_INT, a, k, MPI_INT, root, MPI_COMM_WORLD);
    else if (scatter)
        MPI_Scatter(b, k, MPI_INT, a, k, MPI_INT, root, MPI_COMM_WORLD);
    else if (alg)
        MPI_Gatherv(a, k, MPI_INT, b, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
    else
        MPI_Gather(a, k, MPI_INT, b, k, MPI_INT, root, MPI_COMM_WORLD);
}

static int cmp(const void *x, const void *y) {
    double u = *(const double *)x, v = *(const double *)y;
    return (u > v) - (u < v);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Rank 0: per pair the ranks' times (td, tc: p x np, rank-major) reduced both ways. */
static void summary(const double *td, const double *tc, int np) {
    double *v = malloc(sizeof(double) * 6 * (size_t)np);
    if (!v) return;
    double *rmax = v, *rmean = v + np, *xd = v + 2 * np, *xc = v + 3 * np, *md = v + 4 * np,
           *mc = v + 5 * np;
    for (int i = 0; i < np; i++) {
        double hd = 0, hc = 0, sd = 0, sc = 0;
        for (int r = 0; r < p; r++) {
            double d = td[(size_t)r * np + i], c = tc[(size_t)r * np + i];
            hd = d > hd ? d : hd, hc = c > hc ? c : hc, sd += d, sc += c;
        }
        rmax[i] = hd / hc, rmean[i] = sd / sc;
        xd[i] = hd, xc[i] = hc, md[i] = sd / p, mc[i] = sc / p;
    }
    printf("pairs=%d default/candidate (median per pair): slowest rank %.3f, mean of ranks %.3f\n",
           np, median(rmax, np), median(rmean, np));
    printf("per call (median, us): slowest rank default %.4g candidate %.4g; mean of ranks "
           "default %.4g candidate %.4g\n",
           median(xd, np) * 1e6, median(xc, np) * 1e6, median(md, np) * 1e6, median(mc, np) * 1e6);
    free(v);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 5) {
        if (!rank) fprintf(stderr, "usage: online_pairs CALLS BYTES W G [MODE]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int calls = atoi(argv[1]), k = atoi(argv[2]) / 4, w = atoi(argv[3]), g = atoi(argv[4]);
    const char *mode = argc > 5 ? argv[5] : "pairs";
    scatter = getenv("ONLINE_PAIRS_SCATTER") && atoi(getenv("ONLINE_PAIRS_SCATTER"));
    int stretch = getenv("ONLINE_PAIRS_STRETCH") ? atoi(getenv("ONLINE_PAIRS_STRETCH")) : 1;
    int np = 0, maxp = calls / 2 + 1, pure = strcmp(mode, "pairs") != 0;
    a = malloc(sizeof(int) * 16), b = malloc(sizeof(int) * 16 * (size_t)p);
    counts = malloc(sizeof(int) * (size_t)p), displs = malloc(sizeof(int) * (size_t)p);
    double *td = calloc((size_t)maxp, sizeof(double)), *tc = calloc((size_t)maxp, sizeof(double));
    if (!a || !b || !counts || !displs || !td || !tc || calls < 1 || k < 1 || k > 16 ||
        (!pure && w < 1) || g < 0 || stretch < 1)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < p; i++) counts[i] = k, displs[i] = i * k;
    MPI_Comm agree;
    MPI_Comm_dup(MPI_COMM_WORLD, &agree);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int it = 0;
    if (pure)
        for (int alg = strcmp(mode, "candidate") == 0; it < calls; it++) call(alg, it, k);
    for (int window = 0; it < calls; window++) {
        for (int i = 0; i < g && it < calls; i++) call(0, it++, k);
        for (int q = 0; q < w && it + 2 * stretch <= calls; q++, np++) {
            int default_first = ((q + window) & 1) == 0;
            for (int half = 0; half < 2; half++) {
                int alg = (half == 0) != default_first;
                double t = MPI_Wtime();
                for (int i = 0; i < stretch; i++) call(alg, it++, k);
                *(alg ? &tc[np] : &td[np]) = (MPI_Wtime() - t) / stretch;
            }
        }
        while (it < calls && it + 2 * stretch > calls) call(0, it++, k); /* no room for a pair */
        double x = 0, y;
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_MAX, agree); /* the window's agreement */
    }
    double loop = (MPI_Wtime() - t0) / calls, most;
    MPI_Reduce(&loop, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double *all_d = NULL, *all_c = NULL;
    if (!rank) {
        all_d = malloc(sizeof(double) * (size_t)p * (size_t)(np ? np : 1));
        all_c = malloc(sizeof(double) * (size_t)p * (size_t)(np ? np : 1));
        if (!all_d || !all_c) MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(td, np, MPI_DOUBLE, all_d, np, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(tc, np, MPI_DOUBLE, all_c, np, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (!rank) {
        printf("online_pairs %s %d ranks, %d B, %s, W=%d G=%d stretch=%d: loop %.4g us per call\n",
               scatter ? "MPI_Scatter" : "MPI_Gather", p, 4 * k, mode, w, g, stretch, most * 1e6);
        if (np) summary(all_d, all_c, np);
    }
    free(all_d), free(all_c), free(td), free(tc), free(a), free(b), free(counts), free(displs);
    MPI_Comm_free(&agree);
    MPI_Finalize();
    return 0;
}
