/* The guard's rule (src/model/guard_rule.c) without MPI: which calls are sampled and in
 * which order, what a window of samples decides (off, confirmed, unchanged), that the default's
 * share shrinks for a confirmed entry, and the speed-up's interval. The MPI side is
 * tests/mpi/intercept_guard.cmake. */
#include "check.h"
#include "model/guard_rule.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double uniform(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}
static double noisy(double median, double spread) { /* median * exp(spread * N(0,1)) */
    double z = sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
    return median * exp(spread * z);
}

/* Runs covered calls until the next window is complete, feeding times from the given medians
 * (this rank's times are the reduced ones: one rank). Returns the verdict; *defaults counts the
 * calls that ran the default (sampled or off). */
static void one_window(mg_guard_entry *e, double def, double tuned, double spread,
                       mg_guard_verdict *v, uint64_t *defaults) {
    for (;;) {
        int act = mg_guard_step(e);
        if (act == MG_GUARD_DEFAULT) {
            ++*defaults;
            continue;
        }
        if (act == MG_GUARD_SKIP) continue;
        *defaults += act == MG_GUARD_TIME_DEFAULT;
        double s = noisy(act == MG_GUARD_TIME_DEFAULT ? def : tuned, spread);
        if (mg_guard_record(e, act, s)) {
            double d[MG_GUARD_WINDOW], t[MG_GUARD_WINDOW];
            memcpy(d, e->win_d, sizeof d);
            memcpy(t, e->win_t, sizeof t);
            mg_guard_decide(e, d, t, MG_GUARD_WINDOW, v);
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
        if (act != MG_GUARD_SKIP) mg_guard_record(&e, act, 1e-6);
    }
    CHECK(e.sampled_default == 5 && e.sampled_tuned == 5 && e.npairs == 5, "5 pairs in 40 calls");
}

/* A mock-up twice as slow as the default: off after the first window, and from then on every
 * call runs the default. */
static void switches_off(void) {
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    one_window(&e, 10e-6, 20e-6, 0.1, &v, &defaults);
    CHECK(v.slower && !v.faster && e.state == MG_GUARD_OFF && v.speedup < 0.6,
          "slower: state %d, p %g, speed-up %g", e.state, v.p_slower, v.speedup);
    uint64_t at = e.calls;
    CHECK(e.off_at == at && at == MG_GUARD_FIRST + (MG_GUARD_WINDOW - 1) * MG_GUARD_PERIOD + 1,
          "off after call %llu (off_at %llu)", (unsigned long long)at,
          (unsigned long long)e.off_at);
    int all_default = 1;
    for (int c = 0; c < 1000; c++) all_default &= mg_guard_step(&e) == MG_GUARD_DEFAULT;
    CHECK(all_default, "every call after the switch runs the default");
}

/* A mock-up 30 times faster: confirmed at every window, the period doubles up to its cap, and
 * over a long run the default's share falls far below the initial 1/8. */
static void confirms_and_shrinks(void) {
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    for (int w = 0; w < 20; w++) {
        one_window(&e, 300e-6, 10e-6, 0.1, &v, &defaults);
        CHECK(v.faster && e.state == MG_GUARD_CONFIRMED, "window %d: confirmed (p %g)", w,
              v.p_faster);
    }
    CHECK(e.period == MG_GUARD_PERIOD_MAX, "period %u after 20 confirmations", e.period);
    uint64_t before = defaults, calls0 = e.calls;
    for (int w = 0; w < 10; w++) one_window(&e, 300e-6, 10e-6, 0.1, &v, &defaults);
    double share = (double)(defaults - before) / (double)(e.calls - calls0);
    CHECK(share <= 1.0 / MG_GUARD_PERIOD_MAX + 1e-9, "default share %g once confirmed", share);
    /* what the sampled defaults cost a 30x entry, in its own time: under 1 % */
    double cost = share * 30;
    CHECK(cost < 0.01, "sampling costs %.4f of the tuned time", cost);
}

/* Equal times: no decision either way, the schedule stays. */
static void inconclusive(void) {
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    int flips = 0;
    for (int w = 0; w < 20; w++) {
        one_window(&e, 10e-6, 10e-6, 0.1, &v, &defaults);
        flips += v.slower || v.faster;
    }
    CHECK(flips <= 1 && e.state != MG_GUARD_OFF && e.period <= 2 * MG_GUARD_PERIOD,
          "equal times: %d decisions in 20 windows, state %d, period %u", flips, e.state, e.period);
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
    mg_guard_decide(&a, d1, t1, MG_GUARD_WINDOW, &va);
    mg_guard_decide(&b, d2, t2, MG_GUARD_WINDOW, &vb);
    CHECK(!memcmp(&va, &vb, sizeof va) && a.state == b.state && a.period == b.period,
          "two ranks, one decision");
}

static void interval(void) {
    double d[64], t[64], est, lo, hi;
    for (int i = 0; i < 64; i++) {
        d[i] = noisy(20e-6, 0.05);
        t[i] = noisy(10e-6, 0.05);
    }
    mg_guard_ratio_ci(d, 64, t, 64, 0.95, &est, &lo, &hi);
    CHECK(lo <= est && est <= hi && lo < 2.0 && hi > 2.0 && hi - lo < 0.1, "ratio 2: %g [%g, %g]",
          est, lo, hi);
    double est2, lo2, hi2;
    mg_guard_ratio_ci(t, 64, d, 64, 0.95, &est2, &lo2, &hi2);
    CHECK(fabs(est2 * est - 1) < 0.01 && fabs(lo2 * hi - 1) < 1e-9 && fabs(hi2 * lo - 1) < 1e-9,
          "swapped samples give the reciprocal interval: %g [%g, %g]", est2, lo2, hi2);
    double lo9, hi9, e9;
    mg_guard_ratio_ci(d, 64, t, 64, 0.99, &e9, &lo9, &hi9);
    CHECK(lo9 <= lo && hi9 >= hi, "a higher level gives a wider interval");
    mg_guard_ratio_ci(d, 0, t, 64, 0.95, &est, &lo, &hi);
    CHECK(isnan(est) && isnan(lo) && isnan(hi), "no data: NaN");
    mg_guard_entry e;
    mg_guard_init(&e);
    mg_guard_verdict v;
    uint64_t defaults = 0;
    one_window(&e, 20e-6, 10e-6, 0.05, &v, &defaults);
    one_window(&e, 20e-6, 10e-6, 0.05, &v, &defaults);
    mg_guard_speedup(&e, 0.95, &est, &lo, &hi);
    CHECK(e.nkeep == 2 * MG_GUARD_WINDOW && lo < 2.0 && hi > 2.0, "kept pairs: %g [%g, %g]", est,
          lo, hi);
}

int main(void) {
    schedule();
    switches_off();
    confirms_and_shrinks();
    inconclusive();
    deterministic();
    interval();
    return DONE();
}
