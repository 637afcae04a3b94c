/* The registry: the implementation of every algorithm row (need, predicate, run), generated
 * from algorithms.def like the catalog's names (catalog/catalog.c), and the public lookups,
 * which are the catalog's. The default of collective c has algorithm id c. */
#include "registry.h"
#include "algorithms/algorithms.h"
#include <string.h>
#include <strings.h>

/* The public enum, the catalog and the tables must list collectives in the same order. */
#define MG_COLL(ID, ...)                                                                           \
    _Static_assert((int)MG_CAT_##ID == (int)MPIGUIDE_COLL_##ID, "collective order: " #ID);
#include "catalog/collectives.def"
#undef MG_COLL
_Static_assert((int)MG_CAT_NCOLLS == (int)MPIGUIDE_COLL_COUNT, "collective count");
_Static_assert(MG_DECLINE_INTERCOMM == MPIGUIDE_DECLINE_INTERCOMM &&
                   MG_DECLINE_OVERFLOW == MPIGUIDE_DECLINE_OVERFLOW &&
                   MG_DECLINE_DATATYPE == MPIGUIDE_DECLINE_DATATYPE &&
                   MG_DECLINE_OP == MPIGUIDE_DECLINE_OP &&
                   MG_DECLINE_THREADS == MPIGUIDE_DECLINE_THREADS &&
                   MG_DECLINE_DEFECT == MPIGUIDE_DECLINE_DEFECT,
               "decline bits");

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
    return mg_coll_lookup(name);
}

MG_EXPORT const char *mpiguide_collective_name(int coll) {
    return mg_coll_name(coll);
}

MG_EXPORT const char *mpiguide_collective_short(int coll) {
    return mg_coll_short(coll);
}

MG_EXPORT int mpiguide_algorithm_count(void) {
    return mg_nalgs;
}

MG_EXPORT int mpiguide_algorithm_id(int coll, const char *name) {
    return mg_alg_lookup(coll, name);
}

MG_EXPORT int mpiguide_algorithm_collective(int alg) {
    return mg_alg_coll(alg);
}

MG_EXPORT const char *mpiguide_algorithm_name(int alg) {
    return mg_alg_name(alg);
}

MG_EXPORT const char *mpiguide_algorithm_guideline(int alg) {
    return mg_alg_valid(alg) ? mg_alg_table[alg].guideline : NULL;
}

MG_EXPORT int mpiguide_default_algorithm(int coll) {
    return mg_coll_valid(coll) ? coll : -1;
}

MG_EXPORT unsigned mpiguide_algorithm_declines(int alg) {
    return mg_alg_valid(alg) ? mg_alg_table[alg].declines : 0;
}

MG_EXPORT int mpiguide_algorithm_is_reduction(int alg) {
    return (mg_alg_flags(alg) & MG_AF_REDUCTION) != 0;
}

MG_EXPORT long long mpiguide_msize(int coll, const mpiguide_args *args) {
    if (!mg_coll_valid(coll)) return -1;
    return (long long)mg_msize(coll, args);
}
