/* Two-sample tests: Student's t (Welch and pooled variance), Wilcoxon rank-sum / Mann-Whitney
 * U with average ranks for ties, and Kolmogorov-Smirnov; definitions as R's t.test,
 * wilcox.test and ks.test so results can be checked against R. */
#include "stats.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void clear(mg_test_result *r) {
    memset(r, 0, sizeof *r);
    r->statistic = r->p = NAN;
}

/* 1 when a sample holds a NaN: it has no rank and no order, and equality tests against it never
 * hold, so the merges below would stop advancing. */
static int has_nan(const double *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (isnan(v[i])) return 1;
    return 0;
}

/* p-value of a statistic with continuous distribution given its two tails */
static double tails_to_p(mg_alternative alt, double lower, double upper) {
    switch (alt) {
    case MG_LESS:
        return lower;
    case MG_GREATER:
        return upper;
    case MG_TWO_SIDED: {
        double p = 2 * (lower < upper ? lower : upper);
        return p > 1 ? 1 : p;
    }
    }
    return NAN;
}

int mg_t_test(const double *x, size_t nx, const double *y, size_t ny, int welch, mg_alternative alt,
              mg_test_result *r) {
    clear(r);
    if (welch ? (nx < 2 || ny < 2) : (nx < 1 || ny < 1 || nx + ny < 3)) return -1;
    if (has_nan(x, nx) || has_nan(y, ny)) return -1;
    double mx = mg_mean(x, nx), my = mg_mean(y, ny);
    double vx = nx > 1 ? mg_variance(x, nx) : 0, vy = ny > 1 ? mg_variance(y, ny) : 0;
    double se, df;
    if (welch) {
        double ax = vx / (double)nx, ay = vy / (double)ny;
        se = sqrt(ax + ay);
        df = (ax + ay) * (ax + ay) / (ax * ax / (double)(nx - 1) + ay * ay / (double)(ny - 1));
    } else {
        df = (double)(nx + ny - 2);
        double v = ((double)(nx - 1) * vx + (double)(ny - 1) * vy) / df;
        se = sqrt(v * (1 / (double)nx + 1 / (double)ny));
    }
    double diff = mx - my;
    r->df = df;
    /* R's t.test stops with "data are essentially constant" here: the standard error vanishes
     * next to the means, and t = +-inf with p = 0 would claim certainty from, say, two runs of
     * identical timings. The statistic and p stay NaN; callers fall back to a rank test. */
    if (se == 0 || se < 10 * DBL_EPSILON * fmax(fabs(mx), fabs(my))) return MG_TEST_UNDEFINED;
    double t = diff / se;
    r->statistic = t;
    r->p = tails_to_p(alt, mg_pt(t, df, 1), mg_pt(t, df, 0));
    return 0;
}

/* ---- Wilcoxon / Mann-Whitney ---- */

/* Coefficients of the Gaussian binomial [m+n choose m]_q: c[u] = number of orderings of m x's
 * and n y's in which U (pairs x_i > y_j) equals u, for u = 0..m n. Built as
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i); after step i the array holds [n+i choose i]_q.
 * Entries are exact while below 2^53; the left tail, which the p-values use, always is. */
static double *wilcox_counts(size_t m, size_t n) {
    size_t top = m * n;
    double *c = calloc(top + 1, sizeof *c);
    if (!c) return NULL;
    c[0] = 1;
    for (size_t i = 1; i <= m; i++) {
        size_t up = n + i, lim = i * n; /* degree after this step */
        for (size_t u = lim; u >= up; u--) c[u] -= c[u - up];
        for (size_t u = i; u <= lim; u++) c[u] += c[u - i];
    }
    return c;
}

static double choose(size_t n, size_t k) {
    if (k > n - k) k = n - k;
    double r = 1;
    for (size_t i = 1; i <= k; i++) r = r * (double)(n - k + i) / (double)i;
    return r;
}

