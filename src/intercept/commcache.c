/* Per-communicator facts for the hot path (size, rank, intercommunicator, opt-out) in a small
 * direct-mapped cache. Its lifetime follows the communicator through an attribute of ours:
 * MPI calls the attribute's delete callback whenever the communicator is freed, however that
 * happens, and the entry is dropped, so a reused handle never finds stale facts. The
 * attribute's value is the opt-out flag, copied by MPI_Comm_dup as MPI-4 copies info hints.
 * Also the sizes of the predefined datatypes and the classes of the predefined ops, which are
 * never freed. */
#include "intercept.h"
#include "online.h"
#include "runtime/mpi_defects.h"
#include <strings.h>

mg_centry mg_ccache[MG_CC_SLOTS];
uint32_t mg_left[MG_CC_SLOTS][MPIGUIDE_COLL_COUNT];

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

int mg_memo_key_default(int coll, const mg_args *a, const mg_centry *e, uintptr_t *tk, int *cnt,
                        uintptr_t *ok) {
    if (mg_coll_sizeless(coll)) return mg_memo_key(coll, a, e->rank, e->p, tk, cnt, ok);
    int64_t count;
    int ts;
    MPI_Datatype t;
    mg_call_source(coll, a, e->rank, e->p, &count, &t);
    return count >= 0 && mg_tcache_get(t, &ts) && mg_memo_key_of(coll, a, count, t, tk, cnt, ok);
}

void mg_memo_default(int coll, const mg_args *a) {
    if (mg_threads || (mg_rt.s.repair && mg_defects_in(coll))) return;
    uintptr_t k = mg_hbits(&a->comm, sizeof a->comm);
    mg_centry *e = &mg_ccache[mg_hslot(k, 6)];
    uintptr_t tk = 0, ok = 0;
    int cnt = 0;
    if (e->key != k || !k || e->flags || !mg_memo_key_default(coll, a, e, &tk, &cnt, &ok)) return;
    e->dtype[coll] = tk, e->dcount[coll] = cnt, e->dop[coll] = ok;
    if (mg_online_on) { /* online mode's fast path takes a memo only with a countdown: endless */
        int slot = (int)(e - mg_ccache);
        mg_online_settle(slot, coll);
        mg_left[slot][coll] = UINT32_MAX;
    }
}

int mg_comm_start(void) {
    memset(mg_ccache, 0, sizeof mg_ccache);
    memset(mg_left, 0, sizeof mg_left);
    return PMPI_Comm_create_keyval(copy_attr, delete_attr, &keyval, NULL);
}

void mg_comm_stop(void) {
    memset(mg_ccache, 0, sizeof mg_ccache);
    memset(mg_left, 0, sizeof mg_left);
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
    /* the calls the fast path took on the entry's countdowns belong to online mode's cells */
    if (mg_online_on) mg_online_slot_reset((int)(e - mg_ccache));
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
        e->shape[c].alg = -1;
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
