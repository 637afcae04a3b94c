/* Profile entries from the analysis, rendered by profile/write.c: one file per collective and
 * communicator size measured, profiles/<MPI_Name>_p<P>.prf. At each measured size the winner
 * is the fastest candidate of either kind, a mock-up whose violation or a library algorithm
 * whose tuning opportunity survives the correction, saving at least --min-gain of the
 * default's median (candidates within 5 % are a tie, analyze/decide.c), else the default. Ranges
 * cover the sizes between measured points (docs/check.md "Profiles"): between two adjacent measured
 * sizes with the same winner the whole interval; where the winner changes, each side keeps its
 * winner up to the midpoint on a log scale; below the first and above the last measured size
 * nothing (the default runs there, unrecorded). Ranges won by the default are written as explicit
 * `default` ranges, so a call inside the measured interval ran a decision that was measured
 * (it counts as covered in the report and the record). Every range carries a `#@range` line
 * with the measured sizes that justify its ends. Gatherv/Scatterv (and the other
 * v-collectives, which select by communicator size only) get one range 0..INT64_MAX: a
 * mock-up that qualified at every measured size, else the default. */
#include "outdir/outdir.h"
#include "util/format.h"
#include "report.h"
#include "profile/profile.h"
#include "util/diag.h"
#include "util/sbuf.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WIN_DEFAULT (-1) /* the winner of a size where no mock-up qualified */

typedef struct {
    long long lo, hi;
    int win;   /* name index of the winning mock-up, or WIN_DEFAULT */
    int first; /* measured points (indexes into c->points) inside the range */
    int last;
} range;

/* A size takes part in the profile when the default and a candidate of either kind were tested. */
static int decided(const mg_point *pt) {
    return pt->checked || pt->lib_checked;
}

static int winner(const mg_point *pt) {
    return pt->profile >= 0 ? pt->cells[pt->profile].alg : WIN_DEFAULT;
}

/* The largest size a below the log-scale midpoint of a < b: floor(sqrt(a b)), so the side of
 * a ends there and the side of b starts one above it. */
long long mg_log_midpoint(long long a, long long b) {
    double m = floor(sqrt((double)a * (double)b));
    long long x = m >= (double)b ? b - 1 : (long long)m;
    return x < a ? a : x;
}

/* The ranges of a regular collective from its checked sizes; returns how many. */
static int build_ranges(const mg_coll_result *c, range *r) {
    int nr = 0, prev = -1;
    for (int pi = 0; pi < c->npoints; pi++) {
        const mg_point *pt = &c->points[pi];
        if (!decided(pt)) continue;
        int w = winner(pt);
        if (prev < 0) {
            r[nr++] = (range){pt->msize, pt->msize, w, pi, pi};
        } else if (w == r[nr - 1].win) {
            r[nr - 1].hi = pt->msize;
            r[nr - 1].last = pi;
        } else {
            long long mid = mg_log_midpoint(c->points[prev].msize, pt->msize);
            r[nr - 1].hi = mid;
            r[nr++] = (range){mid + 1, pt->msize, w, pi, pi};
        }
        prev = pi;
    }
    return nr;
}

static const char *win_name(const mg_analysis *a, int w) {
    return w == WIN_DEFAULT ? "default" : mg_name(a, w);
}

/* One measured size of a range: its size and how the winner compared with the default. */
static void say_point(mg_sbuf *b, const mg_analysis *a, const mg_point *pt) {
    const mg_cell *d = &pt->cells[pt->def];
    if (pt->profile >= 0)
        mg_sbuf_printf(b, "%lld (%.3gx the default's time)", pt->msize,
                       pt->cells[pt->profile].median / d->median);
    else if (pt->best >= 0)
        mg_sbuf_printf(b, "%lld (best candidate %s %.3gx, under --min-gain %g)", pt->msize,
                       mg_name(a, pt->cells[pt->best].alg), pt->cells[pt->best].median / d->median,
                       a->opts.min_gain);
    else
        mg_sbuf_printf(b, "%lld (no candidate significantly faster)", pt->msize);
}

