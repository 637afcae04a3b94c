/* The decision for one intercepted call: communicator size and rank from the cache, the
 * message size of docs/dev/interfaces.md section 1, then the forced algorithm or the profile's
 * range (hash + binary search, with a one-entry memo per profile for repeated sizes), then the
 * algorithm or the default. Every input is identical on all ranks of the communicator. */
#include "intercept.h"
#include "core/defects.h"
#include "core/scratch.h"
#include "core/sharing.h"
#include "guard.h"
#include "util/diag.h"
#include <stdlib.h>

unsigned char mg_on[MPIGUIDE_COLL_COUNT];
#ifdef MPIGUIDE_TEST_ALGORITHMS
uint64_t mg_test_memo_hits[MPIGUIDE_COLL_COUNT];
#endif
int mg_threads;
int mg_general;
unsigned char mg_checked[MPIGUIDE_COLL_COUNT];
int mg_acct_on;

/* Per profile: the last (msize + 1) << 16 | (alg + 1) looked up; one atomic word, so threads
 * may share it. */
_Atomic uint64_t *mg_lasthit;

static inline void seen(int coll, int64_t msize, int alg) {
    if (mg_report_on) mg_report_seen(coll, msize, alg);
}

/* The library's own collective is due (selection said default, or the mock-up fell back). On a
 * known-defect condition of the running MPI, judged from facts every rank shares (a rooted
 * collective's MPI_IN_PLACE counts as possible), the call is counted, and with MPIGUIDE_REPAIR=1
 * the entry's first repair mock-up that accepts the call runs instead, on every rank alike.
 * Returns 1 with *rc when a repair ran. */
int mg_intercept_repair(int coll, const mg_args *a, int64_t msize, int *rc) {
    mg_shape s;
    if (!mg_defects_in(coll) || mg_shape_of(coll, a, &s) != MPI_SUCCESS || s.inter) return 0;
    mg_facts f;
    mg_facts_of(coll, a, &s, 1, &f);
    const mg_defect *d = mg_defect_hit(&f);
    if (!d) return 0;
    mg_count(coll, MG_N_DEFECT);
    if (!mg_rt.s.repair) return 0;
    for (int i = 0; i < d->nrepair; i++) {
        const mg_alg *A = mg_alg_get(d->repair[i]);
        unsigned declined = 0;
        int err = MPI_SUCCESS;
        if (!A || A->coll != coll ||
            mg_dispatch_plan(A, a, &s, &declined, &err) != MPIGUIDE_RAN_MOCKUP)
            continue;
        mg_count(coll, MG_N_REPAIRED);
        seen(coll, msize, d->repair[i]);
        *rc = mg_dispatch_run(A, a, &s);
        return 1;
    }
    return 0;
}

/* The plan memo's key of the call (mg_plan); 0 when the call cannot have one: a collective
 * whose memo key does not fix its shape (sizes from count vectors), a significant datatype or the
 * op not predefined. A datatype is significant where MPI reads it on this rank: the send side
 * unless MPI_IN_PLACE replaces it or this rank is not Scatter's root, the receive side unless this
 * rank is not the root of Gather or Reduce or is Scatter's root with MPI_IN_PLACE. */
static int plan_key(int coll, const mg_args *a, const mg_centry *e, mg_plan *k) {
    uintptr_t tk, ok;
    int cnt, ts, idx;
    if (!mg_memo_fixes_shape(coll) || !mg_memo_key(coll, a, e->rank, e->p, &tk, &cnt, &ok))
        return 0;
    int root = (mg_coll_flags(coll) & MG_CF_ROOTED) && e->rank == a->root;
    k->inplace = (uint32_t)(a->sendbuf == MPI_IN_PLACE) | (uint32_t)(a->recvbuf == MPI_IN_PLACE)
                                                              << 1;
    k->stype = mg_hbits(&a->sendtype, sizeof a->sendtype);
    k->rtype = mg_hbits(&a->recvtype, sizeof a->recvtype);
    k->scount = a->sendcount;
    k->rcount = a->recvcount;
    k->root = a->root;
    k->op = mg_coll_is_reduction(coll) ? mg_hbits(&a->op, sizeof a->op) : 0;
    int send = !(k->inplace & 1) && (coll != MPIGUIDE_COLL_SCATTER || root);
    int recv = coll == MPIGUIDE_COLL_GATHER || coll == MPIGUIDE_COLL_REDUCE ? root
               : coll == MPIGUIDE_COLL_SCATTER ? !(root && (k->inplace & 2))
                                               : 1;
    if ((send && !mg_tcache_get(a->sendtype, &ts)) || (recv && !mg_tcache_get(a->recvtype, &ts)))
        return 0;
    return !k->op || mg_ocache_get(a->op, &idx) != MG_OPC_USER;
}

