/* The guard of nonblocking collectives (docs/interception.md "The guard of nonblocking
 * collectives"): a profile entry of MPI_I<coll> checks itself in the run as the blocking guard's
 * entries do (guard_rule.h: the same schedule, window, test, switch-off and report line), with
 * two differences a start imposes.
 *  - What is timed is the time the application is blocked by a start: the start call plus the
 *    intercepted wait or test call that completes its request (nb_complete.c hands it over). A
 *    sampled start whose request is never completed by an intercepted wait or test (completed
 *    inside MPI_Request_free, a Fortran wait, still pending at the verdict) is no sample.
 *  - A start must not wait for the other ranks, so nothing is agreed at a start: its state lives
 *    on the communicator without a duplicate (comm_private.h mg_private_get_local). When the
 *    W-th pair of a window has started (the same call on every rank: the schedule follows the
 *    call count) the verdict is due, and it is reached at the next intercepted blocking
 *    collective on the same communicator, which every rank of it starts at the same point of the
 *    communicator's sequence: the duplicate is made there once, one PMPI_Allreduce takes the
 *    maximum of the times, the disturbed flags and a "not a sample here" flag per pair, and every
 *    rank decides from the same numbers (mg_guard_decide). Until then a confirmed entry runs,
 *    unsampled, and one not yet confirmed runs the default: without a blocking collective on the
 *    communicator no verdict comes, and the entry ran in one window's halves only. */
#include "comm_private.h"
#include "guard.h"
#include "intercept.h"
#include "timed.h"
#include <stdlib.h>
#include <string.h>

/* the table of (collective, size, algorithm) per communicator, at most half in use */
#define SLOTS 16
#define NTOK  256 /* sampled starts awaiting completion (2 per pair, MG_GUARD_WINDOW pairs) */
#define W     MG_GUARD_WINDOW
_Static_assert((SLOTS & (SLOTS - 1)) == 0, "SLOTS is a power of two");

typedef struct nslot {
    uint64_t key; /* ((msize << 5) | coll) + 1; 0 = free (alg tells the entries of one key apart) */
    int coll, alg, p;
    int64_t msize;
    mg_guard_entry e;
    int due;      /* all W pairs of the window started: a verdict at the next blocking call */
    uint32_t gen; /* windows decided: a completion of an older window's start is dropped */
    double d[W], t[W], x[W]; /* this rank's blocked times by pair, and disturbed flags */
    unsigned char have[W];   /* bit 0: the default's half completed, bit 1: the entry's */
    int64_t agree[2];
    int said_undecided;
} nslot;

typedef struct ncomm {
    int p, rank, nslots, ndue;
    nslot slot[SLOTS];
} ncomm;

static struct tok { /* a sampled start: where its time goes */
    ncomm *g;       /* NULL: free (or its communicator was freed) */
    int slot, pair, half;
    uint32_t gen;
    double start_s; /* the start call's time */
    int disturbed;
} tok[NTOK];

static mg_private_kind kind;
static int started;
int mg_nbguard_due;

static nslot *retired;
static int nretired, capretired;

static void keep_retired(void *state, MPI_Comm priv) {
    (void)priv;
    ncomm *g = state;
    for (int i = 0; i < NTOK; i++)
        if (tok[i].g == g) tok[i].g = NULL;
    if (g->ndue) {
        mg_nbguard_due -= g->ndue;
        if (!mg_nbguard_due) mg_general &= ~MG_GENERAL_NBGUARD;
    }
    for (int i = 0; i < SLOTS; i++) {
        if (!g->slot[i].key) continue;
        g->slot[i].agree[0] = g->slot[i].agree[1] = INT64_MIN; /* not checked */
        retired = mg_guard_retire(retired, &nretired, &capretired, &g->slot[i], sizeof *retired);
    }
}

