/* The in-application guard's rule (MPIGUIDE_GUARD; docs/interception.md "The guard"), without
 * MPI: which calls of a profile entry are sampled, what the samples decide, and the speed-up
 * with its confidence interval. The library side (guard.c) times the sampled calls, reduces
 * them over the communicator's ranks and applies what this file decides, so that every rank,
 * holding the same reduced samples, decides the same at the same call. The rule is meant for
 * any on-line decision between two algorithms (an on-line tuner too): pure, no allocation.
 *
 * Schedule per (communicator, collective, message size) covered by a profile entry: calls are
 * counted from 1; from call MG_GUARD_FIRST on, every `period` calls two consecutive calls are a
 * sample pair, one running the library's default and one the entry's mock-up, both timed, the
 * order alternating from pair to pair (so neither always absorbs the skew the application brings
 * into the first call). A window of MG_GUARD_WINDOW pairs is decided on the pairs as pairs
 * (seen: two samples compared as samples confirmed an entry 200 us slower per call on a busy
 * machine): the log ratios log(default / tuned) of the pairs, a one-sided Wilcoxon signed-rank
 * test and the Hodges-Lehmann speed-up with its 95 % interval.
 *  - Significantly slower (p < MG_GUARD_ALPHA, on the window's pairs or on all pairs since the
 *    last faster window, at most MG_GUARD_KEEP): off for the rest of the run, from any state.
 *  - The interval's lower end at least MG_GUARD_MARGIN ("faster"; the interval of the window's
 *    undisturbed pairs, of which there must be at least MG_GUARD_CLEAN) in MG_GUARD_STREAK windows
 * in a row: confirmed (a confirmed entry stays so with every faster window). One window would
 *    confirm an entry that is not faster in 0.4-1.6 % of its windows on a busy machine, two in
 *    a row in 0.0015-0.027 % (simulated; docs/interception.md). A faster window doubles the
 *    period (up to MG_GUARD_PERIOD_MAX), so a much faster entry does not give back its gain by
 *    sampling a slow default, while a confirmed entry that turns slower is still switched off
 *    within 2 MG_GUARD_WINDOW MG_GUARD_PERIOD_MAX calls of the change.
 *  - Neither, MG_GUARD_IDLE windows in a row: undecided, too noisy to decide. An undecided
 *    entry runs the default (a tuned application must never be slower than the untuned one)
 *    and keeps sampling, its period doubling with every window, so that later clear windows
 *    confirm it or switch it off.
 * A pair is disturbed when a rank was switched out of its core during one of its calls (the
 * caller tells, guard.c from the involuntary context switches): its times are the scheduler's,
 * not the algorithms' (seen: with more ranks than cores and a busy process per core, a
 * mock-up made 200 us slower measured 1.3-2x faster than the default, window after window).
 * A disturbed window (too few undisturbed pairs) can switch an entry off, never confirm it.
 * A checking or confirmed entry's unsampled call is one counter increment and compare. */
#ifndef MG_GUARD_RULE_H
#define MG_GUARD_RULE_H

#include <stdint.h>

#define MG_GUARD_FIRST      2    /* the first call may set up connections: not sampled */
#define MG_GUARD_PERIOD     8    /* initial period: 2 calls in 8 sampled, 1 in 8 the default */
#define MG_GUARD_PERIOD_MAX 1024 /* longest period: 1 call in 1024 runs the default */
#define MG_GUARD_WINDOW     16   /* sample pairs per decision */
#define MG_GUARD_KEEP       64   /* reduced pairs kept for the report's speed-up and interval */
#define MG_GUARD_ALPHA      0.01 /* level of the one-sided test that switches an entry off */
#define MG_GUARD_LEVEL      0.95 /* level of the interval a window is judged by */
#define MG_GUARD_MARGIN     1.05 /* its lower end that counts as faster */
#define MG_GUARD_STREAK     2    /* windows faster in a row that confirm an entry */
#define MG_GUARD_IDLE       2    /* windows in a row without a decision: undecided */
#define MG_GUARD_CLEAN      8    /* undisturbed pairs a window needs to count as faster */

enum mg_guard_state { MG_GUARD_CHECKING, MG_GUARD_CONFIRMED, MG_GUARD_OFF, MG_GUARD_UNDECIDED };
enum mg_guard_action {
    MG_GUARD_SKIP,         /* run the mock-up, untimed */
    MG_GUARD_TIME_DEFAULT, /* run the default, timed */
    MG_GUARD_TIME_TUNED,   /* run the mock-up, timed */
    MG_GUARD_DEFAULT       /* run the default, untimed (off, undecided) */
};

