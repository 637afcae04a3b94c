/* The analysis proper. Launches are merged as PGMPI does: one median per launch and size,
 * and the reported median is the median of those. A mock-up is tested against the default in
 * every launch separately and the largest of those p-values is its p-value (an
 * intersection-union test: it is significant only when it is in every launch, so a difference
 * that comes and goes between launches is not reported); then all pattern tests of the check
 * are corrected together (Holm by default). docs/check.md explains each rule. */
#include "util/format.h"
#include "catalog/catalog.h"
#include "model.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *mg_name(const mg_analysis *a, int idx) {
    return idx >= 0 && idx < a->ds->nnames ? a->ds->names[idx] : "?";
}

int mg_is_vcollective(const char *n) {
    return mg_coll_is_v(mg_coll_lookup(n));
}

const char *mg_stat_label(int test) {
    static const char *l[] = {"t", "z", "U", "D"};
    return test >= 0 && test < MG_TEST_COUNT ? l[test] : "?";
}

static void missing(mg_analysis *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void missing(mg_analysis *a, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (a->nmissing == a->capmissing) {
        int nc = a->capmissing ? 2 * a->capmissing : 16;
        char **p = realloc(a->missing, (size_t)nc * sizeof *p);
        if (!p) return;
        a->missing = p;
        a->capmissing = nc;
    }
    size_t n = strlen(buf) + 1;
    char *d = malloc(n);
    if (!d) return;
    memcpy(d, buf, n);
    a->missing[a->nmissing++] = d;
}

static double median_sorted(const double *v, size_t n) {
    if (!n) return NAN;
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* median of a few values, v is reordered */
static double median_of(double *v, int n) {
    return n ? mg_median_inplace(v, (size_t)n) : NAN;
}

/* ---- grouping the series into collectives, sizes and algorithms ---- */

typedef struct {
    int coll_rank, alg_rank;
    long long msize;
    int lpos;
    const mg_series *s;
} gkey;

static int cmp_gkey(const void *pa, const void *pb) {
    const gkey *a = pa, *b = pb;
    if (a->coll_rank != b->coll_rank) return a->coll_rank < b->coll_rank ? -1 : 1;
    if (a->msize != b->msize) return a->msize < b->msize ? -1 : 1;
    if (a->alg_rank != b->alg_rank) return a->alg_rank < b->alg_rank ? -1 : 1;
    return (a->lpos > b->lpos) - (a->lpos < b->lpos);
}

static const mg_dataset *rank_ds; /* qsort context for name ranks (analysis is single-threaded) */
static int cmp_name_idx(const void *pa, const void *pb) {
    int a = *(const int *)pa, b = *(const int *)pb;
    const char *x = rank_ds->names[a], *y = rank_ds->names[b];
    int dx = !strcmp(x, "default"), dy = !strcmp(y, "default");
    if (dx != dy) return dy - dx; /* `default` first */
    return strcmp(x, y);
}

static int build(mg_analysis *a, int barrier_name) {
    mg_dataset *ds = a->ds;
    int *lpos = malloc((size_t)(ds->nlaunches ? ds->nlaunches : 1) * sizeof *lpos);
    int *order = malloc((size_t)(ds->nnames ? ds->nnames : 1) * sizeof *order);
    int *rank = malloc((size_t)(ds->nnames ? ds->nnames : 1) * sizeof *rank);
    gkey *keys = malloc((ds->nseries ? ds->nseries : 1) * sizeof *keys);
    int rc = -1;
    if (!lpos || !order || !rank || !keys) goto out;
    for (int i = 0; i < ds->nlaunches; i++) lpos[i] = -1;
    for (int i = 0; i < a->nlaunches; i++) lpos[a->launches[i]] = i;
    for (int i = 0; i < ds->nnames; i++) order[i] = i;
    rank_ds = ds;
    qsort(order, (size_t)ds->nnames, sizeof *order, cmp_name_idx);
    for (int i = 0; i < ds->nnames; i++) rank[order[i]] = i;
    size_t nk = 0;
    for (size_t i = 0; i < ds->nseries; i++) {
        const mg_series *s = &ds->series[i];
        if (lpos[s->launch] < 0 || s->coll == barrier_name) continue;
        keys[nk++] = (gkey){rank[s->coll], rank[s->alg], s->msize, lpos[s->launch], s};
    }
    qsort(keys, nk, sizeof *keys, cmp_gkey);
    /* count, then fill */
    for (size_t i = 0; i < nk;) {
        size_t j = i;
        while (j < nk && keys[j].coll_rank == keys[i].coll_rank) j++;
        mg_coll *c = realloc(a->colls, (size_t)(a->ncolls + 1) * sizeof *c);
        if (!c) goto out;
        a->colls = c;
        c = &a->colls[a->ncolls++];
        memset(c, 0, sizeof *c);
        c->name = keys[i].s->coll;
        c->worst = -1;
        for (size_t p = i; p < j;) {
            size_t q = p;
            while (q < j && keys[q].msize == keys[p].msize) q++;
            mg_point *pt = realloc(c->points, (size_t)(c->npoints + 1) * sizeof *pt);
            if (!pt) goto out;
            c->points = pt;
            pt = &c->points[c->npoints++];
            memset(pt, 0, sizeof *pt);
            pt->msize = keys[p].msize;
            pt->def = pt->best = pt->profile = -1;
            pt->tuned = pt->tuned_default = NAN;
            for (size_t r = p; r < q;) {
                size_t u = r;
                while (u < q && keys[u].alg_rank == keys[r].alg_rank) u++;
                mg_cell *cell = realloc(pt->cells, (size_t)(pt->ncells + 1) * sizeof *cell);
                if (!cell) goto out;
                pt->cells = cell;
                cell = &pt->cells[pt->ncells];
                memset(cell, 0, sizeof *cell);
                cell->alg = keys[r].s->alg;
                cell->series =
                    calloc((size_t)(a->nlaunches ? a->nlaunches : 1), sizeof *cell->series);
                if (!cell->series) goto out;
                for (size_t v = r; v < u; v++) cell->series[keys[v].lpos] = keys[v].s;
                if (!strcmp(ds->names[cell->alg], "default")) pt->def = pt->ncells;
                pt->ncells++;
                r = u;
            }
            p = q;
        }
        i = j;
    }
    rc = 0;
out:
    free(lpos);
    free(order);
    free(rank);
    free(keys);
    return rc;
}

/* ---- per-cell summaries ---- */

static int fill_cell(mg_analysis *a, mg_cell *c) {
    double *lm = malloc((size_t)(a->nlaunches ? a->nlaunches : 1) * sizeof *lm);
    if (!lm) return -1;
    int k = 0;
    double sum = 0;
    c->min = INFINITY;
    c->max = -INFINITY;
    const mg_series *only = NULL;
    for (int l = 0; l < a->nlaunches; l++) {
        const mg_series *s = c->series[l];
        if (!s) continue;
        c->nflagged += s->nflagged;
        if (!s->n) continue;
        only = s;
        lm[k++] = median_sorted(s->v, s->n);
        c->nobs += s->n;
        for (size_t i = 0; i < s->n; i++) sum += s->v[i];
        if (s->v[0] < c->min) c->min = s->v[0];
        if (s->v[s->n - 1] > c->max) c->max = s->v[s->n - 1];
    }
    c->nlaunches = k;
    c->mean = c->nobs ? sum / (double)c->nobs : NAN;
    if (!c->nobs) c->min = c->max = NAN;
    c->lmed_min = INFINITY;
    c->lmed_max = -INFINITY;
    for (int i = 0; i < k; i++) {
        if (lm[i] < c->lmed_min) c->lmed_min = lm[i];
        if (lm[i] > c->lmed_max) c->lmed_max = lm[i];
    }
    if (!k) c->lmed_min = c->lmed_max = NAN;
    c->median = median_of(lm, k);
    free(lm);
    c->p = c->p_adj = c->stat = NAN;
    c->slowdown = NAN;
    c->tuned_median = NAN;
    c->ci_lo = c->ci_hi = NAN;
    if (!c->nobs) return 0;
    /* the CI of the median of the pooled observations */
    mg_median_ci ci;
    if (k == 1) {
        mg_median_ci_sorted(only->v, only->n, 0.95, &ci);
    } else {
        double *all = malloc(c->nobs * sizeof *all);
        if (!all) return -1;
        size_t at = 0;
        for (int l = 0; l < a->nlaunches; l++)
            if (c->series[l] && c->series[l]->n) {
                memcpy(all + at, c->series[l]->v, c->series[l]->n * sizeof *all);
                at += c->series[l]->n;
            }
        mg_sort(all, at);
        mg_median_ci_sorted(all, at, 0.95, &ci);
        free(all);
    }
    c->ci_lo = ci.lo;
    c->ci_hi = ci.hi;
    return 0;
}

/* One launch: is x (the candidate) faster than y (the reference)? Both sorted. */
static int test_once(int test, const mg_series *x, const mg_series *y, double *stat, double *p) {
    mg_test_result r;
    int rc;
    switch (test) {
    case MG_TEST_T:
        rc = mg_t_test(x->v, x->n, y->v, y->n, 1, MG_LESS, &r);
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
static void test_cells(const mg_analysis *a, const mg_cell *x, const mg_cell *y, int *tested,
                       int *faster, double *stat, double *p) {
    *tested = *faster = 0;
    *stat = *p = NAN;
    for (int l = 0; l < a->nlaunches; l++) {
        const mg_series *sx = x->series[l], *sy = y->series[l];
        if (!sx || !sy || sx->n < 2 || sy->n < 2) continue;
        double st, pv;
        if (test_once(a->opts.test, sx, sy, &st, &pv)) continue;
        (*tested)++;
        if (median_sorted(sx->v, sx->n) < median_sorted(sy->v, sy->n)) (*faster)++;
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

static int pattern_checks(mg_analysis *a) {
    family fam = {0};
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll *c = &a->colls[ci];
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            mg_cell *d = &pt->cells[pt->def];
            for (int k = 0; k < pt->ncells; k++) {
                mg_cell *m = &pt->cells[k];
                if (k == pt->def) continue;
                m->slowdown = d->median / m->median;
                test_cells(a, m, d, &m->tested_launches, &m->faster_launches, &m->stat, &m->p);
                m->tested = m->tested_launches > 0;
                if (m->tested && family_add(&fam, m->p, &m->p_adj)) goto fail;
            }
        }
    }
    a->npattern_tests = fam.n;
    if (family_adjust(&fam, a->opts.correction)) goto fail;
    free(fam.p);
    free(fam.dst);
    return 0;
fail:
    free(fam.p);
    free(fam.dst);
    return -1;
}

/* Violations, barrier warnings, the fastest violating and the profile candidate per size. */
static void decide(mg_analysis *a) {
    double log_sum_all = 0;
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll *c = &a->colls[ci];
        double log_sum = 0, worst = 0;
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            double dmed = pt->cells[pt->def].median;
            int brave = 0, cautious = 0;
            for (int k = 0; k < pt->ncells; k++) {
                mg_cell *m = &pt->cells[k];
                if (k == pt->def || !m->tested) continue;
                pt->checked = 1;
                m->violation = m->p_adj < a->opts.alpha && m->median < dmed;
                m->barrier_warning = !isnan(a->barrier) && fabs(dmed - m->median) < a->barrier;
                if (!m->violation) continue;
                brave = 1;
                a->ncell_viol_brave++;
                if (!m->barrier_warning) {
                    cautious = 1;
                    a->ncell_viol_cautious++;
                }
                if (pt->best < 0 || m->median < pt->cells[pt->best].median) pt->best = k;
                if (1 - m->median / dmed >= a->opts.min_gain &&
                    (pt->profile < 0 || m->median < pt->cells[pt->profile].median))
                    pt->profile = k;
            }
            if (!pt->checked) continue;
            c->nchecked++;
            c->nviol_brave += brave;
            c->nviol_cautious += cautious;
            double ratio = pt->best >= 0 ? pt->cells[pt->best].median / dmed : 1;
            log_sum += log(ratio);
            if (pt->best >= 0 && pt->cells[pt->best].slowdown > worst) {
                worst = pt->cells[pt->best].slowdown;
                c->worst = pi;
            }
        }
        c->quality = c->nchecked ? exp(log_sum / c->nchecked) : NAN;
        a->nchecked += c->nchecked;
        a->nviol_brave += c->nviol_brave;
        a->nviol_cautious += c->nviol_cautious;
        log_sum_all += log_sum;
    }
    a->quality = a->nchecked ? exp(log_sum_all / a->nchecked) : NAN;
}

/* Monotony (A(m_i) <= A(m_j) for adjacent measured sizes m_i < m_j) with the same test and
 * the same launch rule, corrected over all adjacent pairs of the check; split-robustness
 * (A(m_j) <= k A(m_i), k = min{l : l m_i >= m_j}) on the merged medians with PGMPI's 5 %
 * tolerance, reporting only the largest violating m_i per m_j. The library's default only. */
static int guideline_checks(mg_analysis *a) {
    family fam = {0};
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll *c = &a->colls[ci];
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
                test_cells(a, &pt->cells[pt->def], &lo->cells[lo->def], &mo->tested, &faster,
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

/* Median over the tuned launches of each launch's median of (coll, alg, msize). */
static double tuned_median(const mg_analysis *a, int coll, int alg, long long msize, size_t *nobs) {
    const mg_dataset *ds = a->ds;
    double lm[64];
    int k = 0;
    for (int l = 0; l < ds->nlaunches && k < 64; l++) {
        if (!ds->launches[l].tuned) continue;
        const mg_series *s = mg_dataset_find_series(ds, coll, alg, l, msize);
        if (!s || !s->n) continue;
        lm[k++] = median_sorted(s->v, s->n);
        if (nobs) *nobs += s->n;
    }
    return median_of(lm, k);
}

static void tuned_results(mg_analysis *a) {
    if (!a->ntuned) return;
    int tuned = mg_dataset_find_name(a->ds, "tuned");
    int def = mg_dataset_find_name(a->ds, "default");
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll *c = &a->colls[ci];
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (tuned >= 0) pt->tuned = tuned_median(a, c->name, tuned, pt->msize, &pt->tuned_n);
            if (def >= 0) pt->tuned_default = tuned_median(a, c->name, def, pt->msize, NULL);
            for (int k = 0; k < pt->ncells; k++)
                pt->cells[k].tuned_median =
                    tuned_median(a, c->name, pt->cells[k].alg, pt->msize, NULL);
        }
    }
}

/* ---- what is missing ---- */

static void find_missing(mg_analysis *a, int have_barrier) {
    char sz[32];
    int *has = calloc((size_t)(a->nlaunches ? a->nlaunches : 1), sizeof *has);
    int *algs = NULL, nalgs = 0;
    for (int ci = 0; ci < a->ncolls && has; ci++) {
        mg_coll *c = &a->colls[ci];
        const char *cn = mg_name(a, c->name);
        /* which launches measured this collective at all, and which algorithms it has */
        memset(has, 0, (size_t)a->nlaunches * sizeof *has);
        nalgs = 0;
        for (int pi = 0; pi < c->npoints; pi++)
            for (int k = 0; k < c->points[pi].ncells; k++) {
                mg_cell *m = &c->points[pi].cells[k];
                for (int l = 0; l < a->nlaunches; l++) has[l] |= m->series[l] != NULL;
                int known = 0;
                for (int i = 0; i < nalgs; i++) known |= algs[i] == m->alg;
                if (known) continue;
                int *na = realloc(algs, (size_t)(nalgs + 1) * sizeof *na);
                if (!na) continue;
                algs = na;
                algs[nalgs++] = m->alg;
            }
        for (int l = 0; l < a->nlaunches; l++)
            if (!has[l])
                missing(a, "%s: no %s data in this launch", a->ds->launches[a->launches[l]].path,
                        cn);
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            mg_fmt_size(sz, sizeof sz, pt->msize);
            if (pt->def < 0) missing(a, "%s %s: no default measurement, size not checked", cn, sz);
            for (int i = 0; i < nalgs; i++) {
                int found = 0;
                for (int k = 0; k < pt->ncells; k++) found |= pt->cells[k].alg == algs[i];
                if (!found)
                    missing(a, "%s %s: %s not measured (it is at other sizes)", cn, sz,
                            mg_name(a, algs[i]));
            }
            for (int k = 0; k < pt->ncells; k++) {
                mg_cell *m = &pt->cells[k];
                for (int l = 0; l < a->nlaunches; l++)
                    if (has[l] && !m->series[l])
                        missing(a, "%s %s %s: missing in %s", cn, sz, mg_name(a, m->alg),
                                a->ds->launches[a->launches[l]].path);
                if (k != pt->def && pt->def >= 0 && !m->tested && m->nobs)
                    missing(a, "%s %s %s: fewer than 2 observations per launch, not tested", cn, sz,
                            mg_name(a, m->alg));
                if (m->nflagged)
                    missing(a, "%s %s %s: %zu observations flagged invalid by the sync, left out",
                            cn, sz, mg_name(a, m->alg), m->nflagged);
            }
        }
    }
    free(has);
    free(algs);
    if (!have_barrier)
        missing(a, "no MPI_Barrier data: no barrier warnings (cautious counts equal brave)");
    /* launches of different jobs cannot be merged meaningfully */
    int first = -1; /* the first launch with an nprocs header */
    for (int l = 0; l < a->nlaunches; l++) {
        const char *p = mg_dataset_header(a->ds, a->launches[l], "nprocs");
        if (!p) continue;
        if (first < 0) {
            first = l;
            continue;
        }
        const char *p0 = mg_dataset_header(a->ds, a->launches[first], "nprocs");
        if (strcmp(p, p0))
            missing(a, "%s: nprocs=%s, but %s has nprocs=%s: launches of different jobs merged",
                    a->ds->launches[a->launches[l]].path, p,
                    a->ds->launches[a->launches[first]].path, p0);
    }
    for (int ci = 0; ci < a->ncolls; ci++) {
        int entries = 0;
        for (int pi = 0; pi < a->colls[ci].npoints; pi++)
            entries += a->colls[ci].points[pi].profile >= 0;
        if (entries && a->colls[ci].nprocs <= 0 && atoi(a->nprocs) <= 0)
            missing(a, "%s: no #@nprocs header, so its profile cannot be written",
                    mg_name(a, a->colls[ci].name));
    }
}

/* ---- header values for tables and provenance ---- */

static void header(const mg_analysis *a, const char *key, char *dst, size_t n) {
    const char *v = NULL;
    for (int l = 0; l < a->nlaunches && !v; l++) v = mg_dataset_header(a->ds, a->launches[l], key);
    snprintf(dst, n, "%s", v ? v : "");
}

int mg_analysis_run(mg_analysis *a, mg_dataset *ds, const mg_analyze_opts *o) {
    memset(a, 0, sizeof *a);
    a->ds = ds;
    a->opts = *o;
    a->barrier = NAN;
    mg_dataset_sort(ds);
    a->launches = malloc((size_t)(ds->nlaunches ? ds->nlaunches : 1) * sizeof *a->launches);
    if (!a->launches) return -1;
    for (int l = 0; l < ds->nlaunches; l++) {
        if (ds->launches[l].tuned)
            a->ntuned++;
        else
            a->launches[a->nlaunches++] = l;
    }
    header(a, "nodes", a->nodes, sizeof a->nodes);
    header(a, "ppn", a->ppn, sizeof a->ppn);
    header(a, "nprocs", a->nprocs, sizeof a->nprocs);
    header(a, "mpi_library", a->library, sizeof a->library);
    header(a, "date", a->date, sizeof a->date);
    header(a, "datatype", a->datatype, sizeof a->datatype);
    header(a, "operation", a->operation, sizeof a->operation);

    /* MPI_Barrier: the synchronisation noise the barrier warning compares against */
    int barrier_name = mg_dataset_find_name(ds, "MPI_Barrier");
    int def = mg_dataset_find_name(ds, "default");
    int have_barrier = 0;
    if (barrier_name >= 0 && def >= 0) {
        double lm[256];
        int k = 0;
        for (size_t i = 0; i < ds->nseries && k < 256; i++) {
            const mg_series *s = &ds->series[i];
            if (s->coll == barrier_name && s->alg == def && s->n && !ds->launches[s->launch].tuned)
                lm[k++] = median_sorted(s->v, s->n);
        }
        a->barrier = median_of(lm, k);
        have_barrier = k > 0;
    }
    if (build(a, barrier_name)) return -1;
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll *c = &a->colls[ci];
        /* processes of this collective: the header of a launch that measured it */
        for (int pi = 0; pi < c->npoints && !c->nprocs; pi++)
            for (int k = 0; k < c->points[pi].ncells && !c->nprocs; k++)
                for (int l = 0; l < a->nlaunches && !c->nprocs; l++)
                    if (c->points[pi].cells[k].series[l]) {
                        const char *v = mg_dataset_header(ds, a->launches[l], "nprocs");
                        if (v) c->nprocs = atoi(v);
                    }
        for (int pi = 0; pi < c->npoints; pi++)
            for (int k = 0; k < c->points[pi].ncells; k++)
                if (fill_cell(a, &c->points[pi].cells[k])) return -1;
    }
    if (pattern_checks(a)) return -1;
    decide(a);
    if (guideline_checks(a)) return -1;
    tuned_results(a);
    find_missing(a, have_barrier);
    return 0;
}

void mg_analysis_free(mg_analysis *a) {
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll *c = &a->colls[ci];
        for (int pi = 0; pi < c->npoints; pi++) {
            for (int k = 0; k < c->points[pi].ncells; k++) free(c->points[pi].cells[k].series);
            free(c->points[pi].cells);
        }
        free(c->points);
        free(c->mono);
        free(c->split);
    }
    free(a->colls);
    free(a->launches);
    for (int i = 0; i < a->nmissing; i++) free(a->missing[i]);
    free(a->missing);
    memset(a, 0, sizeof *a);
}
