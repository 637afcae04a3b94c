/* Online mode (MPIGUIDE_ONLINE=1; docs/online.md): the calls the selection leaves to the default
 * race the candidates that support them, inside the application. Per communicator (its private
 * state and duplicate: comm_private.c) a table of cells, one per (collective, message-size bucket,
 * and for reductions element size and op class): the values every rank of the communicator
 * shares, so a cell's calls are the same calls on every rank. model/online_rule.h says what each
 * call of a cell runs; this file runs it (the dispatcher's plan first: a candidate runs only on a
 * call it supports, as in tuned mode), times it (timed.c), and at the end of a window reduces the
 * ranks' times over the private duplicate (the maximum per sample) and applies the rule's
 * decision, identical everywhere. A committed winner runs through the general path's
 * mg_intercept_alg, so the guard checks it from then on; a cell decided for the default (or never
 * raced) memoises its calls as repeatable defaults, so they take the fast path again. So does a
 * cell between its timed calls (before its calibration, paused by the budget, before its next
 * window), with a countdown (intercept.h mg_left) that ends at the call before its next timed
 * one: the wrapper's fast path takes those calls, and the next general-path call of the
 * (communicator, collective) credits them to the cell, so every rank counts every call. Cells
 * allocate their race state at the calibration's first call (35 KB); an allocation that fails on
 * some rank is agreed in the calibration's reduction, and the cell then runs the default on every
 * rank. */
#include "online.h"
#include "comm_private.h"
#include "model/frontier.h"
#include "record/record.h"
#include "runtime/mpi_defects.h"
#include "timed.h"
#include "util/diag.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELLS 64 /* cells per communicator; half of them are used at most (short probes) */
_Static_assert((CELLS & (CELLS - 1)) == 0, "CELLS is a power of two");
#define NSIZES 4 /* sizes counted per cell (the most frequent one is the profile's MSIZE) */
#define HEAD   5 /* scalars before a window in the reduction buffer */

typedef struct ocell {
    uint64_t key; /* cell_key; 0: free */
    int coll, esize, opclass, dtype, op;
    int64_t lo, hi;
    int64_t size[NSIZES];
    uint64_t size_calls[NSIZES];
    uint64_t calls;   /* calls before the race state exists (and of a cell without one) */
    uint64_t fast;    /* calls the fast path took on the cell's countdowns (in calls too) */
    uint64_t pending; /* without memory: the call of the calibration's agreement */
    int nomem;        /* this rank could not allocate the race state */
    int off;          /* no race (the memory agreement failed): the default */
    double step_s;    /* this rank's time in the cell's last agreement */
    int step_x;       /* this rank was switched out of its core during it */
    double ref;       /* this rank's exit of the cell's last agreement: the time origin */
    int64_t agree[2]; /* at MPI_Finalize: the largest and -smallest call of the decision */
    mg_online_cell *race;
} ocell;

typedef struct ocomm { /* online mode's state of one communicator */
    int p, rank, ncells;
    ocell cell[CELLS];
    double buf[HEAD + 5 * MG_ONLINE_SLOTS]; /* one agreement's reduction */
} ocomm;

int mg_online_on;
static mg_private_kind kind;
static double t_start, run_cost; /* MPI_Init's time; what this rank's cells spent exploring */

/* The last cell: a loop of the same call on one communicator skips both lookups. */
static struct {
    MPI_Comm comm;
    uint64_t key;
    ocomm *g;
    ocell *c;
} last;

/* Per communicator-cache slot and collective: the cell that the memo's countdown
 * (mg_left[slot][coll]) was granted to, with the countdown's start and the memo's size. */
static struct grant {
    ocell *c;
    uint32_t n;
    int64_t msize;
} grant[MG_CC_SLOTS][MPIGUIDE_COLL_COUNT];

/* Results of communicators freed before the end (cells this rank reports), for the footer. */
static mg_online_result *retired;
static int nretired, capretired;

/* The catalog index of a predefined datatype (for the profile's #@datatype), -1 otherwise. */
static int dtype_index(MPI_Datatype t) {
    static const MPI_Datatype types[] = {
#define MG_DTYPE(N, ...) N,
#include "catalog/datatypes.def"
#undef MG_DTYPE
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i] == t && t != MPI_DATATYPE_NULL) return (int)i;
    return -1;
}

