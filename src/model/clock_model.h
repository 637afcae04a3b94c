/* Clock model of one rank against rank 0 (offset and drift, fitted to ping-pong points as in
 * the HCA family of Hunold and Carpen-Amarie), its composition along a tree, and the fit. Pure:
 * the MPI side collects the ping-pong timestamps. */
#ifndef MG_BENCH_CLOCK_H
#define MG_BENCH_CLOCK_H

/* The largest drift a fit may keep (docs/benchmark.md "Clock synchronisation"): 100 ppm. Quartz
 * clocks drift by a few ppm and NTP slews by at most 500 ppm for short periods; ranks of one node
 * read the same clock (drift 0). A larger fitted drift is noise the fit mistook for a slope (a
 * descheduled ping-pong turned into a 0.8 % drift), and extrapolating it puts a rank
 * seconds away from the others within minutes. */
#define MG_CLOCK_DRIFT_MAX 1e-4

/* At most this many fit points enter the line: the ones with the smallest round trips. */
#define MG_CLOCK_FIT_KEEP 64

/* Reference time of local time t: t + a + b (t - x0). Identity: a = b = 0. */
typedef struct mg_clock_model {
    double x0, a, b;
} mg_clock_model;

typedef struct mg_clock_fit {
    mg_clock_model m;
    double rms;      /* root mean square of the kept points' residuals (seconds) */
    double slope_se; /* robust standard error of the drift estimate */
    int drift;       /* 1 when the drift was significant, within bounds, and is in the model */
    int rejected;    /* 1 when a significant drift beyond MG_CLOCK_DRIFT_MAX was left out */
    double fitted_b; /* the drift the points gave, also when it was left out */
    int used;        /* points the line went through (those with the smallest round trips) */
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

/* The line through the offsets y at local times x (n >= 1), rtt[i] being point i's round trip.
 * A point's offset is off by at most half its round trip, so only the points with the smallest
 * round trips enter (the faster half, at least 3 and at most MG_CLOCK_FIT_KEEP): a descheduled
 * ping-pong (milliseconds) never does. Through those, the Theil-Sen line (median of the pairwise
 * slopes, median intercept), which a few remaining outliers cannot tilt. The drift is kept only
 * when it is significant (|b| > 3 robust standard errors) and at most MG_CLOCK_DRIFT_MAX;
 * otherwise the model is the median offset (rejected = 1 when it was significant but too
 * large). No allocation. */
void mg_clock_fit_points(const double *x, const double *y, const double *rtt, int n,
                         mg_clock_fit *f);

#endif
