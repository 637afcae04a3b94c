/* The interception layer's hot path: per-collective switch, communicator and datatype caches,
 * call counters. A wrapper that finds its collective switched off costs one load and one
 * branch; otherwise mg_intercept decides with cached values only (no allocation, file access,
 * string comparison or environment lookup: docs/dev/design.md invariant 4). */
#ifndef MG_INTERCEPT_H
#define MG_INTERCEPT_H

#include "dispatch/dispatch.h"
#include "startup/settings.h"
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Everything declared here lives in libmpiguide and is internal to it: hidden already at its
 * definition, and said so here, so that the wrappers reach the caches and counters directly
 * (PC-relative) rather than through the GOT, one load less on the hot path. */
#pragma GCC visibility push(hidden)

/* The slow half of a wrapper: kept out of line and out of interprocedural optimisation, so the
 * wrapper's fast half is a compare and two tail jumps that leave the argument registers
 * untouched. That also keeps pass-through exact when this library runs under the other MPI,
 * whose handles may be wider than ours. */
#if defined(__clang__)
#define MG_SLOW __attribute__((noinline))
#else
#define MG_SLOW __attribute__((noipa))
#endif

/* 1 when calls of the collective go through mg_intercept (selection, counting); 0: straight to
 * PMPI. All 0 before MPI_Init, after MPI_Finalize and with MPIGUIDE_OFF=1. */
extern unsigned char mg_on[MPIGUIDE_COLL_COUNT];
/* MPI_THREAD_MULTIPLE: counters use atomic increments, the communicator cache is bypassed. */
extern int mg_threads;
/* 1: mg_threads, or a record to fill (MPIGUIDE_RECORD): every call takes the general path.
 * MG_GENERAL_ONLINE: online mode, whose memo entries carry a countdown (mg_left). 0: neither. */
extern int mg_general;
#define MG_GENERAL_ONLINE 2
/* Or'ed in while a verdict of the nonblocking guard is due (guard.h mg_nbguard_due). */
#define MG_GENERAL_NBGUARD 4
/* Per collective: every call is checked against the known defects of the running MPI
 * (MPIGUIDE_REPAIR=1 and an entry for this MPI): the general path, and such calls are never
 * memoised as repeatable defaults, so mg_repeat never sees them. */
extern unsigned char mg_checked[MPIGUIDE_COLL_COUNT];
/* MPIGUIDE_RECORD: the general path times each call and accounts it by (collective,
 * communicator, datatype, op, size) for the record and the report's coverage lines. */
extern int mg_acct_on;

/* How the selection of a call went (what "covered" means in the record and the report). */
enum mg_selection {
    MG_SEL_NONE,      /* no profile for (collective, p), or a forced algorithm */
    MG_SEL_RANGE,     /* a range of the profile holds the size: its algorithm (or default) */
    MG_SEL_NORANGE,   /* the profile has no range for this size: the default */
    MG_SEL_OTHERTYPE, /* the profile was measured with another element size or op class */
    MG_SEL_FALLBACK   /* a range chose a mock-up, which fell back to the default */
};

/* What the general path found out about one call, for the accounting (record.c). */
typedef struct mg_callinfo {
    int64_t msize;     /* docs/dev/interfaces.md section 1; -1 when not known (bad arguments) */
    int esize;         /* MPI_Type_size of the datatype that defines the size (0: sizeless) */
    MPI_Datatype type; /* that datatype */
    int p, rank;       /* communicator size, this rank in it */
    const void *e;     /* its cache entry (mg_centry), NULL without one */
    int sel;           /* enum mg_selection */
    int mockup;        /* a mock-up ran */
} mg_callinfo;

/* Handles the call when a mock-up runs: returns 1 with its result in *rc. Returns 0 when the
 * caller must run the library's own collective (selection said default, or a fallback). ci
 * (may be NULL) receives what the accounting needs. */
int mg_intercept(int coll, const mg_args *a, int *rc, mg_callinfo *ci);

/* Called by the MPI_Init wrappers after PMPI_Init / by MPI_Finalize before PMPI_Finalize. */
void mg_intercept_start(int argc, char **argv);
void mg_intercept_stop(void);

