/* Summary statistics of `bench --summary` and the distribution-free interval of the median,
 * against values computed by hand (and R: binom.test-style order statistics). */
#include "check.h"
#include "bench/measurement_summary.h"
#include <math.h>

static int close_to(double a, double b) {
    return fabs(a - b) <= 1e-12 * (fabs(b) + 1.0);
}

static void test_index(void) {
    /* n, j (1-based), coverage = 1 - 2 P(B <= j - 1), B ~ Bin(n, 1/2) */
    static const struct {
        size_t n, j;
        double coverage;
    } cases[] = {
        {1, 1, 0.0},
        {5, 1, 1.0 - 2.0 / 32.0},         /* even the range covers only 93.75 % */
        {6, 1, 1.0 - 2.0 / 64.0},         /* the range: 96.875 % */
        {9, 2, 1.0 - 2.0 * 10.0 / 512.0}, /* P(B <= 1) = 10/512 */
        {10, 2, 1.0 - 2.0 * 11.0 / 1024.0},
        {20, 6, 1.0 - 2.0 * 0.020694732666015625}, /* P(B <= 5) for n = 20 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double cov;
        size_t j = mg_bench_median_ci_index(cases[i].n, 0.95, &cov);
        CHECK(j == cases[i].j, "n=%zu: j=%zu, want %zu", cases[i].n, j, cases[i].j);
        CHECK(fabs(cov - cases[i].coverage) < 1e-12, "n=%zu: coverage %.15f, want %.15f",
              cases[i].n, cov, cases[i].coverage);
    }
    /* large n: the interval approaches the normal approximation n/2 -+ 0.98 sqrt(n) */
    double cov;
    size_t j = mg_bench_median_ci_index(1000000, 0.95, &cov);
    CHECK(j > 499000 && j < 499030 && cov >= 0.95 && cov < 0.951, "n=1e6: j=%zu cov=%f", j, cov);
}

static void test_summary(void) {
    double v[] = {5, 1, 4, 2, 3, 9, 7, 8, 6, 10};
    mg_bench_summary s;
    mg_bench_summarize(v, 10, &s);
    CHECK(s.n == 10 && s.min == 1 && s.max == 10, "range");
    CHECK(close_to(s.mean, 5.5) && close_to(s.median, 5.5), "mean %f median %f", s.mean, s.median);
    CHECK(s.ci_j == 2 && s.ci_lo == 2 && s.ci_hi == 9, "ci [%f, %f]", s.ci_lo, s.ci_hi);
    double odd[] = {3, 1, 2};
    mg_bench_summarize(odd, 3, &s);
    CHECK(s.median == 2 && s.ci_lo == 1 && s.ci_hi == 3 && s.ci_coverage < 0.95, "odd n: median %f",
          s.median);
    mg_bench_summarize(odd, 0, &s);
    CHECK(s.n == 0 && isnan(s.median) && isnan(s.ci_lo), "empty");
}

int main(void) {
    test_index();
    test_summary();
    return DONE();
}
