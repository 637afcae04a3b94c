/* Online mode's race (see online_rule.h): schedule, decisions, budget. Pure: no MPI and no
 * allocation (it runs inside intercepted calls: docs/dev/design.md invariant 4); the paired
 * statistics are the guard's (mg_guard_paired). Online mode is off under MPI_THREAD_MULTIPLE,
 * so these functions never run concurrently. */
#include "online_rule.h"
#include <math.h>
#include <string.h>

/* Insertion sort of a few dozen values, in place. */
static void sort_small(double *v, int n) {
    for (int i = 1; i < n; i++) {
        double x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

static double median_of(const double *v, int n) {
    double s[MG_ONLINE_DKEEP > MG_ONLINE_KEEP ? MG_ONLINE_DKEEP : MG_ONLINE_KEEP];
    if (n <= 0) return NAN;
    memcpy(s, v, sizeof *v * (size_t)n);
    sort_small(s, n);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void window_clear(mg_online_cell *c, int n) {
    for (int i = 0; i < n; i++) c->wd[i] = c->wt[i] = -1.0, c->wx[i] = 0.0;
    c->nslots = n;
    c->slot = c->half = 0;
}

void mg_online_init(mg_online_cell *c, uint64_t calls, const int *algs, int n, int rotate) {
    memset(c, 0, sizeof *c);
    if (n > MG_ONLINE_CANDS) n = MG_ONLINE_CANDS;
    if (n < 0) n = 0;
    c->calls = calls;
    c->winner = -1;
    c->ncand = c->nalive = n;
    c->probe = MG_ONLINE_PROBE;
    c->alpha = MG_ONLINE_ALPHA / ((double)(n ? n : 1) * MG_ONLINE_LOOKS);
    for (int i = 0; i < n; i++) {
        c->cand[i].alg = algs[i];
        c->cand[i].state = MG_OC_ALIVE;
        c->cand[i].est = c->cand[i].lo = c->cand[i].hi = NAN;
    }
    if (!n) {
        c->state = MG_ONLINE_DEFAULT;
        c->decided_at = calls;
        return;
    }
    if (rotate) {
        c->state = MG_ONLINE_ROTATING;
        return;
    }
    c->state = MG_ONLINE_RACING;
    window_clear(c, MG_ONLINE_CALIBRATE);
    for (int i = 0; i < MG_ONLINE_CALIBRATE; i++) c->scand[i] = -1;
    c->start = MG_ONLINE_FIRST - MG_ONLINE_CALIBRATE + 1;
    if (c->start <= calls) c->start = calls + 1;
}

/* Moves past the window's slots whose candidate was dropped (they stay untimed); 1 when the
 * window is complete. */
static int skip_dropped(mg_online_cell *c) {
    for (; c->slot < c->nslots; c->slot++) {
        int who = c->scand[c->slot];
        if (who < 0 || c->cand[who].state == MG_OC_ALIVE) return 0;
    }
    return 1;
}

static void drop(mg_online_cell *c, mg_online_cand *k, int why) {
    k->state = why;
    k->dropped_at = c->calls;
    k->qualifies = 0;
    c->nalive--;
}

int mg_online_record(mg_online_cell *c, int action, double seconds, int disturbed) {
    int s = c->slot, who = c->scand[s];
    mg_online_cand *k = who >= 0 ? &c->cand[who] : NULL;
    if (seconds < 0) { /* the slot starts again at the next call */
        c->half = 0;
        c->wd[s] = c->wt[s] = -1.0;
        c->wx[s] = 0.0;
        if (action == MG_ONLINE_TIME_CAND && k && ++k->declines >= MG_ONLINE_DECLINES) {
            drop(c, k, MG_OC_DECLINES);
            return skip_dropped(c);
        }
        return 0;
    }
    c->explored++;
    if (!c->half) c->wx[s] = 0.0;
    if (disturbed) c->wx[s] = 1.0;
    if (action == MG_ONLINE_TIME_DEFAULT) {
        c->wd[s] = seconds;
    } else if (k) {
        c->wt[s] = seconds;
        k->declines = 0;
        k->calls++;
        c->cand_calls++;
    }
    if (k && !c->half) {
        c->half = 1;
        return 0;
    }
    c->half = 0;
    c->slot++;
    return skip_dropped(c);
}

/* What one more pair of the candidate will cost the cell, not underestimated: the mean of its
 * undisturbed pairs' candidate - default (all pairs when none is) plus two standard errors, the
 * spread taken as at least a quarter of a pair's two times (timings vary that much; one or two
 * pairs cannot tell). Negative: it gains. */
static double pair_cost(const mg_online_cand *k) {
    double sum = 0.0, sq = 0.0, both = 0.0;
    int clean = 0, n = 0;
    for (int i = 0; i < k->n; i++) clean += !(k->x[i] > 0);
    for (int i = 0; i < k->n; i++)
        if (!clean || !(k->x[i] > 0)) sum += k->t[i] - k->d[i], both += k->t[i] + k->d[i], n++;
    double mean = sum / n;
    for (int i = 0; i < k->n; i++)
        if (!clean || !(k->x[i] > 0)) sq += (k->t[i] - k->d[i] - mean) * (k->t[i] - k->d[i] - mean);
    double sd = n > 1 ? sqrt(sq / (n - 1)) : 0.0, floor = 0.25 * both / n;
    return mean + 2.0 * (sd > floor ? sd : floor) / sqrt((double)n);
}

/* The tests of one candidate after a window that gave it pairs (rounds: a window of rounds, not
 * its probe; fresh: of its pairs in the window, the undisturbed), on its kept pairs: dropped, or
 * whether it qualifies. Only undisturbed pairs judge it: when the scheduler decides the times (2
 * MPICH ranks on 2 cores under a load of 10-12 took a time slice, 8 ms, for every call of the
 * default of 0.2 ms and of candidates 50x faster alike, for 700 calls in a row), the pairs are
 * equal whatever the algorithms, and a test on them dropped every candidate as futile; a window
 * without one undisturbed pair of the candidate costs the budget, not one of its looks. */
static void judge(mg_online_cell *c, mg_online_cand *k, int rounds, int fresh,
                  mg_online_verdict *v) {
    double cd[MG_ONLINE_KEEP], ct[MG_ONLINE_KEEP], ctm[MG_ONLINE_KEEP], est, lo, hi;
    int clean = 0;
    for (int i = 0; i < k->n; i++) {
        if (k->x[i] > 0) continue;
        cd[clean] = k->d[i];
        ct[clean] = k->t[i];
        ctm[clean++] = k->t[i] * MG_ONLINE_MARGIN; /* tested against the margin */
    }
    /* the report's speed-up and 95 % interval: undisturbed pairs when there are enough */
    if (clean >= MG_ONLINE_CLEAN) {
        mg_guard_paired(cd, ct, clean, 0.95, &k->est, &k->lo, &k->hi, NULL, NULL);
    } else {
        mg_guard_paired(k->d, k->t, k->n, 0.95, &k->est, &k->lo, &k->hi, NULL, NULL);
    }
    /* at once only on what no descheduling made up */
    double quick = NAN;
    if (clean) mg_guard_paired(cd, ct, clean, 0.95, &quick, &lo, &hi, NULL, NULL);
    /* the tests, on the undisturbed pairs (a false drop loses an opportunity, never time) */
    int tested = clean >= MG_ONLINE_CLEAN;
    double below = 1.0, above = 1.0, all = NAN;
    if (tested) {
        mg_guard_paired(cd, ctm, clean, 0.95, &est, &lo, &hi, &below, &above);
        all = est * MG_ONLINE_MARGIN; /* Hodges-Lehmann is shift-equivariant in the logs */
    }
    k->qualifies = 0;
    if (quick <= 1.0 / MG_ONLINE_SLOW) {
        drop(c, k, MG_OC_SLOW);
    } else if (below < MG_ONLINE_DROP_P) {
        drop(c, k, all < 1.0 ? MG_OC_SLOWER : MG_OC_FUTILE);
    } else {
        /* a look is a test; on a busy machine a candidate may need more windows than looks to
         * get enough undisturbed pairs for one (the budget bounds what it costs meanwhile) */
        if (tested) {
            k->qualifies = above < c->alpha;
            k->looks += rounds;
        }
        if (fresh) k->rounds += rounds;
        if (!k->qualifies &&
            (k->looks >= MG_ONLINE_LOOKS || k->rounds >= MG_ONLINE_LOOKS_DISTURBED))
            drop(c, k, MG_OC_UNDECIDED);
    }
    v->dropped += k->state != MG_OC_ALIVE;
}

typedef struct member {
    int i, pairs;
    double proj;
} member;

static int member_before(const member *a, const member *b, int by_cost) {
    if (by_cost && a->proj != b->proj) return a->proj < b->proj;
    return a->i < b->i;
}

static void sort_members(member *m, int n, int by_cost) {
    for (int i = 1; i < n; i++) {
        member x = m[i];
        int j = i;
        for (; j > 0 && member_before(&x, &m[j - 1], by_cost); j--) m[j] = m[j - 1];
        m[j] = x;
    }
}

/* Keeps of the members that had their probe only the MG_ONLINE_LEAD with the largest speed-up
 * estimates (ties and NaN: candidate order), and every probe; returns how many are kept. */
static int leaders(const mg_online_cell *c, member *m, int nm) {
    member all[MG_ONLINE_CANDS];
    int kept = 0;
    memcpy(all, m, sizeof *m * (size_t)nm);
    for (int j = 0; j < nm; j++) {
        const mg_online_cand *k = &c->cand[all[j].i];
        int ahead = 0;
        for (int o = 0; k->n && o < nm; o++) {
            const mg_online_cand *q = &c->cand[all[o].i];
            if (o == j || !q->n) continue;
            double ek = isnan(k->est) ? -1.0 : k->est, eq = isnan(q->est) ? -1.0 : q->est;
            ahead += eq > ek || (eq == ek && all[o].i < all[j].i);
        }
        if (ahead < MG_ONLINE_LEAD) m[kept++] = all[j];
    }
    return kept;
}

/* The cell's allowance by its call k (not before c->allow_at): what it had by the last decision,
 * plus the share of the calls since, each at the default's time per call now. Summed stretch by
 * stretch, it never shrinks: computed as the share of all the calls at today's time per call, a
 * machine that sped up (the default 12 ms a call while descheduled, then 0.2 ms) took back 98 %
 * of the allowance the cell had already spent, and the cell paused past the end of the run. */
static double allowance_at(const mg_online_cell *c, double share, uint64_t k) {
    double dh = c->dhat > 0 ? c->dhat : 0.0;
    return c->allow + share * (double)(k > c->allow_at ? k - c->allow_at : 0) * dh;
}

/* The next window: the alive candidates whose projected cost fits the budget, cheapest first;
 * when none fits, one timed default call at the first call the cell's share covers the
 * cheapest (and, when the run's cap binds, by when the run's time will, counting its time as
 * growing with the cell's calls). */
static void plan(mg_online_cell *c, const mg_online_budget *b, double steps, mg_online_verdict *v) {
    double dh = c->dhat > 1e-9 ? c->dhat : 1e-9, share = b->share > 0 ? b->share : 1e-9;
    member m[MG_ONLINE_CANDS];
    int nm = 0, take = 0, pairs = 0;
    for (int i = 0; i < c->ncand; i++) {
        const mg_online_cand *k = &c->cand[i];
        if (k->state != MG_OC_ALIVE) continue;
        m[nm].i = i;
        m[nm].pairs = k->n ? MG_ONLINE_ROUNDS : 1;
        m[nm++].proj = k->n ? MG_ONLINE_ROUNDS * pair_cost(k) : (c->probe - 1.0) * dh;
    }
    nm = leaders(c, m, nm);
    sort_members(m, nm, 1);
    double sum = steps; /* its agreement */
    for (; take < nm; take++) {
        double cap = allowance_at(c, share, c->calls + 2 * (uint64_t)(pairs + m[take].pairs));
        double spend = sum + m[take].proj;
        if (c->cost + spend > cap || b->run_cost + spend > share * b->run_time) break;
        sum = spend;
        pairs += m[take].pairs;
        c->cap = cap;
    }
    c->windows++;
    if (!take) {
        /* by then the share must also cover the check's own agreement (a little more, or the
         * checks would chase their own cost) */
        double spend = (2 * sum + m[0].proj) * 1.01;
        double need = (c->cost + spend - c->allow) / (share * dh) + (double)c->allow_at -
                      2.0 * m[0].pairs + 1;
        uint64_t at = c->calls + 1;
        if (need > (double)at) at = need > 1e18 ? (uint64_t)1e18 : (uint64_t)ceil(need);
        /* the run's cap: its time grows about as the cell's calls do */
        double run = (b->run_cost + spend) / share;
        if (run > b->run_time && b->run_time > 0) {
            double more = (double)c->calls * (run / b->run_time);
            if (more > (double)at) at = more > 1e18 ? (uint64_t)1e18 : (uint64_t)ceil(more);
        }
        /* the pauses in a row wait at least 8, 16, 32 ... calls, and at most half the cell's
         * calls more: about log1.5 of its calls checks, and a busy machine's charges (a run of
         * disturbed pairs) delay the race by at most half of what the cell ran */
        c->gap = c->gap ? 2 * c->gap : MG_ONLINE_GAP;
        if (c->gap > c->calls / 2)
            c->gap = c->calls / 2 > MG_ONLINE_GAP ? c->calls / 2 : MG_ONLINE_GAP;
        if (at < c->calls + c->gap) at = c->calls + c->gap;
        window_clear(c, 1);
        c->scand[0] = -1;
        c->start = at;
        c->cap = allowance_at(c, share, at);
        if (c->cap < c->cost + sum) c->cap = c->cost + sum; /* the check itself */
        c->pauses++;
        v->paused = 1;
        return;
    }
    c->gap = 0;
    sort_members(m, take, 0);
    int s = 0;
    for (int r = 0; r < MG_ONLINE_ROUNDS; r++)
        for (int j = 0; j < take; j++)
            if (m[j].pairs > r) c->scand[s++] = (int16_t)m[j].i;
    window_clear(c, s);
    c->start = c->calls + 1;
}

/* What the cell's last agreement cost: the shortest time a rank spent in it; when some rank was
 * switched out of its core during it, no more than the cell's last undisturbed agreement took
 * (before one, nothing): the rest is the scheduler's, as for a disturbed pair. An undisturbed
 * agreement of 2 ranks takes tens of microseconds, a descheduled one a time slice (8-15 ms for
 * 2 MPICH ranks on 2 cores under a load of 10). Charged in full, each was the cell's cost and, as
 * the next check's projected cost, twice more: the cell paused for 7,000 calls, and a slowed
 * default committed after 5,000-16,000 calls of 20,000, or not at all; bounded by a default call
 * whose calibration the scheduler had made up as well (8 ms), still after 18,000. */
static double agreement_cost(mg_online_cell *c, const mg_online_budget *b) {
    double s = b->steps_s > 0 && isfinite(b->steps_s) ? b->steps_s : 0.0;
    if (!b->steps_x) {
        c->agree_s = s;
        return s;
    }
    return s < c->agree_s ? s : c->agree_s;
}

/* The default's time per call: the median of its kept timed calls that no descheduling made up,
 * when at least half a calibration's are (otherwise of all). A calibration whose calls were all
 * descheduled (15 ms each against 0.2 ms undisturbed) made the allowance 70x larger and, when the
 * machine quietened, 70x smaller again under the cost it had let the cell spend: the cell paused
 * past the end of the run. */
static double default_time(const mg_online_cell *c) {
    double clean[MG_ONLINE_DKEEP];
    int n = 0;
    for (int i = 0; i < c->ndk; i++)
        if (!c->dkx[i]) clean[n++] = c->dk[i];
    return n >= MG_ONLINE_CALIBRATE / 2 ? median_of(clean, n) : median_of(c->dk, c->ndk);
}

void mg_online_decide(mg_online_cell *c, const double *d, const double *t, const double *x, int n,
                      const mg_online_budget *b, mg_online_verdict *v) {
    memset(v, 0, sizeof *v);
    if (c->state != MG_ONLINE_RACING) return;
    if (n > c->nslots) n = c->nslots;
    int pairs[MG_ONLINE_CANDS] = {0}, clean[MG_ONLINE_CANDS] = {0};
    for (int i = 0; i < n; i++) {
        int dok = d[i] > 0 && isfinite(d[i]), who = c->scand[i];
        if (dok) { /* every timed default: the cell's time per call */
            c->dk[c->dkat] = d[i];
            c->dkx[c->dkat] = x && x[i] > 0;
            c->dkat = (c->dkat + 1) % MG_ONLINE_DKEEP;
            if (c->ndk < MG_ONLINE_DKEEP) c->ndk++;
        }
        if (who < 0 || !dok || !(t[i] > 0 && isfinite(t[i]))) continue;
        mg_online_cand *k = &c->cand[who];
        k->d[k->at] = d[i];
        k->t[k->at] = t[i];
        k->x[k->at] = x && x[i] > 0 ? 1.0 : 0.0;
        k->at = (k->at + 1) % MG_ONLINE_KEEP;
        if (k->n < MG_ONLINE_KEEP) k->n++;
        double extra = t[i] - d[i];
        if (!(x && x[i] > 0)) {
            if (t[i] / d[i] > c->probe) c->probe = t[i] / d[i];
        } else {
            /* the scheduler's time, which the default would have lost as well: no gain, and no
             * more than the candidate's undisturbed pairs say one of its pairs costs (mean + 2
             * standard errors); before it has one, no more than a probe is planned to cost.
             * Charging every descheduled pair 9 defaults (a candidate 50x faster included)
             * paused the race on a busy machine for thousands of calls. */
            int clean = 0;
            for (int j = 0; j < k->n; j++) clean += !(k->x[j] > 0);
            double most = clean ? pair_cost(k) : (c->probe - 1.0) * (c->dhat > 0 ? c->dhat : d[i]);
            if (most < 0) most = 0;
            extra = extra < 0 ? 0.0 : extra > most ? most : extra;
        }
        k->cost += extra;
        k->loss += extra > 0 ? extra : 0.0;
        v->cost += extra;
        pairs[who]++;
        clean[who] += !(x && x[i] > 0);
    }
    if (c->ndk) c->dhat = default_time(c);
    c->allow = allowance_at(c, b->share, c->calls); /* these calls at this window's time */
    c->allow_at = c->calls;
    double steps = agreement_cost(c, b); /* (bounded by this window's default time) */
    v->cost += steps;
    c->cost += v->cost;
    if (c->cap > 0 && c->cost - c->cap > c->over) c->over = c->cost - c->cap;
    for (int i = 0; i < c->ncand; i++)
        if (pairs[i] && c->cand[i].state == MG_OC_ALIVE)
            judge(c, &c->cand[i], pairs[i] > 1, clean[i], v);
    /* the fastest qualifying candidate, once every other still racing has had its probe and
     * none of them looks faster, or once it has had all its looks */
    int best = -1;
    for (int i = 0; i < c->ncand; i++)
        if (c->cand[i].state == MG_OC_ALIVE && c->cand[i].qualifies &&
            (best < 0 || c->cand[i].est > c->cand[best].est))
            best = i;
    for (int i = 0; best >= 0 && c->cand[best].looks < MG_ONLINE_LOOKS && i < c->ncand; i++) {
        const mg_online_cand *k = &c->cand[i];
        if (k->state == MG_OC_ALIVE && !k->qualifies &&
            (!k->n || (k->looks < MG_ONLINE_LOOKS && k->est > c->cand[best].est)))
            best = -1;
    }
    if (best >= 0) {
        c->state = MG_ONLINE_COMMITTED;
        c->winner = best;
        c->cand[best].state = MG_OC_WINNER;
        c->decided_at = c->calls;
        v->committed = 1;
        return;
    }
    if (!c->nalive) {
        c->state = MG_ONLINE_DEFAULT;
        c->decided_at = c->calls;
        v->defaulted = 1;
        return;
    }
    plan(c, b, steps, v);
}

void mg_online_retry(mg_online_cell *c) {
    if (c->state != MG_ONLINE_RACING) return;
    window_clear(c, c->nslots); /* the same slots, from the next call */
    c->start = c->calls + 1;
    if (skip_dropped(c)) { /* nothing left in it: one timed default call, then a decision */
        window_clear(c, 1);
        c->scand[0] = -1;
    }
}

int mg_online_rotate(mg_online_cell *c) {
    int i = c->ncand ? c->rot % c->ncand : 0;
    c->rot = c->ncand ? (c->rot + 1) % c->ncand : 0;
    return i;
}

int mg_online_best(const mg_online_cell *c) {
    if (c->state == MG_ONLINE_COMMITTED) return c->winner;
    int best = -1;
    for (int i = 0; i < c->ncand; i++)
        if (c->cand[i].n && !isnan(c->cand[i].est) &&
            (best < 0 || c->cand[i].est > c->cand[best].est))
            best = i;
    return best;
}

double mg_online_allowance(const mg_online_cell *c, double share) {
    return allowance_at(c, share, c->calls);
}
