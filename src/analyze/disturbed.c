/* Disturbed launches. Now and then a whole launch runs every algorithm many times slower
 * (measured on a 2-core VM, 2 ranks: MPICH 4.0.2's MPI_Scan of 8 B at 87-91 us in one launch of
 * five against 1.5-3.3 us in the others, default and mock-up alike; 23 of 2,231 (launch,
 * collective, size) medians of the default more than 3x their median over the launches, Open
 * MPI 4.1.4 and MPICH, 3 to 170x). Such a launch measured the machine, not the algorithms: the
 * ratio of any two of them there is noise, and with the check's rule (significant in every
 * launch) it removed a candidate that held 1.3-1.6x in every other launch. A launch whose
 * default median at a size exceeds MG_DISTURBED times the median over the check launches of
 * that size is therefore set aside at that size, and summary.txt lists it. The reference needs
 * at least three launches (with two a disturbed one moves the median itself), and at most a
 * minority of them is set aside. Pure: no MPI. */
#include "util/format.h"
#include "model.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

void mg_an_note_disturbed(mg_analysis *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    mg_an_add_line(&a->disturbed, &a->ndisturbed, &a->capdisturbed, fmt, ap);
    va_end(ap);
}

int mg_an_disturbed(const mg_point *pt, double dmed) {
    if (pt->def < 0 || pt->cells[pt->def].nlaunches < 3) return 0; /* as in the check */
    double ref = pt->cells[pt->def].median;
    return !isnan(ref) && !isnan(dmed) && dmed > MG_DISTURBED * ref;
}

/* The default's median at pt in validation launch l, NaN when not measured there. */
static double val_default(const mg_analysis *a, const mg_coll_result *c, const mg_point *pt,
                          int def, int l) {
    const mg_series *s =
        mg_dataset_find_series(a->ds, c->name, def, l, pt->msize, c->p_key, c->variant);
    return mg_an_series_median(s);
}

int mg_an_val_aside(const mg_analysis *a, const mg_coll_result *c, const mg_point *pt, int l) {
    const mg_dataset *ds = a->ds;
    int def = mg_dataset_find_name(ds, "default");
    if (def < 0 || !ds->launches[l].tuned || !mg_an_disturbed(pt, val_default(a, c, pt, def, l)))
        return 0;
    /* never all of them: when every validation launch is that slow, that is the machine (the
     * reference is the check's, so with two launches the slow one is known) */
    int nval = 0, nslow = 0;
    for (int m = 0; m < ds->nlaunches; m++) {
        if (!ds->launches[m].tuned) continue;
        double d = val_default(a, c, pt, def, m);
        nval += !isnan(d);
        nslow += mg_an_disturbed(pt, d);
    }
    return nslow < nval;
}

void mg_an_set_aside(mg_analysis *a) {
    int n = a->nlaunches;
    double *lm = malloc(sizeof(double) * (size_t)(n ? n : 1)),
           *tmp = malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!lm || !tmp) goto out;                          /* out of memory: nothing is set aside */
    for (int ci = 0; ci < a->ncolls && n <= 64; ci++) { /* pt->aside holds 64 launches */
        mg_coll_result *c = &a->colls[ci];
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            int k = 0;
            for (int l = 0; l < n; l++)
                if (!isnan(lm[l] = mg_an_series_median(pt->cells[pt->def].series[l])))
                    tmp[k++] = lm[l];
            if (k < 3) continue;
            double ref = mg_an_median_of(tmp, k);
            int nslow = 0;
            for (int l = 0; l < n; l++) nslow += lm[l] > MG_DISTURBED * ref;
            if (2 * nslow >= k) continue; /* not a minority: the machine, not a launch */
            for (int l = 0; l < n; l++) {
                if (!(lm[l] > MG_DISTURBED * ref)) continue;
                for (int m = 0; m < pt->ncells; m++) pt->cells[m].series[l] = NULL;
                pt->set_aside++;
                pt->aside |= 1ULL << l;
                char sz[32];
                mg_an_note_disturbed(
                    a,
                    "%s %s: %s set aside (the default's median %.1fx its median over the "
                    "check launches)",
                    mg_name(a, c->name), mg_fmt_size(sz, sizeof sz, pt->msize),
                    a->ds->launches[a->launches[l]].path, lm[l] / ref);
            }
        }
    }
out:
    free(lm);
    free(tmp);
}
