/* The irregular problem types of Träff's section 5, exactly as defined there: block sizes per
 * rank in MPI_INT elements from a base size b. Deterministic in the seed, so every rank of a
 * benchmark computes the same vector without communication. Pure. */
#include "problems.h"
#include <math.h>
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
