/* The general path of an intercepted call (the inline fast half is intercept.h's mg_decide):
 * communicator size and rank from the cache, the message size of docs/dev/interfaces.md section
 * 1, the forced algorithm or the profile's range, then the dispatcher's plan and the algorithm
 * (through the guard or MPIGUIDE_VERIFY), a repair, or the default, each counted; where the
 * default is due, online mode (online.c) may race the call. Every input is
 * identical on all ranks of the communicator. */
#include "intercept.h"
#include "runtime/mpi_defects.h"
#include "runtime/scratch.h"
#include "guard.h"
#include "online.h"
#include "util/diag.h"
#include <stdlib.h>

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
        unsigned declined = 0;
        int err = MPI_SUCCESS, alg = d->repair[i];
        if (mg_alg_coll(alg) != coll ||
            mg_dispatch_plan(alg, a, &s, &declined, &err) != MPIGUIDE_RAN_MOCKUP)
            continue;
        mg_count(coll, MG_N_REPAIRED);
        seen(coll, msize, alg);
        mg_dispatch_run(alg, a, &s, rc);
        return 1;
    }
    return 0;
}

/* The shape memo's key of the call (mg_shape_memo); 0 when the call cannot have one: a collective
 * whose memo key does not fix its shape (sizes from count vectors), a significant datatype or the
 * op not predefined. A datatype is significant where MPI reads it on this rank: the send side
 * unless MPI_IN_PLACE replaces it or this rank is not Scatter's root, the receive side unless this
 * rank is not the root of Gather or Reduce or is Scatter's root with MPI_IN_PLACE. */
static int shape_key(int coll, const mg_args *a, const mg_centry *e, mg_shape_memo *k) {
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
    int b = mg_coll_blocking(coll);
    int send = !(k->inplace & 1) && (b != MPIGUIDE_COLL_SCATTER || root);
    int recv = b == MPIGUIDE_COLL_GATHER || b == MPIGUIDE_COLL_REDUCE ? root
               : b == MPIGUIDE_COLL_SCATTER                           ? !(root && (k->inplace & 2))
                                                                      : 1;
    if (b == MPIGUIDE_COLL_BARRIER) send = recv = 0; /* no data: the communicator is all */
    if ((send && !mg_tcache_get(a->sendtype, &ts)) || (recv && !mg_tcache_get(a->recvtype, &ts)))
        return 0;
    return !k->op || mg_ocache_get(a->op, &idx) != MG_OPC_USER;
}

static int shape_same(const mg_shape_memo *m, const mg_shape_memo *k, int alg) {
    return m->alg == alg && m->stype == k->stype && m->rtype == k->rtype && m->op == k->op &&
           m->scount == k->scount && m->rcount == k->rcount && m->root == k->root &&
           m->inplace == k->inplace;
}

/* The memo slot of (communicator, collective) for this call, with the call's key in *k; NULL
 * without one (threads: no cache; a communicator's own scratch must be reserved per call). */
static mg_shape_memo *shape_slot(int coll, const mg_args *a, mg_shape_memo *k) {
    if (mg_threads || mg_pool.thread_multiple) return NULL;
    uintptr_t key = mg_hbits(&a->comm, sizeof a->comm);
    mg_centry *e = &mg_ccache[mg_hslot(key, 6)];
    if (e->key != key || !key || e->flags || !shape_key(coll, a, e, k)) return NULL;
    return &e->shape[coll];
}

/* The counter of a fallback: why the plan (or a library algorithm's set-up) sent the call to
 * the default. */
static int fallback_counter(int o, unsigned declined) {
    switch (o) {
    case MPIGUIDE_FALLBACK_ARGS:
        return declined == MPIGUIDE_DECLINE_DEFECT    ? MG_N_FB_DEFECT
               : declined == MPIGUIDE_DECLINE_THREADS ? MG_N_FB_THREADS
                                                      : MG_N_FB_ARGS;
    case MPIGUIDE_FALLBACK_MEMORY:
        return MG_N_FB_MEMORY;
    case MPIGUIDE_FALLBACK_LIBRARY:
        return MG_N_FB_LIBRARY;
    case -2:
        return MG_N_FB_USEROP;
    default:
        return MG_N_FB_POOL;
    }
}

/* A mock-up or a library algorithm was selected (forced, or a profile's range): the
 * dispatcher's plan, the tuned-mode rule for user-defined ops, then the guard, MPIGUIDE_VERIFY
 * or the algorithm itself, each counted; on a fallback, a repair of a known defect of the
 * default or the default. A call that repeats the last plan of this algorithm on the
 * communicator (mg_shape_memo) takes that plan. */
