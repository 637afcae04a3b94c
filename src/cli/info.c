/* `mpiguide info`: one line per algorithm, COLLECTIVE ALGORITHM GUIDELINE (or CSV). No MPI
 * initialisation needed: the registry is static. */
#include "cli.h"
#include "util/diag.h"
#include <stdio.h>
#include <string.h>

static void csv_field(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"') putchar('"');
        putchar(*s);
    }
    putchar('"');
}

int mg_cmd_info(int argc, char **argv) {
    int csv = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv"))
            csv = 1;
        else if (!strcmp(argv[i], "--help")) {
            printf("usage: mpiguide info [--csv]\n"
                   "Lists every collective and algorithm: COLLECTIVE ALGORITHM GUIDELINE.\n"
                   "`default` is the MPI library's own collective (guideline `library`).\n");
            return 0;
        } else {
            mg_error(argv[i], "unknown option of info");
            return 2;
        }
    }
    if (csv) printf("collective,algorithm,guideline\n");
    for (int i = 0; i < mpiguide_algorithm_count(); i++) {
        const char *coll = mpiguide_collective_name(mpiguide_algorithm_collective(i));
        if (csv) {
            printf("%s,%s,", coll, mpiguide_algorithm_name(i));
            csv_field(mpiguide_algorithm_guideline(i));
            putchar('\n');
        } else {
            printf("%-26s %-42s %s\n", coll, mpiguide_algorithm_name(i),
                   mpiguide_algorithm_guideline(i));
        }
    }
    return 0;
}
