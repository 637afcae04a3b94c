/* The algorithm registry without MPI: names and guidelines against docs/dev/reference.md, one
 * default per collective, documented decline masks, and every algorithm's scratch need and
 * predicate on synthetic shapes (no MPI call is made: needs and predicates may use only the shape
 * and the buffer pointers). */
#include "check.h"
#include "dispatch/registry.h"
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* How docs/dev/reference.md says the extra memory scales (max over ranks). */
#define GROWS_N   1u /* strictly more at a larger message */
#define GROWS_P   2u /* strictly more (message plus int pool) at a larger communicator */
#define SHRINKS_P 4u /* a (n + c) / p or n / (C p) term: the message part may shrink with p */

static const struct {
    int gl; /* 0: PGMPI */
    const char *name;
    unsigned scaling;
} reference[] = {
    {1, "allgather_as_gather_bcast", 0},
    {2, "allgather_as_alltoall", GROWS_N | GROWS_P},
    {3, "allgather_as_allreduce", GROWS_N | GROWS_P},
    {4, "allgather_as_allgatherv", GROWS_N | GROWS_P},
    {5, "allreduce_as_reduce_bcast", 0},
    {6, "allreduce_as_reducescatterblock_allgather", GROWS_N | SHRINKS_P},
    {7, "allreduce_as_reducescatter_allgatherv", GROWS_P | SHRINKS_P},
    {8, "alltoall_as_alltoallv", GROWS_P},
    {9, "bcast_as_allgatherv", GROWS_N | GROWS_P},
    {10, "bcast_as_scatter_allgather", GROWS_N | SHRINKS_P},
    {11, "gather_as_allgather", GROWS_N | GROWS_P},
    {12, "gather_as_gatherv", GROWS_P},
    {13, "gather_as_reduce", GROWS_N | GROWS_P},
    {14, "reduce_as_allreduce", GROWS_N},
    {15, "reduce_as_reducescatterblock_gather", GROWS_N | SHRINKS_P},
    {16, "reduce_as_reducescatter_gatherv", GROWS_N | SHRINKS_P},
    {17, "reducescatterblock_as_reduce_scatter", GROWS_N | GROWS_P},
    {18, "reducescatterblock_as_reducescatter", GROWS_P},
    {19, "reducescatterblock_as_allreduce", GROWS_N | GROWS_P},
    {20, "scan_as_exscan_reducelocal", 0},
    {21, "scatter_as_bcast", GROWS_N | GROWS_P},
    {22, "scatter_as_scatterv", GROWS_P},
    {0, "reducescatter_as_allreduce", GROWS_N},
    {0, "reducescatter_as_reduce_scatterv", GROWS_N},
};
#define NREFERENCE (int)(sizeof reference / sizeof reference[0])

static int is_v(int coll) {
    return (mg_coll_flags(coll) & MG_CF_V) != 0;
}

static int is_reduction(int coll) {
    return (mg_coll_flags(coll) & MG_CF_REDUCTION) != 0;
}

/* Collectives whose count is one rank's block (p * count elements in all). */
static int block_count(int coll) {
    return coll == MPIGUIDE_COLL_ALLGATHER || coll == MPIGUIDE_COLL_ALLTOALL ||
           coll == MPIGUIDE_COLL_GATHER || coll == MPIGUIDE_COLL_SCATTER ||
           coll == MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK || coll == MPIGUIDE_COLL_REDUCE_SCATTER;
}

static const char *gl_prefix_end(const char *g, int *gl) {
    if (!strncmp(g, "PGMPI: ", 7)) {
        *gl = 0;
        return g + 7;
    }
    if (strncmp(g, "GL", 2) || !isdigit((unsigned char)g[2])) return NULL;
    char *end;
    *gl = (int)strtol(g + 2, &end, 10);
    return strncmp(end, ": ", 2) ? NULL : end + 2;
}

/* ---- Synthetic calls ---- */

static char dummy_send[16], dummy_recv[16];

typedef struct call {
    mg_args a;
    mg_shape s;
    int counts[256], displs[256];
} call;

/* A call of count elements of tsize bytes per rank block (or vector) on p ranks, seen from
 * rank; inplace: MPI_IN_PLACE where this rank may pass it; nonroot_null: the arguments
 * significant only at the root are NULL, 0 and MPI_DATATYPE_NULL on the others. */