static int agree_of(const ocell *c) {
    if (c->agree[0] == INT64_MIN || c->agree[0] < 0) return -1; /* not checked, or undecided */
    return c->agree[0] == -c->agree[1];
}

static void result_of(const ocomm *g, const ocell *c, mg_online_result *r) {
    int64_t msize = c->size[0];
    uint64_t most = c->size_calls[0];
    for (int i = 1; i < NSIZES; i++)
        if (c->size_calls[i] > most) most = c->size_calls[i], msize = c->size[i];
    if (c->race) {
        mg_online_result_of(c->race, c->coll, g->p, c->esize, c->opclass, c->dtype, c->op, c->lo,
                            c->hi, msize, agree_of(c), r);
        r->fast = c->fast;
        return;
    }
    memset(r, 0, sizeof *r);
    *r = (mg_online_result){.coll = c->coll,
                            .p = g->p,
                            .esize = c->esize,
                            .opclass = c->opclass,
                            .dtype = c->dtype,
                            .op = c->op,
                            .state = -1,
                            .winner = -1,
                            .best = -1,
                            .agree = -1,
                            .lo = c->lo,
                            .hi = c->hi,
                            .msize = msize,
                            .calls = c->calls,
                            .fast = c->fast,
                            .speedup = NAN,
                            .ci_lo = NAN,
                            .ci_hi = NAN};
    r->state = c->off ? MG_ONLINE_DEFAULT : -1; /* -1: too few calls to race */
}

/* Counts n calls of msize in the cell's few sizes (the first NSIZES distinct ones). */
static void note_size(ocell *c, int64_t msize, uint64_t n) {
    for (int i = 0; i < NSIZES; i++) {
        if (c->size_calls[i] && c->size[i] != msize) continue;
        c->size[i] = msize;
        c->size_calls[i] += n;
        return;
    }
}

/* The countdown of (slot, collective) ends: the calls the fast path took on it are the cell's. A
 * memo left behind without a countdown sends its calls to the general path. */
static void settle(int slot, int coll) {
    struct grant *g = &grant[slot][coll];
    if (g->c) {
        uint64_t used = g->n - mg_left[slot][coll];
        if (g->c->race)
            g->c->race->calls += used;
        else
            g->c->calls += used;
        g->c->fast += used;
        note_size(g->c, g->msize, used);
        g->c = NULL;
    }
    mg_left[slot][coll] = 0;
}

void mg_online_settle(int slot, int coll) {
    settle(slot, coll);
}

void mg_online_slot_reset(int slot) {
    for (int coll = 0; coll < MPIGUIDE_COLL_COUNT; coll++) settle(slot, coll);
}

/* Every countdown held by a cell of g ends (g is being freed or reported). */
static void settle_comm(const ocomm *g) {
    for (int slot = 0; slot < MG_CC_SLOTS; slot++)
        for (int coll = 0; coll < MPIGUIDE_COLL_COUNT; coll++) {
            const ocell *c = grant[slot][coll].c;
            if (c && c >= g->cell && c < g->cell + CELLS) settle(slot, coll);
        }
}

/* A communicator is being freed: its cells' results (where this rank reports them), then their
 * race states go. */
static void keep_retired(void *state, MPI_Comm priv) {
    (void)priv;
    ocomm *g = state;
    if (last.g == g) last.c = NULL;
    settle_comm(g);
    for (int i = 0; i < CELLS; i++) {
        ocell *c = &g->cell[i];
        if (!c->key) continue;
        if (g->rank == 0 && nretired == capretired) {
            int nc = capretired ? 2 * capretired : 32;
            mg_online_result *r = realloc(retired, sizeof *r * (size_t)nc);
            if (r) retired = r, capretired = nc;
        }
        if (g->rank == 0 && nretired < capretired) {
            c->agree[0] = c->agree[1] = INT64_MIN; /* not checked */
            result_of(g, c, &retired[nretired++]);
        }
        free(c->race);
        c->race = NULL;
    }
}

