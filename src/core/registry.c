/* The registry tables (collectives and algorithms) and the public lookups on them. Rows come
 * from collectives.def and algorithms.def; the default of collective c has algorithm id c. */
#include "registry.h"
#include "algorithms/algorithms.h"
#include <string.h>
#include <strings.h>

#define MG_COLL(ID, Name, sname, flags, P, A, F, D)                                                \
    [MPIGUIDE_COLL_##ID] = {"MPI_" #Name, #sname, flags},
const mg_coll mg_colls[MPIGUIDE_COLL_COUNT] = {
#include "catalog/collectives.def"
};
#undef MG_COLL

/* The public enum and the table must list collectives in the same order. */
enum mg_coll_order {
#define MG_COLL(ID, ...) MG_ORDER_##ID,
#include "catalog/collectives.def"
#undef MG_COLL
    MG_ORDER_COUNT
};
#define MG_COLL(ID, ...)                                                                           \
    _Static_assert((int)MG_ORDER_##ID == (int)MPIGUIDE_COLL_##ID, "collective order: " #ID);
#include "catalog/collectives.def"
#undef MG_COLL
_Static_assert((int)MG_ORDER_COUNT == (int)MPIGUIDE_COLL_COUNT, "collective count");

const mg_alg mg_algs[] = {
#define MG_COLL(ID, ...)                                                                           \
    {MPIGUIDE_COLL_##ID, "default", "library", NULL, NULL, NULL, 0, MG_AF_DEFAULT},
#include "catalog/collectives.def"
#undef MG_COLL
#define MG_ALG(ID, name, guideline, declines, flags)                                               \
    {MPIGUIDE_COLL_##ID,   #name,     guideline, mg_##name##_need,                                 \
     mg_##name##_supports, mg_##name, declines,  flags},
#include "algorithms/algorithms.def"
#undef MG_ALG
};
const int mg_nalgs = (int)(sizeof mg_algs / sizeof mg_algs[0]);

const mg_alg *mg_alg_get(int alg) {
    return (alg >= 0 && alg < mg_nalgs) ? &mg_algs[alg] : NULL;
}

MG_EXPORT int mpiguide_collective_id(const char *name) {
    if (!name) return -1;
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++)
        if (!strcasecmp(name, mg_colls[c].name) || !strcasecmp(name, mg_colls[c].sname)) return c;
    return -1;
}

MG_EXPORT const char *mpiguide_collective_name(int coll) {
    return (coll >= 0 && coll < MPIGUIDE_COLL_COUNT) ? mg_colls[coll].name : NULL;
}

MG_EXPORT const char *mpiguide_collective_short(int coll) {
    return (coll >= 0 && coll < MPIGUIDE_COLL_COUNT) ? mg_colls[coll].sname : NULL;
}

MG_EXPORT int mpiguide_algorithm_count(void) {
    return mg_nalgs;
}

MG_EXPORT int mpiguide_algorithm_id(int coll, const char *name) {
    if (!name) return -1;
    for (int i = 0; i < mg_nalgs; i++)
        if (mg_algs[i].coll == coll && !strcmp(mg_algs[i].name, name)) return i;
    return -1;
}

MG_EXPORT int mpiguide_algorithm_collective(int alg) {
    const mg_alg *A = mg_alg_get(alg);
    return A ? A->coll : -1;
}

MG_EXPORT const char *mpiguide_algorithm_name(int alg) {
    const mg_alg *A = mg_alg_get(alg);
    return A ? A->name : NULL;
}

MG_EXPORT const char *mpiguide_algorithm_guideline(int alg) {
    const mg_alg *A = mg_alg_get(alg);
    return A ? A->guideline : NULL;
}

MG_EXPORT int mpiguide_default_algorithm(int coll) {
    return (coll >= 0 && coll < MPIGUIDE_COLL_COUNT) ? coll : -1;
}

MG_EXPORT unsigned mpiguide_algorithm_declines(int alg) {
    const mg_alg *A = mg_alg_get(alg);
    return A ? A->declines : 0;
}

MG_EXPORT int mpiguide_algorithm_is_reduction(int alg) {
    const mg_alg *A = mg_alg_get(alg);
    return A && (A->flags & MG_AF_REDUCTION);
}

MG_EXPORT long long mpiguide_msize(int coll, const mpiguide_args *args) {
    if (coll < 0 || coll >= MPIGUIDE_COLL_COUNT) return -1;
    return (long long)mg_msize(coll, args);
}
