/* The guard's rule (src/model/guard_rule.c) without MPI: which calls are sampled and in
 * which order, what a window of sample pairs decides (off, confirmed, undecided), that the
 * default's share shrinks for a confirmed entry while a confirmed entry that turns slow is
 * still switched off within the documented bound, that an entry 200 us slower is never
 * confirmed on a busy machine, and the paired test and interval themselves against
 * brute force. The MPI side is tests/mpi/intercept_guard.cmake. */
#include "check.h"
#include "xorshift.h"
#include "model/guard_rule.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double uniform(void) {
    return xorshift_uniform(&rng);
}
static double noisy(double median, double spread) { /* median * exp(spread * N(0,1)) */
    double z = sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
    return median * exp(spread * z);
}

/* How one sampled call's time is drawn: the algorithm's median with lognormal spread, and on a
 * busy machine, with probability desched, a descheduling of up to `slice` seconds on top; with
 * probability bad the call says it was disturbed (a rank was switched out). */
typedef struct timing {
    double def, tuned, spread, desched, slice, bad;
} timing;

static double draw(const timing *tm, int default_call) {
    double s = noisy(default_call ? tm->def : tm->tuned, tm->spread);
    if (tm->desched > 0 && uniform() < tm->desched) s += tm->slice * uniform();
    return s;
}

/* Runs covered calls until the next window is complete (one rank: its times are the reduced
 * ones). Returns the verdict; *defaults counts the calls that ran the default (sampled, off or
 * undecided), *calls all calls. */
static void one_window(mg_guard_entry *e, const timing *tm, mg_guard_verdict *v,
                       uint64_t *defaults) {
    for (;;) {
        int act = mg_guard_step(e);
        if (act == MG_GUARD_DEFAULT) {
            ++*defaults;
            if (e->state == MG_GUARD_OFF) return; /* nothing is sampled any more */
            continue;
        }
        if (act == MG_GUARD_SKIP) continue;
        *defaults += act == MG_GUARD_TIME_DEFAULT;
        if (mg_guard_record(e, act, draw(tm, act == MG_GUARD_TIME_DEFAULT), uniform() < tm->bad)) {
            double d[MG_GUARD_WINDOW], t[MG_GUARD_WINDOW];
            memcpy(d, e->win_d, sizeof d);
            memcpy(t, e->win_t, sizeof t);
            double x[MG_GUARD_WINDOW];
            memcpy(x, e->win_x, sizeof x);
            mg_guard_decide(e, d, t, x, MG_GUARD_WINDOW, v);
            CHECK(!memcmp(d, e->win_d, sizeof d) && !memcmp(t, e->win_t, sizeof t),
                  "the decision leaves the pairs as they are");
            return;
        }
    }
}

static void schedule(void) {
    mg_guard_entry e;
    mg_guard_init(&e);
    /* calls 1..40: pairs start at 2, 10, 18, ...; default first in even pairs */
    int want[41] = {0};
    want[2] = MG_GUARD_TIME_DEFAULT, want[3] = MG_GUARD_TIME_TUNED;
    want[10] = MG_GUARD_TIME_TUNED, want[11] = MG_GUARD_TIME_DEFAULT;
    want[18] = MG_GUARD_TIME_DEFAULT, want[19] = MG_GUARD_TIME_TUNED;
    want[26] = MG_GUARD_TIME_TUNED, want[27] = MG_GUARD_TIME_DEFAULT;
    want[34] = MG_GUARD_TIME_DEFAULT, want[35] = MG_GUARD_TIME_TUNED;
    for (int c = 1; c <= 40; c++) {
        int act = mg_guard_step(&e);
        CHECK(act == want[c], "call %d: action %d, want %d", c, act, want[c]);
        if (act != MG_GUARD_SKIP) mg_guard_record(&e, act, 1e-6, 0);
    }
    CHECK(e.sampled_default == 5 && e.sampled_tuned == 5 && e.npairs == 5, "5 pairs in 40 calls");
    /* a sample that could not be timed (a library algorithm fell back, on every rank): its pair
     * starts again at the next call, and the pairs count on from there */
    CHECK(mg_guard_step(&e) == MG_GUARD_SKIP, "call 41");
    int act = mg_guard_step(&e); /* call 42: pair 5 (odd), tuned first */
    CHECK(act == MG_GUARD_TIME_TUNED, "call 42: %d", act);
    mg_guard_record(&e, act, -1.0, 0);
    act = mg_guard_step(&e);
    CHECK(act == MG_GUARD_TIME_TUNED && e.pair == 43, "call 43 starts pair 5 again: %d", act);
    mg_guard_record(&e, act, 1e-6, 0);
    act = mg_guard_step(&e);
    CHECK(act == MG_GUARD_TIME_DEFAULT, "call 44 completes it: %d", act);
    mg_guard_record(&e, act, 1e-6, 0);
    CHECK(e.npairs == 6 && e.pair == 44 + MG_GUARD_PERIOD - 1, "6 pairs, next at %llu",
          (unsigned long long)e.pair);
}

