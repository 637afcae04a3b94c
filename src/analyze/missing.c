/* What the data lacks, one line each in summary.txt and the report: launches without a
 * collective, sizes without a default, algorithms missing at some sizes or launches, untested
 * cells, sync-flagged observations, launches of different jobs merged, profiles that cannot be
 * written. */
#include "util/format.h"
#include "catalog/catalog.h"
#include "model.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void mg_an_add_line(char ***list, int *n, int *cap, const char *fmt, va_list ap) {
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        char **p = realloc(*list, (size_t)nc * sizeof *p);
        if (!p) return;
        *list = p;
        *cap = nc;
    }
    size_t len = strlen(buf) + 1;
    char *d = malloc(len);
    if (!d) return;
    memcpy(d, buf, len);
    (*list)[(*n)++] = d;
}

static void missing(mg_analysis *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void missing(mg_analysis *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    mg_an_add_line(&a->missing, &a->nmissing, &a->capmissing, fmt, ap);
    va_end(ap);
}

/* Observations the synchronisation flagged: one line per cell in summary.txt, one count on
 * the terminal (a run on a busy machine has them in almost every cell). */
static void syncnote(mg_analysis *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void syncnote(mg_analysis *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    mg_an_add_line(&a->syncnotes, &a->nsyncnotes, &a->capsyncnotes, fmt, ap);
    va_end(ap);
}

/* ---- what is missing ---- */

/* Did disturbed.c set launch l aside at pt? Its series are gone on purpose, not missing. */
static int set_aside(const mg_point *pt, int l) {
    return l < 64 && (pt->aside >> l & 1);
}

void mg_an_find_missing(mg_analysis *a, int have_barrier) {
    char sz[32];
    int *has = calloc((size_t)(a->nlaunches ? a->nlaunches : 1), sizeof *has);
    int *algs = NULL, nalgs = 0;
    for (int ci = 0; ci < a->ncolls && has; ci++) {
        mg_coll_result *c = &a->colls[ci];
        const char *cn = c->stem;
        /* which launches measured this collective at all, and which algorithms it has */
        memset(has, 0, (size_t)a->nlaunches * sizeof *has);
        nalgs = 0;
        for (int pi = 0; pi < c->npoints; pi++)
            for (int k = 0; k < c->points[pi].ncells; k++) {
                mg_cell *m = &c->points[pi].cells[k];
                for (int l = 0; l < a->nlaunches; l++)
                    has[l] |= m->series[l] != NULL || set_aside(&c->points[pi], l);
                int known = 0;
                for (int i = 0; i < nalgs; i++) known |= algs[i] == m->alg;
                if (known) continue;
                int *na = realloc(algs, (size_t)(nalgs + 1) * sizeof *na);
                if (!na) continue;
                algs = na;
                algs[nalgs++] = m->alg;
            }
        for (int l = 0; l < a->nlaunches; l++)
            if (!has[l])
                missing(a, "%s: no %s data in this launch", a->ds->launches[a->launches[l]].path,
                        cn);
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            mg_fmt_size(sz, sizeof sz, pt->msize);
            if (pt->def < 0) missing(a, "%s %s: no default measurement, size not checked", cn, sz);
            for (int i = 0; i < nalgs; i++) {
                int found = 0;
                for (int k = 0; k < pt->ncells; k++) found |= pt->cells[k].alg == algs[i];
                if (!found)
                    missing(a, "%s %s: %s not measured (it is at other sizes)", cn, sz,
                            mg_name(a, algs[i]));
            }
            for (int k = 0; k < pt->ncells; k++) {
                mg_cell *m = &pt->cells[k];
                for (int l = 0; l < a->nlaunches; l++)
                    if (has[l] && !m->series[l] && !set_aside(pt, l))
                        missing(a, "%s %s %s: missing in %s", cn, sz, mg_name(a, m->alg),
                                a->ds->launches[a->launches[l]].path);
                if (k != pt->def && pt->def >= 0 && !m->tested && m->nobs)
                    missing(a, "%s %s %s: fewer than 2 observations per launch, not tested", cn, sz,
                            mg_name(a, m->alg));
                a->nsync_total += m->nobs + m->nflagged;
                a->nsync_flagged += m->nflagged;
                if (m->nflagged)
                    syncnote(a, "%s %s %s: %zu observations flagged invalid by the sync, left out",
                             cn, sz, mg_name(a, m->alg), m->nflagged);
            }
        }
    }
    free(has);
    free(algs);
    if (!have_barrier)
        missing(a, "no MPI_Barrier data: no barrier warnings (cautious counts equal brave)");
    /* launches of different jobs cannot be merged meaningfully */
    int first = -1; /* the first launch with an nprocs header */
    for (int l = 0; l < a->nlaunches; l++) {
        const char *p = mg_dataset_header(a->ds, a->launches[l], "nprocs");
        if (!p) continue;
        if (first < 0) {
            first = l;
            continue;
        }
        const char *p0 = mg_dataset_header(a->ds, a->launches[first], "nprocs");
        if (strcmp(p, p0))
            missing(a, "%s: nprocs=%s, but %s has nprocs=%s: launches of different jobs merged",
                    a->ds->launches[a->launches[l]].path, p,
                    a->ds->launches[a->launches[first]].path, p0);
    }
    for (int ci = 0; ci < a->ncolls; ci++) {
        int entries = 0;
        for (int pi = 0; pi < a->colls[ci].npoints; pi++)
            entries += a->colls[ci].points[pi].profile >= 0;
        if (entries && a->colls[ci].nprocs <= 0 && atoi(a->nprocs) <= 0)
            missing(a, "%s: no #@nprocs header, so its profile cannot be written",
                    mg_name(a, a->colls[ci].name));
    }
}
