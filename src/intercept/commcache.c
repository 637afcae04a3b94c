/* Per-communicator facts for the hot path (size, rank, intercommunicator, opt-out) in a small
 * direct-mapped cache. Its lifetime follows the communicator through an attribute of ours:
 * MPI calls the attribute's delete callback whenever the communicator is freed, however that
 * happens, and the entry is dropped, so a reused handle never finds stale facts. The
 * attribute's value is the opt-out flag, copied by MPI_Comm_dup as MPI-4 copies info hints.
 * Also the sizes of the predefined datatypes and the classes of the predefined ops, which are
 * never freed. */
#include "intercept.h"
#include <strings.h>

mg_centry mg_ccache[MG_CC_SLOTS];
mg_tentry mg_tcache[1u << MG_TC_BITS];
mg_oentry mg_ocache[1u << MG_OC_BITS];

static int keyval = MPI_KEYVAL_INVALID;

#define MARK_SEEN ((void *)(uintptr_t)1)
#define MARK_OFF  ((void *)(uintptr_t)2)

static void drop(MPI_Comm comm) {
    uintptr_t k = mg_hbits(&comm, sizeof comm);
    mg_centry *e = &mg_ccache[mg_hslot(k, 6)];
    if (e->key == k) e->key = 0;
}

static int copy_attr(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag) {
    (void)old, (void)kv, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_attr(MPI_Comm comm, int kv, void *val, void *extra) {
    (void)kv, (void)val, (void)extra;
    drop(comm);
    return MPI_SUCCESS;
}

int mg_comm_start(void) {
    memset(mg_ccache, 0, sizeof mg_ccache);
    return PMPI_Comm_create_keyval(copy_attr, delete_attr, &keyval, NULL);
}

void mg_comm_stop(void) {
    memset(mg_ccache, 0, sizeof mg_ccache);
    if (keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&keyval);
    keyval = MPI_KEYVAL_INVALID;
}

int mg_comm_query(MPI_Comm comm, int *p, int *rank, uint32_t *flags) {
    int inter = 0, flag = 0;
    void *val = NULL;
    if (comm == MPI_COMM_NULL || keyval == MPI_KEYVAL_INVALID ||
        PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        PMPI_Comm_size(comm, p) != MPI_SUCCESS || PMPI_Comm_rank(comm, rank) != MPI_SUCCESS ||
        PMPI_Comm_get_attr(comm, keyval, &val, &flag) != MPI_SUCCESS)
        return -1;
    *flags = (inter ? MG_COMM_INTER : 0) | (flag && val == MARK_OFF ? MG_COMM_OFF : 0);
    return 0;
}

mg_centry *mg_comm_miss(MPI_Comm comm, mg_centry *e) {
    int p, rank, inter, flag = 0;
    void *val = NULL;
    if (comm == MPI_COMM_NULL || keyval == MPI_KEYVAL_INVALID) return NULL;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        PMPI_Comm_size(comm, &p) != MPI_SUCCESS || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        PMPI_Comm_get_attr(comm, keyval, &val, &flag) != MPI_SUCCESS)
        return NULL;
    if (!flag) {
        val = MARK_SEEN;
        if (PMPI_Comm_set_attr(comm, keyval, val) != MPI_SUCCESS) return NULL;
    }
    e->key = mg_hbits(&comm, sizeof comm);
    e->p = p;
    e->rank = rank;
    e->flags = (inter ? MG_COMM_INTER : 0) | (val == MARK_OFF ? MG_COMM_OFF : 0);
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        e->prof[c] = mg_seltab_find(&mg_rt.sel, c, p);
        e->memo[c] = 0;
        e->dtype[c] = 0;
        e->dop[c] = 0;
        e->dcount[c] = 0;
        e->plan[c].alg = -1;
    }
    e->nodes = e->ppn = 0;
    if (mg_acct_on && !inter) mg_record_layout(comm, e);
    return e;
}

void mg_comm_set_off(MPI_Comm comm, int off) {
    if (off < 0 || keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL) return;
    PMPI_Comm_set_attr(comm, keyval, off ? MARK_OFF : MARK_SEEN);
    drop(comm);
}

int mg_info_off(MPI_Info info) {
    char v[32] = "";
    int flag = 0;
    if (info == MPI_INFO_NULL) return -1;
#if MPI_VERSION >= 4
    int len = (int)sizeof v;
    if (PMPI_Info_get_string(info, "mpiguide_off", &len, v, &flag) != MPI_SUCCESS) return -1;
#else
    if (PMPI_Info_get(info, "mpiguide_off", (int)sizeof v - 1, v, &flag) != MPI_SUCCESS) return -1;
#endif
    if (!flag) return -1;
    return !strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "yes");
}

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
#define MG_TYPE(T) T,
#include "types.def"
#undef MG_TYPE
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
#define MG_OP(O) O,
#include "ops.def"
#undef MG_OP
    };
    _Static_assert(sizeof ops / sizeof ops[0] == MG_NOPS_ALL, "ops.def and the catalog differ");
    _Static_assert(MG_NOPS_ALL <= (1u << MG_OC_BITS) / 2, "op cache too small");
    memset(mg_ocache, 0, sizeof mg_ocache);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        uintptr_t k = mg_hbits(&ops[i], sizeof ops[i]);
        uint32_t h = mg_hslot(k, MG_OC_BITS);
        while (mg_ocache[h].key && mg_ocache[h].key != k) h = (h + 1) & ((1u << MG_OC_BITS) - 1);
        if (k) mg_ocache[h] = (mg_oentry){k, (int16_t)mg_op_class(mg_op_names_all[i]), (int16_t)i};
    }
}