static void make_call(call *c, int coll, int p, int rank, int root, int64_t count, size_t tsize,
                      int inplace, int nonroot_null, int commute) {
    memset(c, 0, sizeof *c);
    int n = count > INT_MAX ? INT_MAX : (int)count;
    MPI_Datatype t = tsize == 1 ? MPI_BYTE : MPI_INT;
    c->a = mg_fill(dummy_send, dummy_recv, n, n, c->counts, c->displs, c->counts, c->displs, t, t,
                   MPI_SUM, root, MPI_COMM_WORLD, NULL);
    int pn = p < 256 ? p : 256;
    for (int i = 0; i < pn; i++) c->counts[i] = n, c->displs[i] = (int)((int64_t)i * n % INT_MAX);
    if (coll == MPIGUIDE_COLL_REDUCE_SCATTER) /* count is the vector, split over the ranks */
        for (int i = 0; i < pn; i++) c->counts[i] = (int)(count / p + (i < count % p));
    int is_root = rank == root;
    if (inplace) {
        if (coll == MPIGUIDE_COLL_SCATTER || coll == MPIGUIDE_COLL_SCATTERV) {
            if (is_root) c->a.recvbuf = MPI_IN_PLACE;
        } else if (coll == MPIGUIDE_COLL_GATHER || coll == MPIGUIDE_COLL_GATHERV ||
                   coll == MPIGUIDE_COLL_REDUCE) {
            if (is_root) c->a.sendbuf = MPI_IN_PLACE;
        } else if (coll != MPIGUIDE_COLL_BCAST) {
            c->a.sendbuf = MPI_IN_PLACE;
        }
    }
    if (nonroot_null && !is_root) {
        if (coll == MPIGUIDE_COLL_GATHER || coll == MPIGUIDE_COLL_GATHERV) {
            c->a.recvbuf = NULL, c->a.recvcount = 0, c->a.recvtype = MPI_DATATYPE_NULL;
            c->a.recvcounts = c->a.rdispls = NULL;
        } else if (coll == MPIGUIDE_COLL_SCATTER || coll == MPIGUIDE_COLL_SCATTERV) {
            c->a.sendbuf = NULL, c->a.sendcount = 0, c->a.sendtype = MPI_DATATYPE_NULL;
            c->a.sendcounts = c->a.sdispls = NULL;
        } else if (coll == MPIGUIDE_COLL_REDUCE) {
            c->a.recvbuf = NULL;
        }
    }
    mg_shape *s = &c->s;
    s->p = p, s->rank = rank, s->inter = 0;
    s->count = coll == MPIGUIDE_COLL_REDUCE_SCATTER ? count : n;
    s->tsize = tsize;
    s->msize = is_v(coll) ? -1 : s->count * (int64_t)tsize;
    if (is_reduction(coll)) {
        s->extent = s->true_extent = (MPI_Aint)tsize;
        s->true_lb = 0;
        s->commute = commute;
        s->predefined_op = 1;
    }
}

static mg_need need_of(const mg_alg *A, call *c) {
    mg_need n = {0, 0};
    A->need(&c->a, &c->s, &n);
    return n;
}

static int same_need(mg_need x, mg_need y) {
    return x.msg == y.msg && x.ints == y.ints;
}

static const int ps[] = {1, 2, 3, 4, 5, 8, 16, 64};
#define NPS (int)(sizeof ps / sizeof ps[0])
/* multiples of lcm(ps) = 960, so no padding term differs between them */
static const int64_t counts[] = {0, 960, 1920, 9600, 96000};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])

/* The need and the predicate are the same on every rank (they use shared values only), also
 * when only the root passes MPI_IN_PLACE or the others pass NULL for root-only arguments. */
static void check_rank_independent(const mg_alg *A) {
    static const int small_ps[] = {1, 2, 3, 5, 8};
    int rooted_inplace = A->coll == MPIGUIDE_COLL_GATHER || A->coll == MPIGUIDE_COLL_GATHERV ||
                         A->coll == MPIGUIDE_COLL_SCATTER || A->coll == MPIGUIDE_COLL_SCATTERV ||
                         A->coll == MPIGUIDE_COLL_REDUCE;
    for (int i = 0; i < 5; i++)
        for (int ci = 0; ci < 3; ci++) {
            int p = small_ps[i];
            int64_t count = (int64_t[]){1, 7, 1001}[ci];
            int roots[3] = {0, p - 1, p / 2};
            for (int ri = 0; ri < 3; ri++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    call c0;
                    make_call(&c0, A->coll, p, 0, roots[ri], count, 4, 0, 0, 1);
                    mg_need n0 = need_of(A, &c0);
                    unsigned d0 = A->supports(&c0.a, &c0.s);
                    for (int rank = 0; rank < p; rank++)
                        for (int null = 0; null < 2; null++) {
                            /* all-or-none MPI_IN_PLACE may change the need; root-only may not */
                            if (inplace && !rooted_inplace) continue;
                            call c;
                            make_call(&c, A->coll, p, rank, roots[ri], count, 4, inplace, null, 1);
                            mg_need n = need_of(A, &c);
                            CHECK(same_need(n, n0),
                                  "%s: need at rank %d (p %d, root %d, count %lld, root "
                                  "in-place %d, non-root NULL %d) is %zu+%zu bytes, at rank 0 "
                                  "without those %zu+%zu",
                                  A->name, rank, p, roots[ri], (long long)count, inplace, null,
                                  n.msg, n.ints, n0.msg, n0.ints);
                            unsigned d = A->supports(&c.a, &c.s);
                            CHECK(d == d0,
                                  "%s: predicate at rank %d (p %d, root %d, count %lld, in-place "
                                  "%d, NULL %d) says 0x%x, at rank 0 0x%x",
                                  A->name, rank, p, roots[ri], (long long)count, inplace, null, d,
                                  d0);
                        }
                }
        }
}

