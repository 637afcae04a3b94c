/* The launch's tally of measurements skipped for lack of memory and its end (skips.h). */
#include "skips.h"
#include <stdio.h>
#include <string.h>

mg_skips *mg_skips_launch(void) {
    static mg_skips t;
    return &t;
}

long long mg_skips_end(MPI_Comm comm) {
    mg_skips *t = mg_skips_launch();
    int rank;
    PMPI_Comm_rank(comm, &rank);
    char line[2048];
    if (rank == 0 && mg_skips_line(t, line, sizeof line)) {
        fflush(stdout);
        fprintf(stderr, "%s\n", line);
    }
    long long n = t->total;
    PMPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
    memset(t, 0, sizeof *t);
    return n;
}
