/* The verdict of an analysis in three short lines: what was violated, what the profiles hold
 * after the validation (with the validated speed-ups), and whether the machine can give
 * trustworthy timings at all. The report shows it at the top; `tune` ends with it. Pure. */
#include "util/format.h"
#include "report.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_untrusted(const mg_analysis *a) {
    return a->oversub || a->busy;
}

const char *mg_oversub_text(const mg_analysis *a, char *buf, size_t n) {
    int k = 0;
    if (a->oversub)
        k = snprintf(buf, n, "timings are not trustworthy: %d ranks on %d cores%s",
                     a->oversub_ranks, a->oversub_cores,
                     a->busy_poll ? " (MPICH busy-polls, so a blocking call can wait a whole time "
                                    "slice of another rank)"
                                  : " (a rank waiting for a descheduled one loses a time slice)");
    if (a->busy && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k,
                 "%sother processes shared the cores (a rank was switched out of its core %.0f "
                 "times a second and got %.0f%% of one)",
                 a->oversub ? "; " : "timings are not trustworthy: ", a->busy_switches,
                 100 * a->busy_share);
    return buf;
}

int mg_an_drift(const mg_analysis *a, double *median, double *max) {
    int n = 0, cap = 0;
    for (int ci = 0; ci < a->ncolls; ci++) cap += a->colls[ci].npoints;
    double *r = malloc((size_t)(cap ? cap : 1) * sizeof *r);
    *median = *max = NAN;
    if (!r) return 0;
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
            const mg_point *pt = &a->colls[ci].points[pi];
            if (pt->def < 0) continue;
            const mg_cell *d = &pt->cells[pt->def];
            if (d->nlaunches < 2 || !(d->lmed_min > 0)) continue;
            r[n] = d->lmed_max / d->lmed_min;
            if (!(r[n] <= *max)) *max = r[n];
            n++;
        }
    if (n) *median = mg_an_median_of(r, n);
    free(r);
    return n;
}

double mg_drift_text(const mg_analysis *a, char *buf, size_t n) {
    char b1[32], b2[32];
    double med, max;
    int nd = mg_an_drift(a, &med, &max);
    buf[0] = 0;
    if (nd)
        snprintf(buf, n,
                 "the default's median moved by %sx between check launches (median over %d "
                 "size%s, up to %sx)",
                 mg_fmt_num(b1, sizeof b1, med, 3), nd, nd == 1 ? "" : "s",
                 mg_fmt_num(b2, sizeof b2, max, 3));
    return med;
}

void mg_verdict_of(const mg_analysis *a, mg_verdict *v) {
    char b1[32], b2[32];
    memset(v, 0, sizeof *v);
    snprintf(v->violations, sizeof v->violations,
             "%d of %d checked (collective, size) violate a guideline (%d without a barrier "
             "warning); quality score %s",
             a->nviol_brave, a->nchecked, a->nviol_cautious,
             mg_fmt_num(b1, sizeof b1, a->quality, 4));
    int np = 0, ncand = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
            const mg_point *pt = &a->colls[ci].points[pi];
            np += pt->profile >= 0;
            ncand += pt->candidate >= 0;
            if (pt->val != MG_VAL_KEPT) continue;
            if (pt->val_speedup < lo) lo = pt->val_speedup;
            if (pt->val_speedup > hi) hi = pt->val_speedup;
        }
    if (!a->ntuned)
        snprintf(v->entries, sizeof v->entries,
                 "%d profile entr%s, not validated (`mpiguide tune` validates them)", np,
                 np == 1 ? "y" : "ies");
    else if (!a->nkept)
        snprintf(v->entries, sizeof v->entries,
                 "no profile entry kept: %d candidate%s, %d rejected by validation in %d launch%s",
                 ncand, ncand == 1 ? "" : "s", a->nrejected, a->ntuned, a->ntuned == 1 ? "" : "es");
    else
        snprintf(v->entries, sizeof v->entries,
                 "%d profile entr%s kept, %d rejected by validation; validated speed-ups %sx..%sx "
                 "(%d launch%s, tuned against default interleaved)",
                 a->nkept, a->nkept == 1 ? "y" : "ies", a->nrejected,
                 mg_fmt_num(b1, sizeof b1, lo, 3), mg_fmt_num(b2, sizeof b2, hi, 3), a->ntuned,
                 a->ntuned == 1 ? "" : "es");
    if (mg_untrusted(a)) mg_oversub_text(a, v->machine, sizeof v->machine);
    char drift[160];
    if (mg_drift_text(a, drift, sizeof drift) >= MG_DRIFT)
        snprintf(v->drift, sizeof v->drift,
                 "timings drift between launches: %s; speed-ups near --min-gain may not repeat in "
                 "another tune",
                 drift);
}

void mg_print_verdict(const mg_analysis *a, const char *outdir, FILE *f) {
    mg_verdict v;
    mg_verdict_of(a, &v);
    fprintf(f, "\nVerdict:\n  %s\n  %s\n", v.violations, v.entries);
    if (v.machine[0]) fprintf(f, "  %s\n", v.machine);
    if (v.drift[0]) fprintf(f, "  %s\n", v.drift);
    if (a->nnoentry_slow)
        fprintf(f, "  %d size%s without a profile entry measured slower than 0.95x (%s)\n",
                a->nnoentry_slow, a->nnoentry_slow == 1 ? "" : "s",
                a->oversub ? "noise of the oversubscribed machine"
                : a->busy  ? "noise of the busy machine"
                           : "noise: repeat the run");
    if (outdir) fprintf(f, "  report: %s/report.html   profiles: %s/profiles/\n", outdir, outdir);
}
