/* `mpirun -np P mpiguide bench [options]`: options are parsed on every rank after MPI_Init, so
 * a usage error is reported once (rank 0) and every rank exits with code 2 before anything is
 * measured; measurements skipped for lack of memory end it with code 5 (MG_EXIT_INCOMPLETE).
 * The measurement itself lives in src/bench/. */
#include "bench/bench.h"
#include "bench/declines.h"
#include "bench/launcher.h"
#include "bench/skips.h"
#include "cli.h"
#include "util/diag.h"
#include <stdio.h>

int mg_cmd_bench(int argc, char **argv) {
    /* FUNNELED: the watchdog's thread (src/bench/watchdog.h) never calls MPI */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    if (mg_launcher_check()) {
        MPI_Finalize();
        return 1;
    }
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mg_bench_opts o;
    char err[600];
    mg_bench_defaults(&o);
    int rc = mg_bench_parse(argc - 1, argv + 1, &o, err, sizeof err);
    if (rc) {
        if (rank == 0) mg_error(NULL, "%s", err);
    } else if (o.help) {
        if (rank == 0) fputs(mg_bench_usage, stdout);
    } else {
        if (mpiguide_init() != MPI_SUCCESS && rank == 0)
            mg_warning("bench", "mpiguide_init failed; mock-ups will be skipped");
        rc = mg_bench_run(&o);
        mg_declines_say(rank == 0);
        /* the last line: measurements left out for lack of memory (the rest is written) */
        if (mg_skips_end(MPI_COMM_WORLD) && !rc) rc = MG_EXIT_INCOMPLETE;
    }
    mg_bench_opts_free(&o);
    MPI_Finalize();
    return rc;
}
