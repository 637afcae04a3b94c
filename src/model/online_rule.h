/* Online mode's race (MPIGUIDE_ONLINE; docs/online.md), without MPI: which calls of a cell run
 * which candidate, what a window of reduced sample pairs decides, and what exploring may cost.
 * A cell is one (communicator, collective, message-size bucket, element size and op class of a
 * reduction) that no profile covers. The library side (src/intercept/online.c) runs and times
 * the calls this file schedules, reduces each window over the communicator's ranks (the maximum
 * per sample, one PMPI_Allreduce on a private duplicate) and applies what this file decides, so
 * every rank, holding the same reduced numbers, decides the same at the same call. The
 * statistics are the guard's (guard_rule.h: the paired signed-rank test and the Hodges-Lehmann
 * speed-up of the pairs' log ratios), the margin is the guard's, and after a commit the guard
 * checks the winner for the rest of the run.
 *
 * Schedule, per cell, calls counted from 1:
 *  - Calls 1 .. MG_ONLINE_FIRST - MG_ONLINE_CALIBRATE run the default untimed; the next
 *    MG_ONLINE_CALIBRATE calls run it timed (the calibration window): their reduced median is
 *    the first estimate of the default's time per call.
 *  - Then windows: a window holds, for each candidate it races, one sample pair (a candidate
 *    never run yet: its probe) or MG_ONLINE_ROUNDS pairs, interleaved round by round in
 *    candidate order. A pair is two consecutive calls, one the default and one the candidate,
 *    both timed, the order alternating from pair to pair. Every call of a window is in a pair.
 *  - After a window, the decision (mg_online_decide) on every candidate that had pairs, on all
 *    its kept pairs (the last MG_ONLINE_KEEP):
 *      slow: the speed-up default / candidate of its undisturbed pairs is at most
 *        1 / MG_ONLINE_SLOW: dropped at once;
 *      slower or futile: on its undisturbed pairs (at least MG_ONLINE_CLEAN) the one-sided test
 *        says it is below the margin (p < MG_ONLINE_DROP_P): dropped (a false drop only loses an
 *        opportunity: the default runs; disturbed pairs measure the scheduler, which under a
 *        heavy load makes every call a time slice, candidates and default alike);
 *      qualifies: on its undisturbed pairs (at least MG_ONLINE_CLEAN) the one-sided test says
 *        it is above the margin with p < MG_ONLINE_ALPHA / (candidates x MG_ONLINE_LOOKS), the
 *        Bonferroni correction over the candidates and the looks each may get, so that the
 *        chance of committing any candidate not faster than the margin stays below
 *        MG_ONLINE_ALPHA;
 *      undecided: neither after MG_ONLINE_LOOKS looks (windows of rounds that tested it: a
 *        window tests only with MG_ONLINE_CLEAN undisturbed pairs kept; on a busy machine most
 *        pairs may be disturbed for a while, the budget bounds what that costs) or after
 *        MG_ONLINE_LOOKS_DISTURBED windows of rounds that gave it an undisturbed pair (a window
 *        without one spends budget, not looks): dropped.
 *    The fastest qualifying candidate (Hodges-Lehmann estimate) is committed once every other
 *    candidate still racing has had its probe and none of them looks faster with looks left
 *    (or once it has had all its looks); the cell then runs it (with the guard) for the rest
 *    of the run. A cell without candidates left runs the default.
 *  - Cost: what exploring cost the application against running the default: per pair of
 *    reduced times candidate - default (a faster candidate's gain pays for exploring the
 *    others; a disturbed pair: no gain, and at most what the candidate's undisturbed pairs
 *    say a pair of it costs (the projection below, at least 0), or before it has one what its
 *    probe was planned to cost: the rest is the scheduler's, which the default would have lost
 *    too), and the agreements (one some rank was switched out in: at most the cell's last
 *    undisturbed one, nothing before one). A window races only the candidates whose projected
 *    cost keeps the cell's cost within its allowance by the window's end (budget x its calls x
 *    the default's time, summed stretch by stretch between decisions, each stretch at the
 *    default's time then: the median of its undisturbed timed calls when at least 4 of the
 *    kept are, otherwise of all) and the run's within budget x (the run's
 *    time), cheapest first. The projection: the candidate's pairs in the window times the mean
 *    of its undisturbed pairs' cost plus two standard errors (the spread at least a quarter of
 *    a pair's times); a probe's: MG_ONLINE_PROBE - 1 defaults, or more after an undisturbed
 *    pair that was slower (a probe slower than that overruns once: `over`, then the pause).
 *    Rounds go to at most MG_ONLINE_LEAD candidates that have had their probe, those with the
 *    largest speed-up estimates (ties: candidate order); every probe still due may join. The
 *    others wait in the race (alive, their looks unspent) until a leader is dropped or their
 *    estimate passes one; the correction over every candidate's looks holds whichever are
 *    tested, so narrowing the race changes only how soon a clear winner commits.
 *    When not even the cheapest fits, the cell runs the default until its share covers it (and
 *    the run's, its time taken to grow as the cell's calls), then takes one timed default call
 *    and decides again; the pauses in a row last at least MG_ONLINE_GAP, twice that, four times
 *    ... calls, but at most half the cell's calls so far more (each check's agreement is a cost
 * too: in a run whose share other cells spent, the checks came every few calls, each pushing the
 * next further out). A window the scheduler disturbed (or a probe far slower than projected) may
 * cost more than projected; the cell then pauses until its share covers that too. So at every
 *    decision the cell's cost is within its allowance plus `over`, the most a finished window
 *    exceeded the allowance it was planned within.
 *  - A candidate that declines MG_ONLINE_DECLINES of its calls in a row (the dispatcher's plan,
 *    the same on every rank) is dropped; a declined call runs the default and its pair starts
 *    again at the next call.
 * Rotation (MPIGUIDE_ONLINE=rotate, a check of correctness): every call runs the next candidate
 * in turn, from the first call on, untimed; nothing is decided. */