/* The `#@range` line of range i: the measured sizes inside it and what bounds it. */
static void justify(mg_sbuf *b, const mg_analysis *a, const mg_coll_result *c, const range *r,
                    int nr, int i) {
    const range *g = &r[i];
    mg_sbuf_printf(b, "#@range=%lld-%lld %s: measured ", g->lo, g->hi, win_name(a, g->win));
    int n = 0;
    for (int pi = g->first; pi <= g->last; pi++) {
        if (!decided(&c->points[pi])) continue;
        if (n++) mg_sbuf_printf(b, ", ");
        say_point(b, a, &c->points[pi]);
    }
    if (i == 0)
        mg_sbuf_printf(b, "; starts at the smallest measured size");
    else
        mg_sbuf_printf(b, "; starts above %lld, the log midpoint of %lld (%s) and %lld",
                       r[i - 1].hi, c->points[r[i - 1].last].msize, win_name(a, r[i - 1].win),
                       c->points[g->first].msize);
    if (i == nr - 1)
        mg_sbuf_printf(b, "; ends at the largest measured size\n");
    else
        mg_sbuf_printf(b, "; ends at the log midpoint of %lld and %lld (%s)\n",
                       c->points[g->last].msize, c->points[r[i + 1].first].msize,
                       win_name(a, r[i + 1].win));
}

char *mg_profile_text(const mg_analysis *a, const mg_coll_result *c) {
    const char *cname = mg_name(a, c->name);
    int p = c->nprocs ? c->nprocs : atoi(a->nprocs);
    range *r = malloc((size_t)(c->npoints ? c->npoints : 1) * sizeof *r);
    if (!r) return NULL;
    int nr = 0, vcoll = mg_is_sizeless(cname), checked = 0;
    for (int pi = 0; pi < c->npoints; pi++) checked += decided(&c->points[pi]);
    if (vcoll && checked)
        r[nr++] = (range){0, INT64_MAX,
                          mg_an_v_choice(a, c) >= 0 ? mg_an_v_choice(a, c) : WIN_DEFAULT, 0, 0};
    else if (!vcoll)
        nr = build_ranges(c, r);
    if (!nr || p <= 0) {
        free(r);
        return NULL;
    }
    mg_sbuf head = {0};
    mg_sbuf_printf(&head,
                   "# written by `mpiguide analyze`\n"
                   "# winners: violations (mock-ups) and tuning opportunities (library algorithms) "
                   "after %s correction (alpha %g, %s, %d launch%s) at least %g%% faster than "
                   "the default, else the default\n",
                   mg_correction_name(a->opts.correction), a->opts.alpha,
                   mg_test_name(a->opts.test), a->nlaunches, a->nlaunches == 1 ? "" : "es",
                   a->opts.min_gain * 100);
    if (a->ntuned)
        mg_sbuf_printf(&head,
                       "# validated in %d launch%s of the tuned library: kept only when "
                       "significantly faster than the default in every one, at least %.3gx "
                       "in the slowest and %.3gx over them (#@validated lines)\n",
                       a->ntuned, a->ntuned == 1 ? "" : "es", a->val_min_speedup,
                       a->val_gain_speedup);
    if (vcoll) {
        mg_sbuf_printf(&head, "# one range for all sizes: %s\n",
                       r[0].win == WIN_DEFAULT ? "no mock-up qualified at every measured size"
                                               : "the mock-up qualified at every measured size");
    } else {
        mg_sbuf_printf(&head, "# ranges: the measured interval, split at log midpoints where the "
                              "winner changes; other sizes run the default\n");
        for (int i = 0; i < nr; i++) justify(&head, a, c, r, nr, i);
    }
    char *comment = mg_sbuf_take(&head);
    int sub = c->nodes[0] && (strcmp(c->nodes, a->nodes) || strcmp(c->ppn, a->ppn));
    const mg_profile_kv base[] = {{"mpi_library", a->library},
                                  {"nodes", a->nodes},
                                  {"ppn", a->ppn},
                                  {"comm_nodes", sub ? c->nodes : ""},
                                  {"comm_ppn", sub ? c->ppn : ""},
                                  {"datatype", mg_coll_header(a, c, "datatype")},
                                  {"operation", mg_coll_header(a, c, "operation")},
                                  {"roots", mg_coll_header(a, c, "roots")},
                                  {"timing", mg_coll_header(a, c, "timing")},
                                  {"batch", mg_coll_header(a, c, "batch")},
                                  {"date", a->date}};
    enum { NBASE = sizeof base / sizeof base[0] };
    /* provenance, then one #@validated line per kept size */
    mg_profile_kv *prov = malloc(sizeof *prov * (size_t)(NBASE + c->npoints));
    char(*vtext)[200] = malloc(sizeof *vtext * (size_t)(c->npoints ? c->npoints : 1));
    mg_profile_wrange *w = malloc((size_t)(nr ? nr : 1) * sizeof *w);
    char *text = NULL;
    if (w && comment && prov && vtext) {
        int nprov = NBASE;
        memcpy(prov, base, sizeof base);
        for (int pi = 0; pi < c->npoints; pi++) {
            const mg_point *pt = &c->points[pi];
            if (pt->val != MG_VAL_KEPT) continue;
            snprintf(vtext[pi], sizeof vtext[pi],
                     "%lld %s speedup=%.4g min_speedup=%.4g launches=%d p=%.3g", pt->msize,
                     mg_name(a, pt->cells[pt->candidate].alg), pt->val_speedup, pt->val_speedup_min,
                     pt->val_launches, pt->val_p_adj);
            prov[nprov++] = (mg_profile_kv){"validated", vtext[pi]};
        }
        for (int i = 0; i < nr; i++)
            w[i] = (mg_profile_wrange){r[i].lo, r[i].hi, win_name(a, r[i].win)};
        text = mg_profile_render(cname, p, prov, nprov, comment, w, nr);
    }
    free(comment);
    free(prov);
    free(vtext);
    free(w);
    free(r);
    return text;
}

