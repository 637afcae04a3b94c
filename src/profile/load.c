/* Loading profiles from a file or a directory: every regular file in name order (so every
 * run and every reader sees the same set), each parsed on its own; a bad file is reported
 * and left out, the rest still load. */
#include "profile.h"
#include "seltab.h"
#include "catalog/catalog.h"
#include "util/file.h"
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void diag(mg_diag_fn fn, void *ctx, int error, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void diag(mg_diag_fn fn, void *ctx, int error, const char *where, const char *fmt, ...) {
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (fn) fn(ctx, error, where, what);
}

static int add(mg_profile_set *set, const mg_profile *p, const char *file) {
    if (set->n == set->cap) {
        int cap = set->cap ? 2 * set->cap : 16;
        mg_profile *v = realloc(set->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        set->v = v;
        char **f = realloc(set->file, (size_t)cap * sizeof *f);
        if (!f) return -1;
        set->file = f;
        set->cap = cap;
    }
    char *copy = strdup(file);
    if (!copy) return -1;
    set->v[set->n] = *p;
    set->file[set->n] = copy;
    set->n++;
    return 0;
}

static int load_file(const char *path, mg_profile_set *set, mg_diag_fn fn, void *ctx) {
    size_t len = 0;
    char *text = mg_file_read(path, MG_PROFILE_MAX_BYTES, &len);
    if (!text) {
        char why[128];
        diag(fn, ctx, 1, path, "cannot read profile: %s; ignored",
             mg_file_error(errno, MG_PROFILE_MAX_BYTES, why, sizeof why));
        return 1;
    }
    mg_profile p;
    mg_perr err;
    int rc = mg_profile_parse(text, len, &p, &err);
    free(text);
    char where[4200];
    if (rc) {
        snprintf(where, sizeof where, "%s:%d", path, err.line);
        diag(fn, ctx, 1, where, "%s; profile ignored", err.what);
        return 1;
    }
    /* several profiles of one (collective, size) apply side by side when they were measured
     * with other element sizes or op classes (seltab.h) */
    int esize, opclass;
    mg_seltab_key(&p, &esize, &opclass);
    for (int i = 0; i < set->n; i++) {
        int es, oc;
        mg_seltab_key(&set->v[i], &es, &oc);
        if (set->v[i].coll == p.coll && set->v[i].p == p.p && es == esize && oc == opclass) {
            snprintf(where, sizeof where, "%s:%d", path, p.line);
            diag(fn, ctx, 1, where,
                 "second profile for %s with %d processes and the same element size and op "
                 "class (first in %s); ignored",
                 mg_coll_name(p.coll), p.p, set->file[i]);
            mg_profile_free(&p);
            return 1;
        }
    }
    if (add(set, &p, path)) {
        diag(fn, ctx, 1, path, "out of memory; profile ignored");
        mg_profile_free(&p);
        return 1;
    }
    return 0;
}

static int name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int mg_profiles_load(const char *path, mg_profile_set *set, mg_diag_fn fn, void *ctx) {
    struct stat st;
    if (stat(path, &st)) {
        diag(fn, ctx, 1, path, "cannot read profiles: %s", strerror(errno));
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) return load_file(path, set, fn, ctx);
    DIR *d = opendir(path);
    if (!d) {
        diag(fn, ctx, 1, path, "cannot read profile directory: %s", strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int errors = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) break;
            names = nn;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) break;
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, name_cmp);
    int loaded = 0;
    for (size_t i = 0; i < n; i++) {
        if (stat(names[i], &st) == 0 && !S_ISREG(st.st_mode)) {
            free(names[i]);
            continue;
        }
        int before = set->n;
        errors += load_file(names[i], set, fn, ctx);
        loaded += set->n > before;
        free(names[i]);
    }
    free(names);
    if (!loaded && !errors) diag(fn, ctx, 0, path, "no profiles in this directory");
    return errors;
}

void mg_profile_set_free(mg_profile_set *set) {
    for (int i = 0; i < set->n; i++) {
        mg_profile_free(&set->v[i]);
        free(set->file[i]);
    }
    free(set->v);
    free(set->file);
    *set = (mg_profile_set){0};
}
