/* The decision for one intercepted call: communicator size and rank from the cache, the
 * message size of docs/dev/interfaces.md section 1, then the forced algorithm or the profile's
 * range (hash + binary search, with a one-entry memo per profile for repeated sizes), then the
 * algorithm or the default. Every input is identical on all ranks of the communicator. */
#include "intercept.h"
#include "core/defects.h"
#include "core/scratch.h"
#include "util/diag.h"
#include <stdlib.h>

unsigned char mg_on[MPIGUIDE_COLL_COUNT];
int mg_threads;
unsigned char mg_general[MPIGUIDE_COLL_COUNT];

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
static int repair(int coll, const mg_args *a, int64_t msize, int *rc) {
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

/* A mock-up was selected: the same checks as mg_dispatch, then run it or fall back. Under
 * MPI_THREAD_MULTIPLE the checks include the communicator's own scratch. */
int mg_intercept_mockup(int coll, int alg, int tuned, const mg_args *a, int64_t msize, int *rc) {
    const mg_alg *A = &mg_algs[alg];
    int why;
    mg_shape s;
    unsigned declined = 0;
    int err = MPI_SUCCESS;
    int o = mg_dispatch_plan(A, a, &s, &declined, &err);
    if (o < 0) return 0;
    if (o == MPIGUIDE_RAN_MOCKUP && tuned && (A->flags & MG_AF_REDUCTION) && !s.predefined_op &&
        !mg_cfg.tune_user_ops)
        o = -2;
    switch (o) {
    case MPIGUIDE_RAN_MOCKUP:
        mg_count(coll, MG_N_MOCKUP);
        seen(coll, msize, alg);
        *rc = mg_rt.s.verify ? mg_verify_run(A, a, &s, msize) : mg_dispatch_run(A, a, &s);
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
    if (repair(coll, a, msize, rc)) return 1;
    seen(coll, msize, coll);
    return 0;
}

int mg_intercept(int coll, const mg_args *a, int *rc) {
    int p, rank;
    uint32_t flags;
    mg_centry *e = NULL;
    if (__builtin_expect(!mg_threads, 1)) {
        e = mg_comm_info(a->comm);
        if (!e) return 0;
        p = e->p, rank = e->rank, flags = e->flags;
    } else if (mg_comm_query(a->comm, &p, &rank, &flags)) {
        return 0;
    }
    mg_count(coll, MG_N_TOTAL);
    if (flags & MG_COMM_INTER) return 0; /* intercommunicators: always the default */
    int64_t msize = mg_call_msize(coll, a, rank, p);
    if (msize < 0) return 0;
    if (flags & MG_COMM_OFF) {
        mg_count(coll, MG_N_OPTOUT);
        seen(coll, msize, coll);
        return 0;
    }
    int tuned;
    int alg = mg_pick(coll, p, msize, e, &tuned);
    if (alg == coll) {
        if (repair(coll, a, msize, rc)) return 1;
        seen(coll, msize, coll);
        return 0;
    }
    return mg_intercept_mockup(coll, alg, tuned, a, msize, rc);
}

int mg_intercept_more(int coll, int alg, int tuned, int64_t msize, const mg_args *a) {
    int rc;
    if (alg == MG_GENERAL ? mg_intercept(coll, a, &rc)
                          : mg_intercept_mockup(coll, alg, tuned, a, msize, &rc))
        return rc;
    return mg_run_default(coll, a);
}

static int has_profile(int coll) {
    for (uint32_t i = 0; i < mg_rt.sel.nprof; i++)
        if (mg_rt.sel.prof[i].coll == coll && mg_rt.sel.prof[i].n) return 1;
    return 0;
}

void mg_intercept_start(int argc, char **argv) {
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
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        int repairs = mg_rt.s.repair && mg_defects_in(c); /* every call is checked */
        mg_general[c] = mg_threads || mg_report_on || repairs;
        if (mg_coll_flags(c) & MG_CF_INTERCEPT)
            mg_on[c] = mg_report_on || mg_rt.s.forced[c] >= 0 || has_profile(c) || repairs;
    }
}

void mg_intercept_stop(void) {
    memset(mg_on, 0, sizeof mg_on);
    memset(mg_general, 0, sizeof mg_general);
    if (mg_rt.usable && !mg_rt.s.off) mg_report_write();
    mg_comm_stop();
    free(mg_lasthit);
    mg_lasthit = NULL;
    mg_shutdown();
}