#ifndef MG_ONLINE_RULE_H
#define MG_ONLINE_RULE_H

#include "guard_rule.h"
#include <stdint.h>

#define MG_ONLINE_CANDS           32 /* candidates per cell (the first in id order; more are ignored) */
#define MG_ONLINE_FIRST           16 /* the last call of the calibration window */
#define MG_ONLINE_CALIBRATE       8  /* timed default calls that calibrate */
#define MG_ONLINE_ROUNDS          8  /* pairs per candidate in a window after its probe */
#define MG_ONLINE_KEEP            32 /* pairs kept per candidate (tests and estimates use these) */
#define MG_ONLINE_LOOKS           6  /* windows of rounds a candidate gets to qualify */
#define MG_ONLINE_LOOKS_DISTURBED 18 /* windows of rounds a candidate gets in all */
#define MG_ONLINE_ALPHA           0.05           /* family-wise level of a wrong commit */
#define MG_ONLINE_DROP_P          MG_GUARD_ALPHA /* level of the one-sided test that drops */
#define MG_ONLINE_SLOW            10.0           /* this many times slower: dropped at once */
#define MG_ONLINE_PROBE           3.0 /* a probe is planned as this many times the default's time */
#define MG_ONLINE_LEAD            3   /* candidates a window gives rounds: the best estimates */
#define MG_ONLINE_GAP             8   /* the shortest pause; doubles with each pause in a row */
#define MG_ONLINE_MARGIN          MG_GUARD_MARGIN /* speed-up a commit must beat */
#define MG_ONLINE_CLEAN           MG_GUARD_CLEAN  /* undisturbed pairs a commit needs */
#define MG_ONLINE_DECLINES        3               /* declines in a row that drop a candidate */
#define MG_ONLINE_BUDGET          0.01 /* default share of the cell's (and the run's) time */
#define MG_ONLINE_SLOTS           (MG_ONLINE_ROUNDS * MG_ONLINE_CANDS) /* slots of a window */
#define MG_ONLINE_DKEEP           64 /* reduced default times kept for the cell's estimate */

_Static_assert(MG_ONLINE_KEEP <= MG_GUARD_KEEP, "the guard's paired statistics take the pairs");
_Static_assert(MG_ONLINE_CALIBRATE <= MG_ONLINE_SLOTS, "the calibration is a window");

