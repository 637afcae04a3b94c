/* `mpiguide plan --from RECORD [--cover F] [-o FILE]`: no MPI. Reads a record written with
 * MPIGUIDE_RECORD and writes the check input file that measures what the application spent
 * its collective time on, under its conditions (src/record/plan.c; docs/record.md). `tune
 * --for RECORD` runs the same plan before tuning. */
#include "cli.h"
#include "measure_plan.h"
#include "record/plan.h"
#include "util/diag.h"
#include "util/optval.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_USAGE                                                                                 \
    "usage: mpiguide plan --from RECORD [options]\n"                                               \
    "Writes the check input file (docs/check.md) for the calls of an application recorded\n"       \
    "with MPIGUIDE_RECORD: the collectives, communicator sizes and message sizes that take\n"      \
    "the given share of its collective time, the recorded sizes and the powers of two\n"           \
    "around them, with the recorded datatype, op, roots and back-to-back calls; one line\n"        \
    "(one profile) per collective, communicator size, element size and op class.\n"                \
    "  --from RECORD     the record (required)\n"                                                  \
    "  -o FILE           write the input file there (default: standard output)\n"                  \
    "  --cover F         share of the recorded time and calls to plan for (default 0.95)\n"        \
    "  --np N            processes of the check job (default: the record's)\n"                     \
    "  --nrep N          observations per measurement (default 100)\n"                             \
    "  --time-ms T       time budget per measurement (default 500)\n"                              \
    "  --back-to-back N  calls per observation where the application called back to back\n"        \
    "                    (default 8; 1: always single calls)\n"                                    \
    "Exit 2 for a record that is truncated, not a record, of another MPI, or of more\n"            \
    "processes than --np.\n"

int mg_plan_parse_flag(int argc, char **argv, int i, mg_plan_opts *o) {
    const char *a = argv[i];
    int j = i;
    double x;
    static const struct {
        const char *name;
        double lo, hi;
    } flags[] = {{"--cover", 1e-6, 1},
                 {"--np", 1, 1 << 24},
                 {"--nrep", 1, 1e9},
                 {"--time-ms", 1e-3, 1e9},
                 {"--back-to-back", 1, 1e6}};
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
        if (!mg_opt_is(a, flags[k].name)) continue;
        if (mg_opt_double_say(flags[k].name, mg_opt_value(argc, argv, &j, flags[k].name),
                              flags[k].lo, flags[k].hi, &x))
            return -1;
        if (k == 0) o->cover = x;
        if (k == 1) o->np = (int)x;
        if (k == 2) o->nrep = (int64_t)x;
        if (k == 3) o->time_ms = x;
        if (k == 4) o->batch = (int64_t)x;
        if (k != 0 && k != 3 && x != (double)(int64_t)x) {
            mg_error(flags[k].name, "expected a whole number, got %g", x);
            return -1;
        }
        return j - i + 1;
    }
    return 0;
}

int mg_plan_write(const char *record, const mg_plan_opts *o, const char *out) {
    mg_record r;
    char err[800], warn[400];
    if (mg_record_read(record, &r, err, sizeof err)) {
        mg_error(NULL, "%s", err);
        return 2;
    }
    char *text = NULL;
    int rc = mg_plan_from_record(&r, record, o, &text, warn, sizeof warn, err, sizeof err);
    mg_record_free(&r);
    if (rc) {
        mg_error(NULL, "%s", err);
        return rc;
    }
    if (warn[0]) mg_warning(record, "%s", warn);
    FILE *f = out ? fopen(out, "w") : stdout;
    int ok = f && fputs(text, f) >= 0;
    if (f && f != stdout && fclose(f)) ok = 0;
    if (!ok) mg_error(out ? out : "stdout", "cannot write the plan: %s", strerror(errno));
    free(text);
    return ok ? 0 : 1;
}

int mg_cmd_plan(int argc, char **argv) {
    mg_plan_opts o;
    mg_plan_defaults(&o);
    o.mpi = MG_BUILT_MPI;
    const char *from = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int used = 1, j = i;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(PLAN_USAGE, stdout);
            return 0;
        } else if (mg_opt_is(a, "--from") || !strcmp(a, "-o")) {
            const char *v = mg_opt_value(argc, argv, &j, a[1] == 'o' ? "-o" : "--from");
            used = j - i + 1;
            if (!v || !*v) {
                mg_error(a, "missing value");
                return 2;
            }
            *(a[1] == 'o' ? &out : &from) = v;
        } else if ((used = mg_plan_parse_flag(argc, argv, i, &o)) <= 0) {
            if (!used) mg_error(a, "unknown option of plan (mpiguide plan --help lists them)");
            return 2;
        }
        i += used - 1;
    }
    if (!from) {
        mg_error("plan", "--from RECORD is required");
        fputs(PLAN_USAGE, stderr);
        return 2;
    }
    return mg_plan_write(from, &o, out);
}
