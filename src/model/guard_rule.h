/* The in-application guard's rule (MPIGUIDE_GUARD; docs/interception.md "The guard"), without
 * MPI: which calls of a profile entry are sampled, what the samples decide, and the speed-up
 * with its confidence interval. The library side (guard.c) times the sampled calls, reduces
 * them over the communicator's ranks and applies what this file decides, so that every rank,
 * holding the same reduced samples, decides the same at the same call.
 *
 * Schedule per (communicator, collective, message size) covered by a profile entry: calls are
 * counted from 1; from call MG_GUARD_FIRST on, every `period` calls two consecutive calls are a
 * sample pair, one running the library's default and one the entry's mock-up, both timed, the
 * order alternating from pair to pair (so neither always absorbs the skew the application brings
 * into the first call). After MG_GUARD_WINDOW pairs the ranks agree (guard.c) and decide: tuned
 * significantly slower (one-sided rank-sum, MG_GUARD_ALPHA) switches the entry off for the rest
 * of the run; significantly faster confirms it and doubles the period (the default's share
 * halves, down to 1 / MG_GUARD_PERIOD_MAX, so a much faster entry does not give back its gain
 * by sampling a slow default); otherwise the next window decides. Every other call is one
 * counter increment and compare. */
#ifndef MG_GUARD_RULE_H
#define MG_GUARD_RULE_H

#include <stdint.h>

#define MG_GUARD_FIRST      2    /* the first call may set up connections: not sampled */
#define MG_GUARD_PERIOD     8    /* initial period: 2 calls in 8 sampled, 1 in 8 the default */
#define MG_GUARD_PERIOD_MAX 4096 /* after confirmations: 1 call in 4096 runs the default */
#define MG_GUARD_WINDOW     16   /* sample pairs per decision */
#define MG_GUARD_KEEP       64   /* reduced pairs kept for the speed-up and its interval */
#define MG_GUARD_ALPHA      0.01 /* level of each decision's one-sided test */

enum mg_guard_state { MG_GUARD_CHECKING, MG_GUARD_CONFIRMED, MG_GUARD_OFF };
enum mg_guard_action {
    MG_GUARD_SKIP,
    MG_GUARD_TIME_DEFAULT,
    MG_GUARD_TIME_TUNED,
    MG_GUARD_DEFAULT
};

/* The guard of one (communicator, collective, message size). Zeroed, then mg_guard_init. */
typedef struct mg_guard_entry {
    uint64_t calls;  /* covered calls so far */
    uint64_t next;   /* call index of the next pair's first call */
    uint32_t period; /* calls between pair starts */
    int state;       /* enum mg_guard_state */
    int npairs;      /* complete pairs in the current window */
    uint64_t off_at; /* the call after which the entry ran the default (0: never) */
    uint64_t sampled_default, sampled_tuned;
    int checkpoints;
    double win_d[MG_GUARD_WINDOW], win_t[MG_GUARD_WINDOW]; /* this rank's times */
    double keep_d[MG_GUARD_KEEP], keep_t[MG_GUARD_KEEP];   /* reduced pairs, a ring */
    int nkeep, keep_at;
} mg_guard_entry;

void mg_guard_init(mg_guard_entry *e);

/* What to do with the next covered call (counts it). The common answer, MG_GUARD_SKIP (run the
 * mock-up untimed), is one increment and one compare. */
static inline int mg_guard_step(mg_guard_entry *e) {
    if (__builtin_expect(++e->calls < e->next, 1)) return MG_GUARD_SKIP;
    if (e->state == MG_GUARD_OFF) return MG_GUARD_DEFAULT;
    /* call next or next + 1 of pair npairs: default first in even pairs, tuned first in odd */
    int second = e->calls != e->next, odd = e->npairs & 1;
    return second == odd ? MG_GUARD_TIME_DEFAULT : MG_GUARD_TIME_TUNED;
}

/* Records the time of a sampled call (action as mg_guard_step returned). Returns 1 when the
 * window is complete: the caller reduces win_d and win_t over the ranks (maximum per
 * element) and calls mg_guard_decide with the result. */
int mg_guard_record(mg_guard_entry *e, int action, double seconds);

typedef struct mg_guard_verdict {
    int slower, faster; /* significant at MG_GUARD_ALPHA, one-sided */
    double p_slower, p_faster;
    double speedup; /* median default / median tuned of the window */
} mg_guard_verdict;

/* The decision on a complete window of reduced times (d: default, t: tuned, n pairs; both are
 * reordered): tuned slower -> the entry is off from this call on; faster -> confirmed, period
 * doubled; neither -> unchanged. Keeps the pairs for mg_guard_speedup and starts a new window.
 * Deterministic: the same reduced times give the same result on every rank. */
void mg_guard_decide(mg_guard_entry *e, double *d, double *t, int n, mg_guard_verdict *v);

/* The speed-up default / tuned of the kept pairs (Hodges-Lehmann: the median of the n_d n_t
 * pairwise ratios) and its distribution-free interval at level conf (the order statistics of
 * those ratios the rank-sum test's normal approximation gives). NaN without data. */
void mg_guard_speedup(const mg_guard_entry *e, double conf, double *est, double *lo, double *hi);
/* The same on two samples (at most MG_GUARD_KEEP each). */
void mg_guard_ratio_ci(const double *d, int nd, const double *t, int nt, double conf, double *est,
                       double *lo, double *hi);

#endif