/* A mock-up twice as slow as the default: off after the first window, and from then on every
 * call runs the default. */
static void switches_off(void) {
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    timing tm = {10e-6, 20e-6, 0.1, 0, 0, 0};
    one_window(&e, &tm, &v, &defaults);
    CHECK(v.slower && !v.faster && e.state == MG_GUARD_OFF && v.speedup < 0.6 && v.hi < 1,
          "slower: state %d, p %g, speed-up %g [%g, %g]", e.state, v.p_slower, v.speedup, v.lo,
          v.hi);
    uint64_t at = e.calls;
    CHECK(e.off_at == at && at == MG_GUARD_FIRST + (MG_GUARD_WINDOW - 1) * MG_GUARD_PERIOD + 1,
          "off after call %llu (off_at %llu)", (unsigned long long)at,
          (unsigned long long)e.off_at);
    int all_default = 1;
    for (int c = 0; c < 1000; c++) all_default &= mg_guard_step(&e) == MG_GUARD_DEFAULT;
    CHECK(all_default, "every call after the switch runs the default");
}

/* A mock-up 30 times faster: confirmed at every window, the period doubles up to its cap, and
 * over a long run the default's share falls to 1 / MG_GUARD_PERIOD_MAX. */
static void confirms_and_shrinks(void) {
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    timing tm = {300e-6, 10e-6, 0.1, 0, 0, 0};
    for (int w = 0; w < 12; w++) {
        one_window(&e, &tm, &v, &defaults);
        int want = w + 1 >= MG_GUARD_STREAK;
        CHECK(v.faster == want && (e.state == MG_GUARD_CONFIRMED) == want &&
                  v.lo >= MG_GUARD_MARGIN,
              "window %d: confirmed %d, want %d (p %g, interval %g-%g)", w,
              e.state == MG_GUARD_CONFIRMED, want, v.p_faster, v.lo, v.hi);
    }
    CHECK(e.period == MG_GUARD_PERIOD_MAX, "period %u after 12 faster windows", e.period);
    uint64_t before = defaults, calls0 = e.calls;
    for (int w = 0; w < 10; w++) one_window(&e, &tm, &v, &defaults);
    double share = (double)(defaults - before) / (double)(e.calls - calls0);
    CHECK(share <= 1.0 / MG_GUARD_PERIOD_MAX + 1e-9, "default share %g once confirmed", share);
    /* what the sampled defaults cost a 30x entry, in its own time: under 3 % */
    double cost = share * 29;
    CHECK(cost < 0.03, "sampling costs %.4f of the tuned time", cost);
}

/* Equal times: no decision in either direction, so the entry is undecided after
 * MG_GUARD_IDLE windows and runs the default between its samples, which go on. */
static void undecided(void) {
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    timing tm = {10e-6, 10e-6, 0.1, 0, 0, 0};
    for (int w = 0; w < MG_GUARD_IDLE; w++) {
        CHECK(e.state == MG_GUARD_CHECKING, "window %d: still checking", w);
        one_window(&e, &tm, &v, &defaults);
        CHECK(!v.slower && !v.faster, "equal times, window %d: speed-up %g [%g, %g] p %g/%g", w,
              v.speedup, v.lo, v.hi, v.p_slower, v.p_faster);
    }
    CHECK(e.state == MG_GUARD_UNDECIDED && e.undecided_at == e.calls, "undecided: state %d",
          e.state);
    uint64_t c0 = e.calls, d0 = defaults, t0 = e.sampled_tuned;
    int flips = 0;
    for (int w = 0; w < 20; w++) {
        one_window(&e, &tm, &v, &defaults);
        flips += v.slower || v.faster;
    }
    CHECK(flips <= 1 && e.state != MG_GUARD_OFF, "equal times: %d decisions in 20 windows", flips);
    CHECK(flips || defaults - d0 == e.calls - c0 - (e.sampled_tuned - t0),
          "an undecided entry runs the default on every call but its tuned samples: %llu of %llu",
          (unsigned long long)(defaults - d0), (unsigned long long)(e.calls - c0));
    CHECK(e.period == MG_GUARD_PERIOD_MAX, "its samples get rarer: period %u", e.period);
}

