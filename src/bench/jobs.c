/* The list of measurements a bench or nrep run makes: (call, algorithm, msize, nrep) from the
 * options, with every name checked before anything is measured; and small shared helpers. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "util/diag.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void mg_say(int rank, int error, const char *where, const char *fmt, ...) {
    if (rank != 0) return;
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    mg_diag(error, where, "%s", what);
}

/* A `*_lib_*` name this process cannot run: one error naming the available ones (or why
 * library algorithms are off). Returns 1 when `name` has that form, 0 otherwise. */
int mg_unknown_library_algorithm(int rank, const char *where, const char *name) {
    int coll = -1;
    const char *m = strstr(name, "_lib_");
    if (!m || !m[5]) return 0;
    char sname[64];
    snprintf(sname, sizeof sname, "%.*s", (int)(m - name), name);
    coll = mpiguide_collective_id(sname);
    if (coll < 0 || strcmp(mpiguide_collective_short(coll), sname)) return 0;
    const char *off = mpiguide_library_off();
    char list[2048] = "";
    size_t at = 0;
    for (int k = 0; k < mpiguide_algorithm_count() && at + 1 < sizeof list; k++)
        if (mpiguide_algorithm_kind(k) == MPIGUIDE_KIND_LIBRARY &&
            mpiguide_algorithm_collective(k) == coll) {
            int n = snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "",
                             mpiguide_algorithm_name(k));
            if (n > 0) at += (size_t)n;
        }
    mg_say(rank, 1, where, "unknown library algorithm '%s' for %s (%s%s)", name,
           mpiguide_collective_name(coll), off ? "library algorithms are off: " : "available: ",
           off  ? off
           : at ? list
                : "none");
    return 1;
}

/* Test-only registry rows (MPIGUIDE_TEST_ALGORITHMS) say so in their guideline; `all` skips
 * them, naming them explicitly still measures them. */
static int is_test_only(int alg) {
    const char *g = mpiguide_algorithm_guideline(alg);
    return g && !strncmp(g, "TEST ONLY", 9);
}

int mg_add_job(mg_joblist *l, mg_job j) {
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        mg_job *v = realloc(l->v, sizeof *v * (size_t)cap);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = j;
    return 0;
}

int mg_expand_algs(int coll, const mg_bench_opts *o, int *ids, const char **names) {
    int n = 0;
#define PUSH(ID, NAME)                                                                             \
    do {                                                                                           \
        int dup_ = 0;                                                                              \
        for (int k_ = 0; k_ < n; k_++) dup_ |= ids[k_] == (ID);                                    \
        if (!dup_) ids[n] = (ID), names[n++] = (NAME);                                             \
    } while (0)
    for (int i = 0; i < o->nalgs; i++) {
        const char *a = o->algs[i];
        int all = !strcmp(a, MG_ALG_ALL), mock = !strcmp(a, MG_ALG_MOCKUPS),
            lib = !strcmp(a, MG_ALG_LIBRARY);
        if (all) PUSH(mpiguide_default_algorithm(coll), MG_ALG_DEFAULT);
        if (all || mock || lib) {
            for (int k = 0; k < mpiguide_algorithm_count(); k++) {
                int kind = mpiguide_algorithm_kind(k);
                if (mpiguide_algorithm_collective(k) == coll && !is_test_only(k) &&
                    ((kind == MPIGUIDE_KIND_MOCKUP && !lib) ||
                     (kind == MPIGUIDE_KIND_LIBRARY && !mock)))
                    PUSH(k, mpiguide_algorithm_name(k));
            }
        } else if (!strcmp(a, MG_ALG_DEFAULT)) {
            PUSH(mpiguide_default_algorithm(coll), MG_ALG_DEFAULT);
        } else if (!strcmp(a, MG_ALG_TUNED)) {
            PUSH(MG_CALL_TUNED, MG_ALG_TUNED);
        } else {
            int id = mpiguide_algorithm_id(coll, a);
            if (id >= 0) PUSH(id, mpiguide_algorithm_name(id));
        }
    }
#undef PUSH
    return n;
}

