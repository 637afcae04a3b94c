/* The decisions from the tests: violations of mock-ups (significant after correction and faster
 * by the median), tuning opportunities of library algorithms (the same test, their own
 * correction family: the library's own algorithm beating its default breaks no guideline),
 * barrier warnings, the fastest of each per size, the profile candidate (the fastest of either
 * kind, at least --min-gain faster), the quality score (guidelines only) and the library score
 * (default vs best library algorithm) per collective. */
#include "util/format.h"
#include "catalog/catalog.h"
#include "model.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A candidate the fastest does not save at least this share of time against is a tie for the
 * profile: the first in name order wins, so that repeated runs choose the same one instead of
 * whichever noise favoured. So are candidates the fastest is not faster than in most launches. */
#define MG_TIE_TOLERANCE 0.05

/* A candidate for the profile: a mock-up's violation or a library algorithm's opportunity,
 * saving at least --min-gain of the default's median. */
static int saves_min_gain(const mg_analysis *a, const mg_cell *m, double dmed) {
    return 1 - m->median / dmed >= a->opts.min_gain;
}

static int qualifies(const mg_analysis *a, const mg_cell *m, double dmed) {
    return (m->violation || m->opportunity) && saves_min_gain(a, m, dmed);
}

/* May m stand in for the fastest qualifying candidate, should they tie? It must be faster
 * than the default in every launch by the test at its alpha, but uncorrected: the correction
 * guards the claim that the size has a violation at all, which the fastest already makes;
 * here it only decides which of equals the profile names, and the validation tries that one.
 * Without this, of four algorithms within 3 % of each other (Open MPI 4.1.4, MPI_Allgather of 4
 * KiB at 2 ranks) the first in name order passed the correction in one tune (p_adj 1.4e-8) and
 * missed it in the next (p 0.0014, p_adj 0.051), so the two tunes named different ones. */
static int stands_in(const mg_analysis *a, const mg_cell *m, double dmed) {
    return m->tested && m->p < a->opts.alpha && m->median < dmed && saves_min_gain(a, m, dmed);
}

/* Do the fastest candidate f and candidate m tie? They do when f saves less than
 * MG_TIE_TOLERANCE against m by the median over the launches of the per-launch ratio of their
 * medians, or when f is the faster (by the median) in no more than half of the launches.
 *
 * The per-launch ratio, not f's median / m's: launch levels differ up to 4x (Open MPI 4.1.4,
 * MPI_Allreduce of 4 KiB at 2 ranks, default 2.6-7.0 us by launch), so each cell's median over
 * the launches is that of whichever launch lies in the middle for it, and two candidates within
 * 1 % of each other in two of three launches and 10 % apart in the third differed by 10 % there.
 * The order, not a significance test: two candidates 7-20 % apart with a launch-dependent spread
 * (MPICH 4.0.2, MPI_Allgather of 4 KiB at 2 ranks: allgather_lib_brucks and
 * allgather_as_alltoall) were significantly apart in every launch in some tunes and not in
 * others. Most launches, not every one: brucks was the faster in 5 of 6 launches of two tunes,
 * and a rule that asks for every launch of three holds with probability (5/6)^3 = 0.58, a coin
 * toss that gets worse with more launches; a majority gets surer. With an odd number of
 * launches a median ratio below 1 - MG_TIE_TOLERANCE already is a majority; the count decides
 * with an even one (two launches, or three with one set aside: 0.80 and 1.02 is no order). */
static int ties(const mg_analysis *a, const mg_cell *f, const mg_cell *m) {
    double *r = malloc(sizeof(double) * (size_t)(a->nlaunches ? a->nlaunches : 1));
    int n = 0, faster = 0;
    for (int l = 0; r && l < a->nlaunches; l++) {
        double mf = mg_an_series_median(f->series[l]), mm = mg_an_series_median(m->series[l]);
        if (!(mf > 0 && mm > 0 && isfinite(mf) && isfinite(mm))) continue; /* no ratio */
        r[n] = mf / mm;
        faster += r[n++] < 1;
    }
    /* no launch with both (or no memory): the two medians, and f counts as the faster */
    double q = n ? mg_an_median_of(r, n) : f->median / m->median;
    free(r);
    return q > 1 - MG_TIE_TOLERANCE || (n && 2 * faster <= n);
}

/* The profile's choice at pt: the fastest candidate of either kind that qualifies, or the
 * first in name order of those that may stand in for it (stands_in) and tie with it (ties);
 * -1 for none.
 * Close candidates swap places from run to run (MPICH 4.0.2, MPI_Scan of 8 B at 2 ranks:
 * scan_as_exscan_reducelocal and scan_lib_recursive_doubling within 10 % of each other, either
 * faster by launch), and a choice by the median alone followed them. The tolerance is not
 * --min-gain: a wide one puts real orders at its edge (MPICH 4.0.2, MPI_Allgather of 4 KiB:
 * allgather_lib_brucks 7-12 % faster than allgather_as_alltoall in most tunes, so at 10 % the
 * choice flipped between tunes; re-analysing the check data of 40 pairs of tunes of
 * bench/decision_quality.sh, this rule made 8 choices differ, --min-gain and significance in
 * every launch 15). */