/* Needs never shrink with the message size; with p only where docs/dev/reference.md has a 1/p term;
 * and they grow where docs/dev/reference.md says the memory scales with n or p. Every ordinary call
 * is supported and fits the default pools. */
static void check_needs(const mg_alg *A, unsigned scaling) {
    int v = is_v(A->coll);
    for (int inplace = 0; inplace < 2; inplace++)
        for (int commute = 0; commute < 2; commute++) {
            if (!commute && !is_reduction(A->coll)) continue;
            mg_need prev_p[NCOUNTS];
            for (int pi = 0; pi < NPS; pi++) {
                int p = ps[pi];
                mg_need prev = {0, 0};
                for (int ci = 0; ci < NCOUNTS; ci++) {
                    call c;
                    make_call(&c, A->coll, p, 0, 0, counts[ci], 4, inplace, 0, commute);
                    mg_need n = need_of(A, &c);
                    unsigned d = A->supports(&c.a, &c.s);
                    CHECK(d == 0,
                          "%s: declines (0x%x) an ordinary call: p %d, count %lld of MPI_INT, "
                          "in-place %d",
                          A->name, d, p, (long long)counts[ci], inplace);
                    CHECK(n.msg <= 100000000 && n.ints <= 200000,
                          "%s: need %zu+%zu bytes at p %d, count %lld exceeds the default pools",
                          A->name, n.msg, n.ints, p, (long long)counts[ci]);
                    if (ci > 0 && !v)
                        CHECK(n.msg >= prev.msg && n.ints >= prev.ints,
                              "%s: need shrinks from %zu+%zu to %zu+%zu bytes when count grows "
                              "from %lld to %lld (p %d, in-place %d)",
                              A->name, prev.msg, prev.ints, n.msg, n.ints,
                              (long long)counts[ci - 1], (long long)counts[ci], p, inplace);
                    if (pi > 0) {
                        mg_need q = prev_p[ci];
                        CHECK(n.ints >= q.ints && (scaling & SHRINKS_P || n.msg >= q.msg),
                              "%s: need shrinks from %zu+%zu to %zu+%zu bytes when p grows from "
                              "%d to %d (count %lld, in-place %d)",
                              A->name, q.msg, q.ints, n.msg, n.ints, ps[pi - 1], p,
                              (long long)counts[ci], inplace);
                    }
                    prev = prev_p[ci] = n;
                }
            }
        }
    call a, b;
    if (scaling & GROWS_N) {
        make_call(&a, A->coll, 8, 0, 0, 960, 4, 0, 0, 1);
        make_call(&b, A->coll, 8, 0, 0, 96000, 4, 0, 0, 1);
        mg_need x = need_of(A, &a), y = need_of(A, &b);
        CHECK(y.msg > x.msg,
              "%s: docs/dev/reference.md's memory grows with n, but the need is %zu bytes at count "
              "960 "
              "and %zu at 96000 (p 8)",
              A->name, x.msg, y.msg);
    }
    if (scaling & GROWS_P) {
        make_call(&a, A->coll, 2, 0, 0, 960, 4, 0, 0, 1);
        make_call(&b, A->coll, 64, 0, 0, 960, 4, 0, 0, 1);
        mg_need x = need_of(A, &a), y = need_of(A, &b);
        CHECK(y.msg + y.ints > x.msg + x.ints,
              "%s: docs/dev/reference.md's memory grows with p, but the need is %zu+%zu bytes at p "
              "2 and "
              "%zu+%zu at p 64 (count 960)",
              A->name, x.msg, x.ints, y.msg, y.ints);
    }
}