enum mg_online_state {
    MG_ONLINE_RACING,    /* calibrating, racing or paused by the budget: the default between */
    MG_ONLINE_COMMITTED, /* runs the winner (the guard checks it) */
    MG_ONLINE_DEFAULT,   /* no candidate left (or none at all): runs the default */
    MG_ONLINE_ROTATING   /* MPIGUIDE_ONLINE=rotate */
};
enum mg_online_cand_state {
    MG_OC_ALIVE,
    MG_OC_WINNER,
    MG_OC_SLOW,      /* at least MG_ONLINE_SLOW times slower */
    MG_OC_SLOWER,    /* significantly below the margin, and slower than the default */
    MG_OC_FUTILE,    /* significantly below the margin, not slower */
    MG_OC_UNDECIDED, /* did not qualify in MG_ONLINE_LOOKS windows */
    MG_OC_DECLINES   /* declined MG_ONLINE_DECLINES calls in a row */
};
enum mg_online_action {
    MG_ONLINE_RUN_DEFAULT, /* the default, untimed */
    MG_ONLINE_TIME_DEFAULT,
    MG_ONLINE_TIME_CAND, /* candidate *cand, timed */
    MG_ONLINE_RUN_WINNER,
    MG_ONLINE_RUN_NEXT /* rotation: mg_online_rotate names the candidate */
};

typedef struct mg_online_cand {
    int alg;       /* the caller's algorithm id */
    int state;     /* enum mg_online_cand_state */
    int declines;  /* declined calls in a row */
    int looks;     /* windows of rounds that tested whether it qualifies */
    int rounds;    /* windows of rounds it had */
    int n, at;     /* kept pairs (a ring) */
    int qualifies; /* at the last decision */
    uint64_t calls, dropped_at;
    double cost;        /* its pairs' seconds over the default's (negative: it gained) */
    double loss;        /* of those, the pairs where it was slower */
    double est, lo, hi; /* speed-up default / candidate, 95 % interval (undisturbed pairs when
                           there are MG_ONLINE_CLEAN of them); NaN before its first pair */
    double d[MG_ONLINE_KEEP], t[MG_ONLINE_KEEP], x[MG_ONLINE_KEEP]; /* reduced, x > 0: disturbed */
} mg_online_cand;

/* One cell. Zeroed, then mg_online_init. */
typedef struct mg_online_cell {
    int state, winner, ncand, nalive; /* winner: a candidate index, -1 none */
    uint64_t calls;                   /* the cell's calls so far */
    uint64_t start;                   /* the window's first call; earlier calls: the default */
    int nslots, slot, half;           /* the window: slots, the current one, its second call */
    int windows, pauses;              /* windows planned, of those paused by the budget */
    uint64_t gap; /* the shortest pause now: doubles with each pause in a row; 0 after a race */
    uint64_t explored, cand_calls; /* timed calls, of those candidate runs */
    uint64_t decided_at;           /* the call after which it committed or ran the default */
    double cost;  /* what exploring cost so far against the default (seconds, reduced): pairs'
                     candidate - default, gains included, and the agreements */
    double dhat;  /* the default's time per call (median of dk) */
    double cap;   /* the allowance the current window was planned within (seconds) */
    double over;  /* the most the cell's cost exceeded the allowance a window was planned
                     within, once the window was done: what no projection could foresee (a
                     descheduled call, a first call far slower than projected) */
    double probe; /* what a probe is planned to take, in defaults: the largest candidate /
                     default of an undisturbed pair, or MG_ONLINE_PROBE */
    double alpha; /* the level a commit's test must beat */
    double allow; /* the allowance by call allow_at (the last decision): allowance_at */
    uint64_t allow_at;
    double agree_s; /* the last undisturbed agreement's time (0 before one): a disturbed one
                       costs at most it */
    int ndk, dkat, rot;
    double dk[MG_ONLINE_DKEEP];
    uint8_t dkx[MG_ONLINE_DKEEP];   /* dk[i] was disturbed (its pair, on some rank) */
    int16_t scand[MG_ONLINE_SLOTS]; /* slot i: candidate, -1: a lone default call */
    double wd[MG_ONLINE_SLOTS], wt[MG_ONLINE_SLOTS], wx[MG_ONLINE_SLOTS]; /* this rank's */
    /* the caller's, not read here: this rank's entries of slot i's default and candidate call,
     * on its time scale (model/frontier.h), reduced with wd, wt as the calls' exits */
    double ed[MG_ONLINE_SLOTS], et[MG_ONLINE_SLOTS];
    mg_online_cand cand[MG_ONLINE_CANDS];
} mg_online_cell;

