/* `mpiguide profile check FILE|DIR...`: validates performance profiles without MPI, with the
 * parser and loader the library uses at MPI_Init, and prints what each one selects. Exit 0
 * when every profile is valid, 2 when any is not (docs/dev/interfaces.md section 3). */
#include "cli.h"
#include "catalog/catalog.h"
#include "libalg/libalg.h"
#include "profile/profile.h"
#include "record/record.h"
#include "util/diag.h"
#include <stdio.h>
#include <string.h>

static void show(const mg_profile *p, const char *file) {
    printf("%s: %s, %d processes, %d range%s\n", file, mg_coll_name(p->coll), p->p, p->nranges,
           p->nranges == 1 ? "" : "s");
    if (p->mpi_library[0] || p->nodes || p->ppn || p->datatype[0] || p->operation[0] ||
        p->date[0] || p->timing[0] || p->roots[0]) {
        printf("  measured with:");
        if (p->mpi_library[0]) printf(" mpi_library=%s", p->mpi_library);
        if (p->nodes) printf(" nodes=%d", p->nodes);
        if (p->ppn) printf(" ppn=%d", p->ppn);
        if (p->datatype[0]) printf(" datatype=%s", p->datatype);
        if (p->operation[0]) printf(" operation=%s", p->operation);
        if (p->timing[0]) printf(" timing=%s", p->timing);
        if (p->roots[0]) printf(" roots=%s", p->roots);
        if (p->date[0]) printf(" date=%s", p->date);
        printf("\n");
    }
    int vcoll = mg_coll_sizeless(p->coll);
    char what[64];
    for (int i = 0; i < p->nranges; i++) {
        const mg_prange *r = &p->ranges[i];
        if (vcoll)
            snprintf(what, sizeof what, "every size");
        else
            snprintf(what, sizeof what, "%lld-%lld bytes", (long long)r->lo, (long long)r->hi);
        const char *name = mg_alg_name(r->alg);
        printf("  %-28s -> %s%s\n", what, name,
               mg_libalg_name_coll(name) >= 0 ? " (the MPI's own algorithm, resolved at MPI_Init)"
                                              : "");
    }
    if (!vcoll || !p->nranges)
        printf("  %-28s -> default (the library's own %s)\n",
               p->nranges ? "other sizes" : "every size", mg_coll_name(p->coll));
    /* what online mode learned (MPIGUIDE_PROFILES_OUT): per bucket, where it was decided */
    for (int i = 0; i < p->nonline; i++) {
        const mg_ponline *o = &p->online[i];
        printf("  learned online at %lld bytes: %s (%llu calls, %llu timed, %d candidates, "
               "cost %.3g s",
               (long long)o->msize, o->alg, (unsigned long long)o->calls,
               (unsigned long long)o->explored, o->candidates, o->cost_s);
        if (strcmp(o->alg, "default"))
            printf(", speed-up %.3g, 95%% interval %.3g-%.3g", o->speedup, o->ci_lo, o->ci_hi);
        printf(")\n");
    }
    /* the sizes a decision was measured for: adjacent ranges joined */
    if (!vcoll && p->nranges) {
        printf("  covered:");
        for (int i = 0; i < p->nranges;) {
            int j = i;
            while (j + 1 < p->nranges && p->ranges[j + 1].lo == p->ranges[j].hi + 1) j++;
            printf("%s %lld-%lld", i ? "," : "", (long long)p->ranges[i].lo,
                   (long long)p->ranges[j].hi);
            i = j + 1;
        }
        printf(" bytes\n");
    }
    if (p->nmeasured) {
        printf("  measured:");
        for (int i = 0; i < p->nmeasured; i++)
            printf("%s%lld", i ? "," : " ", (long long)p->measured[i]);
        printf(" bytes\n");
    }
}

static int has_size(const int64_t *v, int n, int64_t x) {
    for (int i = 0; i < n; i++)
        if (v[i] == x) return 1;
    return 0;
}

/* --record: each size the record lists with calls for p's collective and communicator size,
 * and whether a measurement covers it (docs/check.md "Profiles", the range rule). */
