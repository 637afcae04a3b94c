/* The irregular problem types of Träff's section 5, exactly as defined there: block sizes per
 * rank in MPI_INT elements from a base size b. Deterministic in the seed, so every rank of a
 * benchmark computes the same vector without communication. Pure. */
#include "problems.h"
#include <math.h>
#include <stdlib.h>
#include <strings.h>

static const char *const names[MG_PROBLEM_COUNT] = {"same",       "random",      "spikes",
                                                    "decreasing", "alternating", "twoblocks"};

int mg_problem_parse(const char *name) {
    if (!name) return -1;
    for (int t = 0; t < MG_PROBLEM_COUNT; t++)
        if (!strcasecmp(name, names[t])) return t;
    if (!strcasecmp(name, "two-blocks") || !strcasecmp(name, "two_blocks"))
        return MG_PROBLEM_TWOBLOCKS;
    return -1;
}

const char *mg_problem_name(int type) {
    return type >= 0 && type < MG_PROBLEM_COUNT ? names[type] : "unknown";
}

/* splitmix64: a small, well-mixed generator; one stream per seed. */
static uint64_t next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double uniform(uint64_t *state) {
    return (double)(next(state) >> 11) * (1.0 / 9007199254740992.0);
}

void mg_problem_counts(int type, int p, int64_t b, double rho, uint64_t seed, int64_t *counts) {
    uint64_t state = seed;
    for (int i = 0; i < p; i++) {
        int64_t m = 0;
        switch (type) {
        case MG_PROBLEM_SAME: /* m_i = b */
            m = b;
            break;
        case MG_PROBLEM_RANDOM: /* uniform in [1, 2b] */
            m = b > 0 ? 1 + (int64_t)(next(&state) % (uint64_t)(2 * b)) : 0;
            break;
        case MG_PROBLEM_SPIKES: /* rho * b with probability 1/rho, else 1 */
            m = uniform(&state) * rho < 1.0 ? (int64_t)llround(rho * (double)b) : 1;
            break;
        case MG_PROBLEM_DECREASING: /* floor(2b(p - i) / p) + 1 */
            m = 2 * b * (int64_t)(p - i) / p + 1;
            break;
        case MG_PROBLEM_ALTERNATING: /* b + floor(b/2) at even ranks, b - floor(b/2) at odd */
            m = i % 2 == 0 ? b + b / 2 : b - b / 2;
            break;
        case MG_PROBLEM_TWOBLOCKS: /* b at ranks 0 and p - 1, 0 elsewhere */
            m = i == 0 || i == p - 1 ? b : 0;
            break;
        default:
            m = 0;
        }
        counts[i] = m;
    }
}

int mg_problem_classify(const int *c, int p) {
    int mn = c[0], mx = c[0];
    for (int i = 1; i < p; i++) mn = c[i] < mn ? c[i] : mn, mx = c[i] > mx ? c[i] : mx;
    if (mn == mx) return MG_PROBLEM_SAME;
    int inner_zero = 1, even = 1, odd = 1, down = 1, big = 0, small_low = 1;
    for (int i = 1; i + 1 < p; i++) inner_zero &= c[i] == 0;
    if (p >= 3 && inner_zero && c[0] == c[p - 1] && c[0] > 0) return MG_PROBLEM_TWOBLOCKS;
    /* a few blocks of more than half the largest, every other at most a quarter of it */
    for (int i = 0; i < p; i++) {
        if (2 * (int64_t)c[i] > mx)
            big++;
        else
            small_low &= 4 * (int64_t)c[i] <= mx;
    }
    if (big >= 1 && 2 * big <= p && small_low) return MG_PROBLEM_SPIKES;
    for (int i = 2; i < p; i++) {
        if (i % 2)
            odd &= c[i] == c[1];
        else
            even &= c[i] == c[0];
    }
    if (p >= 2 && even && odd) return MG_PROBLEM_ALTERNATING;
    for (int i = 1; i < p; i++) down &= c[i] <= c[i - 1];
    if (down) return MG_PROBLEM_DECREASING;
    return MG_PROBLEM_RANDOM;
}

static int64_t sum_of(int type, int p, int64_t b, double rho, uint64_t seed, int64_t *tmp) {
    mg_problem_counts(type, p, b, rho, seed, tmp);
    int64_t s = 0;
    for (int i = 0; i < p; i++) s += tmp[i];
    return s;
}

static int64_t distance(int64_t a, int64_t b) {
    return a > b ? a - b : b - a;
}

int64_t mg_problem_base(int type, int p, int64_t total, double rho, uint64_t seed) {
    if (type == MG_PROBLEM_RANDOM && p > 0) { /* draws mod 2b: the sum is not monotone in b, */
        int64_t b = llround((double)total / p - 0.5); /* its expectation p (b + 1/2) is */
        return b > 1 ? b : 1;
    }
    int64_t *tmp = p > 0 ? malloc(sizeof(int64_t) * (size_t)p) : NULL;
    if (!tmp) return 1;
    int64_t lo = 1, hi = total > 1 ? total : 1;
    while (lo < hi) { /* the smallest b whose sum reaches total */
        int64_t mid = lo + (hi - lo) / 2;
        if (sum_of(type, p, mid, rho, seed, tmp) < total)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t best = lo, bd = distance(sum_of(type, p, lo, rho, seed, tmp), total);
    for (int64_t b = lo > 2 ? lo - 2 : 1; b <= lo + 2; b++) {
        int64_t d = distance(sum_of(type, p, b, rho, seed, tmp), total);
        if (d < bd) best = b, bd = d;
    }
    free(tmp);
    return best;
}

void mg_problem_counts_total(int type, int p, int64_t total, double rho, uint64_t seed,
                             int64_t *counts) {
    mg_problem_counts(type, p, mg_problem_base(type, p, total, rho, seed), rho, seed, counts);
    int64_t diff = total;
    for (int i = 0; i < p; i++) diff -= counts[i];
    while (diff) {
        int big = 0;
        for (int i = 1; i < p; i++) big = counts[i] > counts[big] ? i : big;
        int64_t take = diff > 0 ? diff : (counts[big] < -diff ? counts[big] : -diff);
        counts[big] += diff > 0 ? take : -take;
        diff += diff > 0 ? -take : take;
        if (!take) break; /* nothing left to take (total < 0) */
    }
}