static int plan_same(const mg_plan *m, const mg_plan *k, int alg) {
    return m->alg == alg && m->stype == k->stype && m->rtype == k->rtype && m->op == k->op &&
           m->scount == k->scount && m->rcount == k->rcount && m->root == k->root &&
           m->inplace == k->inplace;
}

/* The memo slot of (communicator, collective) for this call, with the call's key in *k; NULL
 * without one (threads: no cache; a communicator's own scratch must be reserved per call). */
static mg_plan *plan_slot(int coll, const mg_args *a, mg_plan *k) {
    if (mg_threads || mg_pool.thread_multiple) return NULL;
    uintptr_t key = mg_hbits(&a->comm, sizeof a->comm);
    mg_centry *e = &mg_ccache[mg_hslot(key, 6)];
    if (e->key != key || !key || e->flags || !plan_key(coll, a, e, k)) return NULL;
    return &e->plan[coll];
}

/* A mock-up was selected: the same checks as mg_dispatch, then run it or fall back. Under
 * MPI_THREAD_MULTIPLE the checks include the communicator's own scratch. A call that repeats
 * the last plan that ran this mock-up on the communicator (mg_plan) takes that plan. */
int mg_intercept_mockup(int coll, int alg, int tuned, const mg_args *a, int64_t msize, int *rc) {
    if (alg >= mg_nalgs) return mg_intercept_library(coll, alg, tuned, a, msize, rc);
    const mg_alg *A = &mg_algs[alg];
    int why, o;
    mg_shape plan;
    const mg_shape *s = &plan;
    unsigned declined = 0;
    int err = MPI_SUCCESS;
    mg_plan key, *memo = plan_slot(coll, a, &key);
    if (memo && plan_same(memo, &key, alg)) {
        s = &memo->s;
        o = MPIGUIDE_RAN_MOCKUP;
    } else {
        o = mg_dispatch_plan(A, a, &plan, &declined, &err);
        if (o < 0) return 0;
        if (memo && o == MPIGUIDE_RAN_MOCKUP) { /* the op is predefined: no user-op fallback */
            key.alg = alg;
            key.s = plan;
            *memo = key;
        }
    }
    if (o == MPIGUIDE_RAN_MOCKUP && tuned && (A->flags & MG_AF_REDUCTION) && !s->predefined_op &&
        !mg_cfg.tune_user_ops)
        o = -2;
    switch (o) {
    case MPIGUIDE_RAN_MOCKUP:
        /* a profile's entry checks itself (guard.c); unsampled calls come back here */
        if (tuned && mg_rt.s.guard && mg_guard_run(coll, alg, a, s, msize, rc)) return 1;
        mg_count(coll, MG_N_MOCKUP);
        seen(coll, msize, alg);
        *rc = mg_rt.s.verify ? mg_verify_run(alg, a, s, msize, NULL) : mg_dispatch_run(A, a, s);
        return 1;
    case MPIGUIDE_FALLBACK_ARGS:
        why = declined == MPIGUIDE_DECLINE_DEFECT ? MG_N_FB_DEFECT : MG_N_FB_ARGS;
        break;
    case MPIGUIDE_FALLBACK_MEMORY:
        why = MG_N_FB_MEMORY;
        break;
    case -2:
        why = MG_N_FB_USEROP;
        break;
    default:
        why = MG_N_FB_POOL;
        break;
    }
    mg_count(coll, why);
    if (mg_intercept_repair(coll, a, msize, rc)) return 1;
    seen(coll, msize, coll);
    return 0;
}

int mg_intercept(int coll, const mg_args *a, int *rc, mg_callinfo *ci) {
    int p, rank;
    uint32_t flags;
    mg_centry *e = NULL;
    mg_callinfo local;
    if (!ci) ci = &local;
    *ci = (mg_callinfo){-1, 0, MPI_DATATYPE_NULL, 0, NULL, MG_SEL_NONE, 0};
    if (__builtin_expect(!mg_threads, 1)) {
        e = mg_comm_info(a->comm);
        if (!e) return 0;
        p = e->p, rank = e->rank, flags = e->flags;
    } else if (mg_comm_query(a->comm, &p, &rank, &flags)) {
        return 0;
    }
    mg_count(coll, MG_N_TOTAL);
    if (flags & MG_COMM_INTER) return 0; /* intercommunicators: always the default */
    int64_t msize = mg_call_msize(coll, a, rank, p, &ci->esize, &ci->type);
    if (msize < 0) return 0;
    ci->msize = msize, ci->p = p, ci->e = e;
    if (flags & MG_COMM_OFF) {
        mg_count(coll, MG_N_OPTOUT);
        seen(coll, msize, coll);
        return 0;
    }
    int alg = mg_pick(coll, p, msize, ci->esize, a->op, e, &ci->sel);
    if (alg == coll) {
        if (mg_intercept_repair(coll, a, msize, rc)) return 1;
        seen(coll, msize, coll);
        return 0;
    }
    ci->mockup = mg_intercept_mockup(coll, alg, ci->sel, a, msize, rc);
    if (!ci->mockup && ci->sel == MG_SEL_RANGE) ci->sel = MG_SEL_FALLBACK;
    return ci->mockup;
}

