/* The statistics beyond the R fixtures: exact distributions against brute-force enumeration
 * of every assignment, selection against sorting, edge cases (constant and tied samples,
 * tiny samples, NaN p-values), and the level of each test under the null hypothesis. */
#include "check.h"
#include "stats/stats.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 12345;
static double unif(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

/* Every way of choosing which nx of the pooled values belong to x: P(statistic <= or >= obs)
 * by enumeration, for the Wilcoxon W and the KS D+. */
static void enumerate(const double *pool, int n, int nx, double w_obs, double d_obs,
                      double *p_w_less, double *p_d) {
    long total = 0, w_le = 0, d_ge = 0;
    for (uint32_t mask = 0; mask < (1u << n); mask++) {
        if (__builtin_popcount(mask) != nx) continue;
        double x[16], y[16];
        int a = 0, b = 0;
        for (int i = 0; i < n; i++) {
            if (mask >> i & 1)
                x[a++] = pool[i];
            else
                y[b++] = pool[i];
        }
        mg_test_result r;
        mg_wilcox_test(x, (size_t)a, y, (size_t)b, MG_LESS, MG_EXACT_NEVER, &r);
        double w = r.statistic;
        mg_ks_test(x, (size_t)a, y, (size_t)b, MG_LESS, MG_EXACT_NEVER, &r);
        total++;
        w_le += w <= w_obs + 1e-9;
        d_ge += r.statistic >= d_obs - 1e-12;
    }
    *p_w_less = (double)w_le / (double)total;
    *p_d = (double)d_ge / (double)total;
}

static void exact_against_enumeration(void) {
    for (int trial = 0; trial < 60; trial++) {
        int nx = 1 + (int)(unif() * 6), ny = 1 + (int)(unif() * 6);
        int n = nx + ny, ties = trial % 2;
        double pool[16];
        for (int i = 0; i < n; i++) pool[i] = ties ? floor(unif() * 4) : unif();
        mg_test_result rw, rk;
        mg_wilcox_test(pool, (size_t)nx, pool + nx, (size_t)ny, MG_LESS, MG_EXACT_AUTO, &rw);
        mg_ks_test(pool, (size_t)nx, pool + nx, (size_t)ny, MG_LESS, MG_EXACT_AUTO, &rk);
        double pw, pd;
        enumerate(pool, n, nx, rw.statistic, rk.statistic, &pw, &pd);
        if (!rw.ties)
            CHECK(rw.exact && fabs(rw.p - pw) < 1e-12,
                  "trial %d (%d, %d): Wilcoxon exact p %.15g, enumeration %.15g", trial, nx, ny,
                  rw.p, pw);
        /* KS exact conditions on the tie pattern, which enumeration of positions keeps */
        CHECK(rk.exact && fabs(rk.p - pd) < 1e-12,
              "trial %d (%d, %d, ties %d): KS exact p %.15g, enumeration %.15g", trial, nx, ny,
              ties, rk.p, pd);
    }
    /* pwilcox sums to one and is symmetric */
    for (size_t m = 1; m <= 12; m++)
        for (size_t k = 1; k <= 12; k++) {
            double top = (double)(m * k);
            CHECK(mg_pwilcox(top, m, k) == 1 && mg_pwilcox(-1, m, k) == 0, "pwilcox bounds");
            for (double u = 0; u < top; u++)
                CHECK(fabs(mg_pwilcox(u, m, k) - (1 - mg_pwilcox(top - u - 1, m, k))) < 1e-13,
                      "pwilcox symmetry m %zu n %zu u %g", m, k, u);
        }
}

static void selection(void) {
    for (int trial = 0; trial < 300; trial++) {
        size_t n = 1 + (size_t)(unif() * 200);
        double *v = malloc(n * sizeof *v), *s = malloc(n * sizeof *s);
        int levels = trial % 3 == 0 ? 3 : 1000000;
        for (size_t i = 0; i < n; i++) v[i] = s[i] = floor(unif() * levels);
        mg_sort(s, n);
        double want = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        double got = mg_median_inplace(v, n);
        CHECK(got == want, "trial %d n %zu: median %g, sorted gives %g", trial, n, got, want);
        free(v);
        free(s);
    }
    CHECK(isnan(mg_median_inplace(NULL, 0)), "median of nothing");
}

static void edge_cases(void) {
    double c1[] = {2, 2, 2}, c2[] = {3, 3, 3, 3}, one[] = {1};
    mg_test_result r;
    /* R: t.test(c(2,2,2), c(3,3,3,3)) stops with "data are essentially constant" */
    for (int welch = 0; welch < 2; welch++) {
        CHECK(mg_t_test(c1, 3, c2, 4, welch, MG_LESS, &r) == MG_TEST_UNDEFINED &&
                  isnan(r.statistic) && isnan(r.p),
              "constant samples, welch %d: undefined, not t %g p %g", welch, r.statistic, r.p);
        CHECK(mg_t_test(c2, 4, c1, 3, welch, MG_LESS, &r) == MG_TEST_UNDEFINED && isnan(r.p),
              "constant, other way (welch %d)", welch);
        CHECK(mg_t_test(c1, 3, c1, 3, welch, MG_TWO_SIDED, &r) == MG_TEST_UNDEFINED,
              "equal constant samples (welch %d)", welch);
    }
    /* essentially constant as R judges it: variance far below the means' rounding */
    double e1[] = {1e6, 1e6, 1e6 + 1e-9}, e2[] = {2e6, 2e6 + 1e-9, 2e6};
    CHECK(mg_t_test(e1, 3, e2, 3, 1, MG_LESS, &r) == MG_TEST_UNDEFINED, "essentially constant");
    double v1[] = {1, 2, 3}, v2[] = {5, 5, 5};
    CHECK(mg_t_test(v1, 3, v2, 3, 1, MG_LESS, &r) == 0 && r.p < 0.05 && isfinite(r.statistic),
          "one constant sample is fine: t %g p %g", r.statistic, r.p);
    /* NaN: an error, never an endless merge (each would loop forever before) */
    double n1[] = {1, NAN, 3}, n2[] = {2, 4, 6};
    CHECK(mg_wilcox_test(n1, 3, n2, 3, MG_LESS, MG_EXACT_AUTO, &r) == -1 && isnan(r.p),
          "NaN in x (Wilcoxon)");
    CHECK(mg_wilcox_test(n2, 3, n1, 3, MG_LESS, MG_EXACT_NEVER, &r) == -1, "NaN in y (Wilcoxon)");
    CHECK(mg_ks_test(n1, 3, n2, 3, MG_TWO_SIDED, MG_EXACT_AUTO, &r) == -1 && isnan(r.p),
          "NaN in x (KS)");
    CHECK(mg_ks_test(n2, 3, n1, 3, MG_LESS, MG_EXACT_NEVER, &r) == -1, "NaN in y (KS)");
    double sn[] = {1, 3, NAN}; /* a sorted caller's NaN, last */
    CHECK(mg_wilcox_test_sorted(sn, 3, n2, 3, MG_LESS, MG_EXACT_AUTO, &r) == -1,
          "NaN (Wilcoxon, sorted entry)");
    CHECK(mg_ks_test_sorted(n2, 3, sn, 3, MG_LESS, MG_EXACT_AUTO, &r) == -1,
          "NaN (KS, sorted entry)");
    CHECK(mg_t_test(n1, 3, n2, 3, 1, MG_LESS, &r) == -1, "NaN (t-test)");
    CHECK(mg_t_test(one, 1, c2, 4, 1, MG_LESS, &r) == -1, "Welch needs two observations");
    CHECK(mg_t_test(one, 1, (double[]){1, 2, 4}, 3, 0, MG_LESS, &r) == 0 && !isnan(r.p),
          "pooled works with one observation in x");
    CHECK(mg_wilcox_test(c1, 3, c1, 3, MG_LESS, MG_EXACT_AUTO, &r) == 0 && r.p == 1 && r.ties,
          "all values tied: p 1");
    CHECK(mg_wilcox_test(c1, 3, c1, 3, MG_TWO_SIDED, MG_EXACT_AUTO, &r) == 0 && r.p == 1,
          "all tied, two-sided");
    CHECK(mg_ks_test(c1, 3, c1, 3, MG_TWO_SIDED, MG_EXACT_AUTO, &r) == 0 && r.statistic == 0 &&
              r.p == 1,
          "identical samples: D 0, p 1");
    CHECK(mg_wilcox_test(c1, 0, c2, 4, MG_LESS, MG_EXACT_AUTO, &r) == -1, "empty sample");
    CHECK(mg_ks_test(c1, 3, c2, 0, MG_LESS, MG_EXACT_AUTO, &r) == -1, "empty sample (KS)");
    double p[] = {0.01, NAN, 0.04, 0.03}, adj[4];
    mg_p_adjust(p, 4, MG_CORR_HOLM, adj);
    CHECK(isnan(adj[1]) && fabs(adj[0] - 0.03) < 1e-15 && fabs(adj[3] - 0.06) < 1e-15 &&
              fabs(adj[2] - 0.06) < 1e-15,
          "Holm leaves NaN out of m: %g %g %g", adj[0], adj[2], adj[3]);
    mg_p_adjust(p, 4, MG_CORR_BH, p); /* in place */
    CHECK(isnan(p[1]) && fabs(p[0] - 0.03) < 1e-15 && fabs(p[2] - 0.04) < 1e-15,
          "BH in place: %g %g %g", p[0], p[2], p[3]);
    CHECK(mg_correction_parse("holm") == MG_CORR_HOLM && mg_correction_parse("BH") == MG_CORR_BH &&
              mg_correction_parse("x") == -1,
          "correction names");
    mg_median_ci ci;
    double five[] = {1, 2, 3, 4, 5};
    mg_median_ci_sorted(five, 5, 0.95, &ci);
    CHECK(ci.k == 1 && ci.lo == 1 && ci.hi == 5 && fabs(ci.coverage - 0.9375) < 1e-12,
          "n = 5 at 95 %%: the range, coverage 15/16 (k %zu)", ci.k);
    mg_summary s;
    mg_summarize(NULL, 0, &s);
    CHECK(s.n == 0 && isnan(s.median) && isnan(s.mean), "summary of nothing");
}

/* Under the null hypothesis each test rejects at about its level (one-sided 5 %). */
static void level(void) {
    const int reps = 2000;
    int rej[4] = {0};
    double x[20], y[25];
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < 20; i++)
            x[i] = exp(0.3 * sqrt(-2 * log(unif())) * cos(6.2831853 * unif()));
        for (int i = 0; i < 25; i++)
            y[i] = exp(0.3 * sqrt(-2 * log(unif())) * cos(6.2831853 * unif()));
        mg_test_result t;
        mg_t_test(x, 20, y, 25, 1, MG_LESS, &t);
        rej[0] += t.p < 0.05;
        mg_wilcox_test(x, 20, y, 25, MG_LESS, MG_EXACT_AUTO, &t);
        rej[1] += t.p < 0.05;
        mg_wilcox_test(x, 20, y, 25, MG_LESS, MG_EXACT_NEVER, &t);
        rej[2] += t.p < 0.05;
        mg_ks_test(x, 20, y, 25, MG_LESS, MG_EXACT_AUTO, &t);
        rej[3] += t.p < 0.05;
    }
    static const char *names[] = {"Welch t", "Wilcoxon exact", "Wilcoxon normal", "KS exact"};
    for (int k = 0; k < 4; k++) {
        double rate = (double)rej[k] / reps;
        /* binomial sd at 5 % over 2000 is 0.5 %; discrete tests are conservative */
        CHECK(rate > 0.025 && rate < 0.07, "%s: rejection rate under the null %g", names[k], rate);
    }
}

