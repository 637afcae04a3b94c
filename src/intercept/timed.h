/* A call timed for an in-application comparison (timed.c): the guard and online mode. */
#ifndef MG_TIMED_H
#define MG_TIMED_H

#include "intercept.h"

#pragma GCC visibility push(hidden)
/* This thread's involuntary context switches so far; -1 when unknown, and under SMPI (a
 * simulated rank's time is the simulation's, whatever the host's scheduler does). */
long mg_switches(void);

/* Runs the default (alg == coll) or the planned algorithm alg (a mock-up or a library
 * algorithm; through MPIGUIDE_VERIFY when it is on) on the call, with the result in *rc, and
 * returns the seconds it took on this rank. *ran as mg_dispatch_complete says (1 for the
 * default; 0 or 2: a library algorithm could not run and the default did, on every rank alike);
 * *disturbed: this rank was switched out of its core meanwhile. An algorithm's call is counted
 * (mockup, library or the fallback's counter); a default's is the caller's to count. */
double mg_timed_call(int coll, int alg, const mg_args *a, const mg_shape *sh, int64_t msize,
                     int *rc, int *ran, int *disturbed);
#pragma GCC visibility pop

#endif
