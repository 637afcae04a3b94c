/* Grouping the raw series into collectives, sizes and algorithms (one cell per (collective,
 * size, algorithm) over the check launches), and each cell's summary: the median of the
 * per-launch medians, the range of those, mean, extremes and the CI of the pooled median. */
#include "util/format.h"
#include "catalog/catalog.h"
#include "model.h"
#include "algid/algid.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- grouping the series into collectives, sizes and algorithms ---- */

typedef struct {
    int coll_rank, alg_rank, p, variant;
    long long msize;
    int lpos;
    const mg_series *s;
} gkey;

static int cmp_gkey(const void *pa, const void *pb) {
    const gkey *a = pa, *b = pb;
    if (a->coll_rank != b->coll_rank) return a->coll_rank < b->coll_rank ? -1 : 1;
    if (a->p != b->p) return a->p > b->p ? -1 : 1; /* the largest communicator first */
    if (a->variant != b->variant) return a->variant < b->variant ? -1 : 1;
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

int mg_an_group(mg_analysis *a, int barrier_name) {
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
        keys[nk++] =
            (gkey){rank[s->coll], rank[s->alg], s->p, s->variant, s->msize, lpos[s->launch], s};
    }
    qsort(keys, nk, sizeof *keys, cmp_gkey);
    /* count, then fill */
    for (size_t i = 0; i < nk;) {
        size_t j = i;
        while (j < nk && keys[j].coll_rank == keys[i].coll_rank && keys[j].p == keys[i].p &&
               keys[j].variant == keys[i].variant)
            j++;
        mg_coll_result *c = realloc(a->colls, (size_t)(a->ncolls + 1) * sizeof *c);
        if (!c) goto out;
        a->colls = c;
        c = &a->colls[a->ncolls++];
        memset(c, 0, sizeof *c);
        c->name = keys[i].s->coll;
        c->p_key = c->nprocs = keys[i].p;
        c->variant = keys[i].s->variant;
        c->file = keys[i].s->file;
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
            pt->def = pt->best = pt->best_lib = pt->profile = -1;
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
                cell->library = mg_libalg_name_coll(ds->names[cell->alg]) >= 0;
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

int mg_an_fill_cell(mg_analysis *a, mg_cell *c) {
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
        lm[k++] = mg_an_median_sorted(s->v, s->n);
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
    c->median = mg_an_median_of(lm, k);
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
