/* summary.txt: what was analysed, violation counts (brave and cautious), the worst slowdown
 * per collective, a ranking of the most severe violations, the quality score, profiles,
 * the tuned validation and what data is missing. The terminal gets the same, shorter. */
#include "outdir/outdir.h"
#include "util/format.h"
#include "report.h"
#include "util/diag.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RANKING_MAX 20

typedef struct {
    const mg_coll_result *c;
    const mg_point *pt;
    const mg_cell *m;
} viol;

static int cmp_viol(const void *pa, const void *pb) {
    const viol *a = pa, *b = pb;
    if (a->m->slowdown != b->m->slowdown) return a->m->slowdown > b->m->slowdown ? -1 : 1;
    if (a->pt->msize != b->pt->msize) return a->pt->msize < b->pt->msize ? -1 : 1;
    return 0;
}

void mg_print_tuned(const mg_analysis *a, FILE *f);

/* The candidates that declined the measured arguments (`#@declined` lines of the raw data):
 * per collective, candidate and reason the sizes; on the terminal one line. */
static void say_declined(const mg_dataset *ds, FILE *f, int brief) {
    if (brief) {
        fprintf(f,
                "\nDeclined: %d (candidate, size) pairs ran the default instead (per size in "
                "summary.txt)\n",
                ds->ndeclined);
        return;
    }
    fprintf(f, "\nCandidates that declined the measured arguments (the default ran; nothing "
               "measured for them there):\n");
    char *done = calloc((size_t)ds->ndeclined, 1), sz[32];
    for (int i = 0; done && i < ds->ndeclined; i++) {
        if (done[i]) continue;
        const mg_declined *d = &ds->declined[i];
        fprintf(f, "  - %s %s:", d->coll, d->alg);
        int first = 1;
        for (int k = i; k < ds->ndeclined; k++) {
            const mg_declined *e = &ds->declined[k];
            if (done[k] || strcmp(e->coll, d->coll) || strcmp(e->alg, d->alg) ||
                strcmp(e->why, d->why))
                continue;
            done[k] = 1;
            fprintf(f, "%s %s", first ? "" : ",", mg_fmt_size(sz, sizeof sz, e->msize));
            first = 0;
        }
        fprintf(f, ": %s\n", d->why);
    }
    free(done);
}

/* The measurements the benchmark skipped for lack of memory (`#@skipped` lines of the raw
 * data): one line each in summary.txt, a count on the terminal. Their cells are missing, so
 * what the analysis says of those sizes rests on the algorithms that were measured. */
static void say_skipped(const mg_dataset *ds, FILE *f, int brief) {
    fprintf(f, "\nSkipped for lack of memory: %d measurement%s, nothing measured for %s%s\n",
            ds->nskipped, ds->nskipped == 1 ? "" : "s", ds->nskipped == 1 ? "it" : "them",
            brief ? " (each in summary.txt)" : ":");
    char sz[32];
    for (int i = 0; !brief && i < ds->nskipped; i++) {
        const mg_skipped_at *e = &ds->skipped[i];
        fprintf(f, "  - %s %s %s: %s (%s)\n", e->s.coll, e->s.alg,
                mg_fmt_size(sz, sizeof sz, e->s.msize), e->s.why, ds->files[e->file].path);
    }
}

/* The library's own algorithms: tuning opportunities, kept apart from guideline violations. */
static void print_library(const mg_analysis *a, FILE *f) {
    char b1[64], b2[64];
    if (!a->nlib_tests) return;
    fprintf(f, "\nLibrary algorithms (the MPI's own, forced): tuning opportunities, not guideline "
               "violations\n");
    fprintf(f,
            "  %d tests, %s correction on their own; faster than the default: %d of %d "
            "(collective, size) combinations, %d (collective, size, algorithm)\n",
            a->nlib_tests, mg_correction_name(a->opts.correction), a->nopp, a->nlib_checked,
            a->ncell_opp);
    fprintf(f,
            "  Default vs best library algorithm: %s  (geometric mean of fastest significantly "
            "faster library algorithm median / default median, 1 where none; below 1: the "
            "library's default leaves time on the table)\n",
            mg_fmt_num(b1, sizeof b1, a->lib_score, 4));
    static const char *cols[] = {"collective|collective|l", "checked|checked|r",
                                 "faster|opportunities|r", "score|library_score|r",
                                 "best gain|best|l"};
    mg_table *t = mg_table_new(5, cols);
    for (int ci = 0; ci < a->ncolls; ci++) {
        const mg_coll_result *c = &a->colls[ci];
        if (!c->nlib_checked) continue;
        mg_table_row(t);
        mg_table_cell(t, mg_name(a, c->name), NULL);
        mg_table_cellf(t, NULL, "%d", c->nlib_checked);
        mg_table_cellf(t, NULL, "%d", c->nopp);
        mg_table_cell(t, mg_fmt_num(b1, sizeof b1, c->lib_score, 4), NULL);
        const mg_point *bp = NULL;
        for (int pi = 0; pi < c->npoints; pi++) {
            const mg_point *pt = &c->points[pi];
            if (pt->best_lib >= 0 &&
                (!bp || pt->cells[pt->best_lib].slowdown > bp->cells[bp->best_lib].slowdown))
                bp = pt;
        }
        if (bp)
            mg_table_cellf(t, NULL, "%.3gx at %s by %s", bp->cells[bp->best_lib].slowdown,
                           mg_fmt_size(b2, sizeof b2, bp->msize),
                           mg_name(a, bp->cells[bp->best_lib].alg));
        else
            mg_table_cell(t, "none", NULL);
    }
    fprintf(f, "Per collective (best gain = default median / fastest library algorithm):\n");
    mg_table_print(t, f);
    mg_table_free(t);
}

