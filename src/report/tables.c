/* The comparers of the thesis (0 simple .. 5 grouped) as tables, plus the monotony,
 * split-robustness and tuned tables: aligned text with units for people, CSV with exact
 * numbers (bytes, seconds) for programs. Files: tables/<comparer>/<MPI_Name>.txt (.csv). */
#include "outdir/outdir.h"
#include "util/format.h"
#include "report.h"
#include "util/diag.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *g_fmt(char *b, size_t n, double v) {
    if (isnan(v)) return "";
    snprintf(b, n, "%.9g", v);
    return b;
}

/* cells shared by several comparers */
static void col_size(mg_table *t, long long m) {
    char a[32], b[32];
    snprintf(b, sizeof b, "%lld", m);
    mg_table_cell(t, mg_fmt_size(a, sizeof a, m), b);
}

static void col_time(mg_table *t, double s) {
    char a[32], b[32];
    mg_table_cell(t, mg_fmt_time(a, sizeof a, s), g_fmt(b, sizeof b, s));
}

static void col_num(mg_table *t, double v, int digits) {
    char a[32], b[32];
    mg_table_cell(t, mg_fmt_num(a, sizeof a, v, digits), g_fmt(b, sizeof b, v));
}

static void col_fixed(mg_table *t, double v) {
    char a[32], b[32];
    if (isnan(v))
        snprintf(a, sizeof a, "-");
    else
        snprintf(a, sizeof a, "%.3f", v);
    mg_table_cell(t, a, g_fmt(b, sizeof b, v));
}

static void col_p(mg_table *t, double p) {
    char a[32], b[32];
    mg_table_cell(t, mg_fmt_p(a, sizeof a, p), g_fmt(b, sizeof b, p));
}

static void col_int(mg_table *t, long long v) {
    mg_table_cellf(t, NULL, "%lld", v);
}

static void col_str(mg_table *t, const char *s) {
    mg_table_cell(t, s, NULL);
}

/* the thesis marks a barrier warning with `*` behind the algorithm */
static void col_alg(mg_table *t, const char *name, int star) {
    char b[256];
    snprintf(b, sizeof b, "%s%s", name, star ? "*" : "");
    mg_table_cell(t, b, name);
}

/* The layout of the communicator a collective was measured on. */
static const char *nodes(const mg_coll_result *c) {
    return c->nodes[0] ? c->nodes : "-";
}
static const char *ppn(const mg_coll_result *c) {
    return c->ppn[0] ? c->ppn : "-";
}

/* Algorithms of c in order of first appearance: the default only (which = 0), or the
 * mock-ups only (which = 1). The thesis's tables list all sizes of one algorithm together. */
static int collect_algs(const mg_coll_result *c, int which, int *algs, int max) {
    int n = 0;
    for (int pi = 0; pi < c->npoints; pi++)
        for (int k = 0; k < c->points[pi].ncells; k++) {
            if ((k == c->points[pi].def) != (which == 0)) continue;
            int alg = c->points[pi].cells[k].alg, seen = 0;
            for (int i = 0; i < n; i++) seen |= algs[i] == alg;
            if (!seen && n < max) algs[n++] = alg;
        }
    return n;
}

static mg_table *simple(const mg_analysis *a, const mg_coll_result *c) {
    static const char *cols[] = {"collective|collective|l",
                                 "m_size|msize|r",
                                 "algorithm|algorithm|l",
                                 "nrep|nobs|r",
                                 "launches|launches|r",
                                 "min|min_s|r",
                                 "median|median_s|r",
                                 "mean|mean_s|r",
                                 "max|max_s|r",
                                 "ci95_lo|ci95_lo_s|r",
                                 "ci95_hi|ci95_hi_s|r",
                                 "launch_med_min|launch_median_min_s|r",
                                 "launch_med_max|launch_median_max_s|r"};
    mg_table *t = mg_table_new(13, cols);
    for (int pi = 0; pi < c->npoints; pi++)
        for (int k = 0; k < c->points[pi].ncells; k++) {
            const mg_cell *m = &c->points[pi].cells[k];
            mg_table_row(t);
            col_str(t, c->stem);
            col_size(t, c->points[pi].msize);
            col_str(t, mg_name(a, m->alg));
            col_int(t, (long long)m->nobs);
            col_int(t, m->nlaunches);
            col_time(t, m->min);
            col_time(t, m->median);
            col_time(t, m->mean);
            col_time(t, m->max);
            col_time(t, m->ci_lo);
            col_time(t, m->ci_hi);
            col_time(t, m->lmed_min);
            col_time(t, m->lmed_max);
        }
    return t;
}