int mg_online_start(void) {
    memset(&last, 0, sizeof last);
    memset(grant, 0, sizeof grant);
    run_cost = 0;
    t_start = PMPI_Wtime();
    return mg_private_start(&kind, sizeof(ocomm), keep_retired);
}

static uint64_t cell_key(int coll, int64_t lo, int esize, int opclass) {
    int bucket = lo ? 64 - __builtin_clzll((unsigned long long)lo) : 0; /* 2^(b-1) = lo */
    return ((uint64_t)(uint32_t)esize << 24 | (uint64_t)opclass << 16 | (uint64_t)bucket << 8 |
            (uint64_t)coll) +
           1;
}

/* The cell of key in g, taken when free; NULL when the table is half full. The table fills in
 * the order of the communicator's calls, the same on every rank. */
static ocell *cell_of(ocomm *g, uint64_t key) {
    for (uint32_t h = mg_hslot(key, 6), i = 0; i < CELLS; i++, h = (h + 1) & (CELLS - 1)) {
        ocell *c = &g->cell[h];
        if (c->key == key) return c;
        if (c->key) continue;
        if (g->ncells == CELLS / 2) return NULL;
        memset(c, 0, sizeof *c);
        c->key = key;
        c->coll = -1; /* the caller describes it */
        c->ref = mg_private_made(g);
        c->agree[0] = c->agree[1] = INT64_MIN;
        g->ncells++;
        return c;
    }
    return NULL;
}

/* A call the default runs: memoised as a repeatable default on the communicator (intercept.h
 * mg_memo_key), as mg_decide does outside online mode, so its repeats take the wrapper's fast
 * path: for good (owner NULL: its cell decided the default, or is not raced) or for the next n
 * calls, credited to the cell owner (settle). Not for collectives whose every call is checked for
 * a known defect (MPIGUIDE_REPAIR), nor for calls a profile measured with another datatype (each
 * counts as other_type). Every key of the memo maps to one cell (its size bucket, element size
 * and op class), so the calls the countdown lets through are that cell's. The caller settled the
 * countdown of (communicator, collective) before. */
static void memo_default(int coll, const mg_args *a, const mg_callinfo *ci, ocell *owner,
                         uint64_t n) {
    uintptr_t tk = 0, ok = 0;
    int cnt = 0;
    mg_centry *e = (mg_centry *)ci->e;
    if (!e || e->flags || ci->sel == MG_SEL_OTHERTYPE || (mg_rt.s.repair && mg_defects_in(coll)) ||
        !mg_memo_key_default(coll, a, e, &tk, &cnt, &ok))
        return;
    e->dtype[coll] = tk, e->dcount[coll] = cnt, e->dop[coll] = ok;
    int slot = (int)(e - mg_ccache);
    if (!owner) {
        mg_left[slot][coll] = UINT32_MAX; /* its next general-path call memoises it again */
        return;
    }
    uint32_t left = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    mg_left[slot][coll] = left;
    grant[slot][coll] = (struct grant){owner, left, ci->msize};
}

/* The candidates of a collective: every mock-up of the registry (test-only rows never) and
 * every library algorithm this MPI has, in id order: what `check` measures. */
static int candidates(int coll, int *algs) {
    int n = 0, total = mpiguide_algorithm_count();
    for (int id = 0; id < total && n < MG_ONLINE_CANDS; id++) {
        if (mg_alg_coll(id) != coll) continue;
        int k = mg_dispatch_kind(id);
        if ((k == MPIGUIDE_KIND_MOCKUP && !(mg_alg_flags(id) & MG_AF_TESTONLY)) ||
            k == MPIGUIDE_KIND_LIBRARY)
            algs[n++] = id;
    }
    return n;
}

/* The agreement at the end of a window (or, for a rank without the race state, of the
 * calibration): one reduction of the window's reduced times and the budget's scalars, then the
 * decision. A rank that could not allocate makes every rank's cell run the default. */
