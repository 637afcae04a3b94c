/* Irregular Gatherv/Scatterv benchmark (bench/irregular.sh runs it): for every problem type
 * and base block b, times MPI_Gather/MPI_Scatter on padded blocks, the padding guideline, the
 * library's MPI_Gatherv/MPI_Scatterv and TUW through mpiguide_run(), prints Träff's Table 1-5
 * layout, one RATIO line per case (library over TUW) and, with --fit, the alpha and beta of a
 * ping-pong between ranks 0 and 1 for `mpiguide simulate`.
 *   bench_irregular [--b-list=1,10,...] [--nrep=N] [--warmup=N] [--coll=gatherv|scatterv|both]
 *                   [--fit] [--label=TEXT] */
#include "mpiguide.h"
#include "model/problems.h"
#include "model/problems_table.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

typedef struct stat2 {
    double avg, min;
} stat2;

/* One observation per repetition: barrier, time the call, slowest rank counts. */
typedef int (*op_fn)(void *ctx);

static stat2 measure(op_fn op, void *ctx, int warmup, int nrep) {
    double sum = 0, least = 1e30;
    for (int r = 0; r < warmup + nrep; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        if (op(ctx) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 1);
        t = MPI_Wtime() - t;
        double slowest;
        MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (r < warmup) continue;
        sum += slowest;
        if (slowest < least) least = slowest;
    }
    stat2 s = {sum / nrep * 1e6, least * 1e6};
    return s;
}

typedef struct vcase {
    int scatter, root, alg;
    int *counts, *displs, most;
    int *sbuf, *rbuf;
} vcase;

static int run_v(void *p) {
    vcase *c = p;
    mpiguide_args a = {0};
    a.root = c->root;
    a.comm = MPI_COMM_WORLD;
    a.sendtype = a.recvtype = MPI_INT;
    if (!c->scatter) {
        a.sendbuf = c->sbuf, a.sendcount = c->counts[rank];
        a.recvbuf = c->rbuf, a.recvcounts = c->counts, a.rdispls = c->displs;
    } else {
        a.sendbuf = c->sbuf, a.sendcounts = c->counts, a.sdispls = c->displs;
        a.recvbuf = c->rbuf, a.recvcount = c->counts[rank];
    }
    int outcome = -1, rc = mpiguide_run(c->alg, &a, &outcome, NULL);
    if (outcome == MPIGUIDE_FALLBACK_ARGS || outcome == MPIGUIDE_FALLBACK_MEMORY) {
        if (rank == 0)
            fprintf(stderr, "bench_irregular: %s fell back\n", mpiguide_algorithm_name(c->alg));
        return MPI_ERR_OTHER;
    }
    return rc;
}

/* The regular collective on blocks padded to the largest (m' = p * max). */
static int run_plain(void *p) {
    vcase *c = p;
    if (!c->scatter)
        return PMPI_Gather(c->sbuf, c->most, MPI_INT, c->rbuf, c->most, MPI_INT, c->root,
                           MPI_COMM_WORLD);
    return PMPI_Scatter(c->sbuf, c->most, MPI_INT, c->rbuf, c->most, MPI_INT, c->root,
                        MPI_COMM_WORLD);
}

/* Ping-pong between ranks 0 and 1 (Hockney fit): alpha is the one-way time of an 8-byte
 * message, beta the slope up to 1 MiB; each the minimum over repetitions. */
static double one_way(char *buf, int bytes, int reps) {
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
        }
        t = (MPI_Wtime() - t) / 2;
        if (t < best) best = t;
    }
    return best;
}

