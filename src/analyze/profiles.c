/* Profile entries from the analysis, rendered by profile/write.c: one file per
 * collective with entries, profiles/<MPI_Name>_p<P>.prf. An entry needs a violation (mock-up) or
 * a tuning opportunity (library algorithm) after correction that saves at least --min-gain of
 * the default's median; the fastest candidate of either kind wins. Adjacent measured sizes choosing
 * the same mock-up form one range [first, last]; a size between two measured sizes is covered only
 * when both neighbours chose the same mock-up (otherwise the default runs there). Gatherv/Scatterv
 * (and the other v-collectives, which select by communicator size only) get one range 0..INT64_MAX,
 * and only for a mock-up that qualified at every measured size. */
#include "util/format.h"
#include "model.h"
#include "profile/profile.h"
#include "util/diag.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    long long lo, hi;
    int alg; /* name index */
} range;

/* The cell of alg at q when it qualifies for a profile entry there, else NULL. */
static const mg_cell *qualifying(const mg_analysis *a, const mg_point *q, int alg) {
    for (int r = 0; r < q->ncells; r++) {
        const mg_cell *m = &q->cells[r];
        if (m->alg == alg && (m->violation || m->opportunity) &&
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
                if (!c->points[qi].checked && !c->points[qi].lib_checked) continue;
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
    char head[1024];
    snprintf(head, sizeof head,
             "# written by `mpiguide analyze`\n"
             "# entries: violations (mock-ups) and tuning opportunities (library algorithms) "
             "after %s correction\n# (alpha %g, %s, %d launch%s) at least %g%% faster than the "
             "default\n%s",
             mg_correction_name(a->opts.correction), a->opts.alpha, mg_test_name(a->opts.test),
             a->nlaunches, a->nlaunches == 1 ? "" : "es", a->opts.min_gain * 100,
             vcoll ? "# one range for all sizes: the mock-up qualified at every measured size\n"
                   : "# ranges span adjacent measured sizes that chose the same mock-up; other "
                     "sizes run the default\n");
    const mg_profile_kv prov[] = {
        {"mpi_library", a->library}, {"nodes", a->nodes},         {"ppn", a->ppn},
        {"datatype", a->datatype},   {"operation", a->operation}, {"date", a->date}};
    mg_profile_wrange *w = malloc((size_t)nr * sizeof *w);
    char *text = NULL;
    if (w) {
        for (int i = 0; i < nr; i++)
            w[i] = (mg_profile_wrange){vcoll ? 0 : r[i].lo, vcoll ? INT64_MAX : r[i].hi,
                                       mg_name(a, r[i].alg)};
        text = mg_profile_render(cname, p, prov, (int)(sizeof prov / sizeof prov[0]), head, w, nr);
    }
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
