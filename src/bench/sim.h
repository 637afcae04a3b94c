/* The simulated platform under SMPI (SimGrid's simulated MPI): what the tool sets and records
 * when its ranks are simulated. sim_smpi.c is the SMPI build's; sim_none.c, every other
 * build's, says "not simulated". What the simulated time of a call includes, and why:
 * docs/benchmark.md, "Simulated time (SMPI)". */
#ifndef MG_BENCH_SIM_H
#define MG_BENCH_SIM_H

#include <stddef.h>

/* In main, before any MPI call: 1 when this rank is simulated. Then switches SMPI's
 * simulate-computation off for the whole simulation (the tool's own computation between MPI
 * calls is harness, never measured; injecting its host time would make runs differ). */
int mg_sim_start(void);
/* Cores of the simulated host this rank runs on; 0 when not simulated. */
int mg_sim_host_cores(void);
/* Simulated ranks only: lets this rank's simulated clock run for `seconds` at once. Waiting for
 * a time by reading MPI_Wtime in a loop costs the simulation one event per read (each read
 * advances the clock by smpi/wtime, 10 ns): a 100 us wait of 256 ranks is 2.5 million events. */
void mg_sim_sleep(double seconds);
/* Appends the raw header's `#@sim_*` lines (what the simulated times include, the platform and
 * the SMPI settings that change times) to out at *pos; nothing when not simulated. */
void mg_sim_header(char *out, size_t len, size_t *pos);

#endif
