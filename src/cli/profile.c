/* `mpiguide profile check FILE|DIR...`: validates performance profiles without MPI, with the
 * parser and loader the library uses at MPI_Init, and prints what each one selects. Exit 0
 * when every profile is valid, 2 when any is not (docs/dev/interfaces.md section 3). */
#include "cli.h"
#include "catalog/catalog.h"
#include "libalg/libalg.h"
#include "profile/profile.h"
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
    int vcoll = (mg_coll_flags(p->coll) & MG_CF_V) != 0;
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
}

static int usage(FILE *f, int rc) {
    fprintf(f, "usage: mpiguide profile check FILE|DIR...\n"
               "Validates performance profiles (the format of docs/interception.md) without MPI,\n"
               "as libmpiguide loads them with MPIGUIDE_PROFILES, and prints the algorithm each\n"
               "message-size range selects, what online mode learned (`#@online=` lines of\n"
               "MPIGUIDE_PROFILES_OUT) and the intervals the ranges cover (calls there run a\n"
               "measured decision). A directory means every regular file in it.\n"
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
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) return usage(stdout, 0);
        if (argv[i][0] == '-' && argv[i][1]) {
            mg_error(argv[i], "unknown option of profile check");
            return 2;
        }
        mg_profile_set set = {0};
        errors += mg_profiles_load(argv[i], &set, mg_diag_stderr, NULL);
        for (int k = 0; k < set.n; k++) show(&set.v[k], set.file[k]);
        shown += set.n;
        mg_profile_set_free(&set);
    }
    printf("%d valid profile%s, %d problem%s\n", shown, shown == 1 ? "" : "s", errors,
           errors == 1 ? "" : "s");
    return errors ? 2 : 0;
}
