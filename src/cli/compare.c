/* `mpiguide compare OUTDIR_A OUTDIR_B` (no MPI): two libraries or machines side by side per
 * (collective, size), with their quality scores and the agreement of their profiles; one side
 * may be profiles alone (what online mode learned). */
#include "report/report.h"
#include "cli.h"
#include "measure_plan.h"
#include "util/diag.h"
#include <stdio.h>
#include <string.h>

#define COMPARE_USAGE                                                                              \
    "usage: mpiguide compare [options] OUTDIR_A OUTDIR_B\n"                                        \
    "Analyses both directories' raw data (as mpiguide analyze, writing nothing) and prints\n"      \
    "per (collective, size) each side's default median and fastest violating mock-up, the\n"       \
    "ratio of the defaults, and both quality scores; then how far the two profiles/\n"             \
    "agree: same choice, different choice, only in one, their Jaccard index, and for\n"            \
    "each disagreement why each side chose what it did (kept, rejected by validation, no\n"        \
    "candidate in the check, with the figures).\n"                                                 \
    "Either side may be a directory of profiles alone (what MPIGUIDE_PROFILES_OUT wrote:\n"        \
    "online mode's decisions): its entries are compared at the sizes the other side\n"             \
    "measured and the sizes online mode decided at, with online mode's figures as why.\n"          \
    "  -t N, --alpha A, --min-gain G, --correction C   as for analyze\n"                           \
    "  -s               CSV instead of aligned tables\n"                                           \
    "  --exit-code      exit 3 when either side has pattern violations\n"

int mg_cmd_compare(int argc, char **argv) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    const char *dirs[2];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(COMPARE_USAGE, stdout);
            return 0;
        }
        int used = mg_analyze_parse_flag(argc, argv, i, &o);
        if (used < 0) return 2;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if ((a[0] == '-' && a[1]) || n == 2) {
            mg_error(a, "%s (see --help)",
                     n == 2 ? "compare takes two directories" : "unknown option of compare");
            return 2;
        }
        dirs[n++] = a;
    }
    if (n != 2) {
        mg_error("compare", "expected OUTDIR_A OUTDIR_B (see --help)");
        return 2;
    }
    return mg_compare_dirs(&o, dirs[0], dirs[1]);
}