static mg_table *absolute_or_relative(const mg_analysis *a, const mg_coll_result *c, int relative) {
    static const char *abs_cols[] = {"collective|collective|l", "m_size|msize|r",
                                     "algorithm|algorithm|l", "median|median_s|r"};
    static const char *rel_cols[] = {"collective|collective|l", "m_size|msize|r",
                                     "algorithm|algorithm|l",
                                     "relative_runtime|default_median_over_median|r"};
    mg_table *t = mg_table_new(4, relative ? rel_cols : abs_cols);
    for (int pass = 0; pass < 2; pass++) {
        int algs[256], nalg = collect_algs(c, pass, algs, 256);
        for (int i = 0; i < nalg; i++)
            for (int pi = 0; pi < c->npoints; pi++) {
                const mg_point *pt = &c->points[pi];
                for (int k = 0; k < pt->ncells; k++) {
                    const mg_cell *m = &pt->cells[k];
                    if (m->alg != algs[i]) continue;
                    mg_table_row(t);
                    col_str(t, c->stem);
                    col_size(t, pt->msize);
                    col_str(t, mg_name(a, m->alg));
                    if (!relative)
                        col_time(t, m->median);
                    else
                        col_fixed(t, pt->def >= 0 ? pt->cells[pt->def].median / m->median : NAN);
                }
            }
    }
    return t;
}

/* "default", "mock-up" or "library" (the MPI's own algorithm, whose wins are tuning
 * opportunities rather than violations). */
static const char *kind_of(const mg_cell *m, int not_default) {
    return !not_default ? "default" : m->library ? "library" : "mock-up";
}

static mg_table *violation(const mg_analysis *a, const mg_coll_result *c) {
    char st[64], sa[64];
    snprintf(st, sizeof st, "%s|statistic|r", mg_stat_label(a->opts.test));
    snprintf(sa, sizeof sa, "p_adj|p_%s|r", mg_correction_name(a->opts.correction));
    const char *cols[] = {"collective|collective|l",
                          "mockup|algorithm|l",
                          "m_size|msize|r",
                          "N|nodes|r",
                          "ppn|ppn|r",
                          "nrep|nobs|r",
                          "mean|mean_s|r",
                          "median|median_s|r",
                          st,
                          "p|p|r",
                          sa,
                          "vio|violation|r",
                          "barrier|barrier_warning|r",
                          "kind|kind|l",
                          "opp|opportunity|r"};
    mg_table *t = mg_table_new(15, cols);
    for (int pass = 0; pass < 2; pass++) {
        /* all sizes of one algorithm together, the default first (the thesis's Table 3.4) */
        int algs[256], nalg = collect_algs(c, pass, algs, 256);
        for (int i = 0; i < nalg; i++)
            for (int pi = 0; pi < c->npoints; pi++) {
                const mg_point *pt = &c->points[pi];
                for (int k = 0; k < pt->ncells; k++) {
                    const mg_cell *m = &pt->cells[k];
                    if (m->alg != algs[i]) continue;
                    int mock = k != pt->def;
                    mg_table_row(t);
                    col_str(t, c->stem);
                    col_alg(t, mg_name(a, m->alg), mock && m->barrier_warning);
                    col_size(t, pt->msize);
                    col_str(t, nodes(c));
                    col_str(t, ppn(c));
                    col_int(t, (long long)m->nobs);
                    col_time(t, m->mean);
                    col_time(t, m->median);
                    if (mock && m->tested) {
                        col_num(t, m->stat, 4);
                        col_p(t, m->p);
                        col_p(t, m->p_adj);
                        col_int(t, m->violation);
                        mg_table_cell(t, m->barrier_warning ? "*" : "",
                                      m->barrier_warning ? "1" : "0");
                    } else {
                        for (int e = 0; e < 5; e++) mg_table_cell(t, "", NULL);
                    }
                    col_str(t, kind_of(m, mock));
                    if (m->library && m->tested)
                        col_int(t, m->opportunity);
                    else
                        mg_table_cell(t, "", NULL);
                }
            }
    }
    return t;
}

