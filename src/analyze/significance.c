/* The statistical tests of the analysis: each mock-up against the default per launch (the
 * largest launch p-value counts: significant only when it is in every launch), the monotony and
 * split-robustness guideline checks of the default, each family corrected together (Holm by
 * default), and the medians of the tuned validation launches. */
#include "util/format.h"
#include "catalog/catalog.h"
#include "model.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* One launch: is x (the candidate) faster than y (the reference)? Both sorted. Where the
 * t-test is undefined (both samples essentially constant, docs/statistics.md) the launch takes
 * the rank-sum test instead, whose statistic (z) then fills the column. */
int mg_an_test_series(int test, const mg_series *x, const mg_series *y, double *stat, double *p) {
    mg_test_result r;
    int rc;
    switch (test) {
    case MG_TEST_T:
        rc = mg_t_test(x->v, x->n, y->v, y->n, 1, MG_LESS, &r);
        if (rc == MG_TEST_UNDEFINED) {
            test = MG_TEST_RANKSUM;
            rc = mg_wilcox_test_sorted(x->v, x->n, y->v, y->n, MG_LESS, MG_EXACT_AUTO, &r);
        }
        break;
    case MG_TEST_KS:
        rc = mg_ks_test_sorted(x->v, x->n, y->v, y->n, MG_LESS, MG_EXACT_AUTO, &r);
        break;
    default:
        rc = mg_wilcox_test_sorted(x->v, x->n, y->v, y->n, MG_LESS, MG_EXACT_AUTO, &r);
    }
    if (rc) return -1;
    *stat = test == MG_TEST_RANKSUM ? r.z : r.statistic;
    *p = r.p;
    return 0;
}

/* The per-launch tests of candidate x against reference y; p = the largest launch p-value. */
void mg_an_test_cells(const mg_analysis *a, const mg_cell *x, const mg_cell *y, int *tested,
                      int *faster, double *stat, double *p) {
    *tested = *faster = 0;
    *stat = *p = NAN;
    for (int l = 0; l < a->nlaunches; l++) {
        const mg_series *sx = x->series[l], *sy = y->series[l];
        if (!sx || !sy || sx->n < 2 || sy->n < 2) continue;
        double st, pv;
        if (mg_an_test_series(a->opts.test, sx, sy, &st, &pv)) continue;
        (*tested)++;
        if (mg_an_median_sorted(sx->v, sx->n) < mg_an_median_sorted(sy->v, sy->n)) (*faster)++;
        if (isnan(*p) || pv > *p) {
            *p = pv;
            *stat = st;
        }
    }
}

/* ---- the checks ---- */

typedef struct {
    double *p;
    double **dst;
    int n, cap;
} family;

static int family_add(family *f, double p, double *dst) {
    if (f->n == f->cap) {
        int nc = f->cap ? 2 * f->cap : 64;
        double *np = realloc(f->p, (size_t)nc * sizeof *np);
        if (np) f->p = np;
        double **nd = realloc(f->dst, (size_t)nc * sizeof *nd);
        if (nd) f->dst = nd;
        if (!np || !nd) return -1;
        f->cap = nc;
    }
    f->p[f->n] = p;
    f->dst[f->n++] = dst;
    return 0;
}

static int family_adjust(family *f, mg_correction c) {
    if (!f->n) return 0;
    double *adj = malloc((size_t)f->n * sizeof *adj);
    if (!adj || mg_p_adjust(f->p, (size_t)f->n, c, adj)) {
        free(adj);
        return -1;
    }
    for (int i = 0; i < f->n; i++) *f->dst[i] = adj[i];
    free(adj);
    return 0;
}

/* Two families, each corrected on its own: the mock-ups' tests decide guideline violations, the
 * library algorithms' tests tuning opportunities, so adding library algorithms to a check does
 * not weaken its guideline verdicts. */
int mg_an_pattern_checks(mg_analysis *a) {
    family fam = {0}, lib = {0};
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            mg_cell *d = &pt->cells[pt->def];
            for (int k = 0; k < pt->ncells; k++) {
                mg_cell *m = &pt->cells[k];
                if (k == pt->def) continue;
                m->slowdown = d->median / m->median;
                mg_an_test_cells(a, m, d, &m->tested_launches, &m->faster_launches, &m->stat,
                                 &m->p);
                m->tested = m->tested_launches > 0;
                if (m->tested && family_add(m->library ? &lib : &fam, m->p, &m->p_adj)) goto fail;
            }
        }
    }
    a->npattern_tests = fam.n;
    a->nlib_tests = lib.n;
    if (family_adjust(&fam, a->opts.correction) || family_adjust(&lib, a->opts.correction))
        goto fail;
    free(fam.p);
    free(fam.dst);
    free(lib.p);
    free(lib.dst);
    return 0;
