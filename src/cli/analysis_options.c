/* The analysis flags shared by `analyze`, `check` and `tune` (docs/dev/interfaces.md section 7):
 * -c N, -t N, -m, -s, -v, --alpha A, --min-gain G, --correction holm|bh, --exit-code. */
#include "measure_plan.h"
#include "util/diag.h"
#include "util/optval.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_analyze_parse_flag(int argc, char **argv, int i, mg_analyze_opts *o) {
    const char *a = argv[i];
    int j = i; /* the last argument used */
    double x;
    if (!strcmp(a, "-m"))
        o->merge = 1;
    else if (!strcmp(a, "-s"))
        o->csv = 1;
    else if (!strcmp(a, "-v"))
        o->verbose = 1;
    else if (!strcmp(a, "--exit-code"))
        o->exit_code = 1;
    else if (mg_opt_is(a, "-c") || mg_opt_is(a, "-t")) {
        const char *name = a[1] == 'c' ? "-c" : "-t";
        int64_t v;
        if (mg_opt_i64_say(name, mg_opt_value(argc, argv, &j, name), 0,
                           a[1] == 'c' ? MG_COMP_COUNT - 1 : MG_TEST_COUNT - 1, &v))
            return -1;
        *(a[1] == 'c' ? &o->comparer : &o->test) = (int)v;
    } else if (mg_opt_is(a, "--alpha")) {
        if (mg_opt_double_say("--alpha", mg_opt_value(argc, argv, &j, "--alpha"), 1e-12, 0.5, &x))
            return -1;
        o->alpha = x;
    } else if (mg_opt_is(a, "--min-gain")) {
        if (mg_opt_double_say("--min-gain", mg_opt_value(argc, argv, &j, "--min-gain"), 0, 0.99,
                              &x))
            return -1;
        o->min_gain = x;
    } else if (mg_opt_is(a, "--correction")) {
        const char *v = mg_opt_value(argc, argv, &j, "--correction");
        int c = v ? mg_correction_parse(v) : -1;
        if (c < 0) {
            mg_error("--correction", "expected holm or bh, got %s", v ? v : "nothing");
            return -1;
        }
        o->correction = (mg_correction)c;
    } else {
        return 0;
    }
    return j - i + 1;
}
