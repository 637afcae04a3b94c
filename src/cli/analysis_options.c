/* The analysis flags shared by `analyze`, `check` and `tune` (docs/dev/interfaces.md section 7):
 * -c N, -t N, -m, -s, -v, --alpha A, --min-gain G, --correction holm|bh, --exit-code. */
#include "measure_plan.h"
#include "util/diag.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Value of an option given as `--name=V`, `--name V` or `-x V`; NULL when missing. */
const char *mg_flag_value(int argc, char **argv, int i, const char *name, int *used) {
    size_t n = strlen(name);
    if (!strncmp(argv[i], name, n) && argv[i][n] == '=') {
        *used = 1;
        return argv[i] + n + 1;
    }
    *used = 2;
    return i + 1 < argc ? argv[i + 1] : NULL;
}

int mg_flag_number(const char *opt, const char *v, double lo, double hi, double *out) {
    char *end;
    double x = v ? strtod(v, &end) : 0;
    if (!v || !*v || *end || !(x >= lo && x <= hi)) {
        mg_error(opt, "expected a number in [%g, %g], got %s", lo, hi, v ? v : "nothing");
        return -1;
    }
    *out = x;
    return 0;
}

int mg_flag_is(const char *arg, const char *name) {
    size_t n = strlen(name);
    return !strncmp(arg, name, n) && (arg[n] == 0 || arg[n] == '=');
}

int mg_analyze_parse_flag(int argc, char **argv, int i, mg_analyze_opts *o) {
    const char *a = argv[i];
    int used = 1;
    double x;
    if (!strcmp(a, "-m"))
        o->merge = 1;
    else if (!strcmp(a, "-s"))
        o->csv = 1;
    else if (!strcmp(a, "-v"))
        o->verbose = 1;
    else if (!strcmp(a, "--exit-code"))
        o->exit_code = 1;
    else if (mg_flag_is(a, "-c") || mg_flag_is(a, "-t")) {
        if (mg_flag_number(a[1] == 'c' ? "-c" : "-t",
                           mg_flag_value(argc, argv, i, a[1] == 'c' ? "-c" : "-t", &used), 0,
                           a[1] == 'c' ? MG_COMP_COUNT - 1 : MG_TEST_COUNT - 1, &x))
            return -1;
        if (x != (int)x) return mg_error(a, "expected an integer"), -1;
        *(a[1] == 'c' ? &o->comparer : &o->test) = (int)x;
    } else if (mg_flag_is(a, "--alpha")) {
        if (mg_flag_number("--alpha", mg_flag_value(argc, argv, i, "--alpha", &used), 1e-12, 0.5,
                           &x))
            return -1;
        o->alpha = x;
    } else if (mg_flag_is(a, "--min-gain")) {
        if (mg_flag_number("--min-gain", mg_flag_value(argc, argv, i, "--min-gain", &used), 0, 0.99,
                           &x))
            return -1;
        o->min_gain = x;
    } else if (mg_flag_is(a, "--correction")) {
        const char *v = mg_flag_value(argc, argv, i, "--correction", &used);
        int c = v ? mg_correction_parse(v) : -1;
        if (c < 0) {
            mg_error("--correction", "expected holm or bh, got %s", v ? v : "nothing");
            return -1;
        }
        o->correction = (mg_correction)c;
    } else {
        return 0;
    }
    return used;
}
