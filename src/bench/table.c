/* `mpiguide bench --irregular=TYPE|all --table` (see table.h): per problem type, b and side
 * (gather: MPI_Gatherv in --calls-list or no --calls-list; scatter: MPI_Scatterv in it) four
 * measurements, one per column of Träff's tables:
 *   plain  MPI_Gather (MPI_Scatter), the library's own, on blocks padded to the largest block
 *          (msize 4 * max_i m_i)
 *   guide  the padding guideline gatherv_as_allreduce_gather (scatterv_as_allreduce_scatter)
 *   lib    MPI_Gatherv (MPI_Scatterv), the library's own
 *   tuw    gatherv_as_tuw (scatterv_as_tuw)
 * The v-collectives take the problem's counts (msize 4 * b); everything is MPI_INT. A column
 * whose algorithm is not in the registry, or whose measurement was skipped, shows "-". */
#include "table.h"
#include "model/problems.h"
#include "model/problems_table.h"
#include <stdlib.h>
#include <string.h>

enum { COL_PLAIN, COL_GUIDE, COL_LIB, COL_TUW, NCOLS };
enum { SIDE_GATHER, SIDE_SCATTER, NSIDES };

struct mg_irrtab {
    int p, root;
    int sides;           /* bit SIDE_GATHER, bit SIDE_SCATTER: the tables to print */
    int nrows;           /* (problem, b) pairs, the same on both sides */
    mg_irr_row *rows[2]; /* per side */
    double rho, time_ms;
    uint64_t seed;
    int64_t nrep;
    int sync;
    char label[160];
};

/* Registry names of the mock-up columns; NULL: the library's own (`default`). */
static const char *const col_alg[NSIDES][NCOLS] = {
    {NULL, "gatherv_as_allreduce_gather", NULL, "gatherv_as_tuw"},
    {NULL, "scatterv_as_allreduce_scatter", NULL, "scatterv_as_tuw"}};
static const int plain_coll[NSIDES] = {MPIGUIDE_COLL_GATHER, MPIGUIDE_COLL_SCATTER};
static const int v_coll[NSIDES] = {MPIGUIDE_COLL_GATHERV, MPIGUIDE_COLL_SCATTERV};

static int cell_of(int row, int side, int col) {
    return 1 + (row * NSIDES + side) * NCOLS + col;
}

static mg_irr_time *cell_time(mg_irrtab *t, int cell, int *side, int *row) {
    int c = cell - 1, col = c % NCOLS;
    *side = c / NCOLS % NSIDES;
    *row = c / (NCOLS * NSIDES);
    mg_irr_row *r = &t->rows[*side][*row];
    return col == COL_PLAIN   ? &r->plain
           : col == COL_GUIDE ? &r->guide
           : col == COL_LIB   ? &r->lib
                              : &r->tuw;
}

/* The v-collectives of --calls-list (the parser makes it MPI_Gatherv when not given). */
static int sides_of(const mg_bench_opts *o) {
    int s = 0;
    for (int i = 0; i < o->ncalls; i++)
        s |= o->calls[i] == MPIGUIDE_COLL_GATHERV    ? 1 << SIDE_GATHER
             : o->calls[i] == MPIGUIDE_COLL_SCATTERV ? 1 << SIDE_SCATTER
                                                     : 0;
    return s;
}

