/* The in-application guard (guard.c): tuned-mode calls of profile entries check themselves. */
#ifndef MG_GUARD_H
#define MG_GUARD_H

#include "dispatch/dispatch.h"
#include "model/guard_rule.h"
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

/* Shared with the guard of nonblocking collectives (nb_guard.c): the warnings of a decided window
 * (rank 0), and an entry's footer line (agree: INT64_MIN when not checked). */
void mg_guard_tell(int rank, int coll, int64_t msize, int p, int alg, const mg_guard_entry *e,
                   const mg_guard_verdict *v, int *said_undecided);
void mg_guard_line(FILE *f, int coll, int p, int64_t msize, int alg, const mg_guard_entry *e,
                   const int64_t agree[2]);
/* The finalize agreement of one entry: its switch-off call as the pair a maximum reduces (fill;
 * used 0: a free slot), and the largest and smallest over the ranks from the result (take). */
void mg_guard_off_fill(const mg_guard_entry *e, int used, int64_t v[2]);
void mg_guard_off_take(const int64_t v[2], int64_t agree[2]);
/* Appends a slot of size bytes to a growing list of retired slots (kept as it is when out of
 * memory); returns the list. */
void *mg_guard_retire(void *list, int *n, int *cap, const void *slot, size_t size);

/* ---- the guard of nonblocking collectives (nb_guard.c; docs/interception.md "The guard of
 * nonblocking collectives") ----
 * Started and stopped with the guard, its footer lines after the guard's. */
int mg_nbguard_start(void);
void mg_nbguard_agree(void); /* at MPI_Finalize: collective, as mg_guard_agree */
void mg_nbguard_report(FILE *f);
void mg_nbguard_stop(void);
/* A start that a profile sends to algorithm alg: 0 when the caller starts it as usual, 1 when
 * the guard started it (sampled, or the entry is off) with its result in *rc. Local: never waits
 * for another rank. */
int mg_nbguard_start_call(int coll, int alg, const mg_args *a, const mg_shape *sh, int64_t msize,
                          int *rc);
/* Verdicts due (windows whose pairs have all started): every intercepted collective takes the
 * general path, and a blocking one on a communicator with a verdict due calls mg_nbguard_at. */
extern int mg_nbguard_due;
void mg_nbguard_at(MPI_Comm comm);
/* nb_complete.c: a sampled start's request (token tok) was completed by an intercepted wait or
 * test whose call took wait_s seconds (completed 0: it never was, and is no sample). */
void mg_nbguard_done(int tok, int completed, double wait_s, int disturbed);

#endif
