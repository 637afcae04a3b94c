/* The guard's rule (see guard_rule.h): sampling schedule, paired decision, speed-up interval.
 * Pure: no MPI, and no allocation (it runs inside intercepted calls: docs/dev/design.md
 * invariant 4), hence its own sort and the signed-rank distribution tabulated in static
 * arrays (the guard is off under MPI_THREAD_MULTIPLE, so its calls never run concurrently). */
#include "guard_rule.h"
#include <math.h>
#include <string.h>

#define WALSH_MAX (MG_GUARD_KEEP * (MG_GUARD_KEEP + 1) / 2)

void mg_guard_init(mg_guard_entry *e) {
    memset(e, 0, sizeof *e);
    e->next = e->pair = MG_GUARD_FIRST;
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

/* After the pair's last call: the next pair, and the fast path up to it while the entry runs
 * the mock-up (0: every call asks mg_guard_step). */
static void next_pair(mg_guard_entry *e, uint64_t at) {
    e->pair = at;
    e->half = 0;
    e->next = mg_guard_runs_mockup(e) ? e->pair : 0;
}

int mg_guard_record(mg_guard_entry *e, int action, double seconds, int disturbed) {
    if (seconds < 0) { /* not timed: the pair starts again at the next call */
        next_pair(e, e->calls + 1);
        return 0;
    }
    if (e->calls == e->pair) e->win_x[e->npairs] = 0.0;
    if (disturbed) e->win_x[e->npairs] = 1.0;
    if (action == MG_GUARD_TIME_DEFAULT) {
        e->win_d[e->npairs] = seconds;
        e->sampled_default++;
    } else {
        e->win_t[e->npairs] = seconds;
        e->sampled_tuned++;
    }
    if (e->calls == e->pair) { /* the pair's first call */
        e->half = 1;
        return 0;
    }
    if (!e->half) { /* its first call was not timed */
        next_pair(e, e->calls + 1);
        return 0;
    }
    e->npairs++;
    next_pair(e, e->pair + e->period);
    return e->npairs == MG_GUARD_WINDOW;
}

/* The null distribution of the signed-rank statistic with integer scores score[0..m): pmf[s] =
 * P(the scores of the positive signs sum to s), s = 0 .. sum of the scores, each sign + or -
 * with probability 1/2. Returns that sum. */
static int signrank_pmf(const int *score, int m, double *pmf) {
    int total = 0;
    pmf[0] = 1.0;
    for (int i = 0; i < m; i++) {
        int top = total + score[i];
        for (int s = total + 1; s <= top; s++) pmf[s] = 0.0;
        for (int s = top; s >= 0; s--)
            pmf[s] = 0.5 * (pmf[s] + (s >= score[i] ? pmf[s - score[i]] : 0.0));
        total = top;
    }
    return total;
}

/* The exact one-sided p-values of the signed-rank test of the log ratios r[0..m): ranks of |r|
 * with ties averaged (doubled, so integers), zeros left out; the distribution conditional on
 * the ties. */
static void signrank_test(const double *r, int m, double *p_slower, double *p_faster) {
    static double pmf[2 * WALSH_MAX + 1];
    int idx[MG_GUARD_KEEP], score[MG_GUARD_KEEP], n = 0;
    for (int i = 0; i < m; i++) /* nonzero ones, by |r| (insertion sort: m <= 64) */
        if (r[i] != 0.0) {
            int j = n++;
            for (; j > 0 && fabs(r[idx[j - 1]]) > fabs(r[i]); j--) idx[j] = idx[j - 1];
            idx[j] = i;
        }
    *p_slower = *p_faster = 1.0;
    if (!n) return;
    int w = 0; /* doubled statistic: the scores of the positive log ratios */
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && fabs(r[idx[j + 1]]) == fabs(r[idx[i]])) j++;
        for (int k = i; k <= j; k++) score[k] = i + j + 2; /* 2 x the average rank */
        i = j + 1;
    }
    for (int k = 0; k < n; k++)
        if (r[idx[k]] > 0) w += score[k];
    int total = signrank_pmf(score, n, pmf);
    double below = 0.0, above = 0.0;
    for (int s = 0; s <= total; s++) {
        if (s <= w) below += pmf[s];
        if (s >= w) above += pmf[s];
    }
    *p_slower = below < 1.0 ? below : 1.0;
    *p_faster = above < 1.0 ? above : 1.0;
}

