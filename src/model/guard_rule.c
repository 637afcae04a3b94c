/* The guard's rule (see guard_rule.h): sampling schedule, decision, speed-up interval. Pure:
 * no MPI, and no allocation (it runs inside intercepted calls: docs/dev/design.md invariant 4),
 * hence its own sort and the normal approximation of the rank-sum test (the exact one
 * tabulates its distribution on the heap). */
#include "guard_rule.h"
#include "stats/stats.h"
#include <math.h>
#include <string.h>

void mg_guard_init(mg_guard_entry *e) {
    memset(e, 0, sizeof *e);
    e->next = MG_GUARD_FIRST;
    e->period = MG_GUARD_PERIOD;
    e->state = MG_GUARD_CHECKING;
}

/* Shell sort with Ciura's gaps: in place, no allocation, fast enough for a few thousand. */
static void sort_in_place(double *v, int n) {
    static const int gaps[] = {1750, 701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++)
        for (int i = gaps[g]; i < n; i++) {
            double x = v[i];
            int j = i;
            for (; j >= gaps[g] && v[j - gaps[g]] > x; j -= gaps[g]) v[j] = v[j - gaps[g]];
            v[j] = x;
        }
}

static double median_sorted(const double *v, int n) {
    return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : NAN;
}

int mg_guard_record(mg_guard_entry *e, int action, double seconds) {
    if (action == MG_GUARD_TIME_DEFAULT) {
        e->win_d[e->npairs] = seconds;
        e->sampled_default++;
    } else {
        e->win_t[e->npairs] = seconds;
        e->sampled_tuned++;
    }
    if (e->calls == e->next) return 0; /* the pair's first call */
    e->npairs++;
    e->next += e->period;
    return e->npairs == MG_GUARD_WINDOW;
}

void mg_guard_decide(mg_guard_entry *e, double *d, double *t, int n, mg_guard_verdict *v) {
    memset(v, 0, sizeof *v);
    sort_in_place(d, n);
    sort_in_place(t, n);
    mg_test_result r;
    v->p_slower =
        mg_wilcox_test_sorted(t, (size_t)n, d, (size_t)n, MG_GREATER, MG_EXACT_NEVER, &r) == 0
            ? r.p
            : 1.0;
    v->p_faster =
        mg_wilcox_test_sorted(t, (size_t)n, d, (size_t)n, MG_LESS, MG_EXACT_NEVER, &r) == 0 ? r.p
                                                                                            : 1.0;
    v->speedup = median_sorted(d, n) / median_sorted(t, n);
    v->slower = v->p_slower < MG_GUARD_ALPHA && v->speedup < 1.0;
    v->faster = v->p_faster < MG_GUARD_ALPHA && v->speedup > 1.0;
    for (int i = 0; i < n; i++) {
        e->keep_d[e->keep_at] = d[i];
        e->keep_t[e->keep_at] = t[i];
        e->keep_at = (e->keep_at + 1) % MG_GUARD_KEEP;
        if (e->nkeep < MG_GUARD_KEEP) e->nkeep++;
    }
    e->checkpoints++;
    e->npairs = 0;
    if (v->slower) {
        e->state = MG_GUARD_OFF;
        e->off_at = e->calls;
        e->next = e->calls + 1; /* every later call reaches mg_guard_step's slow branch */
    } else if (v->faster) {
        e->state = MG_GUARD_CONFIRMED;
        e->period = e->period * 2 > MG_GUARD_PERIOD_MAX ? MG_GUARD_PERIOD_MAX : e->period * 2;
    }
}

/* The standard normal quantile by bisection on the distribution function (pure, exact enough
 * for an interval's bounds). */
static double z_of(double p) {
    double lo = -10, hi = 10;
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (mg_pnorm(mid, 1) < p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

void mg_guard_ratio_ci(const double *d, int nd, const double *t, int nt, double conf, double *est,
                       double *lo, double *hi) {
    static double r[MG_GUARD_KEEP * MG_GUARD_KEEP]; /* guard calls never run concurrently */
    *est = *lo = *hi = NAN;
    if (nd > MG_GUARD_KEEP) nd = MG_GUARD_KEEP;
    if (nt > MG_GUARD_KEEP) nt = MG_GUARD_KEEP;
    int n = 0;
    for (int i = 0; i < nd; i++)
        for (int j = 0; j < nt; j++)
            if (t[j] > 0) r[n++] = d[i] / t[j];
    if (!n) return;
    sort_in_place(r, n);
    *est = median_sorted(r, n);
    /* the rank-sum test's order statistics of the pairwise ratios (normal approximation) */
    double mn = (double)nd * nt;
    int k = (int)floor(mn / 2 - z_of((1 + conf) / 2) * sqrt(mn * (nd + nt + 1) / 12));
    if (k < 1) k = 1;
    if (k > n) k = n;
    *lo = r[k - 1];
    *hi = r[n - k];
}

void mg_guard_speedup(const mg_guard_entry *e, double conf, double *est, double *lo, double *hi) {
    mg_guard_ratio_ci(e->keep_d, e->nkeep, e->keep_t, e->nkeep, conf, est, lo, hi);
}