/* ---- what gets counted per collective (report footer, docs/dev/interfaces.md section 4) ---- */
enum mg_counter {
    MG_N_TOTAL,
    MG_N_MOCKUP,
    MG_N_FB_MEMORY,  /* the mock-up's scratch need exceeds the pools */
    MG_N_FB_ARGS,    /* its predicate declined the arguments (also intercommunicators) */
    MG_N_FB_THREADS, /* no longer counted: MPI_THREAD_MULTIPLE runs mock-ups (the name stays) */
    MG_N_FB_USEROP,  /* tuned reduction mock-up with a user-defined op, tune_user_ops 0 */
    MG_N_FB_POOL,    /* the pools could not be created */
    MG_N_OPTOUT,     /* the communicator has mpiguide_off=true */
    MG_N_LARGE,      /* MPI-4 large-count call whose size does not fit int */
    MG_N_OTHER,      /* message size found no room in the alg-line table */
    MG_N_GUARD,      /* the guard ran the default instead of the entry's mock-up */
    MG_N_OTHER_TYPE, /* the profile was measured with another element size or op class */
    MG_N_LIBRARY,    /* ran a library algorithm (src/libalg/) */
    MG_N_FB_LIBRARY, /* a library algorithm could not be set up on the communicator */
    MG_N_FB_DEFECT,  /* the mock-up declined: an inner call would meet a known MPI defect */
    MG_N_DEFECT,     /* the library's own collective was due on a known-defect condition */
    MG_N_REPAIRED,   /* ... and MPIGUIDE_REPAIR=1 ran a repair mock-up instead */
    MG_N_VERIFIED,   /* MPIGUIDE_VERIFY: compared with the default */
    MG_N_MISMATCH,   /* ... and differed */
    MG_N_COUNT
};

extern _Atomic uint64_t mg_counts[MPIGUIDE_COLL_COUNT][MG_N_COUNT];

static inline void mg_count(int coll, int what) {
    _Atomic uint64_t *c = &mg_counts[coll][what];
    if (mg_threads)
        atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
    else
        atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
                              memory_order_relaxed);
}

/* Remembers which algorithm ran for (collective, msize) for the `#@pgmpi alg` lines
 * (alg_seen.c); mg_seen_rows copies the table, sorted by collective and size, into rows (room
 * for MG_SEEN_SLOTS) and returns their number. */
#define MG_SEEN_BITS  10
#define MG_SEEN_SLOTS (1u << MG_SEEN_BITS)
typedef struct mg_seen_row {
    int coll, alg;
    int64_t msize;
} mg_seen_row;
void mg_report_seen(int coll, int64_t msize, int alg);
size_t mg_seen_rows(mg_seen_row *rows);
/* Writes the footer on rank 0 (MPIGUIDE_REPORT). */
void mg_report_write(void);
extern int mg_report_on;

/* ---- communicator cache ---- */
#define MG_COMM_OFF   1u /* info key mpiguide_off=true */
#define MG_COMM_INTER 2u

/* The last mock-up plan of one collective on a communicator (general_path.c): a call whose scalar
 * arguments (datatype handles, counts, op, root, which buffers are MPI_IN_PLACE) repeat it, with
 * every significant datatype and the op predefined (never freed, so a handle always means the
 * same layout), would get the same plan, so it runs without the planning queries. */
typedef struct mg_shape_memo {
    uintptr_t stype, rtype, op;
    int32_t scount, rcount, root;
    int32_t alg; /* the mock-up; -1: empty */
    uint32_t inplace;
    mg_shape s;
} mg_shape_memo;

typedef struct mg_centry {
    uintptr_t key; /* handle bits; 0 = empty */
    int32_t p, rank;
    uint32_t flags;
    int32_t prof[MPIGUIDE_COLL_COUNT];  /* tuned profile for (collective, p), -1 for none */
    uint64_t memo[MPIGUIDE_COLL_COUNT]; /* last (msize + 1) << 16 | (alg + 1) looked up */
    /* Last call that ran the default, by the (datatype handle, count) its size comes from
     * (mg_memo_key): a repeat needs no size computation. Only predefined types (never freed, so
     * a handle always means the same size) are kept. For reductions also the op handle, whose
     * class a profile may ask for (MPIGUIDE_MATCH); for Gather and Scatter the root + 1; for
     * Reduce_scatter the sum of recvcounts as the count; a constant for the v-collectives. */
    uintptr_t dtype[MPIGUIDE_COLL_COUNT];
    uintptr_t dop[MPIGUIDE_COLL_COUNT];
    int32_t dcount[MPIGUIDE_COLL_COUNT];
    int32_t nodes, ppn; /* the communicator's layout, only while accounting (record.c) */
    mg_shape_memo shape[MPIGUIDE_COLL_COUNT];
} mg_centry;

