/* `mpiguide info`: one line per algorithm, COLLECTIVE ALGORITHM GUIDELINE (or CSV), the
 * registry's rows and then the MPI library's own algorithms (src/libalg/). Those are discovered
 * through MPI_T: under a launcher after MPI_Init, as a program sees them (rank 0 prints, and
 * says whether they can run); started directly, through MPI_T alone, without MPI_Init. */
#include "bench/launcher.h"
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

static void print(int csv, int with_mpi) {
    int nlib = 0;
    if (csv) printf("collective,algorithm,guideline,kind,mpi,variable,value\n");
    for (int i = 0; i < mpiguide_algorithm_count(); i++) {
        const char *coll = mpiguide_collective_name(mpiguide_algorithm_collective(i));
        const char *mpi = "", *var = "";
        int value = 0, lib = mpiguide_library_algorithm(i, &mpi, &var, &value);
        int kind = mpiguide_algorithm_kind(i);
        nlib += lib;
        if (csv) {
            printf("%s,%s,", coll, mpiguide_algorithm_name(i));
            csv_field(mpiguide_algorithm_guideline(i));
            printf(",%s,", kind == MPIGUIDE_KIND_DEFAULT  ? "default"
                           : kind == MPIGUIDE_KIND_MOCKUP ? "mockup"
                                                          : "library");
            if (lib)
                printf("%s,%s,%d\n", mpi, var, value);
            else
                printf(",,\n");
        } else {
            printf("%-26s %-42s %s\n", coll, mpiguide_algorithm_name(i),
                   mpiguide_algorithm_guideline(i));
        }
    }
    if (csv) return;
    const char *off = mpiguide_library_off();
    if (off)
        printf("library algorithms: off: %s\n", off);
    else if (with_mpi)
        printf("library algorithms: %d, selectable (found through MPI_T at MPI_Init)\n", nlib);
    else
        printf("library algorithms: %d, found through MPI_T without MPI_Init (run under the "
               "launcher to see whether they can run)\n",
               nlib);
}

int mg_cmd_info(int argc, char **argv) {
    int csv = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv"))
            csv = 1;
        else if (!strcmp(argv[i], "--help")) {
            printf("usage: mpiguide info [--csv]   (or: mpirun -np P mpiguide info [--csv])\n"
                   "Lists every collective and algorithm: COLLECTIVE ALGORITHM GUIDELINE.\n"
                   "`default` is the MPI library's own collective (guideline `library`); the\n"
                   "mock-ups name their guideline; `<coll>_lib_<item>` are the MPI library's own\n"
                   "algorithms, with the control variable and value that select them, found\n"
                   "through MPI_T (docs/library-algorithms.md). Under a launcher the list is the\n"
                   "one a program sees after MPI_Init, printed by rank 0, and the last line says\n"
                   "whether they can run or why not. --csv: collective, algorithm, guideline,\n"
                   "kind (default, mockup, library), mpi, variable, value.\n");
            return 0;
        } else {
            mg_error(argv[i], "unknown option of info");
            return 2;
        }
    }
    if (!strcmp(mg_launcher(NULL), "none")) {
        mpiguide_library_probe();
        print(csv, 0);
        return 0;
    }
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) print(csv, 1);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