double mg_pwilcox(double u, size_t m, size_t n) {
    if (isnan(u)) return NAN;
    double top = (double)m * (double)n;
    u = floor(u + 1e-7);
    if (u < 0) return 0;
    if (u >= top) return 1;
    if (top > 1e6) return NAN;
    /* use the left tail of the symmetric distribution: P(U <= u) = 1 - P(U <= mn - u - 1) */
    int flip = u > top / 2;
    size_t lim = (size_t)(flip ? top - u - 1 : u);
    double *c = wilcox_counts(m, n);
    if (!c) return NAN;
    double s = 0;
    for (size_t i = 0; i <= lim; i++) s += c[i];
    free(c);
    double p = s / choose(m + n, m);
    return flip ? 1 - p : p;
}

int mg_wilcox_test_sorted(const double *x, size_t nx, const double *y, size_t ny,
                          mg_alternative alt, mg_exactness exact, mg_test_result *r) {
    clear(r);
    if (!nx || !ny || has_nan(x, nx) || has_nan(y, ny)) return -1;
    /* merge: each run of equal values gets the average of the ranks it spans */
    double rank_sum_x = 0, tie_term = 0;
    size_t i = 0, j = 0, rank = 0;
    while (i < nx || j < ny) {
        double v = (j >= ny || (i < nx && x[i] <= y[j])) ? x[i] : y[j];
        size_t cx = 0, cy = 0;
        while (i < nx && x[i] == v) i++, cx++;
        while (j < ny && y[j] == v) j++, cy++;
        double t = (double)(cx + cy);
        double avg = (double)rank + (t + 1) / 2;
        rank += cx + cy;
        rank_sum_x += (double)cx * avg;
        if (cx + cy > 1) tie_term += t * t * t - t;
    }
    double dx = (double)nx, dy = (double)ny, mn = dx * dy;
    double w = rank_sum_x - dx * (dx + 1) / 2;
    r->statistic = w;
    r->ties = tie_term > 0;
    int use_exact = exact == MG_EXACT_ALWAYS || (exact == MG_EXACT_AUTO && nx < 50 && ny < 50);
    if (use_exact && !r->ties && mn <= 1e6) {
        r->exact = 1;
        /* P(U >= w) = P(U <= mn - w) by symmetry keeps small upper tails precise */
        double lower = mg_pwilcox(w, nx, ny), upper = mg_pwilcox(mn - w, nx, ny);
        if (alt == MG_TWO_SIDED) {
            double p = w > mn / 2 ? upper : lower;
            r->p = 2 * p > 1 ? 1 : 2 * p;
        } else {
            r->p = alt == MG_LESS ? lower : upper;
        }
        r->z = (w - mn / 2) / sqrt(mn * (dx + dy + 1) / 12);
        return 0;
    }
    double z = w - mn / 2;
    double sigma = sqrt(mn / 12 * ((dx + dy + 1) - tie_term / ((dx + dy) * (dx + dy - 1))));
    double corr = alt == MG_LESS ? -0.5 : alt == MG_GREATER ? 0.5 : z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
    z = (z - corr) / sigma;
    r->z = z;
    if (isnan(z)) {
        r->p = 1; /* every value tied: no evidence either way */
        return 0;
    }
    r->p = tails_to_p(alt, mg_pnorm(z, 1), mg_pnorm(z, 0));
    return 0;
}

static double *sorted_copy(const double *v, size_t n) {
    double *c = malloc((n ? n : 1) * sizeof *c);
    if (!c) return NULL;
    memcpy(c, v, n * sizeof *c);
    mg_sort(c, n);
    return c;
}

int mg_wilcox_test(const double *x, size_t nx, const double *y, size_t ny, mg_alternative alt,
                   mg_exactness exact, mg_test_result *r) {
    clear(r);
    if (has_nan(x, nx) || has_nan(y, ny)) return -1;
    double *sx = sorted_copy(x, nx), *sy = sorted_copy(y, ny);
    int rc = -1;
    if (sx && sy) rc = mg_wilcox_test_sorted(sx, nx, sy, ny, alt, exact, r);
    free(sx);
    free(sy);
    return rc;
}

/* ---- Kolmogorov-Smirnov ---- */

/* The signed distance of the empirical CDFs after u x's and v y's, scaled by nx ny to stay
 * integral: positive when x is ahead (F_x above F_y, x tends to be smaller). */
