/* `mpiguide analyze OUTDIR...` (no MPI): regenerates tables, summary, profiles and report from
 * the raw data of one or more OUTDIRs (or launch directories), merging their launches. */
#include "report/report.h"
#include "cli.h"
#include "measure_plan.h"
#include "util/diag.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANALYZE_USAGE                                                                              \
    "usage: mpiguide analyze [options] OUTDIR...\n"                                                \
    "Analyses the raw data of OUTDIR/raw/launch-K/ (and OUTDIR/tuned/) without MPI; several\n"     \
    "OUTDIRs or launch directories are merged (one median per launch and size). Writes\n"          \
    "tables/, summary.txt, profiles/ and report.html into the first OUTDIR (or -o DIR).\n"         \
    "  -c N             comparer: 0 simple, 1 absolute median, 2 relative median,\n"               \
    "                   3 violation, 4 detailed violation, 5 grouped violation (default)\n"        \
    "  -t N             test: 0 Welch t-test, 1 Wilcoxon rank-sum (default),\n"                    \
    "                   2 Wilcoxon-Mann-Whitney, 3 Kolmogorov-Smirnov\n"                           \
    "  -m               also tables/merged.csv (every collective, comparer -c)\n"                  \
    "  -s               a .csv beside every table\n"                                               \
    "  -v               print comparer -c's tables\n"                                              \
    "  --alpha A        significance level after correction (default 0.05)\n"                      \
    "  --min-gain G     profile entries save at least this fraction (default 0.10)\n"              \
    "  --correction C   holm (default, family-wise) or bh (false discovery rate)\n"                \
    "  --exit-code      exit 3 when pattern violations were found\n"                               \
    "  -o DIR           write the results to DIR\n"                                                \
    "docs/check.md describes every rule.\n"

int mg_cmd_analyze(int argc, char **argv) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    char **dirs = calloc((size_t)argc, sizeof *dirs);
    int n = 0, rc = 2;
    if (!dirs) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(ANALYZE_USAGE, stdout);
            rc = 0;
            goto out;
        }
        if (!strcmp(a, "-o") || !strncmp(a, "-o=", 3)) {
            if (a[2] == '=')
                o.outdir = a + 3;
            else if (i + 1 < argc)
                o.outdir = argv[++i];
            else {
                mg_error("-o", "expected a directory");
                goto out;
            }
            continue;
        }
        int used = mg_analyze_parse_flag(argc, argv, i, &o);
        if (used < 0) goto out;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if (a[0] == '-' && a[1]) {
            mg_error(a, "unknown option of analyze (see --help)");
            goto out;
        }
        dirs[n++] = argv[i];
    }
    if (!n) {
        mg_error("analyze", "no OUTDIR given (see --help)");
        goto out;
    }
    rc = mg_analyze_dirs(&o, dirs, n);
out:
    free(dirs);
    return rc;
}