int mg_intercept_alg(int coll, int alg, int tuned, const mg_args *a, int64_t msize, int *rc) {
    int o, ran = 1;
    mg_shape plan;
    const mg_shape *s = &plan;
    unsigned declined = 0;
    int err = MPI_SUCCESS, lib = alg >= mg_nalgs; /* ids after the registry's rows */
    mg_shape_memo key, *memo = shape_slot(coll, a, &key);
    if (memo && shape_same(memo, &key, alg)) {
        s = &memo->s;
        o = MPIGUIDE_RAN_MOCKUP;
    } else {
        o = mg_dispatch_plan(alg, a, &plan, &declined, &err);
        if (o < 0) return 0;
        if (memo && o == MPIGUIDE_RAN_MOCKUP) { /* the op is predefined: no user-op fallback */
            key.alg = alg;
            key.s = plan;
            *memo = key;
        }
    }
    /* A user-defined op may cost far more than the op the profile was measured with. */
    if (o == MPIGUIDE_RAN_MOCKUP && tuned && mg_coll_is_reduction(coll) && !s->predefined_op &&
        !mg_cfg.tune_user_ops)
        o = -2;
    if (o == MPIGUIDE_RAN_MOCKUP && tuned && mg_coll_is_nb(coll)) {
        /* a nonblocking entry checks itself by its blocked time (nb_guard.c); without that guard
         * it applies only when MPIGUIDE_NONBLOCKING=1 asks (docs/interception.md) */
        if (mg_rt.s.guard && !mg_rt.s.verify) {
            if (mg_nbguard_start_call(coll, alg, a, s, msize, rc)) return 1;
        } else if (mg_rt.s.nonblocking != 1) {
            return 0;
        }
    }
    if (o == MPIGUIDE_RAN_MOCKUP) {
        /* a profile's entry checks itself (guard.c); unsampled calls come back here */
        if (tuned && mg_rt.s.guard && !mg_coll_is_nb(coll) &&
            mg_guard_run(coll, alg, a, s, msize, rc))
            return 1;
        /* MPIGUIDE_VERIFY compares results at once, which a started collective has not yet */
        if (mg_rt.s.verify && !mg_coll_is_nb(coll))
            *rc = mg_verify_run(alg, a, s, msize, &ran);
        else
            ran = mg_dispatch_run(alg, a, s, rc);
        if (ran == 1) {
            mg_count(coll, lib ? MG_N_LIBRARY : MG_N_MOCKUP);
            seen(coll, msize, alg);
            return 1;
        }
        /* every rank agreed that the library algorithm could not be set up (0) or that the
         * datatypes differ (2); a verified call already ran the default and holds its result */
        o = ran == 2 ? MPIGUIDE_FALLBACK_ARGS : MPIGUIDE_FALLBACK_LIBRARY;
    }
    mg_count(coll, fallback_counter(o, declined));
    if (ran != 1 && mg_rt.s.verify && !mg_coll_is_nb(coll)) return 1;
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
    *ci = (mg_callinfo){-1, 0, MPI_DATATYPE_NULL, 0, 0, NULL, MG_SEL_NONE, 0};
    if (__builtin_expect(!mg_threads, 1)) {
        e = mg_comm_info(a->comm);
        if (!e) return 0;
        p = e->p, rank = e->rank, flags = e->flags;
        /* a nonblocking entry's verdict is due here: every rank is at this call on comm */
        if (__builtin_expect(mg_nbguard_due, 0) && !mg_coll_is_nb(coll)) mg_nbguard_at(a->comm);
    } else if (mg_comm_query(a->comm, &p, &rank, &flags)) {
        return 0;
    }
    mg_count(coll, MG_N_TOTAL);
    if (flags & MG_COMM_INTER) return 0; /* intercommunicators: always the default */
    int64_t msize = mg_call_msize(coll, a, rank, p, &ci->esize, &ci->type);
    if (msize < 0) return 0;
    ci->msize = msize, ci->p = p, ci->rank = rank, ci->e = e;
    if (flags & MG_COMM_OFF) {
        mg_count(coll, MG_N_OPTOUT);
        seen(coll, msize, coll);
        return 0;
    }
    int alg = mg_pick(coll, p, msize, ci->esize, a->op, e, &ci->sel);
    if (alg == coll) {
        int online = mg_online_on && mg_rt.s.forced[coll] < 0 && !mg_coll_is_nb(coll)
                         ? mg_online_call(coll, a, ci, rc)
                         : 0;
        if (online) return online > 0; /* ran, or the default is due as it is */
        if (mg_intercept_repair(coll, a, msize, rc)) return 1;
        seen(coll, msize, coll);
        return 0;
    }
    ci->mockup = mg_intercept_alg(coll, alg, ci->sel, a, msize, rc);
    if (!ci->mockup && ci->sel == MG_SEL_RANGE) ci->sel = MG_SEL_FALLBACK;
    return ci->mockup;
}

MG_SLOW __attribute__((cold)) int mg_pick_other(int coll, int next, int64_t msize, int esize,
                                                MPI_Op op, int *sel) {
    int idx, oc = mg_coll_is_reduction(coll) ? mg_ocache_get(op, &idx) : 0;
    int prof = mg_seltab_match(&mg_rt.sel, next, esize, oc);
    if (prof >= 0) return mg_pick_in(coll, prof, msize, NULL, sel);
    mg_count(coll, MG_N_OTHER_TYPE);
    *sel = MG_SEL_OTHERTYPE;
    return coll;
}

int mg_intercept_more(int coll, int alg, int tuned, int64_t msize, const mg_args *a) {
    int rc;
    if (alg == MG_GENERAL && mg_acct_on) { /* MPIGUIDE_RECORD: every call timed and accounted */
        mg_callinfo ci;
        double t0 = PMPI_Wtime();
        if (!mg_intercept(coll, a, &rc, &ci)) rc = mg_run_default(coll, a);
        /* a started nonblocking collective is noted when a wait or test completes it */
        if (!mg_coll_is_nb(coll) || rc != MPI_SUCCESS || !mg_nb_started(coll, a, &ci, t0))
            mg_record_note(coll, a, &ci, t0, PMPI_Wtime());
        return rc;
    }
    if (alg == MG_GENERAL ? mg_intercept(coll, a, &rc, NULL)
                          : mg_intercept_alg(coll, alg, tuned, a, msize, &rc))
        return rc;
    return mg_run_default(coll, a);
}