static int64_t ks_dist(int64_t u, int64_t v, int64_t nx, int64_t ny, mg_alternative alt) {
    int64_t d = u * ny - v * nx;
    if (alt == MG_GREATER) return -d;
    if (alt == MG_TWO_SIDED) return d < 0 ? -d : d;
    return d;
}

/* P(D >= q) under random assignment of the pooled sample's positions, conditional on its tie
 * pattern: walk the pooled order keeping, for every count u of x's so far, the probability
 * of having stayed below q at every end of a run of equal values. Probabilities (not path
 * counts) keep the numbers in range for any sample size. */
static double ks_exact_upper(const unsigned char *run_end, int64_t nx, int64_t ny, int64_t q,
                             mg_alternative alt) {
    int64_t n = nx + ny;
    double *cur = calloc((size_t)nx + 2, sizeof *cur);
    if (!cur) return NAN;
    cur[0] = 1;
    for (int64_t k = 1; k <= n; k++) {
        int64_t ulo = k - ny > 0 ? k - ny : 0, uhi = k < nx ? k : nx;
        int64_t left = n - (k - 1); /* elements not yet placed before step k */
        /* descending u so cur[u - 1] is still the value of step k - 1 */
        for (int64_t u = uhi; u >= ulo; u--) {
            int64_t v = k - u;
            double from_y = (v >= 1 && u <= k - 1) ? cur[u] * (double)(ny - (v - 1)) / left : 0;
            double from_x = u >= 1 ? cur[u - 1] * (double)(nx - (u - 1)) / left : 0;
            double p = from_y + from_x;
            if (run_end[k - 1] && ks_dist(u, v, nx, ny, alt) >= q) p = 0;
            cur[u] = p;
        }
        if (ulo > 0) cur[ulo - 1] = 0;
    }
    double stay = cur[nx];
    free(cur);
    double p = 1 - stay;
    return p < 0 ? 0 : p;
}

int mg_ks_test_sorted(const double *x, size_t nx, const double *y, size_t ny, mg_alternative alt,
                      mg_exactness exact, mg_test_result *r) {
    clear(r);
    if (!nx || !ny || has_nan(x, nx) || has_nan(y, ny)) return -1;
    size_t n = nx + ny;
    unsigned char *run_end = malloc(n);
    if (!run_end) return -1;
    int64_t best = 0, u = 0, v = 0;
    size_t i = 0, j = 0, k = 0;
    while (i < nx || j < ny) {
        double val = (j >= ny || (i < nx && x[i] <= y[j])) ? x[i] : y[j];
        size_t start = k;
        while (i < nx && x[i] == val) i++, u++, k++;
        while (j < ny && y[j] == val) j++, v++, k++;
        for (size_t l = start; l < k; l++) run_end[l] = 0;
        run_end[k - 1] = 1;
        if (k - start > 1) r->ties = 1;
        int64_t d = ks_dist(u, v, (int64_t)nx, (int64_t)ny, alt);
        if (d > best) best = d;
    }
    double dnx = (double)nx, dny = (double)ny;
    double d = (double)best / (dnx * dny);
    r->statistic = d;
    int use_exact = exact == MG_EXACT_ALWAYS || (exact == MG_EXACT_AUTO && dnx * dny < 10000);
    if (best == 0) {
        r->p = 1;
        r->exact = use_exact;
    } else if (use_exact) {
        r->exact = 1;
        r->p = ks_exact_upper(run_end, (int64_t)nx, (int64_t)ny, best, alt);
    } else {
        double neff = dnx * dny / (dnx + dny);
        r->p = alt == MG_TWO_SIDED ? mg_pkolmogorov_upper(sqrt(neff) * d) : exp(-2 * neff * d * d);
    }
    free(run_end);
    if (r->p > 1) r->p = 1;
    return 0;
}

int mg_ks_test(const double *x, size_t nx, const double *y, size_t ny, mg_alternative alt,
               mg_exactness exact, mg_test_result *r) {
    clear(r);
    if (has_nan(x, nx) || has_nan(y, ny)) return -1;
    double *sx = sorted_copy(x, nx), *sy = sorted_copy(y, ny);
    int rc = -1;
    if (sx && sy) rc = mg_ks_test_sorted(sx, nx, sy, ny, alt, exact, r);
    free(sx);
    free(sy);
    return rc;
}
