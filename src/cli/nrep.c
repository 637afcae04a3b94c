/* `mpirun -np P mpiguide nrep [options]`: predicts the repetitions each (call, msize) needs and
 * writes the `test msize nrep` file that `bench --nrep-file` and the checker read. */
#include "bench/bench.h"
#include "bench/launcher.h"
#include "cli.h"
#include "util/diag.h"
#include <stdio.h>

int mg_cmd_nrep(int argc, char **argv) {
    /* FUNNELED: the watchdog's thread (src/bench/watchdog.h) never calls MPI */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    if (mg_launcher_check()) {
        MPI_Finalize();
        return 1;
    }
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mg_nrep_opts o;
    char err[600];
    int rc = mg_nrep_parse(argc - 1, argv + 1, &o, err, sizeof err);
    if (rc) {
        if (rank == 0) mg_error(NULL, "%s", err);
    } else if (o.bench.help) {
        if (rank == 0) fputs(mg_nrep_usage, stdout);
    } else {
        if (mpiguide_init() != MPI_SUCCESS && rank == 0)
            mg_warning("nrep", "mpiguide_init failed; mock-ups will be skipped");
        rc = mg_nrep_run(&o);
    }
    mg_nrep_opts_free(&o);
    MPI_Finalize();
    return rc;
}