int mg_nbguard_start(void) {
    started = mg_private_start(&kind, sizeof(ncomm), keep_retired) == MPI_SUCCESS;
    return started ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* As guard.c's: the slot of (coll, msize, alg), taken in the order of the communicator's starts
 * (calls of one size may take other profiles, of other datatypes and ops, with other
 * algorithms: each is judged on its own samples). */
static nslot *slot_of(ncomm *g, int coll, int alg, int64_t msize) {
    uint64_t key = ((uint64_t)msize << 5 | (uint64_t)coll) + 1;
    for (uint32_t h = mg_hslot(key, 4), i = 0; i < SLOTS; i++, h = (h + 1) & (SLOTS - 1)) {
        nslot *s = &g->slot[h];
        if (s->key == key && s->alg == alg) return s;
        if (s->key) continue;
        if (g->nslots == SLOTS / 2) return NULL;
        memset(s, 0, sizeof *s);
        s->key = key;
        s->coll = coll;
        s->alg = alg;
        s->p = g->p;
        s->msize = msize;
        s->agree[0] = s->agree[1] = INT64_MIN;
        mg_guard_init(&s->e);
        g->nslots++;
        return s;
    }
    return NULL;
}

static int new_tok(void) {
    for (int i = 0; i < NTOK; i++)
        if (!tok[i].g) return i;
    return -1;
}

int mg_nbguard_start_call(int coll, int alg, const mg_args *a, const mg_shape *sh, int64_t msize,
                          int *rc) {
    if (!started || !a->request) return 0;
    ncomm *g = mg_private_find(&kind, a->comm);
    if (__builtin_expect(!g, 0)) { /* local: the duplicate waits for the first verdict */
        g = mg_private_get_local(&kind, a->comm);
        if (!g) return 0;
        g->p = sh->p;
        g->rank = sh->rank;
    }
    nslot *s = slot_of(g, coll, alg, msize);
    if (!s) return 0;
    int act;
    if (s->due) { /* the window waits for its verdict, unsampled: an entry not yet confirmed
                   * runs the default, so that a communicator without a blocking collective (no
                   * verdict ever) pays for one window of the entry at most */
        s->e.calls++;
        act = s->e.state == MG_GUARD_CONFIRMED ? MG_GUARD_SKIP : MG_GUARD_DEFAULT;
    } else {
        act = mg_guard_step(&s->e);
    }
    if (__builtin_expect(act == MG_GUARD_SKIP, 1)) return 0;
    if (act == MG_GUARD_DEFAULT) {
        mg_count(coll, MG_N_GUARD);
        if (s->e.state == MG_GUARD_OFF) mg_memo_default(coll, a); /* off for good: fast path */
        if (mg_report_on) mg_report_seen(coll, msize, coll);
        *rc = mg_run_default(coll, a);
        return 1;
    }
    int ran, disturbed, pair = s->e.npairs;
    int half = act == MG_GUARD_TIME_DEFAULT ? 1 : 2;
    double t = mg_timed_call(coll, act == MG_GUARD_TIME_DEFAULT ? coll : alg, a, sh, msize, rc,
                             &ran, &disturbed);
    if (act == MG_GUARD_TIME_DEFAULT) mg_count(coll, MG_N_GUARD);
    /* the schedule moves on every rank alike (whether a library algorithm ran is agreed, a
     * failed start fails everywhere); whether its time arrives is this rank's business */
    int ok = ran == 1 && *rc == MPI_SUCCESS;
    if (ok && s->e.calls == s->e.pair) s->have[pair] = 0, s->x[pair] = 0;
    if (mg_guard_record(&s->e, act, ok ? t : -1.0, 0) && !s->due) {
        s->due = 1;
        if (!g->ndue++ && !mg_nbguard_due++) mg_general |= MG_GENERAL_NBGUARD;
    }
    int k = ok ? new_tok() : -1;
    if (k >= 0 && mg_nb_guard_keep(*a->request, k))
        tok[k] = (struct tok){g, (int)(s - g->slot), pair, half, s->gen, t, disturbed};
    return 1;
}

void mg_nbguard_done(int k, int completed, double wait_s, int disturbed) {
    if (k < 0 || k >= NTOK || !tok[k].g) return;
    struct tok *q = &tok[k];
    nslot *s = &q->g->slot[q->slot];
    if (completed && started && s->key && s->gen == q->gen) {
        double blocked = q->start_s + wait_s;
        if (q->half == 1)
            s->d[q->pair] = blocked;
        else
            s->t[q->pair] = blocked;
        if (q->disturbed || disturbed) s->x[q->pair] = 1.0;
        s->have[q->pair] |= (unsigned char)q->half;
    }
    q->g = NULL;
}

/* The verdict of a due window: every rank of the communicator is here, at the same call. */
static void verdict(ncomm *g, nslot *s) {
    double in[4 * W], out[4 * W];
    for (int i = 0; i < W; i++) {
        in[i] = s->d[i];
        in[W + i] = s->t[i];
        in[2 * W + i] = s->x[i];
        in[3 * W + i] = s->have[i] != 3; /* not a sample on this rank */
    }
    s->due = 0;
    s->gen++;
    memset(s->have, 0, sizeof s->have);
    if (!--g->ndue && !--mg_nbguard_due) mg_general &= ~MG_GENERAL_NBGUARD;
    if (mg_private_dup(g) != MPI_SUCCESS ||
        PMPI_Allreduce(in, out, 4 * W, MPI_DOUBLE, MPI_MAX, mg_private_comm(g)) != MPI_SUCCESS) {
        s->e.npairs = 0; /* failed on every rank alike: the next window */
        return;
    }
    for (int i = 0; i < W; i++)
        if (out[3 * W + i] > 0) out[i] = out[W + i] = 0.0; /* left out (mg_guard_decide) */
    mg_guard_verdict v;
    mg_guard_decide(&s->e, out, out + W, out + 2 * W, W, &v);
    mg_guard_tell(g->rank, s->coll, s->msize, g->p, s->alg, &s->e, &v, &s->said_undecided);
}

void mg_nbguard_at(MPI_Comm comm) {
    if (!started) return;
    ncomm *g = mg_private_find(&kind, comm);
    if (!g || !g->ndue) return;
    for (int i = 0; i < SLOTS; i++) /* in slot order, the same on every rank */
        if (g->slot[i].key && g->slot[i].due) verdict(g, &g->slot[i]);
}

static void agree_fill(void *state, int64_t *v) {
    const ncomm *g = state;
    for (int k = 0; k < SLOTS; k++)
        mg_guard_off_fill(&g->slot[k].e, g->slot[k].key != 0, v + 2 * k);
}

static void agree_take(void *state, const int64_t *v) {
    ncomm *g = state;
    for (int k = 0; k < SLOTS; k++) mg_guard_off_take(v + 2 * k, g->slot[k].agree);
}

/* Only communicators that reached a verdict have a duplicate to agree on (the others decided
 * nothing, so there is nothing to compare). */
void mg_nbguard_agree(void) {
    if (started) mg_private_allmax(&kind, 2 * SLOTS, agree_fill, agree_take);
}

static void line(FILE *f, const nslot *s) {
    mg_guard_line(f, s->coll, s->p, s->msize, s->alg, &s->e, s->agree);
}

void mg_nbguard_report(FILE *f) {
    if (!started) return;
    for (int i = 0; i < nretired; i++) line(f, &retired[i]);
    for (ncomm *g = mg_private_next(&kind, NULL); g; g = mg_private_next(&kind, g))
        for (int k = 0; k < SLOTS; k++)
            if (g->slot[k].key) line(f, &g->slot[k]);
}

void mg_nbguard_stop(void) {
    if (!started) return;
    kind.fini = NULL;
    mg_private_stop(&kind);
    memset(tok, 0, sizeof tok);
    mg_nbguard_due = 0;
    free(retired);
    retired = NULL;
    nretired = capretired = 0;
    started = 0;
}