/* Declines stay inside the documented mask; an algorithm documenting OVERFLOW declines a call
 * whose element or byte counts pass INT_MAX: p * count for block collectives, the vector
 * padded to a multiple of p for the others. */
static void check_overflow(const mg_alg *A) {
    int p = 8;
    int64_t count = block_count(A->coll) ? (int64_t)INT_MAX / p + 1 : (int64_t)INT_MAX - 1;
    if (A->coll == MPIGUIDE_COLL_REDUCE_SCATTER) count = ((int64_t)INT_MAX / p + 1) * p;
    for (int tsize = 1; tsize <= 4; tsize *= 4)
        for (int inplace = 0; inplace < 2; inplace++) {
            call c;
            make_call(&c, A->coll, p, 0, 0, count, (size_t)tsize, inplace, 0, 1);
            unsigned d = A->supports(&c.a, &c.s);
            CHECK(!(d & ~A->declines),
                  "%s: declines with 0x%x outside its documented mask 0x%x (p %d, count %lld)",
                  A->name, d, A->declines, p, (long long)count);
            /* GL9 moves the message as msize bytes without padding: it overflows only when the
             * bytes do (tsize 4 here), not at count INT_MAX - 1 of single bytes */
            int unpadded = !strcmp(A->name, "bcast_as_allgatherv") && tsize == 1;
            if ((A->declines & MPIGUIDE_DECLINE_OVERFLOW) && !is_v(A->coll) && !unpadded)
                CHECK(d == MPIGUIDE_DECLINE_OVERFLOW,
                      "%s: documents OVERFLOW but returns 0x%x at p %d, count %lld (p * count = "
                      "%lld > INT_MAX), tsize %d",
                      A->name, d, p, (long long)count, (long long)(p * count), tsize);
        }
}

