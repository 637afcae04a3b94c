/* The in-application guard (MPIGUIDE_GUARD, on by default in tuned mode; docs/interception.md
 * "The guard"): a tuned application must never be slower than the untuned one, so each profile
 * entry the application uses checks itself in the run. Per (communicator, collective, message
 * size) covered by an entry, guard_rule.h says which calls are sampled: a sampled call runs the
 * library's default or the mock-up and is timed locally, with whether the rank was switched out
 * of its core meanwhile. When a window of samples is complete, the ranks reduce each sample's
 * entry and exit (from the rank's own exit of the window's reduction before) and flags (the
 * maximum per sample, one PMPI_Allreduce on the communicator's private duplicate:
 * comm_private.c), a sample's time is the last exit minus the last entry (model/frontier.h), and
 * every rank decides from the same numbers, so an entry is confirmed,
 * switched off or left undecided (running the default) on every rank at the same call. Every
 * other call of a checking or confirmed entry costs a cache lookup, a probe of a small table and
 * guard_rule's counter compare. The finalize footer reports per entry the speed-up with its 95 %
 * interval, the windows and the disturbed ones, its state, and for entries switched off whether
 * all ranks agree on the call. */
#include "guard.h"
#include "comm_private.h"
#include "model/frontier.h"
#include "model/guard_rule.h"
#include "intercept.h"
#include "timed.h"
#include "util/diag.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 32 /* guarded (collective, size) per communicator; more run unguarded */
_Static_assert((SLOTS & (SLOTS - 1)) == 0, "SLOTS is a power of two");

typedef struct gslot {
    uint64_t key; /* ((msize << 5) | coll) + 1; 0 = free */
    int coll, alg, p;
    int64_t msize;
    mg_guard_entry e;
    int64_t agree[2];   /* at finalize: max and -min over ranks of off_at */
    int said_undecided; /* rank 0 warned that the entry is undecided */
    double ref;         /* this rank's exit of the last reduction: the samples' time origin */
    double in_d[MG_GUARD_WINDOW], in_t[MG_GUARD_WINDOW]; /* the samples' entries, from ref */
} gslot;

typedef struct gcomm { /* the guard's state of one communicator */
    int p, rank, nslots;
    gslot slot[SLOTS];
} gcomm;

static mg_private_kind kind;
static int started;

/* The last guarded call: a loop of the same collective and size on one communicator, the
 * common case, skips both lookups. Cleared when that communicator's state goes. */
static struct {
    MPI_Comm comm;
    uint64_t key;
    gcomm *g;
    gslot *s;
} last;

/* Slots of communicators freed before the end, kept for the footer. */
static gslot *retired;
static int nretired, capretired;

void *mg_guard_retire(void *list, int *n, int *cap, const void *slot, size_t size) {
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 32;
        void *r = realloc(list, size * (size_t)nc);
        if (!r) return list;
        list = r;
        *cap = nc;
    }
    memcpy((char *)list + size * (size_t)(*n)++, slot, size);
    return list;
}

static void keep_retired(void *state, MPI_Comm priv) {
    (void)priv;
    gcomm *g = state;
    if (last.g == g) last.s = NULL;
    for (int i = 0; i < SLOTS; i++) {
        if (!g->slot[i].key) continue;
        g->slot[i].agree[0] = g->slot[i].agree[1] = INT64_MIN; /* not checked */
        retired = mg_guard_retire(retired, &nretired, &capretired, &g->slot[i], sizeof *retired);
    }
}

