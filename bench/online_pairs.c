/* What a pair of timed calls sees inside a loop whose ranks run ahead of each other (docs/online.md
 * "How it decides"): bench/online_sim.c's loop of MPI_Gather or MPI_Scatter, the root moving with
 * the call, the default (the plain call) against its v-variant (gather_as_gatherv,
 * scatter_as_scatterv), without libmpiguide. Prints the loop's time per call, and for the timed
 * pairs (online mode's schedule: W pairs in a row, the order alternating, then G untimed default
 * calls and an agreement) the median ratio default / candidate per pair reduced over the ranks as
 * the slowest rank's time, as the mean of the ranks' times and as the frontier time (the last
 * rank's exit minus the last rank's entry, model/frontier.h: what the guard and online mode use
 * since 2026-12-07; on each rank's clock from its exit of the last agreement, as they take it,
 * and on the global clock, which SMPI's simulated time is), with the median times per call.
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

/* One timed half of a pair on one rank: entry and exit, on the global clock and from the rank's
 * exit of the last agreement. */
typedef struct span {
    double in, out, in_rel, out_rel;
} span;
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

/* Rank 0: per pair the frontier time of each half (hd, hc: p x np, rank-major), on the global
 * clock or the agreement's (rel). */
static double frontier(const span *h, int np, int i, int rel) {
    double in = -1e300, out = -1e300;
    for (int r = 0; r < p; r++) {
        const span *x = &h[(size_t)r * np + i];
        double a = rel ? x->in_rel : x->in, b = rel ? x->out_rel : x->out;
        in = a > in ? a : in, out = b > out ? b : out;
    }
    return out - in;
}

static void frontier_summary(const span *hd, const span *hc, int np, int stretch) {
    double *v = malloc(sizeof(double) * 4 * (size_t)np);
    if (!v) return;
    for (int i = 0; i < np; i++) {
        double d = frontier(hd, np, i, 0), c = frontier(hc, np, i, 0);
        v[i] = d / c, v[np + i] = d / stretch, v[2 * np + i] = c / stretch;
        v[3 * np + i] = frontier(hd, np, i, 1) / frontier(hc, np, i, 1);
    }
    double ratio = median(v, np), d = median(v + np, np), c = median(v + 2 * np, np);
    printf("frontier: default/candidate %.3f (per call, median, us: default %.4g candidate %.4g); "
           "on the clocks from the agreement %.3f\n",
           ratio, d * 1e6, c * 1e6, median(v + 3 * np, np));
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
    span *hd = calloc((size_t)maxp, sizeof(span)), *hc = calloc((size_t)maxp, sizeof(span));
    if (!a || !b || !counts || !displs || !td || !tc || !hd || !hc || calls < 1 || k < 1 ||
        k > 16 || (!pure && w < 1) || g < 0 || stretch < 1)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < p; i++) counts[i] = k, displs[i] = i * k;
    MPI_Comm agree;
    MPI_Comm_dup(MPI_COMM_WORLD, &agree);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), agreed = t0;
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
                double e = MPI_Wtime();
                *(alg ? &tc[np] : &td[np]) = (e - t) / stretch;
                *(alg ? &hc[np] : &hd[np]) = (span){t, e, t - agreed, e - agreed};
            }
        }
        while (it < calls && it + 2 * stretch > calls) call(0, it++, k); /* no room for a pair */
        double x = 0, y;
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_MAX, agree); /* the window's agreement */
        agreed = MPI_Wtime();
    }
    double loop = (MPI_Wtime() - t0) / calls, most;
    MPI_Reduce(&loop, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double *all_d = NULL, *all_c = NULL;
    span *all_hd = NULL, *all_hc = NULL;
    if (!rank) {
        size_t n = (size_t)p * (size_t)(np ? np : 1);
        all_d = malloc(sizeof(double) * n), all_c = malloc(sizeof(double) * n);
        all_hd = malloc(sizeof(span) * n), all_hc = malloc(sizeof(span) * n);
        if (!all_d || !all_c || !all_hd || !all_hc) MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(td, np, MPI_DOUBLE, all_d, np, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(tc, np, MPI_DOUBLE, all_c, np, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(hd, 4 * np, MPI_DOUBLE, all_hd, 4 * np, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(hc, 4 * np, MPI_DOUBLE, all_hc, 4 * np, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (!rank) {
        printf("online_pairs %s %d ranks, %d B, %s, W=%d G=%d stretch=%d: loop %.4g us per call\n",
               scatter ? "MPI_Scatter" : "MPI_Gather", p, 4 * k, mode, w, g, stretch, most * 1e6);
        if (np) summary(all_d, all_c, np);
        if (np) frontier_summary(all_hd, all_hc, np, stretch);
    }
    free(all_d), free(all_c), free(td), free(tc), free(a), free(b), free(counts), free(displs);
    free(all_hd), free(all_hc), free(hd), free(hc);
    MPI_Comm_free(&agree);
    MPI_Finalize();
    return 0;
}
