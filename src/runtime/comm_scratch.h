/* Scratch per communicator, for MPI_THREAD_MULTIPLE: concurrent collectives on different
 * communicators must not share the process-wide pools. A communicator's scratch is allocated at
 * its first mock-up that needs any, grown when a larger need comes, and released when the
 * communicator is freed. Sizes change in lockstep on every rank (an agreement over the
 * communicator inside the collective call), so decisions stay shared. */
#ifndef MG_COMM_SCRATCH_H
#define MG_COMM_SCRATCH_H

#include "call.h"

/* The attribute key; at start-up under MPI_THREAD_MULTIPLE (not thread-safe itself). */
int mg_cscratch_start(void);
/* Releases the scratch of MPI_COMM_WORLD and MPI_COMM_SELF and the key (before finalize). */
void mg_cscratch_stop(void);
/* Makes comm's scratch hold at least `need`, growing it if necessary: collective over comm
 * when it grows (every rank reaches the same point with the same need). *fits is 0 when some
 * rank could not allocate (then every rank falls back, and later needs at least as large do
 * without asking again). Returns an MPI error code. */
int mg_cscratch_reserve(MPI_Comm comm, const mg_need *need, int *fits);
/* The scratch reserved for comm (NULL pointers when none was needed). */
int mg_cscratch_get(MPI_Comm comm, mg_scratch *x);
/* How many communicators got scratch so far, and how many of those were freed since. */
void mg_cscratch_counts(unsigned long long *made, unsigned long long *freed);

#endif
