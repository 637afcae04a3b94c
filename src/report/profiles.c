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
#include "record/record.h"
#include "catalog/catalog.h"
#include "util/diag.h"
#include "util/sbuf.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIN_DEFAULT (-1) /* the winner of a size where no mock-up qualified */

typedef mg_wrange range; /* win: name index of the winner; first, last: into c->points */

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
            r[nr++] = (range){pt->msize, pt->msize, w, pi, pi, -1, -1};
        } else if (w == r[nr - 1].win) {
            r[nr - 1].hi = pt->msize;
            r[nr - 1].last = pi;
        } else {
            long long mid = mg_log_midpoint(c->points[prev].msize, pt->msize);
            r[nr - 1].hi = mid;
            r[nr++] = (range){mid + 1, pt->msize, w, pi, pi, -1, -1};
        }
        prev = pi;
    }
    return nr;
}

/* The first index of sorted v[0..n) that is >= x (n when none). */
static int lower_bound(const long long *v, int n, long long x) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int measured_in(const long long *measured, int nmeas, long long lo, long long hi) {
    int i = lower_bound(measured, nmeas, lo);
    return i < nmeas && measured[i] <= hi;
}

/* Keeps piece g (after the input's n ranges, at r[*out]) when it still holds a measured size:
 * a piece between two cuts with none would select what no measurement near it justified. */
static void keep(mg_wrange *r, int *out, mg_wrange g, const long long *measured, int nmeas) {
    if (g.lo <= g.hi && measured_in(measured, nmeas, g.lo, g.hi)) r[(*out)++] = g;
}

int mg_ranges_cut(mg_wrange *r, int n, const long long *recorded, int nrec,
                  const long long *measured, int nmeas) {
    int out = n; /* the pieces are built after the input, then moved down */
    for (int i = 0; i < n; i++) {
        mg_wrange g = r[i];
        for (int k = lower_bound(recorded, nrec, g.lo); k < nrec && recorded[k] <= g.hi; k++) {
            long long x = recorded[k];
            if (measured_in(measured, nmeas, x, x)) continue;
            mg_wrange below = g;
            below.hi = x - 1, below.cut_above = x;
            keep(r, &out, below, measured, nmeas);
            if (x == g.hi) { /* nothing left above (and no x + 1 to overflow) */
                g.lo = 1, g.hi = 0;
                break;
            }
            g.lo = x + 1, g.cut_below = x;
        }
        keep(r, &out, g, measured, nmeas);
    }
    for (int i = n; i < out; i++) r[i - n] = r[i];
    return out - n;
}

/* The measured points inside each range after the cut (for its #@range line). */
static void points_of(const mg_coll_result *c, range *r, int nr) {
    for (int i = 0; i < nr; i++) {
        r[i].first = r[i].last = -1;
        for (int pi = 0; pi < c->npoints; pi++) {
            long long m = c->points[pi].msize;
            if (!decided(&c->points[pi]) || m < r[i].lo || m > r[i].hi) continue;
            if (r[i].first < 0) r[i].first = pi;
            r[i].last = pi;
        }
    }
}