static void agree_step(ocomm *g, ocell *oc) {
    mg_online_cell *c = oc->race;
    int n = c ? c->nslots : MG_ONLINE_CALIBRATE;
    double *b = g->buf;
    b[0] = -oc->step_s; /* the shortest: the last rank to arrive waited for nobody */
    b[1] = run_cost;
    b[2] = -(PMPI_Wtime() - t_start); /* the maximum of its negation: the shortest run */
    b[3] = c ? 0.0 : 1.0;
    b[4] = oc->step_x ? 1.0 : 0.0;
    if (c) { /* per slot the calls' exits and entries (frontier.h) */
        mg_frontier_exits(c->ed, c->wd, b + HEAD, n);
        mg_frontier_exits(c->et, c->wt, b + HEAD + n, n);
        memcpy(b + HEAD + 2 * n, c->wx, sizeof(double) * (size_t)n);
        memcpy(b + HEAD + 3 * n, c->ed, sizeof(double) * (size_t)n);
        memcpy(b + HEAD + 4 * n, c->et, sizeof(double) * (size_t)n);
    } else { /* no race state: nothing timed */
        for (int i = 0; i < 5 * n; i++) b[HEAD + i] = i < 2 * n ? -1.0 : 0.0;
    }
    long s0 = mg_switches();
    double t0 = PMPI_Wtime();
    int rc = PMPI_Allreduce(MPI_IN_PLACE, b, HEAD + 5 * n, MPI_DOUBLE, MPI_MAX, mg_private_comm(g));
    oc->ref = PMPI_Wtime();
    oc->step_s = oc->ref - t0;
    oc->step_x = s0 >= 0 && mg_switches() != s0;
    if (rc != MPI_SUCCESS) { /* failed on every rank alike: the window again */
        if (c) mg_online_retry(c);
        oc->pending = oc->calls + MG_ONLINE_CALIBRATE;
        return;
    }
    if (b[3] > 0) { /* some rank has no race state: the default everywhere */
        free(oc->race);
        oc->race = NULL;
        oc->off = 1;
        return;
    }
    mg_online_budget bud = {mg_rt.s.online_budget, b[1], -b[2], -b[0], b[4] > 0};
    mg_online_verdict v;
    mg_frontier_times(b + HEAD + 3 * n, b + HEAD, b + HEAD, n);
    mg_frontier_times(b + HEAD + 4 * n, b + HEAD + n, b + HEAD + n, n);
    mg_online_decide(c, b + HEAD, b + HEAD + n, b + HEAD + 2 * n, n, &bud, &v);
    run_cost += v.cost;
}

/* The race state of a cell at its first call that needs one (the calibration's first, or the
 * first under rotation). Returns 0 when the call runs the default without it. */
static int race_start(ocomm *g, ocell *oc) {
    int algs[MG_ONLINE_CANDS], n = candidates(oc->coll, algs);
    int rotate = mg_rt.s.online == MG_ONLINE_ROTATE;
    if (!n) { /* nothing to race (the same on every rank) */
        oc->off = 1;
        return 0;
    }
    oc->race = malloc(sizeof *oc->race);
    if (rotate) { /* no reduction follows to agree in: agree now */
        int ok = oc->race != NULL;
        if (PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, mg_private_comm(g)) !=
                MPI_SUCCESS ||
            !ok) {
            free(oc->race);
            oc->race = NULL;
            oc->off = 1;
            return 0;
        }
    }
    if (!oc->race) { /* the calibration's agreement tells the others */
        oc->nomem = 1;
        oc->pending = oc->calls - 1 + MG_ONLINE_CALIBRATE;
        return 0;
    }
    mg_online_init(oc->race, oc->calls - 1, algs, n, rotate);
    return 1;
}

/* MPIGUIDE_ONLINE=rotate: the next candidate in turn that supports the call runs it. */
static int rotate_call(mg_online_cell *c, int coll, const mg_args *a, int64_t msize, int *rc) {
    for (int tries = 0; tries < c->ncand; tries++) {
        int k = mg_online_rotate(c), alg = c->cand[k].alg, err, ran, disturbed;
        unsigned declined;
        mg_shape plan;
        if (mg_dispatch_plan(alg, a, &plan, &declined, &err) != MPIGUIDE_RAN_MOCKUP) continue;
        mg_timed_call(coll, alg, a, &plan, msize, rc, &ran, &disturbed);
        c->cand[k].calls++;
        c->cand_calls++;
        if (mg_report_on) mg_report_seen(coll, msize, ran == 1 ? alg : coll);
        return 1;
    }
    return 0;
}

