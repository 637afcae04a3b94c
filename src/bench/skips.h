/* The measurements a launch skipped for lack of memory (rawdata/skipped.h): rank 0 notes each
 * as it writes its `#@skipped=` line; at the end of bench or check one line says how many and
 * where, and the exit code becomes MG_EXIT_INCOMPLETE on every rank. */
#ifndef MG_BENCH_SKIPS_H
#define MG_BENCH_SKIPS_H

#include "rawdata/skipped.h"
#include <mpi.h>

/* The launch's tally (rank 0 fills it; the bench runs of one launch add to it). */
mg_skips *mg_skips_launch(void);
/* Collective over comm: rank 0 prints the tally's line on stderr (after flushing stdout, so it
 * is the last line; --quiet too: it is one line) and the count of skipped measurements goes to
 * every rank, which returns it; the tally is emptied. */
long long mg_skips_end(MPI_Comm comm);

#endif
