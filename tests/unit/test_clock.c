/* The clock model: fitted to synthetic ping-pong timestamps with injected offsets, drifts and
 * delays it must recover them; composition along the tree must equal applying both models. */
#include "check.h"
#include "model/clock_model.h"
#include <math.h>
#include <stdint.h>

/* Deterministic noise in [0, 1). */
static double noise(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* Builds fit points for a client whose clock reads t_ref = t + off + drift (t - x0): every
 * exchange has a symmetric base delay plus random extra delay on either leg; the fastest
 * exchange per point is nearly symmetric. */
static void synth(double off, double drift, double span, int points, int exchanges, double jitter,
                  double *x, double *y, uint64_t seed) {
    uint64_t s = seed;
    for (int f = 0; f < points; f++) {
        double t1v[64], trv[64], t2v[64];
        for (int e = 0; e < exchanges; e++) {
            double t1 = 1000.0 + span * f / (points - 1) + e * 1e-5; /* client clock */
            double go = 1e-6 + jitter * noise(&s), back = 1e-6 + jitter * noise(&s);
            double at_ref = t1 + go; /* client time when the ping arrives */
            t1v[e] = t1;
            trv[e] = at_ref + off + drift * (at_ref - 1000.0);
            t2v[e] = at_ref + back;
        }
        mg_clock_point(t1v, trv, t2v, exchanges, &x[f], &y[f]);
    }
}

static void test_fit(void) {
    static const struct {
        double off, drift, span, jitter, tol_off;
        int want_drift;
    } cases[] = {
        {1e-3, 0.0, 0.01, 2e-7, 5e-8, 0},   /* offset only */
        {-0.25, 0.0, 0.01, 2e-7, 5e-8, 0},  /* large negative offset */
        {2e-3, 1e-5, 1.0, 1e-7, 5e-8, 1},   /* 10 ppm drift over a second */
        {0.0, -5e-6, 2.0, 1e-7, 5e-8, 1},   /* negative drift */
        {5e-4, 1e-9, 0.001, 5e-7, 3e-7, 0}, /* drift invisible over a short span: dropped */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double x[40], y[40];
        synth(cases[i].off, cases[i].drift, cases[i].span, 40, 20, cases[i].jitter, x, y, 7 + i);
        mg_clock_fit f;
        mg_clock_fit_points(x, y, 40, &f);
        /* compare the model's reference time with the truth over the fitted span */
        double worst = 0.0;
        for (int k = 0; k <= 10; k++) {
            double t = 1000.0 + cases[i].span * k / 10.0;
            double truth = t + cases[i].off + cases[i].drift * (t - 1000.0);
            double err = fabs(mg_clock_apply(&f.m, t) - truth);
            if (err > worst) worst = err;
        }
        CHECK(worst < cases[i].tol_off, "case %zu (off %g drift %g): error %.3g", i, cases[i].off,
              cases[i].drift, worst);
        CHECK(f.drift == cases[i].want_drift, "case %zu: drift used %d, want %d (b=%g se=%g)", i,
              f.drift, cases[i].want_drift, f.m.b, f.slope_se);
        if (cases[i].want_drift)
            CHECK(fabs(f.m.b - cases[i].drift) < 1e-7, "case %zu: drift %g, want %g", i, f.m.b,
                  cases[i].drift);
        CHECK(f.rms < 1e-6, "case %zu: residual %g", i, f.rms);
    }
}

static void test_point(void) {
    double t1[] = {0.0, 10.0, 20.0}, t2[] = {1.0, 10.2, 21.0}, tr[] = {5.0, 15.05, 25.0};
    double x, y, rtt = mg_clock_point(t1, tr, t2, 3, &x, &y);
    CHECK(fabs(rtt - 0.2) < 1e-12 && fabs(x - 10.1) < 1e-12 && fabs(y - 4.95) < 1e-12,
          "fastest exchange: rtt %g x %g y %g", rtt, x, y);
}

static void test_compose(void) {
    mg_clock_model c = {100.0, 0.5, 2e-5}, p = {90.0, -0.2, -1e-5}, id = {0, 0, 0};
    mg_clock_model r = mg_clock_compose(&c, &p);
    for (double t = 50.0; t < 200.0; t += 37.0) {
        double want = mg_clock_apply(&p, mg_clock_apply(&c, t));
        CHECK(fabs(mg_clock_apply(&r, t) - want) < 1e-9, "compose at %g: %.12f vs %.12f", t,
              mg_clock_apply(&r, t), want);
    }
    mg_clock_model a = mg_clock_compose(&c, &id), b = mg_clock_compose(&id, &c);
    CHECK(fabs(mg_clock_apply(&a, 123.0) - mg_clock_apply(&c, 123.0)) < 1e-12 &&
              fabs(mg_clock_apply(&b, 123.0) - mg_clock_apply(&c, 123.0)) < 1e-12,
          "identity");
}

int main(void) {
    test_fit();
    test_point();
    test_compose();
    return DONE();
}