/* A timed call of a window: the default, or candidate k when it supports the call (otherwise
 * the default runs, untimed, and the pair starts again). */
static int timed_call(ocomm *g, ocell *oc, int act, int k, int coll, const mg_args *a,
                      int64_t msize, int *rc) {
    mg_online_cell *c = oc->race;
    int ran = 1, disturbed = 0, alg = act == MG_ONLINE_TIME_CAND ? c->cand[k].alg : coll;
    mg_shape plan;
    double t, *in = act == MG_ONLINE_TIME_CAND ? &c->et[c->slot] : &c->ed[c->slot];
    if (act == MG_ONLINE_TIME_CAND) {
        unsigned declined;
        int err;
        if (mg_dispatch_plan(alg, a, &plan, &declined, &err) != MPIGUIDE_RAN_MOCKUP) {
            if (mg_online_record(c, act, -1.0, 0)) agree_step(g, oc);
            return 0; /* the same answer on every rank: the caller runs the default */
        }
        *in = mg_private_stamp(g, oc->ref);
        t = mg_timed_call(coll, alg, a, &plan, msize, rc, &ran, &disturbed);
        if (ran != 1) t = -1.0; /* a library algorithm could not run: the default did, everywhere */
    } else {
        if (mg_intercept_repair(coll, a, msize, rc)) { /* a known defect's repair ran instead */
            if (mg_online_record(c, act, -1.0, 0)) agree_step(g, oc);
            return 1;
        }
        *in = mg_private_stamp(g, oc->ref);
        t = mg_timed_call(coll, coll, a, NULL, msize, rc, &ran, &disturbed);
    }
    if (mg_report_on) mg_report_seen(coll, msize, ran == 1 ? alg : coll);
    if (mg_online_record(c, act, t, disturbed)) agree_step(g, oc);
    return 1;
}

int mg_online_call(int coll, const mg_args *a, const mg_callinfo *ci, int *rc) {
    if (ci->e) settle((int)((const mg_centry *)ci->e - mg_ccache), coll);
    if (ci->sel == MG_SEL_RANGE) { /* a profile's explicit default covers it */
        memo_default(coll, a, ci, NULL, 0);
        return 0;
    }
    int red = mg_coll_is_reduction(coll), op = -1, opclass = 0;
    int rotate = mg_rt.s.online == MG_ONLINE_ROTATE;
    if (red && (opclass = mg_ocache_get(a->op, &op)) == MG_OPC_USER && !mg_cfg.tune_user_ops &&
        !rotate) {
        memo_default(coll, a, ci, NULL, 0); /* as tuned mode: a user's op may cost anything */
        return 0;
    }
    int64_t lo, hi;
    mg_rec_bucket(ci->msize, &lo, &hi);
    int esize = red ? ci->esize : 0; /* other collectives: ranks may describe a block otherwise */
    if (rotate) /* the check of correctness: one turn per (communicator, collective) */
        lo = 0, hi = INT64_MAX, esize = 0, opclass = 0;
    uint64_t key = cell_key(coll, lo, esize, opclass);
    ocomm *g;
    ocell *oc;
    if (last.c && last.comm == a->comm && last.key == key) {
        g = last.g, oc = last.c;
    } else {
        g = mg_private_find(&kind, a->comm);
        if (__builtin_expect(!g, 0)) { /* the first call on this communicator: collective */
            g = mg_private_get(&kind, a->comm);
            if (!g) return 0;
            g->p = ci->p;
            PMPI_Comm_rank(a->comm, &g->rank);
        }
        oc = cell_of(g, key);
        if (!oc) {
            memo_default(coll, a, ci, NULL, 0);
            return 0;
        }
        if (oc->coll < 0) { /* new */
            oc->coll = coll, oc->esize = esize, oc->opclass = opclass, oc->lo = lo, oc->hi = hi;
            oc->dtype = red ? dtype_index(ci->type) : -1;
            oc->op = red ? op : -1;
        }
        last.comm = a->comm, last.key = key, last.g = g, last.c = oc;
    }
    note_size(oc, ci->msize, 1);
    if (!oc->race) {
        if (oc->off) {
            memo_default(coll, a, ci, NULL, 0);
            return 0;
        }
        oc->calls++;
        if (oc->nomem) { /* take part in the calibration's agreement, which turns the cell off */
            if (oc->calls == oc->pending) agree_step(g, oc);
            return 0;
        }
        if (mg_rt.s.online == MG_ONLINE_RACE &&
            oc->calls < MG_ONLINE_FIRST - MG_ONLINE_CALIBRATE + 1) {
            /* the fast path up to the call before the calibration's first */
            memo_default(coll, a, ci, oc, MG_ONLINE_FIRST - MG_ONLINE_CALIBRATE - oc->calls);
            return 0;
        }
        if (!race_start(g, oc)) return 0;
    }
    mg_online_cell *c = oc->race;
    int k, act = mg_online_step(c, &k);
    switch (act) {
    case MG_ONLINE_RUN_DEFAULT:
        if (c->state == MG_ONLINE_DEFAULT)
            memo_default(coll, a, ci, NULL, 0);
        else if (c->state == MG_ONLINE_RACING && c->start > c->calls + 1)
            memo_default(coll, a, ci, oc, c->start - c->calls - 1); /* up to the next timed call */
        return 0;
    case MG_ONLINE_RUN_WINNER: /* through the guard, as a profile's entry */
        return mg_intercept_alg(coll, c->cand[k].alg, MG_SEL_RANGE, a, ci->msize, rc) ? 1 : -1;
    case MG_ONLINE_RUN_NEXT:
        return rotate_call(c, coll, a, ci->msize, rc);
    default:
        return timed_call(g, oc, act, k, coll, a, ci->msize, rc);
    }
}

