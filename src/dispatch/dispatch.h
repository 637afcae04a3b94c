/* The one dispatcher (dispatch.c): plan and run for every kind of algorithm, the default, a
 * mock-up of the registry and a library algorithm alike. */
#ifndef MG_DISPATCH_H
#define MG_DISPATCH_H

#include "registry.h"

/* MPIGUIDE_KIND_* of an algorithm id (a library algorithm only when runnable), -1 when unknown. */
int mg_dispatch_kind(int alg);
/* What running `alg` on the call would do, without running anything: MPIGUIDE_RAN_DEFAULT (it is
 * a default), MPIGUIDE_RAN_MOCKUP (the algorithm itself can run), or a FALLBACK_* outcome with
 * the decline bit in *declined; -1 with *err when the id is unknown or the call's shape could
 * not be computed. Fills *s for mg_dispatch_run. The same answer on every rank. */
int mg_dispatch_plan(int alg, const mg_args *a, mg_shape *s, unsigned *declined, int *err);
/* Runs a planned algorithm: 1 with its result in *rc; for a library algorithm 0 when it could
 * not be set up on the communicator and 2 when the ranks' datatypes differ where it needs them
 * equal (all ranks agree; nothing ran). */
int mg_dispatch_run(int alg, const mg_args *a, const mg_shape *s, int *rc);
/* mg_dispatch_run, and the default when the algorithm did not run; *ran (may be NULL) as
 * mg_dispatch_run says. Returns the call's result. */
int mg_dispatch_complete(int alg, const mg_args *a, const mg_shape *s, int *ran);
/* Plan and run, the default on any fallback: mpiguide_run. */
int mg_dispatch(int alg, const mg_args *a, int *outcome, unsigned *declined);

#endif