static void fit(double *alpha, double *beta) {
    const int big = 1 << 20;
    char *buf = calloc(1, (size_t)big);
    double small = one_way(buf, 8, 200), large = one_way(buf, big, 20);
    MPI_Bcast(&small, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(&large, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    *alpha = small;
    *beta = large > small ? (large - small) / (big - 8) : 0;
    free(buf);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int64_t blist[16] = {1, 10, 100, 1000, 10000};
    int nb = 5, nrep = 40, warmup = 5, do_fit = 0, colls = 3;
    const char *label = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "--b-list=", 9)) {
            nb = 0;
            for (char *s = (char *)a + 9; *s && nb < 16; s += *s == ',')
                blist[nb++] = strtoll(s, &s, 10);
        } else if (!strncmp(a, "--nrep=", 7)) {
            nrep = atoi(a + 7);
        } else if (!strncmp(a, "--warmup=", 9)) {
            warmup = atoi(a + 9);
        } else if (!strcmp(a, "--fit")) {
            do_fit = 1;
        } else if (!strncmp(a, "--coll=", 7)) {
            colls = !strcmp(a + 7, "gatherv") ? 1 : !strcmp(a + 7, "scatterv") ? 2 : 3;
        } else if (!strncmp(a, "--label=", 8)) {
            label = a + 8;
        } else {
            if (rank == 0) fprintf(stderr, "bench_irregular: error: %s: unknown option\n", a);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (nrep < 1) nrep = 1;
    if (mpiguide_init() != MPI_SUCCESS) {
        if (rank == 0) fprintf(stderr, "bench_irregular: mpiguide_init failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n,")] = 0;
    if (do_fit && size >= 2) {
        double alpha, beta;
        fit(&alpha, &beta);
        if (rank == 0) printf("FIT alpha=%.3e beta=%.3e\n", alpha, beta);
    }
    int root = size / 2;
    static int64_t c64[4096];
    if (size > 4096) {
        if (rank == 0) fprintf(stderr, "bench_irregular: at most 4096 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int sc = 0; sc < 2; sc++) {
        if (!(colls & (1 << sc))) continue;
        int coll = sc ? MPIGUIDE_COLL_SCATTERV : MPIGUIDE_COLL_GATHERV;
        int lib = mpiguide_default_algorithm(coll);
        int tuw = mpiguide_algorithm_id(coll, sc ? "scatterv_as_tuw" : "gatherv_as_tuw");
        int guide = mpiguide_algorithm_id(coll, sc ? "scatterv_as_allreduce_scatter"
                                                   : "gatherv_as_allreduce_gather");
        mg_irr_row rows[MG_PROBLEM_COUNT * 16];
        int nrows = 0;
        for (int type = 0; type < MG_PROBLEM_COUNT; type++) {
            for (int k = 0; k < nb; k++) {
                mg_problem_counts(type, size, blist[k], 5.0, 1, c64);
                int64_t total = 0, most = 0;
                for (int i = 0; i < size; i++) {
                    counts[i] = (int)c64[i], displs[i] = (int)total, total += c64[i];
                    if (c64[i] > most) most = c64[i];
                }
                size_t big = (size_t)(total > most * size ? total : most * size) + 1;
                int *sbuf = calloc(sc && rank == root ? big : (size_t)most + 1, sizeof(int));
                int *rbuf = calloc(!sc && rank == root ? big : (size_t)most + 1, sizeof(int));
                vcase c = {sc, root, lib, counts, displs, (int)most, sbuf, rbuf};
                mg_irr_row *r = &rows[nrows++];
                r->type = type, r->b = blist[k];
                mg_irr_totals(type, size, blist[k], 5.0, 1, &r->m, &r->mpad);
                stat2 s = measure(run_plain, &c, warmup, nrep);
                r->plain = (mg_irr_time){s.avg, s.min};
                c.alg = guide;
                s = measure(run_v, &c, warmup, nrep);
                r->guide = (mg_irr_time){s.avg, s.min};
                c.alg = lib;
                s = measure(run_v, &c, warmup, nrep);
                r->lib = (mg_irr_time){s.avg, s.min};
                c.alg = tuw;
                s = measure(run_v, &c, warmup, nrep);
                r->tuw = (mg_irr_time){s.avg, s.min};
                if (rank == 0)
                    printf("RATIO %s %s %lld lib_min=%.2f tuw_min=%.2f lib_avg=%.2f "
                           "tuw_avg=%.2f ratio_min=%.3f\n",
                           sc ? "scatterv" : "gatherv", mg_problem_name(type), (long long)blist[k],
                           r->lib.min, r->tuw.min, r->lib.avg, r->tuw.avg, r->lib.min / r->tuw.min);
                free(sbuf);
                free(rbuf);
            }
        }
        if (rank == 0) {
            char caption[400];
            snprintf(caption, sizeof caption,
                     "Table: %s, p=%d, root=%d, %.100s%s%.100s, %d repetitions after %d warm-up",
                     sc ? "MPI_Scatterv" : "MPI_Gatherv", size, root, version, *label ? ", " : "",
                     label, nrep, warmup);
            mg_irr_table_print(stdout, sc, caption, rows, nrows);
            printf("\n");
        }
    }
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
