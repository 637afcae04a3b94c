/* Clock-model fitting and composition (see clock_model.h). */
#include "clock_model.h"
#include "stats/stats.h"
#include <math.h>

/* p(c(t)) = c(t) + a2 + b2 (c(t) - x2), c(t) = t + a1 + b1 (t - x1); with d = t - x1 this is
 * t + [a1 + a2 + b2 (x1 + a1 - x2)] + d [b1 + b2 + b1 b2]. */
mg_clock_model mg_clock_compose(const mg_clock_model *c, const mg_clock_model *p) {
    mg_clock_model r;
    r.x0 = c->x0;
    r.a = c->a + p->a + p->b * (c->x0 + c->a - p->x0);
    r.b = c->b + p->b + c->b * p->b;
    return r;
}

double mg_clock_point(const double *t1, const double *tr, const double *t2, int n, double *x,
                      double *y) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (t2[i] - t1[i] < t2[best] - t1[best]) best = i;
    *x = (t1[best] + t2[best]) / 2.0;
    *y = tr[best] - *x;
    return t2[best] - t1[best];
}

/* The indexes of the k points with the smallest round trips, in keep[0..k) (ties: the earlier
 * point), by insertion into a sorted list: k is at most MG_CLOCK_FIT_KEEP. */
static void fastest(const double *rtt, int n, int k, int *keep) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m == k && !(rtt[i] < rtt[keep[m - 1]])) continue;
        int at = m < k ? m++ : m - 1;
        while (at > 0 && rtt[i] < rtt[keep[at - 1]]) {
            keep[at] = keep[at - 1];
            at--;
        }
        keep[at] = i;
    }
}

void mg_clock_fit_points(const double *x, const double *y, const double *rtt, int n,
                         mg_clock_fit *f) {
    if (n < 1) {
        *f = (mg_clock_fit){{0.0, 0.0, 0.0}, 0.0, INFINITY, 0, 0, 0.0, 0};
        return;
    }
    int keep[MG_CLOCK_FIT_KEEP];
    int k = (n + 1) / 2;
    if (k < 3) k = n < 3 ? n : 3;
    if (k > MG_CLOCK_FIT_KEEP) k = MG_CLOCK_FIT_KEEP;
    fastest(rtt, n, k, keep);
    double mx = 0.0;
    for (int i = 0; i < k; i++) mx += x[keep[i]];
    mx /= k;
    /* Theil-Sen: the median of the slopes between kept points at different times */
    double work[MG_CLOCK_FIT_KEEP * (MG_CLOCK_FIT_KEEP - 1) / 2]; /* 16 KB */
    size_t ns = 0;
    double sxx = 0.0;
    for (int i = 0; i < k; i++) {
        double xi = x[keep[i]];
        sxx += (xi - mx) * (xi - mx);
        for (int j = i + 1; j < k; j++)
            if (x[keep[j]] != xi) work[ns++] = (y[keep[j]] - y[keep[i]]) / (x[keep[j]] - xi);
    }
    double b = ns ? mg_median_inplace(work, ns) : 0.0;
    /* intercept and residual scale for that slope; then the same without a slope */
    for (int i = 0; i < k; i++) work[i] = y[keep[i]] - b * (x[keep[i]] - mx);
    double a = mg_median_inplace(work, (size_t)k);
    for (int i = 0; i < k; i++) work[i] = fabs(y[keep[i]] - a - b * (x[keep[i]] - mx));
    /* 1.4826 MAD estimates a normal sigma; the floor (the timer's resolution) keeps an exact
     * line from giving a zero error */
    double sigma = 1.4826 * mg_median_inplace(work, (size_t)k);
    if (sigma < 1e-9) sigma = 1e-9;
    f->fitted_b = b;
    f->slope_se = k >= 3 && sxx > 0.0 ? sigma / sqrt(sxx) : INFINITY;
    int significant = k >= 3 && sxx > 0.0 && fabs(b) > 3.0 * f->slope_se;
    f->rejected = significant && fabs(b) > MG_CLOCK_DRIFT_MAX;
    f->drift = significant && !f->rejected;
    if (!f->drift) {
        b = 0.0;
        for (int i = 0; i < k; i++) work[i] = y[keep[i]];
        a = mg_median_inplace(work, (size_t)k);
    }
    double rss = 0.0;
    for (int i = 0; i < k; i++) {
        double r = y[keep[i]] - a - b * (x[keep[i]] - mx);
        rss += r * r;
    }
    f->m.x0 = mx;
    f->m.a = a;
    f->m.b = b;
    f->rms = k > 0 ? sqrt(rss / k) : 0.0;
    f->used = k;
}