int mg_guard_start(void) {
    started = mg_private_start(&kind, sizeof(gcomm), keep_retired) == MPI_SUCCESS &&
              mg_nbguard_start() == MPI_SUCCESS;
    return started ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* The slot of (coll, msize, alg) in g, taken when free; NULL when the table is full. The table
 * fills in the order of the communicator's calls, the same on every rank. The algorithm is part
 * of the entry: calls of one size may take other profiles (other datatypes and ops, seltab.h
 * chains) that select other algorithms, each guarded on its own. */
static gslot *slot_of(gcomm *g, int coll, int alg, int64_t msize) {
    uint64_t key = ((uint64_t)msize << 5 | (uint64_t)coll) + 1;
    for (uint32_t h = mg_hslot(key, 5), i = 0; i < SLOTS; i++, h = (h + 1) & (SLOTS - 1)) {
        gslot *s = &g->slot[h];
        if (s->key == key && s->alg == alg) return s;
        if (s->key) continue;
        if (g->nslots == SLOTS / 2) return NULL; /* half full: probes stay short */
        s->key = key;
        s->coll = coll;
        s->alg = alg;
        s->p = g->p;
        s->msize = msize;
        s->agree[0] = s->agree[1] = INT64_MIN; /* not checked (yet) */
        s->ref = mg_private_made(g);
        mg_guard_init(&s->e);
        g->nslots++;
        return s;
    }
    return NULL;
}

/* The window is complete: one reduction over the ranks, then the same decision everywhere. */
static void checkpoint(gcomm *g, gslot *s) {
    enum { W = MG_GUARD_WINDOW };
    double in[5 * W], out[5 * W];
    mg_frontier_exits(s->in_d, s->e.win_d, in, W);
    mg_frontier_exits(s->in_t, s->e.win_t, in + W, W);
    memcpy(in + 2 * W, s->e.win_x, sizeof s->e.win_x);
    memcpy(in + 3 * W, s->in_d, sizeof s->in_d);
    memcpy(in + 4 * W, s->in_t, sizeof s->in_t);
    int rc = PMPI_Allreduce(in, out, 5 * W, MPI_DOUBLE, MPI_MAX, mg_private_comm(g));
    s->ref = PMPI_Wtime();
    if (rc != MPI_SUCCESS) {
        s->e.npairs = 0; /* the MPI failed on every rank alike: try the next window */
        return;
    }
    mg_frontier_times(out + 3 * W, out, out, W);
    mg_frontier_times(out + 4 * W, out + W, out + W, W);
    mg_guard_verdict v;
    mg_guard_decide(&s->e, out, out + W, out + 2 * W, W, &v);
    mg_guard_tell(g->rank, s->coll, s->msize, g->p, s->alg, &s->e, &v, &s->said_undecided);
}

void mg_guard_tell(int rank, int coll, int64_t msize, int p, int alg, const mg_guard_entry *e,
                   const mg_guard_verdict *v, int *said_undecided) {
    if (v->slower && rank == 0)
        mg_warning("libmpiguide",
                   "guard: %s %lld B on %d ranks: %s is slower than the default (speed-up %.3g, "
                   "95%% CI %.3g-%.3g, %d sample pairs); the default runs from call %llu on",
                   mg_coll_name(coll), (long long)msize, p, mg_alg_name(alg), v->speedup, v->lo,
                   v->hi, v->pairs, (unsigned long long)e->off_at + 1);
    if (e->state == MG_GUARD_UNDECIDED && !*said_undecided && rank == 0)
        mg_warning("libmpiguide",
                   "guard: %s %lld B on %d ranks: %s undecided, the samples too noisy to tell it "
                   "from the default after %d windows (speed-up %.3g, 95%% CI %.3g-%.3g); the "
                   "default runs from call %llu on, sampling goes on",
                   mg_coll_name(coll), (long long)msize, p, mg_alg_name(alg), e->checkpoints,
                   v->speedup, v->lo, v->hi, (unsigned long long)e->undecided_at + 1);
    *said_undecided |= e->state == MG_GUARD_UNDECIDED;
}

/* The slow half: a sampled call, a call of an entry switched off. */
static MG_SLOW int sampled(gcomm *g, gslot *s, int act, int alg, const mg_args *a,
                           const mg_shape *sh, int64_t msize, int *rc) {
    if (act == MG_GUARD_DEFAULT) {
        mg_count(s->coll, MG_N_GUARD);
        if (s->e.state == MG_GUARD_OFF) mg_memo_default(s->coll, a); /* off for good */
        if (mg_report_on) mg_report_seen(s->coll, msize, s->coll);
        *rc = mg_run_default(s->coll, a);
        return 1;
    }
    int ran, disturbed, at = s->e.npairs; /* the pair this sample belongs to */
    double in = mg_private_stamp(g, s->ref);
    double t = mg_timed_call(s->coll, act == MG_GUARD_TIME_DEFAULT ? s->coll : alg, a, sh, msize,
                             rc, &ran, &disturbed);
    *(act == MG_GUARD_TIME_DEFAULT ? &s->in_d[at] : &s->in_t[at]) = in;
    if (act == MG_GUARD_TIME_DEFAULT) mg_count(s->coll, MG_N_GUARD);
    /* every rank knows whether the library algorithm ran (its setup is agreed): a sample that
     * ran the default instead is not timed */
    if (mg_guard_record(&s->e, act, ran == 1 ? t : -1.0, disturbed)) checkpoint(g, s);
    return 1;
}

int mg_guard_run(int coll, int alg, const mg_args *a, const mg_shape *sh, int64_t msize, int *rc) {
    if (!started) return 0;
    uint64_t key = ((uint64_t)msize << 5 | (uint64_t)coll) + 1;
    gcomm *g;
    gslot *s;
    if (last.s && last.comm == a->comm && last.key == key && last.s->alg == alg) {
        g = last.g, s = last.s;
    } else {
        g = mg_private_find(&kind, a->comm);
        if (__builtin_expect(!g, 0)) { /* the first covered call on this communicator */
            g = mg_private_get(&kind, a->comm);
            if (!g) return 0;
            g->p = sh->p;
            PMPI_Comm_rank(a->comm, &g->rank);
        }
        s = slot_of(g, coll, alg, msize);
        if (!s) return 0;
        last.comm = a->comm, last.key = key, last.g = g, last.s = s;
    }
    int act = mg_guard_step(&s->e);
    if (__builtin_expect(act == MG_GUARD_SKIP, 1)) return 0;
    return sampled(g, s, act, alg, a, sh, msize, rc);
}

void mg_guard_off_fill(const mg_guard_entry *e, int used, int64_t v[2]) {
    int64_t at = used && e->state == MG_GUARD_OFF ? (int64_t)e->off_at : -1;
    v[0] = at;
    v[1] = -at;
}

void mg_guard_off_take(const int64_t v[2], int64_t agree[2]) {
    agree[0] = v[0];
    agree[1] = -v[1];
}

/* The largest and smallest call each rank switched an entry off at (-1: not off). */
static void agree_fill(void *state, int64_t *v) {
    const gcomm *g = state;
    for (int k = 0; k < SLOTS; k++)
        mg_guard_off_fill(&g->slot[k].e, g->slot[k].key != 0, v + 2 * k);
}

static void agree_take(void *state, const int64_t *v) {
    gcomm *g = state;
    for (int k = 0; k < SLOTS; k++) mg_guard_off_take(v + 2 * k, g->slot[k].agree);
}

void mg_guard_agree(void) {
    if (!started) return;
    mg_private_allmax(&kind, 2 * SLOTS, agree_fill, agree_take);
    mg_nbguard_agree();
}

void mg_guard_line(FILE *f, int coll, int p, int64_t msize, int alg, const mg_guard_entry *e,
                   const int64_t agree[2]) {
    double est, lo, hi;
    mg_guard_speedup(e, 0.95, &est, &lo, &hi);
    const char *state = e->state == MG_GUARD_OFF         ? "off"
                        : e->state == MG_GUARD_CONFIRMED ? "confirmed"
                        : e->state == MG_GUARD_UNDECIDED ? "undecided"
                                                         : "checking";
    fprintf(f,
            "#@mpiguide guard %s p=%d msize=%lld alg=%s calls=%llu sampled_default=%llu "
            "sampled_tuned=%llu speedup=%.4g ci95=%.4g..%.4g windows=%llu disturbed=%llu state=%s",
            mg_coll_name(coll), p, (long long)msize, mg_alg_name(alg), (unsigned long long)e->calls,
            (unsigned long long)e->sampled_default, (unsigned long long)e->sampled_tuned, est, lo,
            hi, (unsigned long long)e->windows, (unsigned long long)e->disturbed, state);
    if (e->state == MG_GUARD_OFF) fprintf(f, " off_after=%llu", (unsigned long long)e->off_at);
    if (e->state == MG_GUARD_UNDECIDED)
        fprintf(f, " undecided_after=%llu", (unsigned long long)e->undecided_at);
    if (agree[0] != INT64_MIN) fprintf(f, " ranks_agree=%s", agree[0] == agree[1] ? "yes" : "no");
    fputc('\n', f);
}

static void report_slot(FILE *f, const gslot *s) {
    mg_guard_line(f, s->coll, s->p, s->msize, s->alg, &s->e, s->agree);
}

void mg_guard_report(FILE *f) {
    if (!started) return;
    for (int i = 0; i < nretired; i++) report_slot(f, &retired[i]);
    for (gcomm *g = mg_private_next(&kind, NULL); g; g = mg_private_next(&kind, g))
        for (int k = 0; k < SLOTS; k++)
            if (g->slot[k].key) report_slot(f, &g->slot[k]);
    mg_nbguard_report(f);
}

void mg_guard_stop(void) {
    mg_nbguard_stop();
    if (!started) return;
    kind.fini = NULL; /* the report is written: nothing more to keep */
    last.s = NULL;
    mg_private_stop(&kind);
    free(retired);
    retired = NULL;
    nretired = capretired = 0;
    started = 0;
}