/* The guard of one (communicator, collective, message size). Zeroed, then mg_guard_init. */
typedef struct mg_guard_entry {
    uint64_t calls;        /* covered calls so far */
    uint64_t next;         /* calls below it take the fast path: `pair` while the entry runs the
                              mock-up, 0 while it runs the default */
    uint64_t pair;         /* call index of the next pair's first call */
    uint32_t period;       /* calls between pair starts */
    int state;             /* enum mg_guard_state */
    int npairs;            /* complete pairs in the current window */
    int half;              /* the current pair's first call is recorded */
    int idle;              /* windows in a row without a decision */
    int streak;            /* faster windows in a row */
    int run;               /* kept pairs since the last faster window (the test of slower) */
    uint64_t off_at;       /* the call after which the entry ran the default (0: never) */
    uint64_t undecided_at; /* the call after which an undecided entry ran the default */
    uint64_t sampled_default, sampled_tuned;
    int checkpoints;
    double win_d[MG_GUARD_WINDOW], win_t[MG_GUARD_WINDOW]; /* this rank's times, by pair */
    double win_x[MG_GUARD_WINDOW]; /* 1: a call of the pair was disturbed on this rank */
    uint64_t windows, disturbed;   /* windows decided, and of those disturbed */
    double keep_d[MG_GUARD_KEEP], keep_t[MG_GUARD_KEEP]; /* reduced pairs, a ring */
    int nkeep, keep_at;
} mg_guard_entry;

void mg_guard_init(mg_guard_entry *e);

/* Whether the entry's unsampled calls run the mock-up (checking, confirmed). */
static inline int mg_guard_runs_mockup(const mg_guard_entry *e) {
    return e->state == MG_GUARD_CHECKING || e->state == MG_GUARD_CONFIRMED;
}

/* What to do with the next covered call (counts it). The common answer, MG_GUARD_SKIP (run the
 * mock-up untimed), is one increment and one compare. */
static inline int mg_guard_step(mg_guard_entry *e) {
    if (__builtin_expect(++e->calls < e->next, 1)) return MG_GUARD_SKIP;
    if (e->state == MG_GUARD_OFF) return MG_GUARD_DEFAULT;
    if (e->calls < e->pair) return MG_GUARD_DEFAULT; /* undecided, between pairs */
    if (e->calls > e->pair + 1) {                    /* a pair was left unfinished */
        e->pair = e->calls;
        e->half = 0;
    }
    /* call pair or pair + 1 of pair npairs: default first in even pairs, tuned first in odd */
    int second = e->calls != e->pair, odd = e->npairs & 1;
    return second == odd ? MG_GUARD_TIME_DEFAULT : MG_GUARD_TIME_TUNED;
}

/* Records the time of a sampled call (action as mg_guard_step returned; seconds < 0: the call
 * could not be timed as sampled, the same on every rank, and its pair starts again at the next
 * call; disturbed: this rank was switched out during it). Returns 1 when the window is
 * complete: the caller reduces win_d, win_t and win_x over the ranks (maximum per element) and
 * calls mg_guard_decide with the result. */
int mg_guard_record(mg_guard_entry *e, int action, double seconds, int disturbed);

typedef struct mg_guard_verdict {
    int slower, faster; /* switched off; confirmed (or kept confirmed) */
    double p_slower;    /* one-sided signed-rank p-value of "tuned slower" (the window's pairs,
                           or those since the last faster window when they decided) */
    double p_faster;    /* and of "tuned faster" (the window's pairs) */
    double speedup;     /* Hodges-Lehmann default / tuned of the window's pairs */
    double lo, hi;      /* its MG_GUARD_LEVEL interval */
    int pairs;          /* the window's pairs with both times positive */
    int clean;          /* of those, undisturbed */
} mg_guard_verdict;

/* The decision on a complete window of reduced times (d[i] and t[i] are pair i, x[i] > 0 when
 * it was disturbed, x may be NULL: none; not modified): the transitions above. Keeps the
 * pairs for mg_guard_speedup and starts a new window. Deterministic: the same reduced values
 * give the same result on every rank. */
void mg_guard_decide(mg_guard_entry *e, const double *d, const double *t, const double *x, int n,
                     mg_guard_verdict *v);

/* The paired speed-up default / tuned of n pairs (at most MG_GUARD_KEEP): exp of the
 * Hodges-Lehmann estimate of the median log ratio (the median of the Walsh averages) and its
 * distribution-free interval at level conf (the Walsh averages at the signed-rank test's exact
 * critical values). Pairs with a time <= 0 are left out; NaN without any. *p_slower and
 * *p_faster (may be NULL): the exact one-sided signed-rank p-values (conditional on ties; zero
 * log ratios left out). */
void mg_guard_paired(const double *d, const double *t, int n, double conf, double *est, double *lo,
                     double *hi, double *p_slower, double *p_faster);
/* mg_guard_paired of the kept pairs. */
void mg_guard_speedup(const mg_guard_entry *e, double conf, double *est, double *lo, double *hi);

#endif