static void show_recorded(const mg_profile *p, const mg_record *rec) {
    int vcoll = mg_coll_sizeless(p->coll), n = 0, measured = 0;
    unsigned long long calls = 0, mcalls = 0;
    for (int i = 0; i < rec->nrows; i++) {
        const mg_rec_row *w = &rec->rows[i];
        if (w->coll != p->coll || w->p != p->p) continue;
        for (int z = 0; z < w->nsizes; z++) {
            const mg_rec_size *sz = &w->sizes[z];
            if (!sz->calls) continue;
            int alg = mg_profile_select_linear(p, sz->msize);
            int meas = alg >= 0 && (vcoll || has_size(p->measured, p->nmeasured, sz->msize));
            const char *what = alg < 0        ? "no range: the default runs, uncovered"
                               : vcoll        ? "selects by communicator size only"
                               : meas         ? "measured"
                               : p->nmeasured ? "inside a range, NOT measured"
                                              : "inside a range (no #@measured line: unknown)";
            if (!n++) printf("  recorded sizes (%s):\n", vcoll ? "totals" : "bytes");
            printf("    %-12lld %-10s %8llu calls  %s%s%s\n", (long long)sz->msize, w->datatype,
                   (unsigned long long)sz->calls, what, alg >= 0 ? " -> " : "",
                   alg >= 0 ? mg_alg_name(alg) : "");
            calls += sz->calls;
            if (meas) measured++, mcalls += sz->calls;
        }
    }
    if (n)
        printf("  covered by a measurement: %d of %d recorded sizes, %llu of %llu calls\n",
               measured, n, mcalls, calls);
    else
        printf("  recorded sizes: none for %s on %d processes\n", mg_coll_name(p->coll), p->p);
}

static int usage(FILE *f, int rc) {
    fprintf(f, "usage: mpiguide profile check [--record RECORD] FILE|DIR...\n"
               "Validates performance profiles (the format of docs/interception.md) without MPI,\n"
               "as libmpiguide loads them with MPIGUIDE_PROFILES, and prints the algorithm each\n"
               "message-size range selects, what online mode learned (`#@online=` lines of\n"
               "MPIGUIDE_PROFILES_OUT) and the intervals the ranges cover (calls there run a\n"
               "measured decision). A directory means every regular file in it.\n"
               "--record RECORD (an MPIGUIDE_RECORD file): also lists, per profile, each size\n"
               "the record has calls at and whether a measurement covers it (measured, inside\n"
               "a range but not measured, or in no range: the default runs).\n"
               "Exit 0 when all are valid, 2 when any problem was found (one `mpiguide: error:`\n"
               "line each).\n");
    return rc;
}

int mg_cmd_profile(int argc, char **argv) {
    if (argc < 2) return usage(stderr, 2);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) return usage(stdout, 0);
    if (strcmp(argv[1], "check")) {
        mg_error(argv[1], "unknown profile subcommand (try check)");
        return 2;
    }
    if (argc < 3) return usage(stderr, 2);
    int errors = 0, shown = 0;
    mg_record rec, *record = NULL;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) return usage(stdout, 0);
        if (strcmp(argv[i], "--record")) continue;
        char err[600];
        if (i + 1 >= argc || record) {
            mg_error("--record", "needs one RECORD file");
            return 2;
        }
        if (mg_record_read(argv[i + 1], &rec, err, sizeof err)) {
            mg_error(NULL, "%s", err);
            return 2;
        }
        record = &rec;
    }
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--record")) {
            i++;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            mg_error(argv[i], "unknown option of profile check");
            if (record) mg_record_free(record);
            return 2;
        }
        mg_profile_set set = {0};
        errors += mg_profiles_load(argv[i], &set, mg_diag_stderr, NULL);
        for (int k = 0; k < set.n; k++) {
            show(&set.v[k], set.file[k]);
            if (record) show_recorded(&set.v[k], record);
        }
        shown += set.n;
        mg_profile_set_free(&set);
    }
    if (record) mg_record_free(record);
    printf("%d valid profile%s, %d problem%s\n", shown, shown == 1 ? "" : "s", errors,
           errors == 1 ? "" : "s");
    return errors ? 2 : 0;
}