int main(void) {
    /* One default per collective, at id == collective, and the public lookups agree. */
    CHECK(mg_nalg_names == mg_nalgs, "catalog %d names vs registry %d rows", mg_nalg_names,
          mg_nalgs);
    CHECK(mpiguide_algorithm_count() == mg_nalgs, "count %d vs table %d",
          mpiguide_algorithm_count(), mg_nalgs);
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        int d = mpiguide_default_algorithm(c), defaults = 0;
        CHECK(d == c && (mg_algs[d].flags & MG_AF_DEFAULT) && mg_algs[d].coll == c,
              "collective %s: default is algorithm %d", mg_coll_name(c), d);
        CHECK(!strcmp(mg_algs[d].name, "default") && !strcmp(mg_algs[d].guideline, "library"),
              "collective %s: default row is %s / %s", mg_coll_name(c), mg_algs[d].name,
              mg_algs[d].guideline);
        for (int i = 0; i < mg_nalgs; i++)
            defaults += mg_algs[i].coll == c && (mg_algs[i].flags & MG_AF_DEFAULT);
        CHECK(defaults == 1, "collective %s has %d defaults", mg_coll_name(c), defaults);
        CHECK(mpiguide_collective_id(mg_coll_name(c)) == c &&
                  mpiguide_collective_id(mg_coll_short(c)) == c,
              "collective %s / %s does not look itself up", mg_coll_name(c), mg_coll_short(c));
    }

    /* Names unique per collective; every non-default row a documented guideline. */
    int seen_gl[23] = {0}, pgmpi = 0, mockups = 0;
    for (int i = 0; i < mg_nalgs; i++) {
        const mg_alg *A = &mg_algs[i];
        for (int j = i + 1; j < mg_nalgs; j++)
            CHECK(A->coll != mg_algs[j].coll || strcmp(A->name, mg_algs[j].name),
                  "%s: name used twice in %s (ids %d and %d)", A->name, mg_coll_name(A->coll), i,
                  j);
        CHECK(mpiguide_algorithm_id(A->coll, A->name) == i, "%s: id lookup", A->name);
        CHECK(mpiguide_algorithm_collective(i) == A->coll &&
                  !strcmp(mpiguide_algorithm_name(i), A->name) &&
                  mpiguide_algorithm_declines(i) == A->declines,
              "%s: public lookups disagree with the table", A->name);
        if (A->flags & (MG_AF_DEFAULT | MG_AF_TESTONLY)) continue;
        CHECK(A->need && A->supports && A->run, "%s: a function is missing", A->name);
        /* the catalog's row of the same id (generated from the same .def line) */
        CHECK(i < mg_nalg_names && !strcmp(mg_alg_table[i].name, A->name) &&
                  mg_alg_table[i].coll == A->coll && mg_alg_table[i].flags == A->flags &&
                  mg_alg_table[i].declines == A->declines &&
                  !strcmp(mg_alg_table[i].guideline, A->guideline),
              "%s: the catalog's row %d differs", A->name, i);
        /* DEFECT is the algorithm's own: its inner calls ask the defect table */
        CHECK(!(A->declines & ~(unsigned)(MPIGUIDE_DECLINE_OVERFLOW | MPIGUIDE_DECLINE_DATATYPE |
                                          MPIGUIDE_DECLINE_OP | MPIGUIDE_DECLINE_DEFECT)),
              "%s: mask 0x%x documents a reason decided centrally or unknown", A->name,
              A->declines);
        CHECK(!mpiguide_algorithm_is_reduction(i) == !is_reduction(A->coll),
              "%s: reduction flag %d on %s", A->name, mpiguide_algorithm_is_reduction(i),
              mg_coll_name(A->coll));
        int gl = -1;
        const char *rest = gl_prefix_end(A->guideline, &gl);
        if (is_v(A->coll)) {
            /* the irregular paper's own guidelines (TUW, padding) label themselves */
            CHECK(strchr(A->guideline, ':') != NULL, "%s: guideline \"%s\" has no label", A->name,
                  A->guideline);
            continue;
        }
        /* repairs of known MPI defects (docs/defects.md) and compositions of collectives the
         * papers list no guideline for (Barrier, Exscan: docs/algorithms-*.md) */
        static const char *const labels[] = {"Repair: ", "Composition: "};
        int labelled = 0;
        for (int k = 0; k < 2 && !labelled; k++) {
            size_t l = strlen(labels[k]), n = strlen(mg_coll_name(A->coll));
            if (strncmp(A->guideline, labels[k], l)) continue;
            labelled = 1;
            CHECK(!strncmp(A->guideline + l, mg_coll_name(A->coll), n) &&
                      !strncmp(A->guideline + l + n, " <= ", 4),
                  "%s: \"%s\" is not \"%s%s <= ...\"", A->name, A->guideline, labels[k],
                  mg_coll_name(A->coll));
        }
        if (labelled) continue;
        mockups++;
        CHECK(rest != NULL, "%s: guideline \"%s\" does not start with GL<n>: or PGMPI:", A->name,
              A->guideline);
        if (!rest) continue;
        size_t len = strlen(mg_coll_name(A->coll));
        CHECK(!strncmp(rest, mg_coll_name(A->coll), len) && !strncmp(rest + len, " <= MPI_", 8),
              "%s: guideline \"%s\" is not \"%s <= ...\"", A->name, A->guideline,
              mg_coll_name(A->coll));
        int found = 0;
        for (int r = 0; r < NREFERENCE; r++)
            if (!strcmp(reference[r].name, A->name)) {
                found = 1;
                CHECK(reference[r].gl == gl, "%s: guideline %s, docs/dev/reference.md says GL%d",
                      A->name, A->guideline, reference[r].gl);
            }
        CHECK(found, "%s: not in docs/dev/reference.md", A->name);
        if (gl == 0)
            pgmpi++;
        else if (gl >= 1 && gl <= 22)
            seen_gl[gl]++;
        else
            CHECK(0, "%s: no guideline GL%d", A->name, gl);
    }
    CHECK(mockups == 24, "%d mock-ups of the guidelines, docs/dev/reference.md has 24", mockups);
    CHECK(pgmpi == 2, "%d PGMPI mock-ups, expected 2", pgmpi);
    for (int g = 1; g <= 22; g++)
        CHECK(seen_gl[g] == 1, "GL%d implemented %d times", g, seen_gl[g]);
    for (int r = 0; r < NREFERENCE; r++) {
        int found = 0;
        for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++)
            found += mpiguide_algorithm_id(c, reference[r].name) >= 0;
        CHECK(found == 1, "docs/dev/reference.md's %s is registered %d times", reference[r].name,
              found);
    }

    /* Needs and predicates on synthetic shapes. */
    for (int i = 0; i < mg_nalgs; i++) {
        const mg_alg *A = &mg_algs[i];
        if (A->flags & (MG_AF_DEFAULT | MG_AF_TESTONLY)) continue;
        unsigned scaling = 0;
        for (int r = 0; r < NREFERENCE; r++)
            if (!strcmp(reference[r].name, A->name)) scaling = reference[r].scaling;
        check_rank_independent(A);
        check_needs(A, scaling);
        check_overflow(A);
    }
    return DONE();
}