/* ---- at MPI_Finalize ---- */

static void agree_fill(void *state, int64_t *v) {
    const ocomm *g = state;
    for (int i = 0; i < CELLS; i++) {
        const mg_online_cell *c = g->cell[i].race;
        int64_t at = c && (c->state == MG_ONLINE_COMMITTED || c->state == MG_ONLINE_DEFAULT)
                         ? (int64_t)c->decided_at
                         : -1;
        v[2 * i] = at;
        v[2 * i + 1] = -at;
    }
}

static void agree_take(void *state, const int64_t *v) {
    ocomm *g = state;
    for (int i = 0; i < CELLS; i++)
        g->cell[i].agree[0] = v[2 * i], g->cell[i].agree[1] = v[2 * i + 1];
}

void mg_online_agree(void) {
    for (int slot = 0; slot < MG_CC_SLOTS; slot++) mg_online_slot_reset(slot); /* exact counts */
    mg_private_allmax(&kind, 2 * CELLS, agree_fill, agree_take);
}

double mg_online_run_time(double *cost) {
    *cost = run_cost;
    return PMPI_Wtime() - t_start;
}

int mg_online_results(mg_online_result **out, int *n) {
    int count = nretired;
    for (ocomm *g = mg_private_next(&kind, NULL); g; g = mg_private_next(&kind, g))
        if (g->rank == 0) count += g->ncells;
    *out = malloc(sizeof **out * (size_t)(count ? count : 1));
    *n = 0;
    if (!*out) return -1;
    for (int i = 0; i < nretired; i++) (*out)[(*n)++] = retired[i];
    for (ocomm *g = mg_private_next(&kind, NULL); g; g = mg_private_next(&kind, g))
        for (int i = 0; g->rank == 0 && i < CELLS; i++)
            if (g->cell[i].key) result_of(g, &g->cell[i], &(*out)[(*n)++]);
    return 0;
}

static void free_races(void *state, MPI_Comm priv) {
    (void)priv;
    ocomm *g = state;
    for (int i = 0; i < CELLS; i++) free(g->cell[i].race);
}

void mg_online_stop(void) {
    kind.fini = free_races; /* the report is written: only the memory goes */
    last.c = NULL;
    mg_private_stop(&kind);
    free(retired);
    retired = NULL;
    nretired = capretired = 0;
    mg_online_end_free();
    mg_online_on = 0;
}
