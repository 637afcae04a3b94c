/* The algorithm registry: one row per (collective, algorithm) of catalog/algorithms.def with its
 * guideline, scratch need, argument predicate and implementation, the defaults first. The
 * dispatcher (dispatch.h) reaches mock-ups only through this table. */
#ifndef MG_REGISTRY_H
#define MG_REGISTRY_H

#include "runtime/call.h"

typedef struct mg_alg {
    int coll;
    const char *name;
    const char *guideline;
    mg_need_fn need;
    mg_supports_fn supports;
    mg_run_fn run;
    unsigned declines; /* documented decline reasons (mpiguide_decline bits) */
    unsigned flags;
} mg_alg;

extern const mg_alg mg_algs[];
extern const int mg_nalgs;

/* The row of a mock-up or default id; NULL for any other id (a library algorithm). Inline: the
 * dispatcher asks it on every call that runs an algorithm. */
static inline const mg_alg *mg_alg_get(int alg) {
    return (alg >= 0 && alg < mg_nalgs) ? &mg_algs[alg] : (const mg_alg *)0;
}
#endif