#define MG_CC_SLOTS 64
extern mg_centry mg_ccache[MG_CC_SLOTS];
/* Online mode only (mg_general == MG_GENERAL_ONLINE): per cache slot and collective, how many
 * more repeats of the memo the fast path may take before the call goes to the general path
 * again, so that a cell that is racing but not timing (between windows, before its calibration)
 * keeps the fast path yet every rank still counts every call of it (online.c credits the calls
 * taken to the cell; UINT32_MAX for a cell that has decided). Outside the entry, so the layout
 * the fast path of the other modes reads is untouched; reset with the entry (commcache.c). */
extern uint32_t mg_left[MG_CC_SLOTS][MPIGUIDE_COLL_COUNT];

static inline uintptr_t mg_hbits(const void *handle, size_t size) {
    uintptr_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

static inline uint32_t mg_hslot(uintptr_t k, unsigned bits) {
    return (uint32_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/* Size, rank and flags of a communicator without the cache (MPI_THREAD_MULTIPLE: threads would
 * race on its entries); -1 when the communicator is not valid. */
int mg_comm_query(MPI_Comm comm, int *p, int *rank, uint32_t *flags);
/* Fills the cache entry of a communicator not in the cache; NULL when the communicator is
 * not valid (the library's own collective then reports the error). */
mg_centry *mg_comm_miss(MPI_Comm comm, mg_centry *e);

static inline mg_centry *mg_comm_info(MPI_Comm comm) {
    uintptr_t k = mg_hbits(&comm, sizeof comm);
    mg_centry *e = &mg_ccache[mg_hslot(k, 6)];
    if (__builtin_expect(e->key == k && k, 1)) return e;
    return mg_comm_miss(comm, e);
}

/* Opt-out via info (MPI_Comm_set_info, MPI_Comm_dup_with_info): off 1/0, or -1 to leave the
 * communicator as it is. */
void mg_comm_set_off(MPI_Comm comm, int off);
/* -1 when info has no mpiguide_off key, else 1 for true/1/yes, 0 otherwise. */
int mg_info_off(MPI_Info info);
int mg_comm_start(void);
void mg_comm_stop(void);
/* The call ran the default, and every later call with its memo key will (the guard switched
 * the entry that selected it off for good): the key becomes the communicator's memo, so those
 * calls take the wrapper's fast path instead of the general path and the guard's lookup (585
 * instructions of libmpiguide per call against 34). Not under
 * MPI_THREAD_MULTIPLE, for a communicator opted out, a datatype that is not predefined, or a
 * collective with a known defect that MPIGUIDE_REPAIR may repair per call. */
void mg_memo_default(int coll, const mg_args *a);
/* The memo key of a call on the communicator of cache entry e that ran the default, as
 * mg_decide keys it: a constant for the collectives without a shared size, else only with a
 * predefined datatype (whose handle is never reused for another type). 0: not memoisable. */
int mg_memo_key_default(int coll, const mg_args *a, const mg_centry *e, uintptr_t *tk, int *cnt,
                        uintptr_t *ok);

/* ---- datatype sizes: predefined types from a table filled at start ---- */
#define MG_TC_BITS 7
typedef struct mg_tentry {
    uintptr_t key;
    int size;
} mg_tentry;
extern mg_tentry mg_tcache[1u << MG_TC_BITS];

/* 1 with the size when t is a predefined type (in the table), else 0. No MPI call. */
static inline int mg_tcache_get(MPI_Datatype t, int *size) {
    uintptr_t k = mg_hbits(&t, sizeof t);
    for (uint32_t h = mg_hslot(k, MG_TC_BITS);; h = (h + 1) & ((1u << MG_TC_BITS) - 1)) {
        if (mg_tcache[h].key == k && k) {
            *size = mg_tcache[h].size;
            return 1;
        }
        if (!mg_tcache[h].key) return 0;
    }
}

static inline int mg_type_size(MPI_Datatype t, int *size) {
    return mg_tcache_get(t, size) ? MPI_SUCCESS : PMPI_Type_size(t, size);
}
void mg_types_start(void);

/* ---- op classes: predefined ops from a table filled at start, anything else is a user op ---- */
#define MG_OC_BITS 5
typedef struct mg_oentry {
    uintptr_t key;
    int16_t opclass; /* enum mg_opclass (catalog) */
    int16_t idx;     /* index into mg_op_names_all */
} mg_oentry;
extern mg_oentry mg_ocache[1u << MG_OC_BITS];

/* Class of op (MG_OPC_USER for any op not in the table); *idx its name index, -1 for a user
 * op. No MPI call. */
static inline int mg_ocache_get(MPI_Op op, int *idx) {
    uintptr_t k = mg_hbits(&op, sizeof op);
    for (uint32_t h = mg_hslot(k, MG_OC_BITS);; h = (h + 1) & ((1u << MG_OC_BITS) - 1)) {
        if (mg_ocache[h].key == k && k) {
            *idx = mg_ocache[h].idx;
            return mg_ocache[h].opclass;
        }
        if (!mg_ocache[h].key) {
            *idx = -1;
            return MG_OPC_USER;
        }
    }
}

/* ---- MPIGUIDE_VERIFY ---- */
/* Runs the default and then algorithm `alg` (a mock-up or a library algorithm) on the same
 * input, compares the outputs, counts; the caller's buffers end up with the algorithm's result,
 * or the default's when a library algorithm could not run (*ran as mg_dispatch_run says). */
int mg_verify_run(int alg, const mg_args *a, const mg_shape *s, int64_t msize, int *ran);

/* ---- the decision ---- */
extern _Atomic uint64_t *mg_lasthit;

/* Message size per docs/dev/interfaces.md section 1; -1 when the datatype is invalid or a count
 * negative (the library's own collective then reports the error). The collectives without a
 * shared size (mg_coll_sizeless) select by communicator size only and are counted under 0.
 * *esize and *t: the datatype that defines the size and its size (0 and MPI_DATATYPE_NULL for
 * those). */
static inline int64_t mg_call_msize(int coll, const mg_args *a, int rank, int p, int *esize,
                                    MPI_Datatype *t) {
    int64_t count;
    *esize = 0;
    *t = MPI_DATATYPE_NULL;
    if (mg_coll_sizeless(coll)) return 0;
    mg_call_source(coll, a, rank, p, &count, t);
    if (count < 0 || mg_type_size(*t, esize) != MPI_SUCCESS || *esize < 0) return -1;
    return count * (int64_t)*esize;
}

/* The memoised search of profile prof (mg_pick): the memo is the entry's word when e is given,
 * else the profile's own. */
static inline int mg_pick_in(int coll, int prof, int64_t msize, mg_centry *e, int *sel) {
    uint64_t key = (uint64_t)msize + 1;
    int memo = key < (1ull << 47);
    if (memo) {
        uint64_t h =
            e ? e->memo[coll] : atomic_load_explicit(&mg_lasthit[prof], memory_order_relaxed);
        if ((h >> 16) == key) {
            *sel = h & 0x8000 ? MG_SEL_RANGE : MG_SEL_NORANGE;
            return (int)(h & 0x7fff) - 1;
        }
    }
    int alg = mg_seltab_search(&mg_rt.sel, prof, msize);
    *sel = alg >= 0 ? MG_SEL_RANGE : MG_SEL_NORANGE;
    if (alg < 0) alg = coll;
    if (memo && alg < 0x7fff) {
        uint64_t h = key << 16 | (uint64_t)(*sel == MG_SEL_RANGE) << 15 | (uint64_t)(alg + 1);
        if (e)
            e->memo[coll] = h;
        else
            atomic_store_explicit(&mg_lasthit[prof], h, memory_order_relaxed);
    }
    return alg;
}

/* The rest of mg_pick's chain (from profile next on) for a call its first profile does not
 * accept: the profile measured with the call's element size and op class, whose memo is its own
 * word (the entry's belongs to the first); with none the default, counted as other_type. Out of
 * line (general_path.c), so that the first profile's path keeps its registers and code. */
int mg_pick_other(int coll, int next, int64_t msize, int esize, MPI_Op op, int *sel);

/* The algorithm for the call; *sel says how selection went (enum mg_selection). A profile
 * measured with another element size or op class than the call's (MPIGUIDE_MATCH) is not
 * taken: the next profile of the same (collective, p) that was measured with them is
 * (seltab.h chains), and with none the default runs and the call counts as other_type. With a
 * communicator cache entry the first profile and a one-entry memo of its last size live in the
 * entry (no hashing, two loads on a repeated size); without (MPI_THREAD_MULTIPLE), and for a
 * later profile of the chain, the memo is one atomic word per profile. The profile is always
 * searched the same way, so the result depends on (collective, p, msize, element size, op class)
 * only, all shared by every rank. The op class is looked up only when the profile asks for one. */
static inline int mg_pick(int coll, int p, int64_t msize, int esize, MPI_Op op, mg_centry *e,
                          int *sel) {
    int f = mg_rt.s.forced[coll];
    *sel = MG_SEL_NONE;
    if (f >= 0) return f;
    int prof = e ? e->prof[coll] : mg_seltab_find(&mg_rt.sel, coll, p);
    if (prof < 0) return coll;
    const mg_selprof *P = &mg_rt.sel.prof[prof];
    if (__builtin_expect(P->esize | P->opclass, 1) && !mg_coll_sizeless(coll)) {
        int idx, oc = mg_coll_is_reduction(coll) && P->opclass ? mg_ocache_get(op, &idx) : 0;
        if ((P->esize && P->esize != esize) || oc != P->opclass)
            return mg_pick_other(coll, P->next, msize, esize, op, sel);
    }
    return mg_pick_in(coll, prof, msize, e, sel);
}

/* The library's own collective is due (selected, or a fallback): on a known defect of the running
 * MPI it is counted and, with MPIGUIDE_REPAIR=1, the entry's first repair that accepts the call
 * runs instead (1, with *rc). general_path.c. */
int mg_intercept_repair(int coll, const mg_args *a, int64_t msize, int *rc);
/* A mock-up or a library algorithm was selected: the dispatcher's plan, then the algorithm
 * (through the guard or MPIGUIDE_VERIFY where they apply) or a counted fallback. Returns 1 with
 * the result in *rc when the call ran, 0 when the caller runs the library's own collective. */
int mg_intercept_alg(int coll, int alg, int tuned, const mg_args *a, int64_t msize, int *rc);

/* What mg_decide returns besides a mock-up's algorithm id (ids are >= 0). */
enum mg_decision {
    MG_DEFAULT = -1, /* run the library's own collective (already counted) */
    MG_GENERAL = -2  /* take the general path: mg_intercept decides and counts */
};

/* The most common case, inline in the exported wrapper itself: a repeat of the last call that
 * ran the default on a cached intracommunicator without opt-out (the same memo key,
 * mg_memo_key), no threads.
 * Counted and passed on. It calls nothing and needs no registers beyond the scratch ones, so
 * the wrapper keeps no stack frame and the default is a tail jump with the caller's arguments
 * untouched. */
/* The memo's key from the source of the call's size on this rank (mg_call_source: its count
 * and datatype): the datatype handle and the count; for reductions also the op (whose class a
 * profile may ask for); for Gather and Scatter, whose root takes the size from the other side
 * than the rest, the root + 1. 0 for a count beyond int (a sum of recvcounts). A negative
 * count may be keyed: it never matches, as mg_decide memoises none. */
static inline __attribute__((always_inline)) int mg_memo_key_of(int coll, const mg_args *a,
                                                                int64_t count, MPI_Datatype t,
                                                                uintptr_t *tk, int *cnt,
                                                                uintptr_t *ok) {
    if (count != (int)count) return 0; /* folds away where the count is an int argument */
    *tk = mg_hbits(&t, sizeof t);
    *cnt = (int)count;
    int b = mg_coll_blocking(coll);
    *ok = mg_coll_is_reduction(coll)                  ? mg_hbits(&a->op, sizeof a->op)
          : b == MG_CAT_GATHER || b == MG_CAT_SCATTER ? (uintptr_t)(unsigned)a->root + 1
                                                      : 0;
    return 1;
}

/* The memo's key of a call on this rank (p ranks): that of the source of its size
 * (mg_memo_key_of), for Reduce_scatter and Allgatherv the sum of recvcounts (added up on every
 * call, p entries: the caller may change the array between calls, and an equal sum is an equal
 * size, hence an equal decision); for the collectives without a shared size, which select by
 * communicator size only, a constant (every call on the communicator is decided alike). 0 when the
 * call has none. coll is a constant: this folds. A memo hit only ever runs the library's own
 * collective (which reports erroneous arguments itself), so a key needs to fix the decision, not
 * the call's shape (that is the shape memo's, general_path.c shape_key). */
static inline __attribute__((always_inline)) int
mg_memo_key(int coll, const mg_args *a, int rank, int p, uintptr_t *tk, int *cnt, uintptr_t *ok) {
    if (mg_coll_sizeless(coll)) {
        *tk = 1, *cnt = 0, *ok = 0;
        return 1;
    }
    int64_t count;
    MPI_Datatype t;
    mg_call_source(coll, a, rank, p, &count, &t);
    return mg_memo_key_of(coll, a, count, t, tk, cnt, ok);
}

/* Does the memo key fix the call's shape on this rank too (its scalar arguments), so that a
 * mock-up's plan may be repeated (general_path.c, mg_shape_memo)? Not where the size comes from a
 * count vector, whose entries the key does not hold. coll is a constant: this folds. */
static inline int mg_memo_fixes_shape(int coll) {
    int b = mg_coll_blocking(coll);
    return mg_size_from_recv_everywhere(coll) || b == MG_CAT_GATHER || b == MG_CAT_SCATTER ||
           b == MG_CAT_BARRIER;
}

#ifdef MPIGUIDE_TEST_ALGORITHMS
/* Test variant only (mpiguide-testalgs): repeats taken per collective, in the report's footer,
 * so that a test sees the memo used (nothing else tells a hit from a decision that chose the
 * default again). The real library has no such counter in its fastest path. */
extern uint64_t mg_test_memo_hits[MPIGUIDE_COLL_COUNT];
/* (and the repeat runs the slowed default of MPIGUIDE_TEST_SLOW_DEFAULT_ALL: call.h) */
#define MG_TEST_MEMO_HIT(coll) (mg_test_memo_hits[coll]++, MG_TEST_DEFAULT_ROUTE(coll))
#else
#define MG_TEST_MEMO_HIT(coll) ((void)0)
#endif

/* The cache slot + 1 of the call's communicator when the call repeats the memo there, else 0. */
static inline __attribute__((always_inline)) uint32_t mg_memo_hit(int coll, const mg_args *a) {
    uintptr_t tk, ok;
    int cnt;
    uintptr_t k = mg_hbits(&a->comm, sizeof a->comm);
    uint32_t slot = mg_hslot(k, 6);
    const mg_centry *e = &mg_ccache[slot];
    if (e->key != k || !k || e->flags) return 0;
    if (!mg_memo_key(coll, a, e->rank, e->p, &tk, &cnt, &ok)) return 0;
    if (e->dtype[coll] != tk || !tk || e->dcount[coll] != cnt || e->dop[coll] != ok) return 0;
    return slot + 1;
}

static inline __attribute__((always_inline)) void mg_count_repeat(int coll) {
    _Atomic uint64_t *total = &mg_counts[coll][MG_N_TOTAL]; /* not threaded: plain increment */
    atomic_store_explicit(total, atomic_load_explicit(total, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    MG_TEST_MEMO_HIT(coll);
}

/* Online mode's repeat: the memo's, while its countdown lasts (mg_general == MG_GENERAL_ONLINE). */
static inline __attribute__((always_inline)) int mg_repeat_online(int coll, const mg_args *a) {
    uint32_t s = mg_memo_hit(coll, a);
    if (!s || !mg_left[s - 1][coll]) return 0;
    mg_left[s - 1][coll]--;
    mg_count_repeat(coll);
    return 1;
}

/* Online mode's repeats are the wrapper's slow half's first test (wrappers.c), so that this, the
 * fast half of every other mode, stays as it is. */
static inline __attribute__((always_inline)) int mg_repeat(int coll, const mg_args *a) {
    if (__builtin_expect(mg_general, 0)) return 0;
    if (!mg_memo_hit(coll, a)) return 0;
    mg_count_repeat(coll);
    return 1;
}

/* The common case inline in each wrapper, with coll constant so the size rule and the counter
 * address fold: a cached intracommunicator without opt-out, a predefined datatype and no
 * threads. It calls nothing but the report's table on a size new to the communicator, so the
 * default stays a plain tail jump.
 * Returns MG_DEFAULT (counted), MG_GENERAL (mg_intercept does it all), or a mock-up's id. */
static inline __attribute__((always_inline)) int mg_decide(int coll, mg_args a, int64_t *msize,
                                                           int *tuned) {
    if (__builtin_expect(mg_general | mg_checked[coll], 0)) return MG_GENERAL;
    uintptr_t k = mg_hbits(&a.comm, sizeof a.comm);
    mg_centry *e = &mg_ccache[mg_hslot(k, 6)];
    if (__builtin_expect(e->key != k || !k || e->flags, 0)) return MG_GENERAL;
    _Atomic uint64_t *total = &mg_counts[coll][MG_N_TOTAL]; /* not threaded: plain increment */
    uintptr_t tk = 0, ok = 0;                               /* a repeat was handled by mg_repeat */
    int cnt = 0, simple;
    int64_t count = 0;
    int ts = 0;
    if (mg_coll_sizeless(coll)) {
        simple = mg_memo_key(coll, &a, e->rank, e->p, &tk, &cnt, &ok);
    } else { /* the size's source once: the size and the memo's key */
        MPI_Datatype t;
        mg_call_source(coll, &a, e->rank, e->p, &count, &t);
        if (__builtin_expect(!mg_tcache_get(t, &ts) || count < 0, 0)) return MG_GENERAL;
        simple = mg_memo_key_of(coll, &a, count, t, &tk, &cnt, &ok);
    }
    atomic_store_explicit(total, atomic_load_explicit(total, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    *msize = count * (int64_t)ts;
    int alg = mg_pick(coll, e->p, *msize, ts, a.op, e, tuned);
    if (alg != coll) return alg;
    /* The memo repeats the decision for the same (datatype, count, op); a call a profile did
     * not take is not memoised, so each one counts as other_type. */
    if (simple && *tuned != MG_SEL_OTHERTYPE)
        e->dtype[coll] = tk, e->dcount[coll] = cnt, e->dop[coll] = ok;
    /* the report's (collective, msize) -> algorithm table: a new size on this communicator
     * (a repeat of the memo's (type, count) was recorded when the memo was set) */
    if (__builtin_expect(mg_report_on, 0)) mg_report_seen(coll, *msize, coll);
    return MG_DEFAULT;
}

/* The rest after mg_decide: the general path or the mock-up, each with its fallback to the
 * library's own collective. Returns the call's MPI result. */
int mg_intercept_more(int coll, int alg, int tuned, int64_t msize, const mg_args *a);

/* ---- accounting of the general path (record.c; MPIGUIDE_RECORD, coverage in the report) ---- */
/* Collective over MPI_COMM_WORLD at start: the tables and this job's node map. */
int mg_record_start(void);
/* Accounts one call that took [t0, t1] (large-count entry points). */
void mg_record_note(int coll, const mg_args *a, const mg_callinfo *ci, double t0, double t1);
/* The same with the communicator's layout given (ci->e unused) and whether a wait or test
 * completed the call (nonblocking collectives: nb_complete.c). */
void mg_record_note_at(int coll, const mg_args *a, const mg_callinfo *ci, int nodes, int ppn,
                       int completed, double t0, double t1);
/* ---- nonblocking collectives in the accounting (nb_complete.c) ----
 * Started collectives whose completion is awaited; the wrappers of MPI_Wait* and MPI_Test*
 * look further only while it is not 0. */
extern int mg_nb_pending;
/* The general path started coll with a->request: keep it until a wait or test completes it.
 * 0 when it cannot be kept (the caller notes the start call alone). */
int mg_nb_started(int coll, const mg_args *a, const mg_callinfo *ci, double t0);
/* The guard of nonblocking collectives keeps a sampled start's request (its token tok) until a
 * wait or test completes it (nb_guard.c). 0 when it cannot be kept. */
int mg_nb_guard_keep(MPI_Request req, int tok);
/* MPI_Finalize: notes the collectives never seen completing with their start call's time. */
void mg_nb_flush(void);
/* nodes and ppn of a communicator (cache miss, only while accounting). */
void mg_record_layout(MPI_Comm comm, mg_centry *e);
/* Collective over MPI_COMM_WORLD at MPI_Finalize: the largest values over ranks on rank 0,
 * which writes MPIGUIDE_RECORD (a failure is one line on stderr). */
void mg_record_finish(void);
/* Rank 0 after mg_record_finish: the coverage lines of the report footer. */
void mg_record_report(FILE *f);
void mg_record_stop(void);

#pragma GCC visibility pop

#endif
