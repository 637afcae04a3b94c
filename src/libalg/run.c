/* Running a library algorithm for one call. Open MPI reads coll_tuned_<coll>_algorithm when a
 * communicator is created, so the call runs on a shadow communicator per (user communicator,
 * algorithm), created collectively the first time that pair is selected (set the variable,
 * PMPI_Comm_split, restore it) and cached in an attribute of the user's communicator whose
 * delete callback frees it. MPICH reads MPIR_CVAR_<COLL>_INTRA_ALGORITHM at every call on its
 * MPIR path, so the variable (and the switch to that path) is set for the call and restored.
 * Every decision uses values shared by all ranks; a failure to create a shadow is agreed with
 * one PMPI_Allreduce, so every rank falls back together. A nonblocking collective (Open MPI's
 * libnbc reads coll_libnbc_<coll>_algorithm at every start, like MPICH) is set, started and
 * restored on both MPIs, and never communicates before its start: a start must not wait for
 * the other ranks (docs/interception.md "Nonblocking collectives"). */
#include "runtime/mpi_defects.h"
#include "libalg_mpi.h"
#include "runtime/scratch.h"
#include "runtime/state.h"
#include <stdlib.h>
#include <string.h>

extern int mg_libalg_multinode;
int mg_libalg_var_set(int coll, int value, int *old);
int mg_libalg_var_restore(int coll, int old);
int mg_libalg_device_set(int *old);
void mg_libalg_device_restore(int old);
void mg_libalg_discover_stop(void);

/* ---- what the dispatcher asks (dispatch/dispatch.c): ready, and the declared restrictions ---- */

int mg_libalg_ready(void) {
    return mg_rt.usable && !mg_libalg_off();
}

unsigned mg_libalg_declines(int alg, const mg_args *a, const mg_shape *s) {
    const mg_libalg *e = mg_libalg_by_id(alg);
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    /* MPI_THREAD_MULTIPLE: the variables are process-wide, like the pools. */
    if (level == MPI_THREAD_MULTIPLE) return MPIGUIDE_DECLINE_THREADS;
    mg_libalg_call c = {s->p,
                        mg_coll_is_reduction(e->coll) ? s->count : 0,
                        s->commute,
                        s->predefined_op,
                        !mg_coll_is_rooted(e->coll) && a->sendbuf == MPI_IN_PLACE,
                        s->extent,
                        s->true_lb,
                        s->true_extent,
                        1,
                        mg_libalg_multinode,
                        0,
                        s->msize};
    /* the signature is every rank's, so is the answer (decoded only where a row asks) */
    if (e->restrict_bits & MG_LR_UNMIXED) c.mixed = mg_type_mixed(s->type);
    if (mg_coll_blocking(e->coll) ==
        MPIGUIDE_COLL_REDUCE_SCATTER) /* recvcounts is the same on every rank */
        for (int i = 1; i < s->p; i++) c.regular &= a->recvcounts[i] == a->recvcounts[0];
    unsigned why = mg_libalg_check(e->restrict_bits, &c);
    /* the agreement MG_LR_SAME_TYPE needs is a collective call: a start may not make one */
    if (!why && (e->restrict_bits & MG_LR_SAME_TYPE) && mg_coll_is_nb(e->coll))
        why = MPIGUIDE_DECLINE_DATATYPE;
    /* The library's own algorithm may run into a known defect of this MPI where its default
     * does not (Open MPI's op/avx sums in reduce_scatter_block_lib_basic_linear): a call whose
     * shared facts meet or may meet an entry runs the default, which is what the untuned
     * program runs, so a tuned run is never less correct. */
    if (!why && mg_defects_in(e->coll)) {
        mg_facts f;
        mg_facts_of(e->coll, a, s, 1, &f);
        if (mg_defect_hit(&f)) why = MPIGUIDE_DECLINE_DEFECT;
    }
    return why;
}

/* ---- Open MPI: shadow communicators ---- */

#define ST_NONE   0
#define ST_READY  1
#define ST_FAILED 2

typedef struct shadow_set {
    MPI_Comm user;
    struct shadow_set *next, *prev;
    int all_failed; /* this communicator cannot have shadows (agreed) */
    unsigned char state[MG_LIBALG_MAX];
    MPI_Comm comm[MG_LIBALG_MAX];
} shadow_set;