int mg_check_alg_names(const mg_bench_opts *o, int rank, const char *where, int skip_lib) {
    int rc = 0;
    for (int i = 0; i < o->nalgs; i++) {
        const char *a = o->algs[i];
        if (skip_lib && strstr(a, "_lib_")) continue;
        if (!strcmp(a, MG_ALG_ALL) || !strcmp(a, MG_ALG_DEFAULT) || !strcmp(a, MG_ALG_TUNED) ||
            !strcmp(a, MG_ALG_MOCKUPS) || !strcmp(a, MG_ALG_LIBRARY))
            continue;
        int found = 0;
        for (int c = 0; c < o->ncalls; c++) found |= mpiguide_algorithm_id(o->calls[c], a) >= 0;
        if (!found && mg_unknown_library_algorithm(rank, where, a)) {
            rc = 2;
        } else if (!found) {
            mg_say(rank, 1, where,
                   "'%s' is not an algorithm of any listed collective "
                   "(mpiguide info lists them)",
                   a);
            rc = 2;
        }
    }
    return rc;
}

/* Sizes of coll's measurements: Barrier has none (msize 0); the irregular problems give the
 * Gatherv/Scatterv/Alltoallv sizes as b MPI_INTs (Allgatherv's stay its total in bytes). */
static int sizes_of(int coll, const mg_bench_opts *o, int64_t *out) {
    if (coll == MPIGUIDE_COLL_BARRIER) {
        out[0] = 0;
        return 1;
    }
    int irregular = o->irregular[0] && mg_bench_irregular_b(coll);
    if (irregular && o->b >= 0) {
        out[0] = o->b * (int64_t)sizeof(int);
        return 1;
    }
    int n = 0;
    for (int i = 0; i < o->nmsizes; i++) {
        int64_t m =
            irregular ? o->msizes[i] / (int64_t)sizeof(int) * (int64_t)sizeof(int) : o->msizes[i];
        int dup = 0;
        for (int k = 0; k < n; k++) dup |= out[k] == m;
        if (!dup) out[n++] = m;
    }
    return n;
}

/* Builds the measurement list; 2 with a message on a usage error (same on every rank). */
int mg_build_jobs(const mg_bench_opts *o, const mg_nrep_table *nt, mg_joblist *l, int rank) {
    int nalg_total = mpiguide_algorithm_count() + 2;
    int *ids = malloc(sizeof(int) * (size_t)nalg_total);
    const char **names = malloc(sizeof(char *) * (size_t)nalg_total);
    int64_t *sizes = malloc(sizeof(int64_t) * (size_t)(o->nmsizes + 1));
    int rc = 0;
    if (!ids || !names || !sizes) rc = 1;
    if (!rc) rc = mg_check_alg_names(o, rank, "--algs", 0);
    for (int c = 0; !rc && c < o->ncalls; c++) {
        int coll = o->calls[c];
        int na = mg_expand_algs(coll, o, ids, names), ns = sizes_of(coll, o, sizes);
        for (int s = 0; !rc && s < ns; s++) {
            int64_t nrep = o->nrep;
            if (nt) {
                int64_t f = mg_nrep_table_get(nt, coll, sizes[s]);
                if (f > 0)
                    nrep = f;
                else if (!o->nrep_given) {
                    mg_say(rank, 1, "--nrep-file",
                           "%s has no row for %s %lld (give --nrep "
                           "as the fallback)",
                           o->nrep_file, mpiguide_collective_name(coll), (long long)sizes[s]);
                    rc = 2;
                }
            }
            for (int a = 0; !rc && a < na; a++)
                for (int k = 0; !rc && k < (o->ncomm_sizes ? o->ncomm_sizes : 1); k++)
                    if (mg_add_job(l, (mg_job){coll, ids[a], names[a], sizes[s], nrep, 0, 0, 0,
                                               o->ncomm_sizes ? o->comm_sizes[k] : 0}))
                        rc = 1;
        }
    }
    if (rc == 1) mg_say(rank, 1, "bench", "out of memory");
    free(ids);
    free(names);
    free(sizes);
    return rc;
}