/* Round r of a stepped machine: every observation of the round takes base * step(r). */
static double step(int r) {
    return r % 4 < 2 ? 1.0 : 2.0;
}

/* The paired batch ratio (stats/paired.c) follows the rounds, the ratio of medians does not. */
static void paired(void) {
    enum { B = 10, R = 40 };
    mg_indexed x[B * R], y[B * R];
    /* x and y equal in every round; x's slow rounds are the ones where y has flagged
     * observations left out, so the two samples' medians land in different steps */
    size_t nx = 0, ny = 0;
    for (int r = 0; r < R; r++)
        for (int i = 0; i < B; i++) {
            long long idx = (long long)r * B + i;
            x[nx++] = (mg_indexed){0, idx, 1e-5 * step(r)};
            if (step(r) == 1.0 || i < 3) y[ny++] = (mg_indexed){0, idx, 1e-5 * step(r)};
        }
    double r;
    size_t k = mg_paired_batch_ratio(x, nx, y, ny, B, &r);
    CHECK(k == R, "all %d rounds paired, got %zu", R, k);
    CHECK(fabs(r - 1) < 1e-12, "equal in every round: ratio %.15g", r);
    double vx[B * R], vy[B * R];
    for (size_t i = 0; i < nx; i++) vx[i] = x[i].v;
    for (size_t i = 0; i < ny; i++) vy[i] = y[i].v;
    double naive = mg_median_inplace(vx, nx) / mg_median_inplace(vy, ny);
    CHECK(naive > 1.4, "the setting fools the ratio of medians (%g)", naive);

    /* a constant factor is found; order of the arrays does not matter */
    for (size_t i = 0; i < ny; i++) y[i].v *= 0.5;
    for (size_t i = 0; i < ny / 2; i++) {
        mg_indexed t = y[i];
        y[i] = y[ny - 1 - i];
        y[ny - 1 - i] = t;
    }
    k = mg_paired_batch_ratio(x, nx, y, ny, B, &r);
    CHECK(k == R && fabs(r - 2) < 1e-12, "x twice y: %zu rounds, ratio %.15g", k, r);

    /* rounds only one side has are skipped: y without rounds 0-9 */
    size_t m = 0;
    for (size_t i = 0; i < ny; i++)
        if (y[i].index >= 10 * B) y[m++] = y[i];
    k = mg_paired_batch_ratio(x, nx, y, m, B, &r);
    CHECK(k == R - 10 && fabs(r - 2) < 1e-12, "30 common rounds: %zu, ratio %.15g", k, r);

    /* nothing to pair */
    CHECK(mg_paired_batch_ratio(x, nx, y, 0, B, &r) == 0 && isnan(r), "empty y: %g", r);
    CHECK(mg_paired_batch_ratio(x, nx, y, m, 0, &r) == 0 && isnan(r), "batch 0: %g", r);
    mg_indexed late[1] = {{0, (long long)R * B + 5, 1e-5}};
    CHECK(mg_paired_batch_ratio(x, nx, late, 1, B, &r) == 0 && isnan(r), "no common round: %g", r);
    /* indexes repeated (malformed data): at most one batch per side counts, no overflow */
    mg_indexed rep[3 * B];
    for (int i = 0; i < 3 * B; i++) rep[i] = (mg_indexed){0, 0, 2e-5};
    CHECK(mg_paired_batch_ratio(rep, 3 * B, x, nx, B, &r) == 1 && fabs(r - 2) < 1e-12,
          "repeated index 0: ratio %g", r);
    /* a batch no buffer could hold (a raw file's header says so): one round, no overflow */
    CHECK(mg_paired_batch_ratio(x, nx, x, nx, 1LL << 61, &r) == 1 && fabs(r - 1) < 1e-12,
          "batch 2^61: ratio %g", r);
    /* two parts (raw files) with the same indexes: each pairs with its own; part 1 of y is
     * 4x faster, part 0 as fast, so the rounds read 1 and 4 in equal number */
    mg_indexed px[4 * B], py[4 * B];
    for (int i = 0; i < 4 * B; i++) {
        int part = i / (2 * B);
        px[i] = (mg_indexed){part, i % (2 * B), 4e-5};
        py[i] = (mg_indexed){part, i % (2 * B), part ? 1e-5 : 4e-5};
    }
    k = mg_paired_batch_ratio(px, 4 * B, py, 4 * B, B, &r);
    CHECK(k == 4 && fabs(r - 2.5) < 1e-12, "two parts: %zu rounds, ratio %g (median of 1,1,4,4)", k,
          r);
}

int main(void) {
    paired();
    exact_against_enumeration();
    selection();
    edge_cases();
    level();
    return DONE();
}