/* The attribute of a communicator on which some rank could not keep shadows: needs no memory,
 * so a rank whose allocation failed records the agreed failure like every other rank. */
static shadow_set no_shadows = {.all_failed = 1};

static int keyval = MPI_KEYVAL_INVALID;
static shadow_set *sets;
static struct {
    MPI_Comm comm;
    shadow_set *set;
} memo = {MPI_COMM_NULL, NULL};
#ifdef MPIGUIDE_TEST_ALGORITHMS
static int fail_rank = -2; /* MPIGUIDE_TEST_SHADOW_FAIL: this world rank fails to create */
#endif

static void free_set(shadow_set *s) {
    for (int k = 0; k < MG_LIBALG_MAX; k++)
        if (s->state[k] == ST_READY) PMPI_Comm_free(&s->comm[k]);
    if (s->prev)
        s->prev->next = s->next;
    else
        sets = s->next;
    if (s->next) s->next->prev = s->prev;
    if (memo.set == s) memo.set = NULL, memo.comm = MPI_COMM_NULL;
    free(s);
}

static int no_copy(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag) {
    (void)old, (void)kv, (void)extra, (void)in, (void)out;
    *flag = 0; /* a duplicate of the user's communicator gets shadows of its own */
    return MPI_SUCCESS;
}