static mg_table *detailed(const mg_analysis *a, const mg_coll_result *c) {
    char st[64], sa[64];
    snprintf(st, sizeof st, "%s|statistic|r", mg_stat_label(a->opts.test));
    snprintf(sa, sizeof sa, "p_adj|p_%s|r", mg_correction_name(a->opts.correction));
    const char *cols[] = {"collective|collective|l",
                          "mockup|algorithm|l",
                          "m_size|msize|r",
                          "N|nodes|r",
                          "ppn|ppn|r",
                          "nrep|nobs|r",
                          "def_mean|default_mean_s|r",
                          "def_med|default_median_s|r",
                          "alt_mean|mean_s|r",
                          "alt_med|median_s|r",
                          st,
                          "p|p|r",
                          sa,
                          "vio|violation|r",
                          "slowdown|slowdown|r",
                          "barrier|barrier_warning|r",
                          "faster_launches|faster_launches|r",
                          "kind|kind|l",
                          "opp|opportunity|r"};
    mg_table *t = mg_table_new(19, cols);
    int algs[256], nalg = collect_algs(c, 1, algs, 256);
    for (int i = 0; i < nalg; i++)
        for (int pi = 0; pi < c->npoints; pi++) {
            const mg_point *pt = &c->points[pi];
            const mg_cell *d = pt->def >= 0 ? &pt->cells[pt->def] : NULL;
            for (int k = 0; k < pt->ncells; k++) {
                const mg_cell *m = &pt->cells[k];
                if (m->alg != algs[i] || k == pt->def) continue;
                mg_table_row(t);
                col_str(t, c->stem);
                col_str(t, mg_name(a, m->alg));
                col_size(t, pt->msize);
                col_str(t, nodes(c));
                col_str(t, ppn(c));
                col_int(t, (long long)m->nobs);
                col_time(t, d ? d->mean : NAN);
                col_time(t, d ? d->median : NAN);
                col_time(t, m->mean);
                col_time(t, m->median);
                if (!m->tested) {
                    for (int e = 0; e < 7; e++) mg_table_cell(t, "", NULL);
                } else {
                    col_num(t, m->stat, 4);
                    col_p(t, m->p);
                    col_p(t, m->p_adj);
                    col_int(t, m->violation);
                    col_fixed(t, m->slowdown);
                    mg_table_cell(t, m->barrier_warning ? "*" : "", m->barrier_warning ? "1" : "0");
                    mg_table_cellf(t, NULL, "%d/%d", m->faster_launches, m->tested_launches);
                }
                col_str(t, kind_of(m, 1));
                if (m->library && m->tested)
                    col_int(t, m->opportunity);
                else
                    mg_table_cell(t, "", NULL);
            }
        }
    return t;
}

static mg_table *grouped(const mg_analysis *a, const mg_coll_result *c) {
    static const char *cols[] = {"coll|collective|l",
                                 "m_size|msize|r",
                                 "N|nodes|r",
                                 "ppn|ppn|r",
                                 "nrep|nobs|r",
                                 "def_med|default_median_s|r",
                                 "slowd|slowdown|r",
                                 "mockup|fastest_violating|l",
                                 "alt_med|median_s|r",
                                 "p_adj|p_adj|r",
                                 "barrier|barrier_warning|r",
                                 "library|fastest_library|l",
                                 "lib_med|library_median_s|r",
                                 "lib_slowd|library_slowdown|r"};
    mg_table *t = mg_table_new(14, cols);
    for (int pi = 0; pi < c->npoints; pi++) {
        const mg_point *pt = &c->points[pi];
        const mg_cell *d = pt->def >= 0 ? &pt->cells[pt->def] : NULL;
        mg_table_row(t);
        const char *n = c->stem;
        mg_table_cell(t, strncmp(n, "MPI_", 4) ? n : n + 4, n); /* the thesis's short name */
        col_size(t, pt->msize);
        col_str(t, nodes(c));
        col_str(t, ppn(c));
        col_int(t, d ? (long long)d->nobs : 0);
        col_time(t, d ? d->median : NAN);
        if (pt->best < 0) {
            for (int e = 0; e < 5; e++) mg_table_cell(t, "", NULL);
        } else {
            const mg_cell *m = &pt->cells[pt->best];
            col_fixed(t, m->slowdown);
            col_alg(t, mg_name(a, m->alg), m->barrier_warning);
            col_time(t, m->median);
            col_p(t, m->p_adj);
            mg_table_cell(t, m->barrier_warning ? "*" : "", m->barrier_warning ? "1" : "0");
        }
        if (pt->best_lib >= 0) { /* tuning opportunity of the library's own algorithms */
            const mg_cell *l = &pt->cells[pt->best_lib];
            col_str(t, mg_name(a, l->alg));
            col_time(t, l->median);
            col_fixed(t, l->slowdown);
        }
    }
    return t;
}

