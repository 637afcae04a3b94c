/* The decision for one intercepted call: communicator size and rank from the cache, the
 * message size of INTERFACES.md section 1, then the forced algorithm or the profile's range
 * (hash + binary search, with a one-entry memo per profile for repeated sizes), then the
 * algorithm or the default. Every input is identical on all ranks of the communicator. */
#include "intercept.h"
#include "core/scratch.h"
#include <stdlib.h>

unsigned char mg_on[MPIGUIDE_COLL_COUNT];
int mg_threads;

/* Per profile: the last (msize + 1) << 16 | (alg + 1) looked up; one atomic word, so threads
 * may share it. */
static _Atomic uint64_t *lasthit;

/* Message size per INTERFACES.md section 1; -1 when the datatype is invalid or a count
 * negative (the library's own collective then reports the error). v-collectives select by
 * communicator size only and are recorded under 0. */
static inline int64_t call_msize(int coll, const mg_args *a, int rank, int p) {
    int64_t count = a->recvcount;
    MPI_Datatype t = a->recvtype;
    switch (coll) {
    case MPIGUIDE_COLL_GATHER:
        if (rank != a->root) count = a->sendcount, t = a->sendtype;
        break;
    case MPIGUIDE_COLL_SCATTER:
        if (rank == a->root) count = a->sendcount, t = a->sendtype;
        break;
    case MPIGUIDE_COLL_REDUCE_SCATTER:
        count = 0;
        for (int i = 0; i < p; i++) count += a->recvcounts[i];
        break;
    case MPIGUIDE_COLL_GATHERV:
    case MPIGUIDE_COLL_SCATTERV:
        return 0;
    default:
        break;
    }
    int ts = 0;
    if (count < 0 || mg_type_size(t, &ts) != MPI_SUCCESS || ts < 0) return -1;
    return count * (int64_t)ts;
}

/* The algorithm for the call; *tuned says it came from a profile. */
static inline int pick(int coll, int p, int64_t msize, int *tuned) {
    int f = mg_rt.s.forced[coll];
    *tuned = 0;
    if (f >= 0) return f;
    int prof = mg_seltab_find(&mg_rt.sel, coll, p);
    if (prof < 0) return coll;
    *tuned = 1;
    uint64_t key = (uint64_t)msize + 1;
    int memo = key < (1ull << 47);
    if (memo) {
        uint64_t h = atomic_load_explicit(&lasthit[prof], memory_order_relaxed);
        if ((h >> 16) == key) return (int)(h & 0xffff) - 1;
    }
    int alg = mg_seltab_search(&mg_rt.sel, prof, msize);
    if (alg < 0) alg = coll;
    if (memo && alg < 0xffff)
        atomic_store_explicit(&lasthit[prof], key << 16 | (uint64_t)(alg + 1),
                              memory_order_relaxed);
    return alg;
}

static inline void seen(int coll, int64_t msize, int alg) {
    if (mg_report_on) mg_report_seen(coll, msize, alg);
}

/* A mock-up was selected: the same checks as mg_dispatch, then run it or fall back. */
static __attribute__((noinline)) int mockup(int coll, int alg, int tuned, const mg_args *a,
                                            int64_t msize, int *rc) {
    const mg_alg *A = &mg_algs[alg];
    int why = MG_N_FB_THREADS;
    if (!mg_threads) {
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
            why = declined == MPIGUIDE_DECLINE_THREADS ? MG_N_FB_THREADS : MG_N_FB_ARGS;
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
    }
    mg_count(coll, why);
    seen(coll, msize, coll);
    return 0;
}

/* Size, rank and kind of a communicator without the cache (MPI_THREAD_MULTIPLE). */
static int comm_query(MPI_Comm comm, int *p, int *rank, uint32_t *flags) {
    int inter = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        PMPI_Comm_size(comm, p) != MPI_SUCCESS || PMPI_Comm_rank(comm, rank) != MPI_SUCCESS)
        return -1;
    *flags = inter ? MG_COMM_INTER : 0;
    return 0;
}

int mg_intercept(int coll, const mg_args *a, int *rc) {
    int p, rank;
    uint32_t flags;
    if (__builtin_expect(!mg_threads, 1)) {
        const mg_centry *e = mg_comm_info(a->comm);
        if (!e) return 0;
        p = e->p, rank = e->rank, flags = e->flags;
    } else if (comm_query(a->comm, &p, &rank, &flags)) {
        return 0;
    }
    mg_count(coll, MG_N_TOTAL);
    if (flags & MG_COMM_INTER) return 0; /* intercommunicators: always the default */
    int64_t msize = call_msize(coll, a, rank, p);
    if (msize < 0) return 0;
    if (flags & MG_COMM_OFF) {
        mg_count(coll, MG_N_OPTOUT);
        seen(coll, msize, coll);
        return 0;
    }
    int tuned;
    int alg = pick(coll, p, msize, &tuned);
    if (alg == coll) {
        seen(coll, msize, coll);
        return 0;
    }
    return mockup(coll, alg, tuned, a, msize, rc);
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
    if (mg_comm_start() != MPI_SUCCESS) return;
    mg_types_start();
    if (mg_rt.sel.nprof) {
        lasthit = calloc(mg_rt.sel.nprof, sizeof *lasthit);
        if (!lasthit) memset(&mg_rt.sel, 0, sizeof mg_rt.sel);
    }
    mg_report_on = mg_rt.s.report != MG_REPORT_NONE;
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++)
        if (mg_colls[c].flags & MG_CF_INTERCEPT)
            mg_on[c] = mg_report_on || mg_rt.s.forced[c] >= 0 || has_profile(c);
}

void mg_intercept_stop(void) {
    memset(mg_on, 0, sizeof mg_on);
    if (mg_rt.usable && !mg_rt.s.off) mg_report_write();
    mg_comm_stop();
    free(lasthit);
    lasthit = NULL;
    mg_shutdown();
}
