/* Distribution functions the tests need: normal, regularised incomplete beta (for Student's t
 * and the binomial), and Kolmogorov's limit distribution. Formulas: Abramowitz & Stegun
 * 26.5.8 (the continued fraction of I_x(a, b)), 26.7.1 (t), 26.5.24 (binomial); Kolmogorov
 * (1933) for the limit law and its Jacobi-theta form for small arguments. */
#include "stats.h"
#include <float.h>
#include <math.h>

#define SQRT2 1.41421356237309504880
#define PI    3.14159265358979323846

double mg_pnorm(double z, int lower_tail) {
    if (isnan(z)) return NAN;
    return 0.5 * erfc((lower_tail ? -z : z) / SQRT2);
}

/* The continued fraction of A&S 26.5.8 by the modified Lentz method; converges quickly for
 * x < (a + 1) / (a + b + 2). */
static double beta_cf(double x, double a, double b) {
    const double tiny = 1e-300, eps = 1e-16;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double f = d;
    for (int m = 1; m < 100000; m++) {
        /* even step: m (b - m) x / ((a + 2m - 1)(a + 2m)) */
        double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        d = 1 + num * d;
        c = 1 + num / c;
        if (fabs(d) < tiny) d = tiny;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        f *= c * d;
        /* odd step: -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
        num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + num * d;
        c = 1 + num / c;
        if (fabs(d) < tiny) d = tiny;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double step = c * d;
        f *= step;
        if (fabs(step - 1) < eps) break;
    }
    return f;
}

/* Stirling's series remainder: lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2), x >= 10,
 * to within 1e-16 (A&S 6.1.41). */
static double stirling_rest(double x) {
    double r = 1 / x, r2 = r * r;
    return r *
           (1.0 / 12 -
            r2 * (1.0 / 360 -
                  r2 * (1.0 / 1260 -
                        r2 * (1.0 / 1680 - r2 * (1.0 / 1188 - r2 * (691.0 / 360360 - r2 / 156))))));
}

/* log B(a, b). Differences of lgamma lose absolute precision once an argument is large (the
 * values grow like a log a); with Stirling's form the large parts cancel analytically. */
static double lbeta(double a, double b) {
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    /* now a <= b */
    if (b < 10) return lgamma(a) + lgamma(b) - lgamma(a + b);
    double s = a + b, corr = stirling_rest(b) - stirling_rest(s);
    if (a < 10) /* lgamma(b) - lgamma(a + b) = (b - 1/2) log(b / s) - a log s + a + corr */
        return lgamma(a) + (b - 0.5) * log1p(-a / s) - a * log(s) + a + corr;
    return 0.5 * log(2 * PI) + (a - 0.5) * log1p(-b / s) + (b - 0.5) * log1p(-a / s) -
           0.5 * log(s) + stirling_rest(a) + corr;
}

double mg_pbeta(double x, double y, double a, double b) {
    if (isnan(x) || isnan(y) || !(a > 0) || !(b > 0)) return NAN;
    if (x <= 0) return 0;
    if (y <= 0) return 1;
    /* x^a y^b / (a B(a, b)) in logs */
    double lfront = a * log(x) + b * log(y) - lbeta(a, b);
    if (x < (a + 1) / (a + b + 2)) return exp(lfront - log(a)) * beta_cf(x, a, b);
    return 1 - exp(lfront - log(b)) * beta_cf(y, b, a);
}

double mg_pt(double t, double df, int lower_tail) {
    if (isnan(t) || !(df > 0)) return NAN;
    if (isinf(t)) return (t < 0) == (lower_tail != 0) ? 1 : 0;
    if (df > 1e10) return mg_pnorm(t, lower_tail);
    /* P(T > |t|) = I_{df/(df+t^2)}(df/2, 1/2) / 2 */
    double t2 = t * t;
    double x = df / (df + t2), y = t2 / (df + t2);
    double tail = 0.5 * mg_pbeta(x, y, df / 2, 0.5);
    int in_tail = lower_tail ? t < 0 : t > 0;
    return in_tail ? tail : 1 - tail;
}

double mg_pbinom(double k, double n, double prob) {
    if (isnan(k) || isnan(n) || isnan(prob)) return NAN;
    k = floor(k + 1e-7);
    if (k < 0) return 0;
    if (k >= n) return 1;
    /* P(X <= k) = I_{1-p}(n - k, k + 1) */
    return mg_pbeta(1 - prob, prob, n - k, k + 1);
}

double mg_pkolmogorov_upper(double lambda) {
    if (isnan(lambda)) return NAN;
    if (lambda <= 0) return 1;
    if (lambda < 1) {
        /* K(l) = sqrt(2 pi) / l * sum_{k odd} exp(-k^2 pi^2 / (8 l^2)) */
        double w = -PI * PI / (8 * lambda * lambda), s = 0;
        for (int k = 1; k < 200; k += 2) {
            double term = exp(k * k * w);
            s += term;
            if (term < DBL_EPSILON * s) break;
        }
        double cdf = sqrt(2 * PI) / lambda * s;
        return cdf >= 1 ? 0 : 1 - cdf;
    }
    /* P(K > l) = 2 sum_{k >= 1} (-1)^(k-1) exp(-2 k^2 l^2) */
    double w = -2 * lambda * lambda, s = 0, sign = 1;
    for (int k = 1; k < 200; k++) {
        double term = exp(w * k * k);
        s += sign * term;
        sign = -sign;
        if (term < DBL_EPSILON * fabs(s) || term == 0) break;
    }
    return 2 * s;
}