void mg_guard_paired(const double *d, const double *t, int n, double conf, double *est, double *lo,
                     double *hi, double *p_slower, double *p_faster) {
    static double walsh[WALSH_MAX], pmf[2 * WALSH_MAX + 1];
    double r[MG_GUARD_KEEP];
    int m = 0;
    if (n > MG_GUARD_KEEP) n = MG_GUARD_KEEP;
    for (int i = 0; i < n; i++)
        if (d[i] > 0 && t[i] > 0 && isfinite(d[i]) && isfinite(t[i])) r[m++] = log(d[i] / t[i]);
    *est = *lo = *hi = NAN;
    if (p_slower) *p_slower = *p_faster = 1.0;
    if (!m) return;
    if (p_slower) signrank_test(r, m, p_slower, p_faster);
    int nw = 0;
    for (int i = 0; i < m; i++)
        for (int j = i; j < m; j++) walsh[nw++] = (r[i] + r[j]) / 2;
    sort_in_place(walsh, nw);
    *est = exp(median_sorted(walsh, nw));
    /* the interval: Walsh averages k and nw + 1 - k (1-based), k - 1 the largest c with
     * P(W <= c) <= (1 - conf) / 2 under the untied ranks 1..m (W counts the Walsh averages
     * above the true value; scores doubled as in signrank_test), as R's wilcox.test */
    int score[MG_GUARD_KEEP];
    for (int i = 0; i < m; i++) score[i] = 2 * (i + 1);
    int total = signrank_pmf(score, m, pmf), k = 1;
    double cum = 0.0;
    for (int s = 0; s <= total; s += 2) {
        cum += pmf[s];
        if (cum > (1 - conf) / 2) break;
        k = s / 2 + 1;
    }
    if (k > (nw + 1) / 2) k = (nw + 1) / 2;
    *lo = exp(walsh[k - 1]);
    *hi = exp(walsh[nw - k]);
}

void mg_guard_decide(mg_guard_entry *e, const double *d, const double *t, const double *x, int n,
                     mg_guard_verdict *v) {
    memset(v, 0, sizeof *v);
    if (n > MG_GUARD_WINDOW) n = MG_GUARD_WINDOW;
    double cd[MG_GUARD_WINDOW], ct[MG_GUARD_WINDOW]; /* the undisturbed pairs */
    for (int i = 0; i < n; i++) {
        e->keep_d[e->keep_at] = d[i];
        e->keep_t[e->keep_at] = t[i];
        e->keep_at = (e->keep_at + 1) % MG_GUARD_KEEP;
        if (e->nkeep < MG_GUARD_KEEP) e->nkeep++;
        int ok = d[i] > 0 && t[i] > 0;
        v->pairs += ok;
        if (ok && !(x && x[i] > 0)) {
            cd[v->clean] = d[i];
            ct[v->clean++] = t[i];
        }
    }
    /* faster: this window's interval; slower: this window's pairs, or every pair since the last
     * faster window (at most MG_GUARD_KEEP), so that an entry a little slower is switched off
     * once enough pairs say so (a false "slower" costs nothing: the default runs) */
    double rd[MG_GUARD_KEEP], rt[MG_GUARD_KEEP], est, lo, hi, p, ignore;
    mg_guard_paired(d, t, n, MG_GUARD_LEVEL, &v->speedup, &v->lo, &v->hi, &v->p_slower,
                    &v->p_faster);
    v->slower = v->p_slower < MG_GUARD_ALPHA && v->speedup < 1.0;
    e->run = e->run + n < MG_GUARD_KEEP ? e->run + n : MG_GUARD_KEEP;
    if (!v->slower && e->run > n) {
        for (int i = 0; i < e->run; i++) {
            int at = (e->keep_at - e->run + i + MG_GUARD_KEEP) % MG_GUARD_KEEP;
            rd[i] = e->keep_d[at];
            rt[i] = e->keep_t[at];
        }
        mg_guard_paired(rd, rt, e->run, MG_GUARD_LEVEL, &est, &lo, &hi, &p, &ignore);
        if (p < MG_GUARD_ALPHA && est < 1.0) v->slower = 1, v->p_slower = p;
    }
    /* faster: the interval of the undisturbed pairs, when there are enough of them */
    int above = 0;
    if (!v->slower && v->clean >= MG_GUARD_CLEAN) {
        if (v->clean < v->pairs)
            mg_guard_paired(cd, ct, v->clean, MG_GUARD_LEVEL, &est, &lo, &hi, &p, &ignore);
        else
            lo = v->lo;
        above = lo >= MG_GUARD_MARGIN;
    }
    e->windows++;
    e->disturbed += v->clean < MG_GUARD_CLEAN;
    e->streak = above ? e->streak + 1 : 0;
    if (above) e->run = 0;
    v->faster = above && (e->state == MG_GUARD_CONFIRMED || e->streak >= MG_GUARD_STREAK);
    e->checkpoints++;
    e->npairs = 0;
    uint32_t longer = e->period * 2 > MG_GUARD_PERIOD_MAX ? MG_GUARD_PERIOD_MAX : e->period * 2;
    if (v->slower) {
        e->state = MG_GUARD_OFF;
        e->off_at = e->calls;
    } else if (v->faster) {
        e->state = MG_GUARD_CONFIRMED;
        e->idle = 0;
        e->period = longer;
    } else if (e->state == MG_GUARD_UNDECIDED) {
        e->period = longer; /* sampling continues, ever less often */
    } else if (++e->idle >= MG_GUARD_IDLE) {
        e->state = MG_GUARD_UNDECIDED;
        e->undecided_at = e->calls;
    }
    e->next = mg_guard_runs_mockup(e) ? e->pair : 0;
}

void mg_guard_speedup(const mg_guard_entry *e, double conf, double *est, double *lo, double *hi) {
    mg_guard_paired(e->keep_d, e->keep_t, e->nkeep, conf, est, lo, hi, NULL, NULL);
}
