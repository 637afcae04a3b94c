/* Clock model of one rank against rank 0 (offset and drift, fitted to ping-pong points as in
 * the HCA family of Hunold and Carpen-Amarie), its composition along a tree, and the fit. Pure:
 * the MPI side collects the ping-pong timestamps. */
#ifndef MG_BENCH_CLOCK_H
#define MG_BENCH_CLOCK_H

/* Reference time of local time t: t + a + b (t - x0). Identity: a = b = 0. */
typedef struct mg_clock_model {
    double x0, a, b;
} mg_clock_model;

typedef struct mg_clock_fit {
    mg_clock_model m;
    double rms;      /* root mean square of the residuals of the offsets (seconds) */
    double slope_se; /* standard error of the drift estimate */
    int drift;       /* 1 when the drift was significant and is part of the model */
} mg_clock_fit;

static inline double mg_clock_apply(const mg_clock_model *m, double t) {
    return t + m->a + m->b * (t - m->x0);
}

/* The model local -> root from local -> parent (c) and parent -> root (p). */
mg_clock_model mg_clock_compose(const mg_clock_model *c, const mg_clock_model *p);

/* One fit point from n ping-pong exchanges: the client sent at t1 and received at t2 (local
 * clock), the reference stamped tr on its clock in between. The exchange with the smallest
 * round trip gives x = (t1 + t2) / 2 and the offset y = tr - x; returns that round trip. */
double mg_clock_point(const double *t1, const double *tr, const double *t2, int n, double *x,
                      double *y);

/* Least-squares line through the offsets y at local times x (n >= 1). The drift is kept only
 * when it is significant (|b| > 3 standard errors, n >= 3); otherwise the model is the mean
 * offset, because a drift fitted over a short span extrapolates noise. */
void mg_clock_fit_points(const double *x, const double *y, int n, mg_clock_fit *f);

#endif