fail:
    free(fam.p);
    free(fam.dst);
    free(lib.p);
    free(lib.dst);
    return -1;
}

/* Monotony (A(m_i) <= A(m_j) for adjacent measured sizes m_i < m_j) with the same test and
 * the same launch rule, corrected over all adjacent pairs of the check; split-robustness
 * (A(m_j) <= k A(m_i), k = min{l : l m_i >= m_j}) on the merged medians with PGMPI's 5 %
 * tolerance, reporting only the largest violating m_i per m_j. The library's default only. */
int mg_an_guideline_checks(mg_analysis *a) {
    family fam = {0};
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        c->mono = calloc((size_t)(c->npoints ? c->npoints : 1), sizeof *c->mono);
        c->split = calloc((size_t)(c->npoints ? c->npoints : 1), sizeof *c->split);
        if (!c->mono || !c->split) goto fail;
        int prev = -1;
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            if (prev >= 0) {
                mg_point *lo = &c->points[prev];
                mg_mono *mo = &c->mono[c->nmono++];
                mo->m_lo = lo->msize;
                mo->m_hi = pt->msize;
                mo->med_lo = lo->cells[lo->def].median;
                mo->med_hi = pt->cells[pt->def].median;
                int faster;
                mg_an_test_cells(a, &pt->cells[pt->def], &lo->cells[lo->def], &mo->tested, &faster,
                                 &mo->stat, &mo->p);
                mo->p_adj = NAN;
                if (mo->tested && family_add(&fam, mo->p, &mo->p_adj)) goto fail;
            }
            prev = pi;
            /* split-robustness at m_j = pt->msize: largest m_i first */
            double med_j = pt->cells[pt->def].median;
            for (int qi = pi - 1; qi >= 0; qi--) {
                mg_point *q = &c->points[qi];
                if (q->def < 0 || q->msize <= 0) continue;
                long long k = (pt->msize + q->msize - 1) / q->msize;
                double med_i = q->cells[q->def].median;
                if ((double)k * med_i * (1 + MG_SPLIT_TOLERANCE) < med_j) {
                    c->split[c->nsplit++] = (mg_split){q->msize, pt->msize, k, med_i, med_j};
                    break;
                }
            }
        }
        a->nsplit_viol += c->nsplit;
    }
    a->nmono_tests = fam.n;
    if (family_adjust(&fam, a->opts.correction)) goto fail;
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int i = 0; i < a->colls[ci].nmono; i++) {
            mg_mono *mo = &a->colls[ci].mono[i];
            mo->violation = mo->tested && mo->p_adj < a->opts.alpha && mo->med_hi < mo->med_lo;
            a->nmono_viol += mo->violation;
        }
    free(fam.p);
    free(fam.dst);
    return 0;
fail:
    free(fam.p);
    free(fam.dst);
    return -1;
}

/* Median over the tuned launches of each launch's median of (coll, alg, msize), without the
 * launches validate.c sets aside as disturbed at that size (their default's median over 3x the
 * check's): the tuned table's medians then come from the launches its speed-ups come from. */
static double tuned_median(const mg_analysis *a, const mg_coll_result *c, const mg_point *pt,
                           int alg, long long msize, size_t *nobs) {
    const mg_dataset *ds = a->ds;
    double lm[64];
    int k = 0;
    for (int l = 0; l < ds->nlaunches && k < 64; l++) {
        if (!ds->launches[l].tuned) continue;
        if (mg_an_val_aside(a, c, pt, l)) continue;
        const mg_series *s =
            mg_dataset_find_series(ds, c->name, alg, l, msize, c->p_key, c->variant);
        if (!s || !s->n) continue;
        lm[k++] = mg_an_median_sorted(s->v, s->n);
        if (nobs) *nobs += s->n;
    }
    return mg_an_median_of(lm, k);
}

void mg_an_tuned_results(mg_analysis *a) {
    if (!a->ntuned) return;
    int tuned = mg_dataset_find_name(a->ds, "tuned");
    int def = mg_dataset_find_name(a->ds, "default");
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (tuned >= 0) pt->tuned = tuned_median(a, c, pt, tuned, pt->msize, &pt->tuned_n);
            if (def >= 0) pt->tuned_default = tuned_median(a, c, pt, def, pt->msize, NULL);
            for (int k = 0; k < pt->ncells; k++)
                pt->cells[k].tuned_median =
                    tuned_median(a, c, pt, pt->cells[k].alg, pt->msize, NULL);
        }
    }
}
