/* Profile writer: the paper's format (docs/dev/reference.md) with `#@` provenance lines, one file
 * per collective with entries, profiles/<MPI_Name>_p<P>.prf. An entry needs a violation after
 * correction that saves at least --min-gain of the default's median; the fastest such mock-up
 * wins. Adjacent measured sizes choosing the same mock-up form one range [first, last]; a size
 * between two measured sizes is covered only when both neighbours chose the same mock-up
 * (otherwise the default runs there). Gatherv/Scatterv (and the other v-collectives, which
 * select by communicator size only) get one range 0..INT64_MAX, and only for a mock-up that
 * qualified at every measured size. */
#include "util/format.h"
#include "model.h"
#include "util/diag.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RANGE_MAX "9223372036854775807"

typedef struct {
    char *s;
    size_t n, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
    if (!b->s && b->cap) return; /* an earlier allocation failed */
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0) return;
    if (b->n + (size_t)need + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        while (nc < b->n + (size_t)need + 1) nc *= 2;
        char *p = realloc(b->s, nc);
        if (!p) {
            free(b->s);
            b->s = NULL;
            b->cap = 1;
            return;
        }
        b->s = p;
        b->cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)need;
}

typedef struct {
    long long lo, hi;
    int alg; /* name index */
} range;

/* The cell of alg at q when it qualifies for a profile entry there, else NULL. */
static const mg_cell *qualifying(const mg_analysis *a, const mg_point *q, int alg) {
    for (int r = 0; r < q->ncells; r++) {
        const mg_cell *m = &q->cells[r];
        if (m->alg == alg && m->violation &&
            1 - m->median / q->cells[q->def].median >= a->opts.min_gain)
            return m;
    }
    return NULL;
}

/* The one mock-up for a v-collective: it qualifies at every checked size; among those, the
 * largest geometric-mean slowdown. -1 when none. */
static int v_choice(const mg_analysis *a, const mg_coll_result *c) {
    int best = -1;
    double best_score = 0;
    for (int pi = 0; pi < c->npoints; pi++)
        for (int k = 0; k < c->points[pi].ncells; k++) {
            int alg = c->points[pi].cells[k].alg, n = 0;
            double logs = 0;
            for (int qi = 0; qi < c->npoints; qi++) {
                if (!c->points[qi].checked) continue;
                const mg_cell *m = qualifying(a, &c->points[qi], alg);
                if (!m) {
                    n = 0;
                    break;
                }
                logs += log(m->slowdown);
                n++;
            }
            if (n && (best < 0 || exp(logs / n) > best_score)) {
                best = alg;
                best_score = exp(logs / n);
            }
        }
    return best;
}

char *mg_profile_text(const mg_analysis *a, const mg_coll_result *c) {
    const char *cname = mg_name(a, c->name);
    int p = c->nprocs ? c->nprocs : atoi(a->nprocs);
    range *r = malloc((size_t)(c->npoints ? c->npoints : 1) * sizeof *r);
    if (!r) return NULL;
    int nr = 0;
    int vcoll = mg_is_vcollective(cname);
    if (vcoll) {
        int alg = v_choice(a, c);
        if (alg >= 0) r[nr++] = (range){0, 0, alg};
    } else {
        for (int pi = 0; pi < c->npoints; pi++) {
            const mg_point *pt = &c->points[pi];
            if (pt->profile < 0) continue;
            int alg = pt->cells[pt->profile].alg;
            /* extend the previous range if it ended at the previous measured size */
            if (nr && r[nr - 1].alg == alg && pi > 0 && r[nr - 1].hi == c->points[pi - 1].msize &&
                c->points[pi - 1].profile >= 0)
                r[nr - 1].hi = pt->msize;
            else
                r[nr++] = (range){pt->msize, pt->msize, alg};
        }
    }
    if (!nr || p <= 0) {
        free(r);
        return NULL;
    }
    /* mock-up ids 1..n in order of first use */
    int ids[256], nids = 0;
    for (int i = 0; i < nr; i++) {
        int seen = 0;
        for (int j = 0; j < nids; j++) seen |= ids[j] == r[i].alg;
        if (!seen && nids < 256) ids[nids++] = r[i].alg;
    }
    sbuf b = {0};
    sb_printf(&b, "# mpiguide profile of %s for %d processes, written by `mpiguide analyze`\n",
              cname, p);
    const char *keys[] = {"mpi_library", "nodes", "ppn", "datatype", "operation", "date"};
    const char *vals[] = {a->library, a->nodes, a->ppn, a->datatype, a->operation, a->date};
    for (int i = 0; i < 6; i++)
        if (vals[i][0]) sb_printf(&b, "#@%s=%s\n", keys[i], vals[i]);
    sb_printf(&b,
              "# entries: violations after %s correction (alpha %g, %s, %d launch%s) at least "
              "%g%% faster than the default\n",
              mg_correction_name(a->opts.correction), a->opts.alpha, mg_test_name(a->opts.test),
              a->nlaunches, a->nlaunches == 1 ? "" : "es", a->opts.min_gain * 100);
    if (vcoll)
        sb_printf(&b, "# one range for all sizes: the mock-up qualified at every measured size\n");
    else
        sb_printf(&b, "# ranges span adjacent measured sizes that chose the same mock-up; other "
                      "sizes run the default\n");
    sb_printf(&b, "%s\n%d\n%d\n", cname, p, nids);
    for (int j = 0; j < nids; j++) sb_printf(&b, "%d %s\n", j + 1, mg_name(a, ids[j]));
    sb_printf(&b, "%d\n", nr);
    for (int i = 0; i < nr; i++) {
        int id = 0;
        for (int j = 0; j < nids; j++)
            if (ids[j] == r[i].alg) id = j + 1;
        if (vcoll)
            sb_printf(&b, "0 " RANGE_MAX " %d\n", id);
        else
            sb_printf(&b, "%lld %lld %d\n", r[i].lo, r[i].hi, id);
    }
    free(r);
    return b.s;
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
    mg_path(dir, sizeof dir, "%s/profiles", outdir);
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
