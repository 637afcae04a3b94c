/* The registry: the implementation of every algorithm row (need, predicate, run), generated
 * from algorithms.def like the catalog's names (catalog/catalog.c), and the public lookups,
 * which are the catalog's. The default of collective c has algorithm id c. */
#include "registry.h"
#include "algorithms/algorithms.h"
#include "runtime/mpi_defects.h"
#include "libalg/libalg.h"
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
_Static_assert(MG_DECLINE_LIBRARY == MPIGUIDE_DECLINE_LIBRARY, "decline bit LIBRARY");

const mg_alg mg_algs[] = {
#define MG_COLL(ID, ...)                                                                           \
    {MPIGUIDE_COLL_##ID, "default", "library", NULL, NULL, NULL, 0, MG_AF_DEFAULT},
#include "catalog/collectives.def"
#undef MG_COLL
#define MG_ALG(ID, name, guideline, declines, flags)                                               \
    {MPIGUIDE_COLL_##ID,   #name,     guideline, mg_##name##_need,                                 \
     mg_##name##_supports, mg_##name, declines,  flags},
#include "catalog/algorithms.def"
#undef MG_ALG
};
const int mg_nalgs = (int)(sizeof mg_algs / sizeof mg_algs[0]);

MG_EXPORT int mpiguide_collective_id(const char *name) {
    return mg_coll_lookup(name);
}

MG_EXPORT const char *mpiguide_collective_name(int coll) {
    return mg_coll_name(coll);
}

MG_EXPORT const char *mpiguide_collective_short(int coll) {
    return mg_coll_short(coll);
}

/* Library algorithms follow the registry's rows (src/libalg/; none before discovery). */
static const mg_libalg *lib(int alg) {
    const mg_libalg *e = alg >= mg_nalgs ? mg_libalg_by_id(alg) : NULL;
    return e && e->runnable ? e : NULL;
}

MG_EXPORT int mpiguide_algorithm_count(void) {
    return mg_nalgs + (mg_libalg_first_id() == mg_nalgs ? mg_libalg_nrunnable() : 0);
}

MG_EXPORT int mpiguide_algorithm_id(int coll, const char *name) {
    int id = mg_alg_lookup(coll, name);
    return id < mg_nalg_names || lib(id) ? id : -1;
}

MG_EXPORT int mpiguide_algorithm_collective(int alg) {
    if (alg >= mg_nalg_names) return lib(alg) ? lib(alg)->coll : -1;
    return mg_alg_coll(alg);
}

MG_EXPORT const char *mpiguide_algorithm_name(int alg) {
    if (alg >= mg_nalg_names) return lib(alg) ? lib(alg)->name : NULL;
    return mg_alg_name(alg);
}

MG_EXPORT const char *mpiguide_algorithm_guideline(int alg) {
    if (lib(alg)) return lib(alg)->guideline;
    return mg_alg_valid(alg) ? mg_alg_table[alg].guideline : NULL;
}

MG_EXPORT int mpiguide_default_algorithm(int coll) {
    return mg_coll_valid(coll) ? coll : -1;
}

MG_EXPORT unsigned mpiguide_algorithm_declines(int alg) {
    /* a library algorithm also declines calls on a known defect of its collective (run.c) */
    if (lib(alg))
        return mg_libalg_decline_mask(lib(alg)->restrict_bits) |
               (mg_defects_in(lib(alg)->coll) ? MG_DECLINE_DEFECT : 0u);
    return mg_alg_valid(alg) ? mg_alg_table[alg].declines : 0;
}

MG_EXPORT int mpiguide_algorithm_is_reduction(int alg) {
    if (alg >= mg_nalg_names && !lib(alg)) return 0;
    return (mg_alg_flags(alg) & MG_AF_REDUCTION) != 0;
}

MG_EXPORT int mpiguide_algorithm_kind(int alg) {
    if (lib(alg)) return MPIGUIDE_KIND_LIBRARY;
    if (alg < 0 || alg >= mg_nalgs) return -1;
    return (mg_algs[alg].flags & MG_AF_DEFAULT) ? MPIGUIDE_KIND_DEFAULT : MPIGUIDE_KIND_MOCKUP;
}

MG_EXPORT int mpiguide_library_algorithm(int alg, const char **mpi, const char **variable,
                                         int *value) {
    const mg_libalg *e = lib(alg);
    if (!e) return 0;
    if (mpi) *mpi = e->mpi;
    if (variable) *variable = e->var;
    if (value) *value = e->value;
    return 1;
}

MG_EXPORT const char *mpiguide_library_off(void) {
    return mg_libalg_off();
}

MG_EXPORT long long mpiguide_msize(int coll, const mpiguide_args *args) {
    if (!mg_coll_valid(coll)) return -1;
    return (long long)mg_msize(coll, args);
}
