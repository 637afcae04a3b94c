/* The cost model behind `mpiguide simulate`, up to p = 2^20: TUW never exceeds the bound the
 * model guarantees, Theorem 1 holds whenever start-ups dominate (beta = 0) and is reported as
 * violated in the known counterexample, the binomial worst case costs hops * (alpha + beta *
 * sum) while TUW moves that data once, and direct sends cost one start-up per non-empty block. */
#include "model/tree_cost.h"
#include "check.h"
#include "model/problems.h"
#include <math.h>
#include <stdlib.h>

static int close_to(double a, double b) {
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-15;
}

static void bounds(int p, int type, int64_t b, double alpha, double beta) {
    int64_t *m = malloc(sizeof *m * (size_t)p);
    mg_problem_counts(type, p, b, 5.0, 3, m);
    for (int i = 0; i < p; i++) m[i] *= 4;
    int root = p / 2;
    mg_model_result r;
    CHECK(!mg_model_tuw(p, root, m, NULL, alpha, beta, &r), "p=%d: out of memory", p);
    double model = mg_model_tuw_bound(p, root, m, alpha, beta);
    double th1 = mg_model_theorem1(p, root, m, alpha, beta);
    CHECK(r.time <= model * (1 + 1e-12) + 1e-15, "%s p=%d b=%lld: tuw %.9g above model bound %.9g",
          mg_problem_name(type), p, (long long)b, r.time, model);
    if (beta == 0)
        CHECK(r.time <= th1 * (1 + 1e-12), "%s p=%d: latency only, theorem 1 fails: %.9g > %.9g",
              mg_problem_name(type), p, r.time, th1);
    int64_t sum = 0;
    for (int i = 0; i < p; i++) sum += i == root ? 0 : m[i];
    CHECK(r.root_bytes == sum, "%s p=%d: root gets %lld of %lld bytes", mg_problem_name(type), p,
          (long long)r.root_bytes, (long long)sum);
    CHECK(r.rounds <= mg_tuw_levels(p) && r.build_rounds == mg_tuw_levels(p),
          "%s p=%d: %d+%d rounds", mg_problem_name(type), p, r.build_rounds, r.rounds);
    mg_model_result d;
    mg_model_direct(p, root, m, alpha, beta, &d);
    double want = 0;
    for (int i = 0; i < p; i++)
        if (i != root && m[i]) want += alpha + beta * (double)m[i];
    CHECK(close_to(d.time, want), "direct p=%d: %.9g, expected %.9g", p, d.time, want);
    free(m);
}

static void worst_case(int p) {
    int64_t *m = calloc((size_t)p, sizeof *m);
    int root = p / 2, hops = 0, far = mg_model_binomial_farthest(p, root, &hops);
    double alpha = 2e-6, beta = 1e-9;
    int64_t sum = 1 << 20;
    m[far] = sum;
    mg_model_result bw, tw;
    mg_model_binomial(p, root, m, alpha, beta, &bw);
    mg_model_tuw(p, root, m, NULL, alpha, beta, &tw);
    int levels = mg_tuw_levels(p);
    CHECK(close_to(bw.time, hops * (alpha + beta * (double)sum)),
          "binomial worst p=%d: %.9g vs %d hops", p, bw.time, hops);
    CHECK(close_to(tw.time, (2.0 * levels - 1) * alpha + alpha + beta * (double)sum),
          "tuw on the binomial worst case p=%d: %.9g", p, tw.time);
    CHECK(tw.time <= mg_model_theorem1(p, root, m, alpha, beta), "p=%d: theorem 1", p);
    if ((p & (p - 1)) == 0) CHECK(hops == levels, "p=%d: farthest rank %d hops", p, hops);
    free(m);
}

/* p = 4, root 0, blocks (-, 0, 5, 5): {2,3} must gather before sending 10 bytes to the root, so
 * 5 bytes travel twice: 15 beta > Theorem 1's 10 beta when alpha is small. */
static void counterexample(void) {
    int64_t m[4] = {0, 0, 5, 5};
    mg_model_result r;
    mg_model_tuw(4, 0, m, NULL, 0.0, 1.0, &r);
    CHECK(close_to(r.time, 15.0), "counterexample: %.3f, expected 15", r.time);
    CHECK(r.time > mg_model_theorem1(4, 0, m, 0.0, 1.0), "counterexample: theorem 1 holds?");
    CHECK(r.time <= mg_model_tuw_bound(4, 0, m, 0.0, 1.0), "counterexample: model bound");
}

int main(void) {
    counterexample();
    for (int p = 1; p <= 70; p++)
        for (int t = 0; t < MG_PROBLEM_COUNT; t++) {
            bounds(p, t, 10, 1e-6, 1e-9);
            bounds(p, t, 1000, 1e-6, 0.0);
            bounds(p, t, 1000, 0.0, 1e-9);
        }
    for (int p = 2; p <= 4096; p = p * 3 + 1) worst_case(p);
    worst_case(1 << 20);
    int big[] = {1 << 16, (1 << 16) + 3, 1 << 20};
    for (int k = 0; k < 3; k++)
        for (int t = 0; t < MG_PROBLEM_COUNT; t += k == 2 ? 2 : 1) {
            bounds(big[k], t, 100, 1e-6, 1e-9);
            if (k == 2) bounds(big[k], t, 100, 1e-6, 0.0);
        }
    return DONE();
}