static int delete_set(MPI_Comm comm, int kv, void *val, void *extra) {
    (void)comm, (void)kv, (void)extra;
    if (val && val != &no_shadows) free_set(val);
    if (memo.comm == comm) memo.set = NULL, memo.comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

static int make_keyval(void) {
    if (keyval == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(no_copy, delete_set, &keyval, NULL) != MPI_SUCCESS)
        return -1;
    return 0;
}

static shadow_set *find_set(MPI_Comm comm) {
    if (memo.set && memo.comm == comm) return memo.set;
    void *val = NULL;
    int flag = 0;
    if (keyval == MPI_KEYVAL_INVALID ||
        PMPI_Comm_get_attr(comm, keyval, &val, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    memo.comm = comm;
    memo.set = val;
    return val;
}

static shadow_set *new_set(MPI_Comm comm) {
    if (make_keyval()) return NULL;
    shadow_set *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->user = comm;
    s->next = sets;
    if (sets) sets->prev = s;
    sets = s;
    if (PMPI_Comm_set_attr(comm, keyval, s) != MPI_SUCCESS) {
        free_set(s);
        return NULL;
    }
    return s;
}

/* Outcome codes of the agreement (the minimum over ranks wins). */
#define AG_NOSET 0 /* some rank cannot keep shadows for this communicator at all */
#define AG_FAIL  1 /* creating this one failed somewhere */
#define AG_OK    2

/* Creates the shadow of (comm, algorithm k) on every rank of comm; collective. */
static int create_shadow(shadow_set *s, MPI_Comm comm, const mg_libalg *e, int k) {
    int ok = s ? AG_OK : AG_NOSET, rank = 0, old = 0, written = 0;
    MPI_Comm sh = MPI_COMM_NULL;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    PMPI_Comm_rank(comm, &rank);
    /* Failures must come back to us, not abort: the user's handler returns afterwards. */
    int have_eh = PMPI_Comm_get_errhandler(comm, &eh) == MPI_SUCCESS;
    if (have_eh) PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    if (ok == AG_OK) {
        written = mg_libalg_var_set(e->coll, e->value, &old) == MPI_SUCCESS;
        if (!written) ok = AG_FAIL;
    }
    int rc = PMPI_Comm_split(comm, 0, rank, &sh); /* every rank, whatever happened above */
    if (written && mg_libalg_var_restore(e->coll, old) != MPI_SUCCESS) ok = AG_FAIL;
    if (rc != MPI_SUCCESS && ok == AG_OK) ok = AG_FAIL;
#ifdef MPIGUIDE_TEST_ALGORITHMS
    if (fail_rank == -2) {
        const char *f = getenv("MPIGUIDE_TEST_SHADOW_FAIL");
        fail_rank = f ? atoi(f) : -1;
    }
    if (fail_rank >= 0 && fail_rank == mg_rt.rank && ok == AG_OK) ok = AG_FAIL;
#endif
    int all = AG_NOSET;
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) all = AG_NOSET;
    if (have_eh) {
        PMPI_Comm_set_errhandler(comm, eh);
        if (all == AG_OK && rc == MPI_SUCCESS) PMPI_Comm_set_errhandler(sh, eh);
        PMPI_Errhandler_free(&eh);
    }
    if (all != AG_OK) {
        if (rc == MPI_SUCCESS && sh != MPI_COMM_NULL) PMPI_Comm_free(&sh);
        if (s && all == AG_NOSET)
            s->all_failed = 1;
        else if (s)
            s->state[k] = ST_FAILED;
        else if (!make_keyval() && PMPI_Comm_set_attr(comm, keyval, &no_shadows) == MPI_SUCCESS)
            memo.comm = comm, memo.set = &no_shadows;
        return 0;
    }
    s->comm[k] = sh;
    s->state[k] = ST_READY;
    return 1;
}

/* MG_LR_SAME_TYPE: every rank passes the same count of a type of the same size (the values
 * this rank's size comes from, docs/dev/interfaces.md section 1). Collective; 1 when so. */
static int same_type_everywhere(const mg_libalg *e, const mg_args *a) {
    int64_t count;
    MPI_Datatype t;
    int p, rank, ts = 0;
    PMPI_Comm_size(a->comm, &p);
    PMPI_Comm_rank(a->comm, &rank);
    mg_call_source(e->coll, a, rank, p, &count, &t);
    if (PMPI_Type_size(t, &ts) != MPI_SUCCESS) ts = -1;
    long long v[4] = {count, -count, ts, -ts}, all[4];
    if (PMPI_Allreduce(v, all, 4, MPI_LONG_LONG, MPI_MIN, a->comm) != MPI_SUCCESS) return 0;
    return all[0] == -all[1] && all[2] == -all[3] && all[2] >= 0;
}

static int run_shadow(const mg_libalg *e, const mg_args *a, int *rc) {
    int k = e->id - mg_libalg_first_id();
    shadow_set *s = find_set(a->comm);
    if (s && s->all_failed) return 0;
    if (!s || s->state[k] == ST_NONE) {
        if (!s) s = new_set(a->comm);
        if (!create_shadow(s, a->comm, e, k)) return 0;
    } else if (s->state[k] == ST_FAILED) {
        return 0;
    }
    mg_args b = *a;
    b.comm = s->comm[k];
    *rc = mg_run_pmpi(e->coll, &b);
    return 1;
}

/* ---- MPICH: set, call, restore ---- */

static int run_set(const mg_libalg *e, const mg_args *a, int *rc) {
    int old = 0, dev = 0;
    if (mg_libalg_var_set(e->coll, e->value, &old) != MPI_SUCCESS) return 0;
    int routed = mg_libalg_device_set(&dev) == 0;
    *rc = mg_run_pmpi(e->coll, a);
    if (routed) mg_libalg_device_restore(dev);
    mg_libalg_var_restore(e->coll, old);
    return 1;
}

int mg_libalg_run(int alg, const mg_args *a, int *rc) {
    const mg_libalg *e = mg_libalg_by_id(alg);
    if (!e) return 0;
    if ((e->restrict_bits & MG_LR_SAME_TYPE) && !same_type_everywhere(e, a)) return 2;
    return !strcmp(e->mpi, "openmpi") && !mg_coll_is_nb(e->coll) ? run_shadow(e, a, rc)
                                                                 : run_set(e, a, rc);
}

void mg_libalg_stop(void) {
    /* Deleting the attribute runs delete_set, which frees the shadows and unlinks the set. */
    while (sets) {
        shadow_set *s = sets;
        if (PMPI_Comm_delete_attr(s->user, keyval) != MPI_SUCCESS) free_set(s);
    }
    if (keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&keyval);
    keyval = MPI_KEYVAL_INVALID;
    memo.set = NULL;
    memo.comm = MPI_COMM_NULL;
    mg_libalg_discover_stop();
}
