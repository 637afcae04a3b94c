/* The tables of predefined datatypes (their sizes) and ops (their classes) the hot path reads
 * without an MPI call (intercept.h mg_tcache_get, mg_ocache_get), filled once at start-up. */
#include "intercept.h"

mg_tentry mg_tcache[1u << MG_TC_BITS];
mg_oentry mg_ocache[1u << MG_OC_BITS];

static void add_type(MPI_Datatype t) {
    int size = 0;
    if (t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &size) != MPI_SUCCESS || size < 0) return;
    uintptr_t k = mg_hbits(&t, sizeof t);
    if (!k) return;
    for (uint32_t h = mg_hslot(k, MG_TC_BITS), i = 0; i < (1u << MG_TC_BITS);
         i++, h = (h + 1) & ((1u << MG_TC_BITS) - 1)) {
        if (mg_tcache[h].key == k) return;
        if (!mg_tcache[h].key) {
            mg_tcache[h] = (mg_tentry){k, size};
            return;
        }
    }
}

void mg_types_start(void) {
    static const MPI_Datatype types[] = {
#define MG_DTYPE(N, ...) N,
#include "catalog/datatypes.def"
#undef MG_DTYPE
    };
    memset(mg_tcache, 0, sizeof mg_tcache);
    /* A type this MPI lacks must not abort start-up through MPI_ERRORS_ARE_FATAL. */
    MPI_Errhandler old = MPI_ERRHANDLER_NULL;
    if (PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &old) != MPI_SUCCESS) return;
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) add_type(types[i]);
    /* SMPI 3.32 answers MPI_ERRHANDLER_NULL for world's handler on every rank but the first
     * to set one (its per-rank table starts empty) and refuses NULL back: the standard's
     * default stands in there, and a handle we did not get is not freed. */
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD,
                             old != MPI_ERRHANDLER_NULL ? old : MPI_ERRORS_ARE_FATAL);
    if (old != MPI_ERRHANDLER_NULL) PMPI_Errhandler_free(&old);
    /* the predefined ops, in the order of the catalog's names (their classes come from there) */
    static const MPI_Op ops[] = {
#define MG_OPDEF(N, ...) N,
#include "catalog/ops.def"
#undef MG_OPDEF
    };
    _Static_assert(sizeof ops / sizeof ops[0] == MG_NOPS_ALL, "ops.def and MG_NOPS_ALL");
    _Static_assert(MG_NOPS_ALL <= (1u << MG_OC_BITS) / 2, "op cache too small");
    memset(mg_ocache, 0, sizeof mg_ocache);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        uintptr_t k = mg_hbits(&ops[i], sizeof ops[i]);
        uint32_t h = mg_hslot(k, MG_OC_BITS);
        while (mg_ocache[h].key && mg_ocache[h].key != k) h = (h + 1) & ((1u << MG_OC_BITS) - 1);
        if (k) mg_ocache[h] = (mg_oentry){k, (int16_t)mg_op_class(mg_op_names_all[i]), (int16_t)i};
    }
}
