/* The benchmark's entry points for the CLI and the checker: `mpiguide bench` and `mpiguide
 * nrep` on parsed options. Collective over MPI_COMM_WORLD; call after MPI_Init (and
 * mpiguide_init, so mock-ups have their scratch pools). */
#ifndef MG_BENCH_H
#define MG_BENCH_H

#include "nrep.h"
#include "options.h"

/* Measures what o describes and writes raw rows (and the summary) on rank 0. Returns the exit
 * code of docs/dev/interfaces.md section 3: 0, 1 (run-time failure or --verify mismatch), 2 (usage
 * error found before anything was measured: unknown algorithm, root out of range, a bad
 * --nrep-file or --resume file). */
int mg_bench_run(const mg_bench_opts *o);

/* Predicts nrep per (call, msize) and writes the predicted-nrep file on rank 0. Exit code as
 * above. */
int mg_nrep_run(const mg_nrep_opts *o);

#endif
