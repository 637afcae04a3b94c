/* Frontier times (src/model/frontier.c): a rank's exits from its entries and times, last rank in
 * to last rank out from the reduced maxima, untimed slots, the floor, that the application's skew
 * does not count, and that over a loop whose ranks enter each call where they left the one before
 * the frontier times add up to the loop's time, whatever the ranks' skew. */
#include "check.h"
#include "xorshift.h"
#include "model/frontier.h"
#include <math.h>
#include <stdint.h>

enum { P = 7, CALLS = 200 };

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double uniform(void) {
    return xorshift_uniform(&rng);
}

/* The maxima over ranks, as the reduction gives them. */
static double most(const double *v, int n) {
    double m = v[0];
    for (int i = 1; i < n; i++) m = v[i] > m ? v[i] : m;
    return m;
}

static void basics(void) {
    double start[3] = {5.0, 1.0, 2.0}, end[3] = {12.0, -1.0, 2.0}, dur[3];
    mg_frontier_times(start, end, dur, 3);
    CHECK(dur[0] == 7.0, "last in at 5, last out at 12: %g", dur[0]);
    CHECK(dur[1] == -1.0, "a slot no rank timed stays untimed: %g", dur[1]);
    CHECK(dur[2] == MG_FRONTIER_MIN, "a zero difference is floored: %g", dur[2]);
    mg_frontier_times(start, end, end, 3); /* in place */
    CHECK(end[0] == 7.0 && end[1] == -1.0, "in place: %g %g", end[0], end[1]);
    double entry[2] = {3.0, 4.0}, t[2] = {0.5, -1.0}, exit[2];
    mg_frontier_exits(entry, t, exit, 2);
    CHECK(exit[0] == 3.5 && exit[1] == -1.0, "exits %g %g", exit[0], exit[1]);
}

/* The late rank enters 40 us after the others, every rank leaves 3 us after it: the call costs
 * the loop 3 us, the slowest rank's own time says 43. */
static void skew_does_not_count(void) {
    double in[P], out[P], longest = 0, dur;
    for (int r = 0; r < P; r++) {
        in[r] = r == P - 1 ? 40e-6 : 0.0;
        out[r] = 43e-6 + 1e-7 * r;
        longest = out[r] - in[r] > longest ? out[r] - in[r] : longest;
    }
    double s = most(in, P), e = most(out, P);
    mg_frontier_times(&s, &e, &dur, 1);
    CHECK(fabs(dur - 3.6e-6) < 1e-12, "frontier %g", dur);
    CHECK(longest > 40e-6, "the slowest rank's time includes the skew: %g", longest);
}

/* A loop in which each rank enters call k + 1 when it leaves call k: whatever the exits (the
 * ranks running ahead of each other by up to 30 us), the frontier times sum to the loop's time,
 * from the last rank's entry of the first call to the last rank's exit of the last. Each rank's
 * clock offset by a constant (the common scale's error) moves the sum by at most the offsets'
 * spread. */
static void telescopes(void) {
    double t[P], sum = 0, sum_off = 0, off[P], first = 0, spread = 0;
    for (int r = 0; r < P; r++) {
        t[r] = 30e-6 * uniform();
        off[r] = 2e-6 * uniform();
        first = t[r] > first ? t[r] : first;
    }
    spread = most(off, P);
    for (int k = 0; k < CALLS; k++) {
        double in[P], out[P], in_o[P], out_o[P], d, d_o;
        for (int r = 0; r < P; r++) {
            in[r] = t[r];
            t[r] += 1e-6 + 20e-6 * uniform() * uniform();
            out[r] = t[r];
            in_o[r] = in[r] + off[r], out_o[r] = out[r] + off[r];
        }
        double s = most(in, P), e = most(out, P), so = most(in_o, P), eo = most(out_o, P);
        mg_frontier_times(&s, &e, &d, 1);
        mg_frontier_times(&so, &eo, &d_o, 1);
        sum += d, sum_off += d_o;
    }
    double loop = most(t, P) - first;
    CHECK(fabs(sum - loop) < 1e-9 * loop, "sum %.9g against the loop's %.9g", sum, loop);
    CHECK(fabs(sum_off - loop) <= spread + 1e-12,
          "offset clocks: sum %.9g against %.9g (spread %g)", sum_off, loop, spread);
}

int main(void) {
    basics();
    skew_does_not_count();
    telescopes();
    return DONE();
}
