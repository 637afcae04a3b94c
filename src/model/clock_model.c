/* Clock-model fitting and composition (see bench_clock.h). */
#include "clock_model.h"
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

void mg_clock_fit_points(const double *x, const double *y, int n, mg_clock_fit *f) {
    double mx = 0.0, my = 0.0;
    for (int i = 0; i < n; i++) mx += x[i], my += y[i];
    mx /= n;
    my /= n;
    double sxx = 0.0, sxy = 0.0;
    for (int i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    double b = sxx > 0.0 ? sxy / sxx : 0.0;
    double rss = 0.0;
    for (int i = 0; i < n; i++) {
        double r = y[i] - (my + b * (x[i] - mx));
        rss += r * r;
    }
    f->slope_se = (n > 2 && sxx > 0.0) ? sqrt(rss / (n - 2) / sxx) : INFINITY;
    f->drift = n >= 3 && sxx > 0.0 && fabs(b) > 3.0 * f->slope_se;
    if (!f->drift) {
        b = 0.0;
        rss = 0.0;
        for (int i = 0; i < n; i++) rss += (y[i] - my) * (y[i] - my);
    }
    f->m.x0 = mx;
    f->m.a = my;
    f->m.b = b;
    f->rms = n > 0 ? sqrt(rss / n) : 0.0;
}