static mg_table *comparer_table(const mg_analysis *a, int comp, const mg_coll_result *c) {
    switch (comp) {
    case MG_COMP_SIMPLE:
        return simple(a, c);
    case MG_COMP_ABSOLUTE:
        return absolute_or_relative(a, c, 0);
    case MG_COMP_RELATIVE:
        return absolute_or_relative(a, c, 1);
    case MG_COMP_VIOLATION:
        return violation(a, c);
    case MG_COMP_DETAILED:
        return detailed(a, c);
    default:
        return grouped(a, c);
    }
}

void mg_print_comparer(const mg_analysis *a, int comp, const mg_coll_result *c, FILE *f) {
    mg_table *t = comparer_table(a, comp, c);
    if (!t) return;
    mg_table_print(t, f);
    mg_table_free(t);
}

static mg_table *mono_table(const mg_analysis *a) {
    char st[64], sa[64];
    snprintf(st, sizeof st, "%s|statistic|r", mg_stat_label(a->opts.test));
    snprintf(sa, sizeof sa, "p_adj|p_%s|r", mg_correction_name(a->opts.correction));
    const char *cols[] = {"collective|collective|l",
                          "m_i|msize_i|r",
                          "m_j|msize_j|r",
                          "med_i|median_i_s|r",
                          "med_j|median_j_s|r",
                          st,
                          "p|p|r",
                          sa,
                          "vio|violation|r"};
    mg_table *t = mg_table_new(9, cols);
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int i = 0; i < a->colls[ci].nmono; i++) {
            const mg_mono *m = &a->colls[ci].mono[i];
            mg_table_row(t);
            col_str(t, mg_name(a, a->colls[ci].name));
            col_size(t, m->m_lo);
            col_size(t, m->m_hi);
            col_time(t, m->med_lo);
            col_time(t, m->med_hi);
            if (!m->tested) continue;
            col_num(t, m->stat, 4);
            col_p(t, m->p);
            col_p(t, m->p_adj);
            col_int(t, m->violation);
        }
    return t;
}

static mg_table *split_table(const mg_analysis *a) {
    static const char *cols[] = {"collective|collective|l",
                                 "m_j|msize_j|r",
                                 "m_i|msize_i|r",
                                 "k|k|r",
                                 "med_j|median_j_s|r",
                                 "k*med_i|k_times_median_i_s|r",
                                 "ratio|ratio|r"};
    mg_table *t = mg_table_new(7, cols);
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int i = 0; i < a->colls[ci].nsplit; i++) {
            const mg_split *s = &a->colls[ci].split[i];
            mg_table_row(t);
            col_str(t, mg_name(a, a->colls[ci].name));
            col_size(t, s->m_j);
            col_size(t, s->m_i);
            col_int(t, s->k);
            col_time(t, s->med_j);
            col_time(t, (double)s->k * s->med_i);
            col_fixed(t, s->med_j / ((double)s->k * s->med_i));
        }
    return t;
}

/* The validation of the tuned library: per (collective, size) measured there, the profile
 * entry (or none), default and tuned medians, the speed-up (median over the launches of each
 * launch's default / tuned: the two are interleaved in one job, so their ratio is what one
 * launch measured side by side), the slowest launch's, and the verdict. Rows without an entry
 * are a no-regression check: tuned is the library's own collective there. */
static mg_table *tuned_table(const mg_analysis *a) {
    static const char *cols[] = {"collective|collective|l",
                                 "m_size|msize|r",
                                 "entry|entry|l",
                                 "default|default_median_s|r",
                                 "tuned|tuned_median_s|r",
                                 "speedup|default_over_tuned|r",
                                 "slowest|min_launch_speedup|r",
                                 "launches|launches|r",
                                 "p_adj|p_adj|r",
                                 "verdict|verdict|l"};
    mg_table *t = mg_table_new(10, cols);
    char b[160];
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
            const mg_point *pt = &a->colls[ci].points[pi];
            if (isnan(pt->tuned)) continue;
            mg_table_row(t);
            col_str(t, mg_name(a, a->colls[ci].name));
            col_size(t, pt->msize);
            col_str(t, pt->candidate >= 0 ? mg_name(a, pt->cells[pt->candidate].alg) : "-");
            col_time(t, pt->tuned_default);
            col_time(t, pt->tuned);
            col_fixed(t, pt->val_speedup);
            col_fixed(t, pt->val_speedup_min);
            col_int(t, pt->val_launches);
            col_p(t, pt->val_p_adj);
            col_str(t, mg_val_verdict(a, pt, b, sizeof b));
        }
    return t;
}

/* ---- files ---- */