static int profile_choice(const mg_analysis *a, const mg_point *pt) {
    double dmed = pt->cells[pt->def].median;
    int best = -1;
    for (int k = 0; k < pt->ncells; k++) {
        const mg_cell *m = &pt->cells[k];
        if (qualifies(a, m, dmed) && (best < 0 || m->median < pt->cells[best].median)) best = k;
    }
    for (int k = 0; best >= 0 && k < pt->ncells; k++) { /* cells are in name order (group.c) */
        const mg_cell *m = &pt->cells[k], *f = &pt->cells[best];
        if (k == pt->def || !stands_in(a, m, dmed)) continue;
        if (k == best || ties(a, f, m)) return k;
    }
    return best;
}

/* Violations, barrier warnings, the fastest violating and the profile candidate per size. */
void mg_an_decide(mg_analysis *a) {
    double log_sum_all = 0, lib_sum_all = 0;
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        double log_sum = 0, worst = 0, lib_sum = 0;
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            double dmed = pt->cells[pt->def].median;
            int brave = 0, cautious = 0;
            for (int k = 0; k < pt->ncells; k++) {
                mg_cell *m = &pt->cells[k];
                if (k == pt->def || !m->tested) continue;
                int significant = m->p_adj < a->opts.alpha && m->median < dmed;
                m->barrier_warning = !isnan(a->barrier) && fabs(dmed - m->median) < a->barrier;
                if (m->library) {
                    pt->lib_checked = 1;
                    m->opportunity = significant;
                    if (!significant) continue;
                    a->ncell_opp++;
                    if (pt->best_lib < 0 || m->median < pt->cells[pt->best_lib].median)
                        pt->best_lib = k;
                    continue;
                }
                pt->checked = 1;
                m->violation = significant;
                if (!m->violation) continue;
                brave = 1;
                a->ncell_viol_brave++;
                if (!m->barrier_warning) {
                    cautious = 1;
                    a->ncell_viol_cautious++;
                }
                if (pt->best < 0 || m->median < pt->cells[pt->best].median) pt->best = k;
            }
            pt->profile = profile_choice(a, pt);
            if (pt->lib_checked) {
                c->nlib_checked++;
                c->nopp += pt->best_lib >= 0;
                lib_sum += log(pt->best_lib >= 0 ? pt->cells[pt->best_lib].median / dmed : 1);
            }
            if (!pt->checked) continue;
            c->nchecked++;
            c->nviol_brave += brave;
            c->nviol_cautious += cautious;
            double ratio = pt->best >= 0 ? pt->cells[pt->best].median / dmed : 1;
            log_sum += log(ratio);
            if (pt->best >= 0 && pt->cells[pt->best].slowdown > worst) {
                worst = pt->cells[pt->best].slowdown;
                c->worst = pi;
            }
        }
        c->quality = c->nchecked ? exp(log_sum / c->nchecked) : NAN;
        c->lib_score = c->nlib_checked ? exp(lib_sum / c->nlib_checked) : NAN;
        a->nlib_checked += c->nlib_checked;
        a->nopp += c->nopp;
        lib_sum_all += lib_sum;
        a->nchecked += c->nchecked;
        a->nviol_brave += c->nviol_brave;
        a->nviol_cautious += c->nviol_cautious;
        log_sum_all += log_sum;
    }
    a->quality = a->nchecked ? exp(log_sum_all / a->nchecked) : NAN;
    a->lib_score = a->nlib_checked ? exp(lib_sum_all / a->nlib_checked) : NAN;
}

/* The cell of alg at q when it qualifies for a profile entry there, else NULL. A size the
 * validation rejected qualifies no mock-up. */
const mg_cell *mg_an_qualifying(const mg_analysis *a, const mg_point *q, int alg) {
    if (q->val == MG_VAL_REJECTED) return NULL;
    for (int r = 0; r < q->ncells; r++) {
        const mg_cell *m = &q->cells[r];
        if (m->alg == alg && (m->violation || m->opportunity) &&
            1 - m->median / q->cells[q->def].median >= a->opts.min_gain)
            return m;
    }
    return NULL;
}

/* The one mock-up for a v-collective: it qualifies at every checked size; among those, the
 * largest geometric-mean slowdown. -1 when none. */
int mg_an_v_choice(const mg_analysis *a, const mg_coll_result *c) {
    int best = -1;
    double best_score = 0;
    for (int pi = 0; pi < c->npoints; pi++)
        for (int k = 0; k < c->points[pi].ncells; k++) {
            int alg = c->points[pi].cells[k].alg, n = 0;
            double logs = 0;
            for (int qi = 0; qi < c->npoints; qi++) {
                if (!c->points[qi].checked && !c->points[qi].lib_checked) continue;
                const mg_cell *m = mg_an_qualifying(a, &c->points[qi], alg);
                if (!m) {
                    n = 0;
                    break;
                }
                logs += log(m->slowdown);
                n++;
            }
            if (n && (best < 0 || exp(logs / n) > best_score)) {
                best = alg;
                best_score = exp(logs / n);
            }
        }
    return best;
}