/* Issue 26: the default 20 us, the entry 200 us slower, on a machine where any call may be
 * descheduled for up to a time slice. Whatever the noise, the entry is never confirmed, and
 * after MG_GUARD_IDLE windows it is off or undecided (running the default). Before the
 * fix (two samples compared as samples) such an entry was confirmed with speed-up 1.048,
 * interval 1.001-1.538. */
static void never_confirms_slower(void) {
    static const struct {
        const char *what;
        timing tm;
    } cases[] = {
        {"quiet", {20e-6, 220e-6, 0.2, 0, 0, 0}},
        {"1 call in 10 descheduled up to 4 ms", {20e-6, 220e-6, 0.3, 0.1, 4e-3, 0}},
        {"1 in 3 up to 4 ms", {20e-6, 220e-6, 0.3, 0.33, 4e-3, 0}},
        {"1 in 2 up to 10 ms", {20e-6, 220e-6, 0.5, 0.5, 10e-3, 0}},
        {"every call up to 10 ms", {20e-6, 220e-6, 0.5, 1.0, 10e-3, 0}},
        {"1.2x slower, 1 in 3 up to 4 ms", {1e-3, 1.2e-3, 0.3, 0.33, 4e-3, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int confirmed = 0, open = 0, off = 0, undecided = 0;
        for (int run = 0; run < 200; run++) {
            mg_guard_entry e;
            mg_guard_init(&e);
            mg_guard_verdict v;
            uint64_t defaults = 0;
            for (int w = 0; w < 8 && e.state != MG_GUARD_OFF; w++) {
                one_window(&e, &cases[i].tm, &v, &defaults);
                confirmed += e.state == MG_GUARD_CONFIRMED;
                if (w + 1 == MG_GUARD_IDLE) open += mg_guard_runs_mockup(&e);
            }
            off += e.state == MG_GUARD_OFF;
            undecided += e.state == MG_GUARD_UNDECIDED;
        }
        CHECK(confirmed == 0 && open == 0,
              "%s: confirmed in %d windows, still running the "
              "mock-up after %d windows in %d of 200 runs",
              cases[i].what, confirmed, MG_GUARD_IDLE, open);
        printf("  %-34s 200 runs: %d off, %d undecided, 0 confirmed\n", cases[i].what, off,
               undecided);
    }
}

/* The price of that caution: how soon a faster entry is confirmed under the same noise
 * (printed; asserted only where the gain is clear). */
static void confirms_faster(void) {
    static const struct {
        const char *what;
        timing tm;
        int must; /* every run confirmed within 4 windows */
    } cases[] = {
        {"3x faster, quiet", {60e-6, 20e-6, 0.2, 0, 0, 0}, 1},
        {"1.3x faster, quiet", {26e-6, 20e-6, 0.1, 0, 0, 0}, 1},
        {"3x faster, 1 in 10 descheduled up to 4 ms", {60e-6, 20e-6, 0.3, 0.1, 4e-3, 0}, 0},
        {"3x faster (+200 us), 1 in 3 up to 4 ms", {220e-6, 20e-6, 0.3, 0.33, 4e-3, 0}, 0},
        {"+200 us, every call up to 10 ms", {220e-6, 20e-6, 0.5, 1.0, 10e-3, 0}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int within = 0, wrong = 0;
        for (int run = 0; run < 200; run++) {
            mg_guard_entry e;
            mg_guard_init(&e);
            mg_guard_verdict v;
            uint64_t defaults = 0;
            for (int w = 0; w < 4 && e.state != MG_GUARD_CONFIRMED && e.state != MG_GUARD_OFF; w++)
                one_window(&e, &cases[i].tm, &v, &defaults);
            within += e.state == MG_GUARD_CONFIRMED;
            wrong += e.state == MG_GUARD_OFF;
        }
        CHECK(!cases[i].must || within == 200, "%s: confirmed within 4 windows in %d of 200 runs",
              cases[i].what, within);
        printf("  %-44s 200 runs: %d confirmed within 4 windows, %d off\n", cases[i].what, within,
               wrong);
    }
}

/* A confirmed entry (3x faster, at the longest period) that becomes 2x slower is switched off
 * within 2 MG_GUARD_WINDOW MG_GUARD_PERIOD_MAX calls of the change, wherever in a window the
 * change falls. */
static void confirmed_then_slow(void) {
    for (int shift = 0; shift < 4; shift++) {
        mg_guard_entry e;
        mg_guard_init(&e);
        mg_guard_verdict v;
        uint64_t defaults = 0;
        timing fast = {30e-6, 10e-6, 0.1, 0, 0, 0}, slow = {10e-6, 20e-6, 0.1, 0, 0, 0};
        for (int w = 0; w < 10; w++) one_window(&e, &fast, &v, &defaults);
        CHECK(e.state == MG_GUARD_CONFIRMED && e.period == MG_GUARD_PERIOD_MAX,
              "confirmed at the longest period");
        /* the change after a quarter, half, ... of the next window */
        uint64_t change = e.calls + (uint64_t)shift * MG_GUARD_WINDOW * MG_GUARD_PERIOD_MAX / 4;
        while (e.calls < change) {
            int act = mg_guard_step(&e);
            if ((act == MG_GUARD_TIME_DEFAULT || act == MG_GUARD_TIME_TUNED) &&
                mg_guard_record(&e, act, draw(&fast, act == MG_GUARD_TIME_DEFAULT), 0)) {
                double d[MG_GUARD_WINDOW], t[MG_GUARD_WINDOW];
                memcpy(d, e.win_d, sizeof d);
                memcpy(t, e.win_t, sizeof t);
                mg_guard_decide(&e, d, t, NULL, MG_GUARD_WINDOW, &v);
            }
        }
        for (int w = 0; w < 4 && e.state != MG_GUARD_OFF; w++) one_window(&e, &slow, &v, &defaults);
        uint64_t bound = 2 * MG_GUARD_WINDOW * MG_GUARD_PERIOD_MAX;
        CHECK(e.state == MG_GUARD_OFF && e.off_at - change <= bound,
              "change %d/4 into a window: off %llu calls after it (bound %llu)", shift,
              (unsigned long long)(e.off_at - change), (unsigned long long)bound);
    }
}

/* Noise first (undecided, the default runs), then a clear gain: confirmed, the mock-up runs
 * again on the fast path. */
static void undecided_then_confirmed(void) {
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    timing noise = {10e-6, 10e-6, 1.0, 0.5, 5e-3, 0}, clear = {30e-6, 10e-6, 0.1, 0, 0, 0};
    for (int w = 0; w < MG_GUARD_IDLE + 1 && e.state != MG_GUARD_UNDECIDED; w++)
        one_window(&e, &noise, &v, &defaults);
    CHECK(e.state == MG_GUARD_UNDECIDED, "noisy: undecided (state %d)", e.state);
    for (int w = 0; w < MG_GUARD_STREAK; w++) one_window(&e, &clear, &v, &defaults);
    CHECK(e.state == MG_GUARD_CONFIRMED && e.next == e.pair && e.next > e.calls,
          "clear 3x: confirmed (state %d, interval %g-%g)", e.state, v.lo, v.hi);
    CHECK(mg_guard_step(&e) == MG_GUARD_SKIP, "the mock-up runs again, untimed");
}

/* Issue 26, the rest of it: with more ranks than cores and a busy process per core, the mock-up
 * made 200 us slower measured 1.3-2x faster than the default, in both orders, window after
 * window (a rank spinning before its collective keeps its core; one that yields loses it for a
 * time slice). Every such pair had a rank switched out of its core: a window with fewer than
 * MG_GUARD_CLEAN undisturbed pairs never counts as faster. A clean 3x entry with a few
 * disturbed pairs is still confirmed; a slower one is switched off whatever the disturbance. */
static void disturbed(void) {
    static const struct {
        const char *what;
        timing tm;
        int want; /* MG_GUARD_CONFIRMED, or -1: anything but confirmed */
    } cases[] = {
        {"scheduler's bias, every call disturbed", {10e-3, 6e-3, 0.3, 0, 0, 1.0}, -1},
        {"scheduler's bias, 7 calls in 10 disturbed", {10e-3, 6e-3, 0.3, 0, 0, 0.7}, -1},
        {"3x faster, 1 call in 50 disturbed", {30e-6, 10e-6, 0.1, 0, 0, 0.02}, MG_GUARD_CONFIRMED},
        {"2x slower, every call disturbed", {10e-6, 20e-6, 0.1, 0, 0, 1.0}, MG_GUARD_OFF},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int run = 0; run < 50; run++) {
            mg_guard_entry e;
            mg_guard_init(&e);
            mg_guard_verdict v;
            uint64_t defaults = 0;
            int ever = 0;
            for (int w = 0; w < 6 && e.state != MG_GUARD_OFF; w++) {
                one_window(&e, &cases[i].tm, &v, &defaults);
                ever |= e.state == MG_GUARD_CONFIRMED;
            }
            int ok = cases[i].want < 0
                         ? !ever && e.state == MG_GUARD_UNDECIDED && e.disturbed == e.windows
                         : e.state == cases[i].want;
            CHECK(ok,
                  "%s, run %d: state %d, confirmed at some window %d, %llu of %llu windows "
                  "disturbed",
                  cases[i].what, run, e.state, ever, (unsigned long long)e.disturbed,
                  (unsigned long long)e.windows);
        }
}

/* The same reduced samples give the same decision: what every rank relies on. */
static void deterministic(void) {
    mg_guard_entry a, b;
    mg_guard_init(&a);
    mg_guard_init(&b);
    double d1[MG_GUARD_WINDOW], t1[MG_GUARD_WINDOW], d2[MG_GUARD_WINDOW], t2[MG_GUARD_WINDOW];
    for (int i = 0; i < MG_GUARD_WINDOW; i++) {
        d1[i] = d2[i] = noisy(10e-6, 0.3);
        t1[i] = t2[i] = noisy(10.5e-6, 0.3);
    }
    mg_guard_verdict va, vb;
    mg_guard_decide(&a, d1, t1, NULL, MG_GUARD_WINDOW, &va);
    mg_guard_decide(&b, d2, t2, NULL, MG_GUARD_WINDOW, &vb);
    CHECK(!memcmp(&va, &vb, sizeof va) && a.state == b.state && a.period == b.period,
          "two ranks, one decision");
}

/* The exact one-sided signed-rank p-values against enumerating every sign pattern, for small
 * samples with ties and zeros: the p-value of "tuned slower" is the share of the 2^n patterns
 * whose statistic is at most the observed one. */
static void pvalues(void) {
    for (int round = 0; round < 300; round++) {
        int n = 1 + round % 12;
        double d[12], t[12], r[12];
        for (int i = 0; i < n; i++) {
            /* log ratios from a small set of values, so ties and zeros occur */
            int k = (int)(uniform() * 7) - 3;
            r[i] = 0.1 * k;
            t[i] = 1e-5;
            d[i] = t[i] * exp(r[i]);
            r[i] = log(d[i] / t[i]); /* as the rule computes it */
        }
        double est, lo, hi, ps, pf;
        mg_guard_paired(d, t, n, 0.95, &est, &lo, &hi, &ps, &pf);
        /* brute force: average ranks of the nonzero |r| */
        double rank[12];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (r[i] == 0) continue;
            m++;
            int less = 0, same = 0;
            for (int j = 0; j < n; j++) {
                if (r[j] == 0) continue;
                less += fabs(r[j]) < fabs(r[i]);
                same += fabs(r[j]) == fabs(r[i]);
            }
            rank[i] = less + (same + 1) / 2.0;
        }
        double w = 0;
        for (int i = 0; i < n; i++)
            if (r[i] > 0) w += rank[i];
        int below = 0, above = 0, all = 0;
        for (int mask = 0; mask < 1 << n; mask++) {
            int skip = 0;
            double s = 0;
            for (int i = 0; i < n; i++) {
                if (r[i] == 0) {
                    skip |= (mask >> i) & 1; /* zeros carry no sign */
                    continue;
                }
                if ((mask >> i) & 1) s += rank[i];
            }
            if (skip) continue;
            all++;
            below += s <= w + 1e-9;
            above += s >= w - 1e-9;
        }
        double want_s = m ? (double)below / all : 1.0, want_f = m ? (double)above / all : 1.0;
        CHECK(fabs(ps - want_s) < 1e-12 && fabs(pf - want_f) < 1e-12,
              "round %d (n %d): p %g/%g, brute force %g/%g", round, n, ps, pf, want_s, want_f);
    }
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void interval(void) {
    /* n = 16: the 95 % interval is Walsh averages 30 and 107 of 136 (R: qsignrank(0.025, 16)
     * = 30), here from log ratios 0.01 .. 0.16 */
    double d[64], t[64], r[16], walsh[136], est, lo, hi;
    for (int i = 0; i < 16; i++) {
        t[i] = 1e-5;
        d[i] = t[i] * exp(0.01 * (i + 1));
        r[i] = log(d[i] / t[i]);
    }
    int nw = 0;
    for (int i = 0; i < 16; i++)
        for (int j = i; j < 16; j++) walsh[nw++] = (r[i] + r[j]) / 2;
    qsort(walsh, 136, sizeof walsh[0], by_value);
    mg_guard_paired(d, t, 16, 0.95, &est, &lo, &hi, NULL, NULL);
    CHECK(fabs(log(lo) - walsh[29]) < 1e-12 && fabs(log(hi) - walsh[106]) < 1e-12 &&
              fabs(log(est) - (walsh[67] + walsh[68]) / 2) < 1e-12,
          "n = 16: [%g, %g] est %g, want exp of %g, %g", lo, hi, est, walsh[29], walsh[106]);
    for (int i = 0; i < 64; i++) {
        d[i] = noisy(20e-6, 0.05);
        t[i] = noisy(10e-6, 0.05);
    }
    mg_guard_paired(d, t, 64, 0.95, &est, &lo, &hi, NULL, NULL);
    CHECK(lo <= est && est <= hi && lo < 2.0 && hi > 2.0 && hi - lo < 0.1, "ratio 2: %g [%g, %g]",
          est, lo, hi);
    double est2, lo2, hi2;
    mg_guard_paired(t, d, 64, 0.95, &est2, &lo2, &hi2, NULL, NULL);
    CHECK(fabs(est2 * est - 1) < 1e-9 && fabs(lo2 * hi - 1) < 1e-9 && fabs(hi2 * lo - 1) < 1e-9,
          "swapped samples give the reciprocal interval: %g [%g, %g]", est2, lo2, hi2);
    double lo9, hi9, e9;
    mg_guard_paired(d, t, 64, 0.99, &e9, &lo9, &hi9, NULL, NULL);
    CHECK(lo9 <= lo && hi9 >= hi, "a higher level gives a wider interval");
    mg_guard_paired(d, t, 0, 0.95, &est, &lo, &hi, NULL, NULL);
    CHECK(isnan(est) && isnan(lo) && isnan(hi), "no data: NaN");
    d[0] = 0.0; /* a pair with a zero time is left out */
    mg_guard_paired(d, t, 1, 0.95, &est, &lo, &hi, NULL, NULL);
    CHECK(isnan(est), "no positive pair: NaN");
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    timing tm = {20e-6, 10e-6, 0.05, 0, 0, 0};
    one_window(&e, &tm, &v, &defaults);
    one_window(&e, &tm, &v, &defaults);
    mg_guard_speedup(&e, 0.95, &est, &lo, &hi);
    CHECK(e.nkeep == 2 * MG_GUARD_WINDOW && lo < 2.0 && hi > 2.0, "kept pairs: %g [%g, %g]", est,
          lo, hi);
}

int main(void) {
    schedule();
    switches_off();
    confirms_and_shrinks();
    undecided();
    never_confirms_slower();
    confirms_faster();
    confirmed_then_slow();
    undecided_then_confirmed();
    disturbed();
    deterministic();
    pvalues();
    interval();
    return DONE();
}