/* Old profiles of an earlier analysis would stay active in tuned mode; remove ours
 * (MPI_*_p<digits>.prf) before writing the current ones. */
static void remove_old(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
        const char *n = e->d_name, *u = strrchr(n, '_');
        size_t len = strlen(n);
        if (strncmp(n, "MPI_", 4) || len < 5 || strcmp(n + len - 4, ".prf") || !u || u[1] != 'p')
            continue;
        int digits = 1;
        for (const char *q = u + 2; q < n + len - 4; q++) digits &= *q >= '0' && *q <= '9';
        if (!digits || u + 2 == n + len - 4) continue;
        mg_path(path, sizeof path, "%s/%s", dir, n);
        remove(path);
    }
    closedir(d);
}

int mg_write_profiles(const mg_analysis *a, const char *outdir) {
    char dir[4096], path[4200];
    mg_out_path(dir, sizeof dir, outdir, MG_OUT_PROFILES);
    if (mkdir(dir, 0777) && errno != EEXIST) {
        mg_error(dir, "cannot create: %s", strerror(errno));
        return -1;
    }
    remove_old(dir);
    for (int ci = 0; ci < a->ncolls; ci++) {
        const mg_coll_result *c = &a->colls[ci];
        char *text = mg_profile_text(a, c);
        if (!text) continue;
        int p = c->nprocs ? c->nprocs : atoi(a->nprocs);
        mg_path(path, sizeof path, "%s/%s_p%d.prf", dir, mg_name(a, c->name), p);
        FILE *f = fopen(path, "w");
        if (!f) {
            mg_error(path, "cannot write: %s", strerror(errno));
            free(text);
            return -1;
        }
        fputs(text, f);
        free(text);
        if (fclose(f)) {
            mg_error(path, "write failed");
            return -1;
        }
    }
    return 0;
}
