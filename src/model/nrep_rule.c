/* NREP stop rules (RSE, COV of running means and medians) and the HPC Asia estimate. Every rule
 * is a pure function of the observation sequence, so tests can feed synthetic sequences with
 * known answers; the MPI driver (nrep_run.c) only runs observations and broadcasts. */
#include "nrep_rule.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_nrep_method_names[MG_NREP_NMETHODS] = {"rse", "cov_mean", "cov_median"};

void mg_nrep_rule_default(mg_nrep_rule *r) {
    memset(r, 0, sizeof *r);
    r->methods = 1u << MG_NREP_RSE;
    r->thres[MG_NREP_RSE] = 0.025;
    r->thres[MG_NREP_COV_MEAN] = 0.01;
    r->thres[MG_NREP_COV_MEDIAN] = 0.01;
    r->win[MG_NREP_COV_MEAN] = 20;
    r->win[MG_NREP_COV_MEDIAN] = 20;
    r->min = 20;
    r->max = 1000;
    r->step = 10;
}

/* ---- statistics of a sequence ---- */
static void mean_sd(const double *v, size_t n, double *mean, double *sd) {
    double m = 0.0, m2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = v[i] - m;
        m += d / (double)(i + 1);
        m2 += d * (v[i] - m);
    }
    *mean = m;
    *sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : NAN;
}

static double ratio(double num, double den) {
    if (num == 0.0) return 0.0;
    return den > 0.0 ? num / den : INFINITY;
}

double mg_nrep_rse_of(const double *v, size_t n) {
    if (n < 2) return INFINITY;
    double m, sd;
    mean_sd(v, n, &m, &sd);
    return ratio(sd / sqrt((double)n), m);
}

double mg_nrep_cov_of(const double *v, size_t n) {
    if (n < 2) return INFINITY;
    double m, sd;
    mean_sd(v, n, &m, &sd);
    return ratio(sd, m);
}

/* ---- heaps of the running median ---- */
static void heap_push(double *h, int64_t *n, double x, int max_heap) {
    int64_t i = (*n)++;
    h[i] = x;
    while (i > 0) {
        int64_t parent = (i - 1) / 2;
        int swap = max_heap ? h[parent] < h[i] : h[parent] > h[i];
        if (!swap) break;
        double t = h[parent];
        h[parent] = h[i];
        h[i] = t;
        i = parent;
    }
}

static double heap_pop(double *h, int64_t *n, int max_heap) {
    double top = h[0];
    h[0] = h[--(*n)];
    int64_t i = 0;
    for (;;) {
        int64_t l = 2 * i + 1, r = l + 1, best = i;
        if (l < *n && (max_heap ? h[l] > h[best] : h[l] < h[best])) best = l;
        if (r < *n && (max_heap ? h[r] > h[best] : h[r] < h[best])) best = r;
        if (best == i) break;
        double t = h[best];
        h[best] = h[i];
        h[i] = t;
        i = best;
    }
    return top;
}

double mg_nrep_median(const mg_nrep_state *s) {
    if (s->n == 0) return NAN;
    return s->nlo > s->nhi ? s->lo[0] : (s->lo[0] + s->hi[0]) / 2.0;
}

int mg_nrep_begin(mg_nrep_state *s, const mg_nrep_rule *r) {
    memset(s, 0, sizeof *s);
    s->r = *r;
    if (s->r.min < 1) s->r.min = 1;
    if (s->r.max < s->r.min) s->r.max = s->r.min;
    if (s->r.step < 1) s->r.step = 1;
    for (int m = 0; m < MG_NREP_NMETHODS; m++)
        if (s->r.win[m] < 2) s->r.win[m] = 2;
    size_t cap = (size_t)s->r.max + 1;
    s->lo = malloc(sizeof(double) * cap);
    s->hi = malloc(sizeof(double) * cap);
    s->means = malloc(sizeof(double) * (size_t)s->r.win[MG_NREP_COV_MEAN]);
    s->medians = malloc(sizeof(double) * (size_t)s->r.win[MG_NREP_COV_MEDIAN]);
    s->rse = s->cov_mean = s->cov_median = NAN;
    if (!s->lo || !s->hi || !s->means || !s->medians) {
        mg_nrep_end(s);
        return -1;
    }
    return 0;
}

void mg_nrep_end(mg_nrep_state *s) {
    free(s->lo);
    free(s->hi);
    free(s->means);
    free(s->medians);
    s->lo = s->hi = s->means = s->medians = NULL;
}

int mg_nrep_add(mg_nrep_state *s, double x) {
    /* running mean and variance */
    s->n++;
    double d = x - s->mean;
    s->mean += d / (double)s->n;
    s->m2 += d * (x - s->mean);
    /* running median */
    if (s->nlo == 0 || x <= s->lo[0])
        heap_push(s->lo, &s->nlo, x, 1);
    else
        heap_push(s->hi, &s->nhi, x, 0);
    if (s->nlo > s->nhi + 1)
        heap_push(s->hi, &s->nhi, heap_pop(s->lo, &s->nlo, 1), 0);
    else if (s->nhi > s->nlo)
        heap_push(s->lo, &s->nlo, heap_pop(s->hi, &s->nhi, 0), 1);
    int wm = s->r.win[MG_NREP_COV_MEAN], wd = s->r.win[MG_NREP_COV_MEDIAN];
    s->means[(s->n - 1) % wm] = s->mean;
    s->medians[(s->n - 1) % wd] = mg_nrep_median(s);

    double sd = s->n > 1 ? sqrt(s->m2 / (double)(s->n - 1)) : NAN;
    s->rse = s->n > 1 ? ratio(sd / sqrt((double)s->n), s->mean) : INFINITY;
    s->cov_mean = s->n >= wm ? mg_nrep_cov_of(s->means, (size_t)wm) : INFINITY;
    s->cov_median = s->n >= wd ? mg_nrep_cov_of(s->medians, (size_t)wd) : INFINITY;

    if (s->n >= s->r.max) return s->done = 1;
    if (s->n < s->r.min || (s->n - s->r.min) % s->r.step) return 0;
    const double value[MG_NREP_NMETHODS] = {s->rse, s->cov_mean, s->cov_median};
    for (int m = 0; m < MG_NREP_NMETHODS; m++)
        if ((s->r.methods & (1u << m)) && !(value[m] < s->r.thres[m])) return 0;
    return s->done = 1;
}

/* ---- HPC Asia 2018 ---- */
int mg_nrep_asia_second_batch(const double *v, size_t b1, double thres) {
    return !(mg_nrep_rse_of(v, b1) < thres);
}

int64_t mg_nrep_asia(double t1, double l, int64_t k, int64_t max) {
    int64_t n;
    if (!(l > 0.0)) {
        n = max > 0 ? max : k;
    } else {
        double q = ceil(t1 / l);
        n = q >= 9.0e18 ? INT64_MAX : (int64_t)q;
    }
    if (n < k) n = k;
    if (max > 0 && n > max) n = max;
    return n;
}