static void print_summary(const mg_analysis *a, FILE *f, int brief) {
    char b1[64], b2[64];
    fprintf(f, "mpiguide analysis\n");
    long long nobs = 0;
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int pi = 0; pi < a->colls[ci].npoints; pi++)
            for (int k = 0; k < a->colls[ci].points[pi].ncells; k++)
                nobs += (long long)a->colls[ci].points[pi].cells[k].nobs;
    fprintf(f, "  data:        %d launch%s, %lld observations", a->nlaunches,
            a->nlaunches == 1 ? "" : "es", nobs);
    if (a->ntuned)
        fprintf(f, "; tuned validation: %d launch%s", a->ntuned, a->ntuned == 1 ? "" : "es");
    fputc('\n', f);
    if (!brief)
        for (int l = 0; l < a->nlaunches; l++)
            fprintf(f, "               %s\n", a->ds->launches[a->launches[l]].path);
    if (a->library[0]) fprintf(f, "  library:     %s\n", a->library);
    fprintf(f, "  job:         %s node(s), %s ranks per node, %s processes\n",
            a->nodes[0] ? a->nodes : "?", a->ppn[0] ? a->ppn : "?", a->nprocs[0] ? a->nprocs : "?");
    if (mg_untrusted(a)) {
        char why[400];
        fprintf(f, "  machine:     %s\n", mg_oversub_text(a, why, sizeof why));
    }
    char drift[160];
    double dmed = mg_drift_text(a, drift, sizeof drift);
    if (drift[0])
        fprintf(f, "  drift:       %s%s\n", drift,
                dmed >= MG_DRIFT ? ": speed-ups near --min-gain may not repeat" : "");
    fprintf(f,
            "  test:        %s, one-sided (mock-up faster than default), in every launch (p = "
            "largest launch p-value)\n",
            mg_test_name(a->opts.test));
    fprintf(f,
            "  correction:  %s over %d pattern tests at alpha %g; monotony: %d tests, "
            "corrected separately\n",
            mg_correction_name(a->opts.correction), a->npattern_tests, a->opts.alpha,
            a->nmono_tests);
    if (!isnan(a->barrier))
        fprintf(f,
                "  barrier:     median MPI_Barrier %s (barrier warning: |difference| below it)\n",
                mg_fmt_time(b1, sizeof b1, a->barrier));
    fprintf(f, "\nPattern violations over (collective, size) combinations:\n");
    fprintf(f, "  brave     %d of %d\n", a->nviol_brave, a->nchecked);
    fprintf(f, "  cautious  %d of %d (violations with a barrier warning left out)\n",
            a->nviol_cautious, a->nchecked);
    fprintf(f, "  over (collective, size, mock-up): brave %d, cautious %d of %d tests\n",
            a->ncell_viol_brave, a->ncell_viol_cautious, a->npattern_tests);
    fprintf(f, "Monotony violations: %d of %d adjacent size pairs\n", a->nmono_viol,
            a->nmono_tests);
    fprintf(f, "Split-robustness violations: %d\n", a->nsplit_viol);
    fprintf(f,
            "\nQuality score: %s  (geometric mean over %d checked (collective, size) of fastest "
            "violating mock-up median / default median, 1 where none; 1 = self-consistent)\n",
            mg_fmt_num(b1, sizeof b1, a->quality, 4), a->nchecked);

    static const char *cols[] = {"collective|collective|l", "checked|checked|r",
                                 "brave|brave|r",           "cautious|cautious|r",
                                 "quality|quality|r",       "worst slowdown|worst|l"};
    mg_table *t = mg_table_new(6, cols);
    for (int ci = 0; ci < a->ncolls; ci++) {
        const mg_coll_result *c = &a->colls[ci];
        mg_table_row(t);
        mg_table_cell(t, c->stem, NULL);
        mg_table_cellf(t, NULL, "%d", c->nchecked);
        mg_table_cellf(t, NULL, "%d", c->nviol_brave);
        mg_table_cellf(t, NULL, "%d", c->nviol_cautious);
        mg_table_cell(t, mg_fmt_num(b1, sizeof b1, c->quality, 4), NULL);
        if (c->worst >= 0) {
            const mg_point *pt = &c->points[c->worst];
            const mg_cell *m = &pt->cells[pt->best];
            mg_table_cellf(t, NULL, "%.3gx at %s by %s%s", m->slowdown,
                           mg_fmt_size(b2, sizeof b2, pt->msize), mg_name(a, m->alg),
                           m->barrier_warning ? " *" : "");
        } else {
            mg_table_cell(t, c->nchecked ? "none" : "not checked", NULL);
        }
    }
    fprintf(f, "\nPer collective (worst slowdown = default median / fastest violating mock-up):\n");
    mg_table_print(t, f);
    mg_table_free(t);
    print_library(a, f);

    /* ranking of the most severe violations */
    int nv = 0;
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int pi = 0; pi < a->colls[ci].npoints; pi++)
            for (int k = 0; k < a->colls[ci].points[pi].ncells; k++)
                nv += a->colls[ci].points[pi].cells[k].violation;
    viol *v = malloc((size_t)(nv ? nv : 1) * sizeof *v);
    if (v && nv) {
        int n = 0;
        for (int ci = 0; ci < a->ncolls; ci++)
            for (int pi = 0; pi < a->colls[ci].npoints; pi++)
                for (int k = 0; k < a->colls[ci].points[pi].ncells; k++)
                    if (a->colls[ci].points[pi].cells[k].violation)
                        v[n++] = (viol){&a->colls[ci], &a->colls[ci].points[pi],
                                        &a->colls[ci].points[pi].cells[k]};
        qsort(v, (size_t)n, sizeof *v, cmp_viol);
        static const char *rc[] = {"#|rank|r",
                                   "collective|collective|l",
                                   "m_size|msize|r",
                                   "mock-up|algorithm|l",
                                   "slowdown|slowdown|r",
                                   "default|default_median|r",
                                   "mock-up med|median|r",
                                   "p_adj|p_adj|r",
                                   "barrier|barrier|l"};
        t = mg_table_new(9, rc);
        int lim = brief ? 5 : RANKING_MAX;
        for (int i = 0; i < n && i < lim; i++) {
            mg_table_row(t);
            mg_table_cellf(t, NULL, "%d", i + 1);
            mg_table_cell(t, v[i].c->stem, NULL);
            mg_table_cell(t, mg_fmt_size(b1, sizeof b1, v[i].pt->msize), NULL);
            mg_table_cell(t, mg_name(a, v[i].m->alg), NULL);
            mg_table_cellf(t, NULL, "%.3gx", v[i].m->slowdown);
            mg_table_cell(t, mg_fmt_time(b1, sizeof b1, v[i].pt->cells[v[i].pt->def].median), NULL);
            mg_table_cell(t, mg_fmt_time(b1, sizeof b1, v[i].m->median), NULL);
            mg_table_cell(t, mg_fmt_p(b1, sizeof b1, v[i].m->p_adj), NULL);
            mg_table_cell(t, v[i].m->barrier_warning ? "*" : "", NULL);
        }
        fprintf(f, "\nMost severe violations (of %d; * = barrier warning):\n", n);
        mg_table_print(t, f);
        mg_table_free(t);
    }
    free(v);

    /* profile entries: the candidates of the check, then what the validation made of them */
    int np = 0, ncand = 0;
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
            np += a->colls[ci].points[pi].profile >= 0;
            ncand += a->colls[ci].points[pi].candidate >= 0;
        }
    if (!a->ntuned) {
        fprintf(f,
                "\nProfile entries (violation or library opportunity, at least %g%% faster): %d, "
                "not validated (tune "
                "validates them)\n",
                a->opts.min_gain * 100, np);
    } else {
        fprintf(f,
                "\nProfile entries (violation or library opportunity, at least %g%% faster): %d "
                "candidate%s; the "
                "validation (%d launch%s) kept %d, rejected %d\n",
                a->opts.min_gain * 100, ncand, ncand == 1 ? "" : "s", a->ntuned,
                a->ntuned == 1 ? "" : "es", a->nkept, a->nrejected);
    }
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
            const mg_point *pt = &a->colls[ci].points[pi];
            if (pt->candidate < 0 || (brief && pt->val != MG_VAL_REJECTED)) continue;
            char v[160];
            fprintf(f, "  %-9s %s %s -> %s (%scheck %.3gx",
                    pt->val == MG_VAL_REJECTED ? "rejected"
                    : pt->val == MG_VAL_KEPT   ? "kept"
                                               : "entry",
                    mg_name(a, a->colls[ci].name), mg_fmt_size(b1, sizeof b1, pt->msize),
                    mg_name(a, pt->cells[pt->candidate].alg),
                    pt->cells[pt->candidate].library ? "library algorithm, " : "",
                    pt->cells[pt->candidate].slowdown);
            if (pt->val == MG_VAL_NONE)
                fprintf(f, ")\n");
            else
                fprintf(f, ", validation %.3gx, slowest launch %.3gx)%s%s\n", pt->val_speedup,
                        pt->val_speedup_min, pt->val == MG_VAL_REJECTED ? ": " : "",
                        pt->val == MG_VAL_REJECTED ? mg_val_verdict(a, pt, v, sizeof v) + 10 : "");
        }
    if (a->nrejected) fprintf(f, "  (rejected by validation: the default runs at that size)\n");

    if (a->ntuned) {
        fprintf(f,
                "\nTuned validation (%d launch%s, default and tuned interleaved; speedup = median "
                "over launches of default / tuned, paired by rounds):\n",
                a->ntuned, a->ntuned == 1 ? "" : "es");
        if (!brief) mg_print_tuned(a, f);
        fprintf(f,
                "  %d size%s without an entry (no-regression check, tuned = the library's own)"
                ": %d slower than 0.95x%s\n",
                a->nnoentry, a->nnoentry == 1 ? "" : "s", a->nnoentry_slow,
                !a->nnoentry_slow ? ""
                : a->oversub      ? " (the machine is oversubscribed: noise)"
                : a->busy         ? " (other processes shared the cores: noise)"
                                  : "");
    }
    if (a->ndisturbed) {
        int lim = brief ? 5 : a->ndisturbed;
        fprintf(f,
                "\nDisturbed launches set aside (%d; the default's median more than %.0fx its "
                "median over the launches at that size: the machine, not the algorithms):\n",
                a->ndisturbed, MG_DISTURBED);
        for (int i = 0; i < a->ndisturbed && i < lim; i++) fprintf(f, "  - %s\n", a->disturbed[i]);
        if (a->ndisturbed > lim) fprintf(f, "  ... %d more in summary.txt\n", a->ndisturbed - lim);
    }
    if (a->nmissing) {
        int lim = brief ? 10 : a->nmissing;
        fprintf(f, "\nIncomplete data (%d item%s; analysed what is there):\n", a->nmissing,
                a->nmissing == 1 ? "" : "s");
        for (int i = 0; i < a->nmissing && i < lim; i++) fprintf(f, "  - %s\n", a->missing[i]);
        if (a->nmissing > lim) fprintf(f, "  ... %d more in summary.txt\n", a->nmissing - lim);
    }
    if (a->nsyncnotes) {
        fprintf(f,
                "\nSynchronisation: %zu of %zu observations (%.1f%%) flagged invalid and left "
                "out%s\n",
                a->nsync_flagged, a->nsync_total,
                a->nsync_total ? 100.0 * (double)a->nsync_flagged / (double)a->nsync_total : 0.0,
                brief ? " (per measurement in summary.txt)" : ":");
        for (int i = 0; !brief && i < a->nsyncnotes; i++) fprintf(f, "  - %s\n", a->syncnotes[i]);
    }
    if (a->ds->nskipped) say_skipped(a->ds, f, brief);
    if (a->ds->ndeclined) say_declined(a->ds, f, brief);
    if (a->ds->nnotes) {
        int lim = brief ? 5 : a->ds->nnotes;
        fprintf(f, "\nWhile reading the raw files:\n");
        for (int i = 0; i < a->ds->nnotes && i < lim; i++) fprintf(f, "  - %s\n", a->ds->notes[i]);
        if (a->ds->nnotes > lim) fprintf(f, "  ... %d more in summary.txt\n", a->ds->nnotes - lim);
    }
}

int mg_write_summary(const mg_analysis *a, const char *outdir, FILE *also) {
    int rc = 0;
    if (outdir) {
        char path[4096];
        mg_out_path(path, sizeof path, outdir, MG_OUT_SUMMARY);
        FILE *f = fopen(path, "w");
        if (!f) {
            mg_error(path, "cannot write: %s", strerror(errno));
            return -1;
        }
        print_summary(a, f, 0);
        if (fclose(f)) {
            mg_error(path, "write failed");
            rc = -1;
        }
    }
    if (also) print_summary(a, also, 1);
    return rc;
}