int mg_intercept_more(int coll, int alg, int tuned, int64_t msize, const mg_args *a) {
    int rc;
    if (alg == MG_GENERAL && mg_acct_on) return mg_record_call(coll, a);
    if (alg == MG_GENERAL ? mg_intercept(coll, a, &rc, NULL)
                          : mg_intercept_mockup(coll, alg, tuned, a, msize, &rc))
        return rc;
    return mg_run_default(coll, a);
}

static int has_profile(int coll) {
    for (uint32_t i = 0; i < mg_rt.sel.nprof; i++)
        if (mg_rt.sel.prof[i].coll == coll && mg_rt.sel.prof[i].n) return 1;
    return 0;
}

/* One copy of the globals for several ranks (sharing.h): one error, and every rank passes
 * everything through (they all write the same values). */
static int shared_globals(void) {
    int n = mg_globals_shared_by();
    if (n == 1) return 0;
    int me = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0)
        mg_error("libmpiguide",
                 "%d ranks share one copy of its state: SMPI copies the program per rank but "
                 "not a shared library it links; link libmpiguide-smpi.a into the program or "
                 "give smpirun --cfg=smpi/privatize-libs:ABSOLUTE_PATH_OF_THE_LIBRARY; passing "
                 "everything through",
                 n);
    mg_rt.started = 1;
    mg_rt.usable = 0;
    return 1;
}

void mg_intercept_start(int argc, char **argv) {
    if (shared_globals()) return;
    mg_startup(argc, argv);
    if (!mg_rt.usable || mg_rt.s.off) return;
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    mg_threads = level == MPI_THREAD_MULTIPLE;
    if (mg_threads && mg_rt.s.verify) { /* its two buffers are process-wide */
        if (mg_rt.rank == 0)
            mg_warning("MPIGUIDE_VERIFY", "not available under MPI_THREAD_MULTIPLE; not verifying");
        mg_rt.s.verify = 0;
    }
    if (mg_comm_start() != MPI_SUCCESS) return;
    mg_types_start();
    if (mg_rt.sel.nprof) {
        mg_lasthit = calloc(mg_rt.sel.nprof, sizeof *mg_lasthit);
        if (!mg_lasthit) memset(&mg_rt.sel, 0, sizeof mg_rt.sel);
    }
    mg_report_on = mg_rt.s.report != MG_REPORT_NONE;
    /* the record needs every call's time: the general path (the report alone keeps the
     * fast path and prints coverage only when the record's accounting runs) */
    mg_acct_on = mg_rt.s.record && mg_record_start() == MPI_SUCCESS;
    mg_general = mg_threads || mg_acct_on;
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        /* MPIGUIDE_REPAIR=1: every call of a collective with a known defect of this MPI is
         * checked (general path, never memoised as a repeatable default); the report alone
         * keeps the cheap path and counts known_defect on the general path only */
        int repairs = mg_rt.s.repair && mg_defects_in(c);
        mg_checked[c] = (unsigned char)repairs;
        if (mg_coll_flags(c) & MG_CF_INTERCEPT)
            mg_on[c] =
                mg_report_on || mg_acct_on || mg_rt.s.forced[c] >= 0 || has_profile(c) || repairs;
    }
    /* the guard works on every rank or on none: its first call on a communicator is collective */
    int guard = mg_rt.s.guard && mg_rt.sel.nprof && !mg_threads;
    if (guard) {
        int ok = mg_guard_start() == MPI_SUCCESS;
        PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!ok) mg_guard_stop();
        guard = ok;
    }
    mg_rt.s.guard = guard;
}

void mg_intercept_stop(void) {
    memset(mg_on, 0, sizeof mg_on);
    memset(mg_checked, 0, sizeof mg_checked);
    mg_general = 0;
    if (mg_rt.usable && !mg_rt.s.off && mg_report_on) mg_guard_agree();
    if (mg_acct_on) mg_record_finish();
    if (mg_rt.usable && !mg_rt.s.off) mg_report_write();
    mg_guard_stop();
    mg_record_stop();
    mg_acct_on = 0;
    mg_comm_stop();
    free(mg_lasthit);
    mg_lasthit = NULL;
    mg_shutdown();
}