/* The decided point before (step -1) or after (+1) point pi; -1 when none. */
static int next_decided(const mg_coll_result *c, int pi, int step) {
    for (int q = pi + step; q >= 0 && q < c->npoints; q += step)
        if (decided(&c->points[q])) return q;
    return -1;
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

/* The `#@range` line of range g: the measured sizes inside it and what bounds it (the measured
 * interval's ends, a log midpoint where the winner changes, or a recorded size nobody measured). */
static void justify(mg_sbuf *b, const mg_analysis *a, const mg_coll_result *c, const range *g) {
    mg_sbuf_printf(b, "#@range=%lld-%lld %s: measured ", g->lo, g->hi, win_name(a, g->win));
    int n = 0;
    for (int pi = g->first; pi <= g->last; pi++) {
        if (!decided(&c->points[pi])) continue;
        if (n++) mg_sbuf_printf(b, ", ");
        say_point(b, a, &c->points[pi]);
    }
    int prev = next_decided(c, g->first, -1), next = next_decided(c, g->last, +1);
    if (g->cut_below >= 0)
        mg_sbuf_printf(b, "; starts above %lld, recorded and not measured (the default runs there)",
                       g->cut_below);
    else if (prev < 0)
        mg_sbuf_printf(b, "; starts at the smallest measured size");
    else
        mg_sbuf_printf(b, "; starts above %lld, the log midpoint of %lld (%s) and %lld", g->lo - 1,
                       c->points[prev].msize, win_name(a, winner(&c->points[prev])),
                       c->points[g->first].msize);
    if (g->cut_above >= 0)
        mg_sbuf_printf(b, "; ends below %lld, recorded and not measured (the default runs there)\n",
                       g->cut_above);
    else if (next < 0)
        mg_sbuf_printf(b, "; ends at the largest measured size\n");
    else
        mg_sbuf_printf(b, "; ends at the log midpoint of %lld and %lld (%s)\n",
                       c->points[g->last].msize, c->points[next].msize,
                       win_name(a, winner(&c->points[next])));
}

char *mg_profile_text(const mg_analysis *a, const mg_coll_result *c, const long long *recorded,
                      int nrec) {
    const char *cname = mg_name(a, c->name);
    int p = c->nprocs ? c->nprocs : atoi(a->nprocs);
    size_t room = 2 * (size_t)c->npoints + (size_t)(nrec > 0 ? nrec : 0) + 1;
    range *r = malloc(room * sizeof *r);
    long long *measured = malloc((size_t)(c->npoints + 1) * sizeof *measured);
    if (!r || !measured) {
        free(r);
        free(measured);
        return NULL;
    }
    int nr = 0, vcoll = mg_is_sizeless(cname), checked = 0;
    for (int pi = 0; pi < c->npoints; pi++)
        if (decided(&c->points[pi])) measured[checked++] = c->points[pi].msize;
    if (vcoll && checked) {
        int v = mg_an_v_choice(a, c);
        r[nr++] = (range){0, INT64_MAX, v >= 0 ? v : WIN_DEFAULT, 0, 0, -1, -1};
    } else if (!vcoll) {
        nr = build_ranges(c, r);
        nr = mg_ranges_cut(r, nr, recorded, recorded ? nrec : 0, measured, checked);
        points_of(c, r, nr);
    }
    /* #@measured: the sizes checked, so `profile check --record` can tell which recorded sizes
     * a measurement covers (v-collectives' sizes are the benchmark's, not the application's) */
    mg_sbuf ms = {0};
    for (int i = 0; !vcoll && i < checked; i++)
        mg_sbuf_printf(&ms, "%s%lld", i ? "," : "", measured[i]);
    char *mtext = mg_sbuf_take(&ms);
    free(measured);
    if (!nr || p <= 0) {
        free(r);
        free(mtext);
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
                              "winner changes and around sizes the application's record lists "
                              "that were not measured; other sizes run the default\n");
        for (int i = 0; i < nr; i++) justify(&head, a, c, &r[i]);
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
    mg_profile_kv *prov = malloc(sizeof *prov * (size_t)(NBASE + 1 + c->npoints));
    char(*vtext)[200] = malloc(sizeof *vtext * (size_t)(c->npoints ? c->npoints : 1));
    mg_profile_wrange *w = malloc((size_t)(nr ? nr : 1) * sizeof *w);
    char *text = NULL;
    if (w && comment && prov && vtext) {
        int nprov = NBASE;
        memcpy(prov, base, sizeof base);
        if (mtext && mtext[0]) prov[nprov++] = (mg_profile_kv){"measured", mtext};
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
    free(mtext);
    free(prov);
    free(vtext);
    free(w);
    free(r);
    return text;
}

/* Is n the name of a profile we write: MPI_*_p<digits>.prf, or MPI_*_p<digits>_MPI_*.prf (or
 * _any...) for one of several of a collective and size (mg_coll_type_suffix)? */
static int ours(const char *n) {
    size_t len = strlen(n);
    if (strncmp(n, "MPI_", 4) || len < 5 || strcmp(n + len - 4, ".prf")) return 0;
    for (const char *u = strstr(n, "_p"); u; u = strstr(u + 1, "_p")) {
        const char *q = u + 2;
        while (*q >= '0' && *q <= '9') q++;
        if (q == u + 2) continue;
        if (q == n + len - 4 || !strncmp(q, "_MPI_", 5) || !strncmp(q, "_any", 4)) return 1;
    }
    return 0;
}

/* Old profiles of an earlier analysis would stay active in tuned mode; remove ours (ours())
 * before writing the current ones. */
static void remove_old(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (!ours(n)) continue;
        mg_path(path, sizeof path, "%s/%s", dir, n);
        remove(path);
    }
    closedir(d);
}

static int cmp_ll(const void *pa, const void *pb) {
    long long x = *(const long long *)pa, y = *(const long long *)pb;
    return (x > y) - (x < y);
}

/* The sizes with calls the record lists for collective name on p ranks, sorted and unique,
 * into v (room for cap); returns how many. */
static int recorded_sizes(const mg_record *rec, const char *name, int p, long long *v, int cap) {
    int coll = mg_coll_lookup(name), n = 0;
    for (int i = 0; rec && coll >= 0 && i < rec->nrows; i++) {
        const mg_rec_row *w = &rec->rows[i];
        if (w->coll != coll || w->p != p) continue;
        for (int z = 0; z < w->nsizes && n < cap; z++)
            if (w->sizes[z].calls) v[n++] = w->sizes[z].msize;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_ll);
    int u = 0;
    for (int i = 0; i < n; i++)
        if (!u || v[u - 1] != v[i]) v[u++] = v[i];
    return u;
}

/* OUTDIR/record.txt (tune --for copies the application's record there), or NULL when absent;
 * a record that does not parse is an error (-1). */
static int read_record(const char *outdir, mg_record *rec, mg_record **out) {
    char path[4200], err[512];
    *out = NULL;
    mg_out_path(path, sizeof path, outdir, MG_OUT_RECORD);
    if (access(path, F_OK)) return 0;
    if (mg_record_read(path, rec, err, sizeof err)) {
        mg_error(path, "%s", err);
        return -1;
    }
    *out = rec;
    return 0;
}

int mg_write_profiles(const mg_analysis *a, const char *outdir) {
    char dir[4096], path[4200];
    mg_out_path(dir, sizeof dir, outdir, MG_OUT_PROFILES);
    if (mkdir(dir, 0777) && errno != EEXIST) {
        mg_error(dir, "cannot create: %s", strerror(errno));
        return -1;
    }
    mg_record store, *rec;
    if (read_record(outdir, &store, &rec)) return -1;
    long long *recorded =
        malloc(sizeof *recorded * (size_t)(rec ? rec->nrows * MG_REC_SIZES + 1 : 1));
    if (!recorded) {
        if (rec) mg_record_free(rec);
        return -1;
    }
    remove_old(dir);
    int rc = 0;
    for (int ci = 0; ci < a->ncolls && !rc; ci++) {
        const mg_coll_result *c = &a->colls[ci];
        int p = c->nprocs ? c->nprocs : atoi(a->nprocs);
        int nrec = recorded_sizes(rec, mg_name(a, c->name), p, recorded,
                                  rec ? rec->nrows * MG_REC_SIZES : 0);
        char *text = mg_profile_text(a, c, recorded, nrec);
        if (!text) continue;
        char types[160];
        mg_coll_type_suffix(a, c, types, sizeof types);
        mg_path(path, sizeof path, "%s/%s_p%d%s.prf", dir, mg_name(a, c->name), p, types);
        FILE *f = fopen(path, "w");
        if (!f) {
            mg_error(path, "cannot write: %s", strerror(errno));
            rc = -1;
        } else {
            fputs(text, f);
            if (fclose(f)) {
                mg_error(path, "write failed");
                rc = -1;
            }
        }
        free(text);
    }
    free(recorded);
    if (rec) mg_record_free(rec);
    return rc;
}