/* Starts a cell that has made `calls` calls so far, racing the n candidates algs[] (at most
 * MG_ONLINE_CANDS are kept), or rotating through them. Without candidates it runs the default. */
void mg_online_init(mg_online_cell *c, uint64_t calls, const int *algs, int n, int rotate);

/* What to do with the next call of the cell (counts it); *cand the candidate index for
 * MG_ONLINE_TIME_CAND and MG_ONLINE_RUN_WINNER. */
static inline int mg_online_step(mg_online_cell *c, int *cand) {
    uint64_t k = ++c->calls;
    *cand = -1;
    if (__builtin_expect(c->state != MG_ONLINE_RACING, 1)) {
        if (c->state == MG_ONLINE_COMMITTED) *cand = c->winner;
        return c->state == MG_ONLINE_COMMITTED  ? MG_ONLINE_RUN_WINNER
               : c->state == MG_ONLINE_ROTATING ? MG_ONLINE_RUN_NEXT
                                                : MG_ONLINE_RUN_DEFAULT;
    }
    if (k < c->start) return MG_ONLINE_RUN_DEFAULT;
    int who = c->scand[c->slot];
    if (who < 0) return MG_ONLINE_TIME_DEFAULT;
    *cand = who;
    int default_first = ((c->slot + c->windows) & 1) == 0;
    return c->half != default_first ? MG_ONLINE_TIME_DEFAULT : MG_ONLINE_TIME_CAND;
}

/* Records a timed call (action as mg_online_step returned; seconds < 0: it could not run as
 * scheduled, the same on every rank: a candidate's decline, or a default the caller could not
 * time; disturbed: this rank was switched out of its core during it). Returns 1 when the window
 * is complete: the caller reduces wd, wt, wx[0 .. nslots) over the ranks (maximum per element)
 * and calls mg_online_decide. */
int mg_online_record(mg_online_cell *c, int action, double seconds, int disturbed);

/* The communicator's agreed view of what exploring has cost, for the budget. */
typedef struct mg_online_budget {
    double share;    /* MPIGUIDE_ONLINE_BUDGET */
    double run_cost; /* the most any rank spent exploring in the run (every cell) */
    double run_time; /* the shortest time any rank has run */
    double steps_s;  /* the cell's last agreement: the shortest time a rank spent in it (the
                        others also waited for the last to arrive, as they would elsewhere) */
    int steps_x;     /* some rank was switched out of its core during that agreement */
} mg_online_budget;

typedef struct mg_online_verdict {
    double cost;   /* what this decision added to the cell's cost (the run's total too) */
    int committed; /* the cell committed its winner */
    int defaulted; /* the cell ran out of candidates */
    int paused;    /* the budget paused it */
    int dropped;   /* candidates dropped by this decision */
} mg_online_verdict;

/* The decision on a complete window of reduced times (d[i], t[i], x[i] for slot i; not
 * modified): the rules above, then the next window. Deterministic: the same reduced values give
 * the same result on every rank. */
void mg_online_decide(mg_online_cell *c, const double *d, const double *t, const double *x, int n,
                      const mg_online_budget *b, mg_online_verdict *v);

/* The agreement failed on every rank alike: the same window starts again at the next call. */
void mg_online_retry(mg_online_cell *c);

/* Rotation: the candidate index whose turn it is, moving the turn on. */
int mg_online_rotate(mg_online_cell *c);

/* The best candidate by speed-up estimate (the winner once committed); -1 when none had pairs. */
int mg_online_best(const mg_online_cell *c);

/* The cell's exploring allowance now: share x calls x the default's time, summed stretch by
 * stretch (each at the default's time of its decision). */
double mg_online_allowance(const mg_online_cell *c, double share);

#endif