static int write_table(const mg_table *t, const char *dir, const char *base, const char *title,
                       int csv) {
    char path[4096];
    mg_path(path, sizeof path, "%s/%s.txt", dir, base);
    FILE *f = fopen(path, "w");
    if (!f) {
        mg_error(path, "cannot write: %s", strerror(errno));
        return -1;
    }
    fprintf(f, "# %s\n", title);
    mg_table_print(t, f);
    int bad = fclose(f);
    if (csv && !bad) {
        mg_path(path, sizeof path, "%s/%s.csv", dir, base);
        f = fopen(path, "w");
        if (!f) {
            mg_error(path, "cannot write: %s", strerror(errno));
            return -1;
        }
        mg_table_csv(t, f, 1);
        bad = fclose(f);
    }
    if (bad) mg_error(path, "write failed");
    return bad ? -1 : 0;
}

int mg_write_tables(const mg_analysis *a, const char *outdir) {
    char dir[4096], title[512];
    int rc = 0;
    for (int comp = 0; comp < MG_COMP_COUNT && !rc; comp++) {
        char base[4096];
        mg_out_path(base, sizeof base, outdir, MG_OUT_TABLES);
        mg_path(dir, sizeof dir, "%s/%s", base, mg_comparer_dir(comp));
        if (mg_out_mkdir(dir)) {
            mg_error(dir, "cannot create: %s", strerror(errno));
            return -1;
        }
        for (int ci = 0; ci < a->ncolls && !rc; ci++) {
            const mg_coll_result *c = &a->colls[ci];
            mg_table *t = comparer_table(a, comp, c);
            if (!t) return -1;
            snprintf(title, sizeof title,
                     "%s, comparer %d (%s), test %s, alpha %g after %s over %d tests, %d launch%s",
                     c->stem, comp, mg_comparer_dir(comp), mg_test_name(a->opts.test),
                     a->opts.alpha, mg_correction_name(a->opts.correction), a->npattern_tests,
                     a->nlaunches, a->nlaunches == 1 ? "" : "es");
            rc = write_table(t, dir, c->stem, title, a->opts.csv);
            mg_table_free(t);
        }
    }
    if (rc) return rc;
    mg_out_path(dir, sizeof dir, outdir, MG_OUT_TABLES);
    mg_table *t = mono_table(a);
    snprintf(title, sizeof title,
             "monotony of the default between adjacent sizes, %s, %s over %d tests",
             mg_test_name(a->opts.test), mg_correction_name(a->opts.correction), a->nmono_tests);
    rc = t ? write_table(t, dir, "monotony", title, a->opts.csv) : -1;
    mg_table_free(t);
    if (!rc) {
        t = split_table(a);
        snprintf(title, sizeof title,
                 "split-robustness violations of the default (k*med_i*1.05 < med_j; largest m_i "
                 "per m_j)");
        rc = t ? write_table(t, dir, "split", title, a->opts.csv) : -1;
        mg_table_free(t);
    }
    if (!rc && a->ntuned) {
        t = tuned_table(a);
        snprintf(title, sizeof title,
                 "tuned validation (%d launch%s, default and tuned interleaved): medians; "
                 "speedup = median over launches of default / tuned paired by rounds; entries "
                 "kept when significant in every launch (%s, %s over %d tests, alpha %g), at least "
                 "%.3gx in the slowest and %.3gx over the launches",
                 a->ntuned, a->ntuned == 1 ? "" : "es", mg_test_name(a->opts.test),
                 mg_correction_name(a->opts.correction), a->nval_tests, a->opts.alpha,
                 a->val_min_speedup, a->val_gain_speedup);
        rc = t ? write_table(t, dir, "tuned", title, a->opts.csv) : -1;
        mg_table_free(t);
    }
    if (!rc && a->opts.merge) {
        char path[4096];
        char base[4096];
        mg_out_path(base, sizeof base, outdir, MG_OUT_TABLES);
        mg_path(path, sizeof path, "%s/merged.csv", base);
        FILE *f = fopen(path, "w");
        if (!f) {
            mg_error(path, "cannot write: %s", strerror(errno));
            return -1;
        }
        for (int ci = 0; ci < a->ncolls; ci++) {
            mg_table *m = comparer_table(a, a->opts.comparer, &a->colls[ci]);
            mg_table_csv(m, f, ci == 0);
            mg_table_free(m);
        }
        if (fclose(f)) rc = -1;
    }
    return rc;
}

void mg_print_tuned(const mg_analysis *a, FILE *f) {
    mg_table *t = tuned_table(a);
    mg_table_print(t, f);
    mg_table_free(t);
}
