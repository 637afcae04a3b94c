/* The in-application guard (guard.c): tuned-mode calls of profile entries check themselves. */
#ifndef MG_GUARD_H
#define MG_GUARD_H

#include "dispatch/dispatch.h"
#include <stdint.h>
#include <stdio.h>

/* After the interception starts, in tuned mode with MPIGUIDE_GUARD on. */
int mg_guard_start(void);
/* A call the profile sends to algorithm alg (a mock-up or a library algorithm) that would run:
 * 0 when the caller runs it as usual (and counts it), 1 when the guard ran the call (sampled, or
 * the entry is switched off) with its result in *rc. The first such call on a communicator is
 * collective over it (every rank makes it). */
int mg_guard_run(int coll, int alg, const mg_args *a, const mg_shape *sh, int64_t msize, int *rc);
/* At MPI_Finalize, before the report: collective; whether all ranks switched each entry off at
 * the same call. */
void mg_guard_agree(void);
/* The footer's `#@mpiguide guard` lines (rank 0). */
void mg_guard_report(FILE *f);
/* Frees everything (private communicators included); before PMPI_Finalize. */
void mg_guard_stop(void);

#endif
