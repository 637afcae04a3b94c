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

#endif
