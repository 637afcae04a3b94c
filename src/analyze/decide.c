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
                    if (1 - m->median / dmed >= a->opts.min_gain &&
                        (pt->profile < 0 || m->median < pt->cells[pt->profile].median))
                        pt->profile = k;
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
                if (1 - m->median / dmed >= a->opts.min_gain &&
                    (pt->profile < 0 || m->median < pt->cells[pt->profile].median))
                    pt->profile = k;
            }
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
