/* Entry points of the analysis: read the raw data of one or more directories, analyse, write
 * every output file, print a summary; and the side-by-side comparison of two directories. */
#include "algid/algid.h"
#include "report.h"
#include "outdir/outdir.h"
#include "catalog/catalog.h"
#include "util/format.h"
#include "analyze/model.h"
#include "util/diag.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Reads dirs into ds; 0, or -1 after printing an error. */
static int load(mg_dataset *ds, char **dirs, int n) {
    char err[4400];
    for (int i = 0; i < n; i++)
        if (mg_dataset_add_path(ds, dirs[i], err, sizeof err) < 0) {
            mg_error(NULL, "%s", err);
            return -1;
        }
    int check = 0;
    for (int l = 0; l < ds->nlaunches; l++) check += !ds->launches[l].tuned;
    if (!check || !ds->rows) {
        mg_error(dirs[0], "no raw observations to analyse");
        return -1;
    }
    return 0;
}

static int writable_dir(const char *dir) {
    struct stat st;
    if (stat(dir, &st)) {
        if (errno != ENOENT || mkdir(dir, 0777)) {
            mg_error(dir, "cannot create: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        mg_error(dir, "not a directory (name one with -o)");
        return -1;
    }
    return 0;
}

/* Loads dirs and runs the analysis; 0, or -1 after a message (who: the command). */
static int load_and_run(mg_dataset *ds, mg_analysis *a, char **dirs, int n,
                        const mg_analyze_opts *o, const char *who) {
    if (load(ds, dirs, n)) return -1;
    if (mg_analysis_run(a, ds, o)) {
        mg_error(who, "out of memory");
        return -1;
    }
    return 0;
}

int mg_analyzed_load(mg_analyzed *x, const mg_analyze_opts *o, char **dirs, int n) {
    mg_dataset_init(&x->ds);
    memset(&x->a, 0, sizeof x->a);
    if (n >= 1 && !load_and_run(&x->ds, &x->a, dirs, n, o, "analyze")) return 0;
    mg_analyzed_free(x);
    return 1;
}

void mg_analyzed_free(mg_analyzed *x) {
    mg_analysis_free(&x->a);
    mg_dataset_free(&x->ds);
}

int mg_analyzed_disturbed(const mg_analyzed *x, int wanted, char ***names, int *n) {
    const mg_analysis *a = &x->a;
    *names = NULL;
    *n = 0;
    for (int ci = 0; ci < a->ncolls; ci++) {
        const mg_coll_result *c = &a->colls[ci];
        int short_of = 0;
        for (int pi = 0; pi < c->npoints; pi++) {
            const mg_point *pt = &c->points[pi];
            short_of |= pt->candidate >= 0 && pt->val_set_aside > 0 && pt->val_expected < wanted;
        }
        if (!short_of) continue;
        char **v = realloc(*names, sizeof(char *) * (size_t)(*n + 1));
        char *name = strdup(mg_name(a, c->name));
        if (!v || !name) {
            free(name);
            if (v) *names = v;
            mg_error("analyze", "out of memory");
            return 1;
        }
        *names = v;
        (*names)[(*n)++] = name;
    }
    return 0;
}

int mg_analyzed_write(const mg_analyzed *x, const mg_analyze_opts *o, const char *outdir) {
    const mg_analysis *a = &x->a;
    if (writable_dir(outdir) || mg_write_tables(a, outdir) || mg_write_profiles(a, outdir) ||
        mg_write_report(a, outdir) || mg_write_summary(a, outdir, NULL))
        return 1;
    FILE *t = o->out;
    if (t) {
        if (o->verbose)
            for (int ci = 0; ci < a->ncolls; ci++) {
                fprintf(t, "== %s: comparer %d (%s) ==\n", mg_name(a, a->colls[ci].name),
                        o->comparer, mg_comparer_dir(o->comparer));
                mg_print_comparer(a, o->comparer, &a->colls[ci], t);
                fputc('\n', t);
            }
        mg_write_summary(a, NULL, t);
        fprintf(t, "\nwritten: %s/summary.txt, %s/report.html, %s/tables/, %s/profiles/\n", outdir,
                outdir, outdir, outdir);
    }
    if (o->verdict) {
        if (a->ntuned) {
            fprintf(o->verdict,
                    "\nTuned library (LD_PRELOAD, profiles in %s/profiles) against the default, "
                    "interleaved, %d launch%s:\n",
                    outdir, a->ntuned, a->ntuned == 1 ? "" : "es");
            mg_print_tuned(a, o->verdict);
        }
        mg_print_verdict(a, outdir, o->verdict);
    }
    return o->exit_code && a->nviol_brave > 0 ? 3 : 0;
}

int mg_analyze_dirs(const mg_analyze_opts *o, char **dirs, int n) {
    if (n < 1) return 2;
    mg_analyzed x;
    if (mg_analyzed_load(&x, o, dirs, n)) return 1;
    int rc = mg_analyzed_write(&x, o, o->outdir ? o->outdir : dirs[0]);
    mg_analyzed_free(&x);
    return rc;
}

/* ---- compare ---- */

typedef struct {
    mg_dataset ds;
    mg_analysis a;
    int only;        /* profiles alone (MPIGUIDE_PROFILES_OUT): no analysis */
    char prof[4200]; /* where its profiles are */
} side;

static const mg_point *find_point(const mg_analysis *a, const char *coll, long long msize) {
    for (int ci = 0; ci < a->ncolls; ci++) {
        if (strcmp(mg_name(a, a->colls[ci].name), coll)) continue;
        for (int pi = 0; pi < a->colls[ci].npoints; pi++)
            if (a->colls[ci].points[pi].msize == msize) return &a->colls[ci].points[pi];
    }
    return NULL;
}

static void side_cells(mg_table *t, const mg_analysis *a, const mg_point *pt) {
    char b[64];
    const mg_cell *d = pt && pt->def >= 0 ? &pt->cells[pt->def] : NULL;
    mg_table_cell(t, mg_fmt_time(b, sizeof b, d ? d->median : NAN), NULL);
    if (pt && pt->best >= 0) {
        const mg_cell *m = &pt->cells[pt->best];
        char s[256];
        snprintf(s, sizeof s, "%s%s", mg_name(a, m->alg), m->barrier_warning ? "*" : "");
        mg_table_cell(t, s, mg_name(a, m->alg));
        mg_table_cellf(t, NULL, "%.3f", m->slowdown);
    } else {
        mg_table_cell(t, !pt ? "not measured" : pt->checked ? "-" : "not checked", NULL);
        mg_table_cell(t, "", NULL);
    }
}

/* Prints a table of `compare` after a blank line, aligned or as CSV, and frees it. */
static void emit(mg_table *t, FILE *f, int csv) {
    fputc('\n', f);
    if (csv)
        mg_table_csv(t, f, 1);
    else
        mg_table_print(t, f);
    mg_table_free(t);
}

/* a's point of entry e's (collective, communicator size, measured size), or NULL. The size
 * as profiles.c names the profile: the group's, else the headers'. */
static const mg_point *point_of(const mg_analysis *a, const mg_pentry *e) {
    for (int ci = 0; ci < a->ncolls; ci++) {
        const mg_coll_result *c = &a->colls[ci];
        int p = c->nprocs ? c->nprocs : atoi(a->nprocs);
        if (strcmp(mg_name(a, c->name), mg_coll_name(e->coll)) || p != e->p) continue;
        for (int pi = 0; pi < c->npoints; pi++)
            if (c->points[pi].msize == e->msize) return &c->points[pi];
    }
    return NULL;
}

/* The cell of algorithm `alg` (registry id) at pt, or NULL. */
static const mg_cell *cell_named(const mg_analysis *a, const mg_point *pt, int alg) {
    for (int k = 0; alg >= 0 && k < pt->ncells; k++)
        if (!strcmp(mg_name(a, pt->cells[k].alg), mg_alg_name(alg))) return &pt->cells[k];
    return NULL;
}

/* Why one side selects what it does at a disagreement: `own` is its profile's choice (-1: the
 * default), `other` the other side's. The two tunes of a pair differ either in the check (no
 * candidate, or another one) or in the validation (rejected), and which one tells whether the
 * entry is a coin toss near a threshold of the check or a speed-up that did not hold up. The
 * profiles are as tune wrote them, the reasons come from compare's own analysis (its options,
 * this build): where the two disagree, the text says so instead of explaining another choice. */
static void why(char *buf, size_t len, const mg_analysis *a, const mg_pentry *e, int own,
                int other) {
    const mg_point *pt = point_of(a, e);
    if (!pt || pt->def < 0) {
        snprintf(buf, len, "not %s here", pt ? "checked" : "measured");
        return;
    }
    /* this analysis's choice before the validation (a v-collective's is one for every size) */
    int r = pt->candidate >= 0 ? pt->candidate : pt->profile;
    const char *rname = r >= 0 ? mg_name(a, pt->cells[r].alg) : NULL;
    const char *oname = own >= 0 ? mg_alg_name(own) : NULL;
    int same = oname && rname ? !strcmp(oname, rname) : !oname && !rname;
    char v[160];
    if (own >= 0 && same && pt->val == MG_VAL_KEPT) {
        snprintf(buf, len, "kept: %.2fx in the validation (check %.2fx)", pt->val_speedup,
                 pt->cells[r].slowdown);
    } else if (own >= 0 && same && pt->val == MG_VAL_NONE) {
        snprintf(buf, len, "check %.2fx (not validated)", pt->cells[r].slowdown);
    } else if (own < 0 && rname && pt->val == MG_VAL_REJECTED) {
        const char *reason = mg_val_verdict(a, pt, v, sizeof v);
        if (!strncmp(reason, "rejected: ", 10)) reason += 10;
        if (isfinite(pt->val_speedup))
            snprintf(buf, len, "rejected by validation: %s %.2fx over the launches (%s)", rname,
                     pt->val_speedup, reason);
        else
            snprintf(buf, len, "rejected by validation: %s (%s)", rname, reason);
    } else if (own >= 0 || rname) { /* the profile file and this analysis differ */
        snprintf(buf, len, "the profile names %s; this analysis %s%s%s", oname ? oname : "none",
                 rname ? "selects " : "has no entry", rname ? rname : "",
                 rname && pt->val == MG_VAL_REJECTED ? " and rejects it" : "");
    } else {
        const mg_cell *m = cell_named(a, pt, other);
        if (!m)
            snprintf(buf, len, "no candidate: %s not measured here",
                     other >= 0 ? mg_alg_name(other) : "-");
        else if (!m->tested)
            snprintf(buf, len, "no candidate: %s not tested", mg_alg_name(other));
        else
            snprintf(
                buf, len, "no candidate: %s %.2fx in the check, p_adj %.2g, faster in %d of %d",
                mg_alg_name(other), m->slowdown, m->p_adj, m->faster_launches, m->tested_launches);
    }
}

/* The agreement of the two sides' profiles, and every entry they disagree on. */
static void print_agreement(const side s[2], FILE *f, int csv) {
    mg_pentry *e[2] = {NULL, NULL}, *online = NULL;
    int n[2] = {0, 0}, nonline = 0;
    const mg_analysis *a = s[0].only ? NULL : &s[0].a, *b = s[1].only ? NULL : &s[1].a;
    if (mg_online_sizes(s[0].prof, &online, &nonline) ||
        mg_online_sizes(s[1].prof, &online, &nonline) ||
        mg_entries_of(s[0].prof, a, b, online, nonline, &e[0], &n[0]) ||
        mg_entries_of(s[1].prof, b, a, online, nonline, &e[1], &n[1])) {
        fprintf(f, "\nprofile agreement: not available (profiles unreadable)\n");
        free(e[0]);
        free(e[1]);
        free(online);
        return;
    }
    free(online);
    mg_agreement r;
    mg_pdiff *d = malloc(sizeof *d * (size_t)(n[0] + n[1] + 1));
    int nd = 0;
    mg_agreement_of(e[0], n[0], e[1], n[1], &r, d, &nd);
    static const char *cols[] = {"collective|collective|l", "p|p|r",         "m_size|msize|r",
                                 "A selects|a|l",           "B selects|b|l", "why in A|why_a|l",
                                 "why in B|why_b|l"};
    mg_table *t = mg_table_new(7, cols);
    char buf[64], raw[32], w[256];
    for (int i = 0; d && i < nd; i++) {
        mg_table_row(t);
        mg_table_cell(t, mg_coll_name(d[i].at.coll), NULL);
        mg_table_cellf(t, NULL, "%d", d[i].at.p);
        snprintf(raw, sizeof raw, "%lld", d[i].at.msize);
        mg_table_cell(t, mg_fmt_size(buf, sizeof buf, d[i].at.msize), raw);
        mg_table_cell(t, d[i].alg_a < 0 ? "default" : mg_alg_name(d[i].alg_a), NULL);
        mg_table_cell(t, d[i].alg_b < 0 ? "default" : mg_alg_name(d[i].alg_b), NULL);
        for (int k = 0; k < 2; k++) {
            int own = k ? d[i].alg_b : d[i].alg_a, other = k ? d[i].alg_a : d[i].alg_b;
            if (s[k].only)
                mg_online_why(s[k].prof, &d[i].at, w, sizeof w);
            else
                why(w, sizeof w, &s[k].a, &d[i].at, own, other);
            mg_table_cell(t, w, NULL);
        }
    }
    free(d);
    fprintf(f,
            "\nprofile agreement: same=%d different=%d only_a=%d only_b=%d jaccard=%.3f\n"
            "  (entries (collective, p, measured size) -> mock-up in A's and B's profiles; "
            "Jaccard = same / all entries of either)\n",
            r.same, r.different, r.only_a, r.only_b, r.jaccard);
    if (r.different + r.only_a + r.only_b)
        emit(t, f, csv);
    else
        mg_table_free(t);
    free(e[0]);
    free(e[1]);
}

int mg_compare_dirs(const mg_analyze_opts *o, const char *dir_a, const char *dir_b) {
    side s[2];
    const char *const dirs[2] = {dir_a, dir_b};
    int rc = 1;
    for (int i = 0; i < 2; i++) {
        mg_dataset_init(&s[i].ds);
        memset(&s[i].a, 0, sizeof s[i].a);
        s[i].only = mg_profiles_only(dirs[i]);
        if (s[i].only)
            snprintf(s[i].prof, sizeof s[i].prof, "%s", dirs[i]);
        else
            mg_out_path(s[i].prof, sizeof s[i].prof, dirs[i], MG_OUT_PROFILES);
    }
    if (s[0].only && s[1].only) {
        mg_error("compare", "both %s and %s hold profiles alone: one side needs raw data", dirs[0],
                 dirs[1]);
        rc = 2;
        goto out;
    }
    for (int i = 0; i < 2; i++) {
        char *d = (char *)dirs[i];
        if (!s[i].only && load_and_run(&s[i].ds, &s[i].a, &d, 1, o, "compare")) goto out;
    }
    FILE *f = o->out ? o->out : stdout;
    char b[64], c[64];
    for (int i = 0; i < 2; i++) {
        const mg_analysis *a = &s[i].a;
        if (s[i].only) {
            fprintf(f, "%c: %s\n   profiles alone (what online mode learned, or written by hand)\n",
                    'A' + i, dirs[i]);
            continue;
        }
        fprintf(f,
                "%c: %s\n   %s%s%s node(s) x %s ranks per node, %d launch%s; quality %s, "
                "violations brave %d / cautious %d of %d\n",
                'A' + i, dirs[i], a->library[0] ? a->library : "", a->library[0] ? "; " : "",
                a->nodes[0] ? a->nodes : "?", a->ppn[0] ? a->ppn : "?", a->nlaunches,
                a->nlaunches == 1 ? "" : "es", mg_fmt_num(b, sizeof b, a->quality, 4),
                a->nviol_brave, a->nviol_cautious, a->nchecked);
    }
    static const char *cols[] = {
        "collective|collective|l",        "m_size|msize|r",       "A default|a_default_median_s|r",
        "A fastest violating|a_mockup|l", "A slowd|a_slowdown|r", "B default|b_default_median_s|r",
        "B fastest violating|b_mockup|l", "B slowd|b_slowdown|r", "B/A default|b_over_a_default|r"};
    mg_table *t = mg_table_new(9, cols);
    /* every (collective, size) of A, then those only B has */
    for (int i = 0; i < 2; i++) {
        const mg_analysis *a = &s[i].a, *other = &s[1 - i].a;
        for (int ci = 0; ci < a->ncolls; ci++) {
            const char *cn = mg_name(a, a->colls[ci].name);
            for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
                const mg_point *pt = &a->colls[ci].points[pi];
                const mg_point *op = find_point(other, cn, pt->msize);
                if (i == 1 && op) continue;
                const mg_point *pa = i == 0 ? pt : op, *pb = i == 0 ? op : pt;
                mg_table_row(t);
                mg_table_cell(t, cn, NULL);
                snprintf(c, sizeof c, "%lld", pt->msize);
                mg_table_cell(t, mg_fmt_size(b, sizeof b, pt->msize), c);
                side_cells(t, &s[0].a, pa);
                side_cells(t, &s[1].a, pb);
                double da = pa && pa->def >= 0 ? pa->cells[pa->def].median : NAN;
                double db = pb && pb->def >= 0 ? pb->cells[pb->def].median : NAN;
                mg_table_cell(t, mg_fmt_num(b, sizeof b, db / da, 3), NULL);
            }
        }
    }
    emit(t, f, o->csv);

    /* quality per collective side by side */
    static const char *qcols[] = {"collective|collective|l", "A quality|a_quality|r",
                                  "A brave|a_brave|r", "B quality|b_quality|r",
                                  "B brave|b_brave|r"};
    t = mg_table_new(5, qcols);
    for (int i = 0; i < 2; i++) {
        const mg_analysis *a = &s[i].a, *other = &s[1 - i].a;
        for (int ci = 0; ci < a->ncolls; ci++) {
            const char *cn = mg_name(a, a->colls[ci].name);
            const mg_coll_result *oc = NULL;
            for (int k = 0; k < other->ncolls; k++)
                if (!strcmp(mg_name(other, other->colls[k].name), cn)) oc = &other->colls[k];
            if (i == 1 && oc) continue;
            const mg_coll_result *ca = i == 0 ? &a->colls[ci] : oc,
                                 *cb = i == 0 ? oc : &a->colls[ci];
            mg_table_row(t);
            mg_table_cell(t, cn, NULL);
            mg_table_cell(t, ca ? mg_fmt_num(b, sizeof b, ca->quality, 4) : "-", NULL);
            snprintf(c, sizeof c, "%d", ca ? ca->nviol_brave : 0);
            mg_table_cell(t, ca ? c : "-", NULL);
            mg_table_cell(t, cb ? mg_fmt_num(b, sizeof b, cb->quality, 4) : "-", NULL);
            snprintf(c, sizeof c, "%d", cb ? cb->nviol_brave : 0);
            mg_table_cell(t, cb ? c : "-", NULL);
        }
    }
    emit(t, f, o->csv);
    fprintf(f, "\nquality score: A %s, B %s (1 = self-consistent; * = barrier warning)\n",
            s[0].only ? "-" : mg_fmt_num(b, sizeof b, s[0].a.quality, 4),
            s[1].only ? "-" : mg_fmt_num(c, sizeof c, s[1].a.quality, 4));
    print_agreement(s, f, o->csv);
    rc = o->exit_code && (s[0].a.nviol_brave || s[1].a.nviol_brave) ? 3 : 0;
out:
    for (int i = 0; i < 2; i++) {
        mg_analysis_free(&s[i].a);
        mg_dataset_free(&s[i].ds);
    }
    return rc;
}