int mg_irrtab_jobs(const mg_bench_opts *o, int p, uint64_t seed, mg_irrtab **tp, mg_joblist *l,
                   int rank) {
    int types[MG_PROBLEM_COUNT], ntypes = 0;
    if (!strcmp(o->irregular, "all"))
        for (int k = 0; k < MG_PROBLEM_COUNT; k++) types[ntypes++] = k;
    else
        types[ntypes++] = mg_problem_parse(o->irregular);
    static const int64_t default_bs[] = MG_IRRTAB_DEFAULT_BS;
    const int64_t *bs = o->b >= 0 ? &o->b : default_bs;
    int nbs = o->b >= 0 ? 1 : (int)(sizeof default_bs / sizeof default_bs[0]);

    mg_irrtab *t = calloc(1, sizeof *t);
    int rc = !t;
    if (t) {
        t->p = p;
        t->root = o->root;
        t->sides = sides_of(o);
        t->nrows = ntypes * nbs;
        t->rho = o->rho;
        t->time_ms = o->time_ms;
        t->seed = seed;
        t->nrep = o->nrep;
        t->sync = o->sync;
        for (int s = 0; s < NSIDES; s++) {
            t->rows[s] = calloc((size_t)t->nrows, sizeof(mg_irr_row));
            rc |= !t->rows[s];
        }
    }
    int missing[NSIDES][NCOLS] = {{0}};
    for (int r = 0; !rc && r < t->nrows; r++) {
        int type = types[r / nbs];
        int64_t b = bs[r % nbs], m, mpad;
        mg_irr_totals(type, p, b, o->rho, seed, &m, &mpad);
        for (int s = 0; !rc && s < NSIDES; s++) {
            if (!(t->sides & 1 << s)) continue;
            mg_irr_time none = {-1, -1};
            t->rows[s][r] = (mg_irr_row){type, b, m, mpad, none, none, none, none};
            for (int c = 0; !rc && c < NCOLS; c++) {
                int coll = c == COL_PLAIN ? plain_coll[s] : v_coll[s];
                int alg = col_alg[s][c] ? mpiguide_algorithm_id(coll, col_alg[s][c])
                                        : mpiguide_default_algorithm(coll);
                if (alg < 0) {
                    missing[s][c] = 1;
                    continue;
                }
                const char *name = col_alg[s][c] ? mpiguide_algorithm_name(alg) : MG_ALG_DEFAULT;
                int64_t elems = c == COL_PLAIN ? (p > 0 ? mpad / p : 0) : b;
                mg_job j = {
                    coll, alg, name, elems * (int64_t)sizeof(int), o->nrep, 0, cell_of(r, s, c),
                    type, 0};
                rc = mg_add_job(l, j) != 0;
            }
        }
    }
    for (int s = 0; !rc && s < NSIDES; s++)
        for (int c = 0; c < NCOLS; c++)
            if (missing[s][c])
                mg_say(rank, 0, "--table", "%s is not in this build; its column shows -",
                       col_alg[s][c]);
    PMPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rc) {
        mg_say(rank, 1, "--table", "out of memory");
        mg_irrtab_free(t);
        t = NULL;
    }
    *tp = t;
    return rc;
}

const char *mg_irrtab_label(mg_irrtab *t, const mg_job *j) {
    int side, row;
    cell_time(t, j->table_cell, &side, &row);
    snprintf(t->label, sizeof t->label, "# table: problem=%s b=%lld\n", mg_problem_name(j->problem),
             (long long)t->rows[side][row].b);
    return t->label;
}

void mg_irrtab_note(mg_irrtab *t, const mg_job *j, const double *runtime, const int *flag,
                    int64_t n) {
    int side, row;
    mg_irr_time *cell = cell_time(t, j->table_cell, &side, &row);
    double sum = 0, least = 0;
    int64_t valid = 0;
    for (int64_t i = 0; i < n; i++) {
        if (flag && flag[i]) continue;
        sum += runtime[i];
        if (!valid || runtime[i] < least) least = runtime[i];
        valid++;
    }
    if (!valid) return; /* stays "-" */
    cell->avg = sum / (double)valid * 1e6;
    cell->min = least * 1e6;
}

void mg_irrtab_print(const mg_irrtab *t, FILE *f) {
    static const char *const vname[NSIDES] = {"MPI_Gatherv", "MPI_Scatterv"};
    int first = 1;
    for (int s = 0; s < NSIDES; s++) {
        if (!(t->sides & 1 << s)) continue;
        char caption[400], budget[64] = "";
        if (t->time_ms > 0) snprintf(budget, sizeof budget, ", at most %g ms", t->time_ms);
        snprintf(caption, sizeof caption,
                 "%s: p = %d, root %d, rho %g, seed %llu; average and minimum over the valid "
                 "observations of up to %lld per measurement%s (%s sync)",
                 vname[s], t->p, t->root, t->rho, (unsigned long long)t->seed, (long long)t->nrep,
                 budget, mg_sync_name(t->sync));
        if (!first) fputc('\n', f);
        mg_irr_table_print(f, s == SIDE_SCATTER, caption, t->rows[s], t->nrows);
        first = 0;
    }
    fflush(f);
}

void mg_irrtab_free(mg_irrtab *t) {
    if (!t) return;
    for (int s = 0; s < NSIDES; s++) free(t->rows[s]);
    free(t);
}
