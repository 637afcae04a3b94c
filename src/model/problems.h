/* Block-size problems for the irregular collectives (Träff, section 4): per-rank block sizes
 * in MPI_INT elements for Gatherv/Scatterv benchmarks, tests and the simulator. Pure. */
#ifndef MG_PROBLEMS_H
#define MG_PROBLEMS_H

#include <stdint.h>

enum mg_problem {
    MG_PROBLEM_SAME,
    MG_PROBLEM_RANDOM,
    MG_PROBLEM_SPIKES,
    MG_PROBLEM_DECREASING,
    MG_PROBLEM_ALTERNATING,
    MG_PROBLEM_TWOBLOCKS,
    MG_PROBLEM_COUNT
};

/* Problem type by name ("same", "random", ...); -1 when unknown. */
int mg_problem_parse(const char *name);
const char *mg_problem_name(int type);
/* counts[i] for ranks 0..p-1 with base block b (elements), spike factor rho, and seed (the
 * same seed gives the same counts on every rank). */
void mg_problem_counts(int type, int p, int64_t b, double rho, uint64_t seed, int64_t *counts);

/* Which problem type a call's counts look like (docs/record.md "v-collectives"): `same` when
 * every count is equal, else the first of twoblocks (equal ends, zeros between), spikes (at most
 * half the blocks above half the largest, the others at most a quarter of it), alternating
 * (one value at even ranks, another at odd), decreasing (non-increasing), else random.
 * counts[i] >= 0, p >= 1. */
int mg_problem_classify(const int *counts, int p);
/* The base block b (>= 1) whose problem of that type on p ranks has the total closest to
 * `total` elements (the sum is non-decreasing in b: a bisection, then the neighbours); for
 * random, whose sum is not monotone in b, the b of the expected total p (b + 1/2). */
int64_t mg_problem_base(int type, int p, int64_t total, double rho, uint64_t seed);
/* counts of the type whose sum is exactly `total` elements: the problem of mg_problem_base, the
 * difference added to (or taken from) the largest blocks, so the type's shape stays. */
void mg_problem_counts_total(int type, int p, int64_t total, double rho, uint64_t seed,
                             int64_t *counts);

#endif
