/* The decisions from the tests: violations (significant after correction and faster by the
 * median), barrier warnings, the fastest violating mock-up per size, the profile candidate (at
 * least --min-gain faster) and the quality score per collective. */
#include "util/format.h"
#include "catalog/catalog.h"
#include "model.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Mock-ups whose medians differ by less than this are a tie for the profile: the first in name
 * order wins, so that repeated runs choose the same one instead of whichever noise favoured. */
#define MG_TIE_TOLERANCE 0.05

/* The profile's choice at pt: among the mock-ups that qualify (a violation saving at least
 * --min-gain), the first in name order within MG_TIE_TOLERANCE of the fastest; -1 for none. */
static int profile_choice(const mg_analysis *a, const mg_point *pt) {
    double dmed = pt->cells[pt->def].median, best = INFINITY;
    for (int k = 0; k < pt->ncells; k++) {
        const mg_cell *m = &pt->cells[k];
        if (m->violation && 1 - m->median / dmed >= a->opts.min_gain && m->median < best)
            best = m->median;
    }
    for (int k = 0; k < pt->ncells; k++) { /* cells are in name order (group.c) */
        const mg_cell *m = &pt->cells[k];
        if (m->violation && 1 - m->median / dmed >= a->opts.min_gain &&
            m->median <= best * (1 + MG_TIE_TOLERANCE))
            return k;
    }
    return -1;
}

/* Violations, barrier warnings, the fastest violating and the profile candidate per size. */
void mg_an_decide(mg_analysis *a) {
    double log_sum_all = 0;
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        double log_sum = 0, worst = 0;
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            double dmed = pt->cells[pt->def].median;
            int brave = 0, cautious = 0;
            for (int k = 0; k < pt->ncells; k++) {
                mg_cell *m = &pt->cells[k];
                if (k == pt->def || !m->tested) continue;
                pt->checked = 1;
                m->violation = m->p_adj < a->opts.alpha && m->median < dmed;
                m->barrier_warning = !isnan(a->barrier) && fabs(dmed - m->median) < a->barrier;
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
        a->nchecked += c->nchecked;
        a->nviol_brave += c->nviol_brave;
        a->nviol_cautious += c->nviol_cautious;
        log_sum_all += log_sum;
    }
    a->quality = a->nchecked ? exp(log_sum_all / a->nchecked) : NAN;
}
