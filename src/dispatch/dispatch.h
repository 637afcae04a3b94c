/* The one dispatcher (dispatch.c): plan and run for every kind of algorithm, the default, a
 * mock-up of the registry and a library algorithm alike. */
#ifndef MG_DISPATCH_H
#define MG_DISPATCH_H

#include "libalg/libalg_mpi.h"
#include "registry.h"

/* MPIGUIDE_KIND_* of an algorithm id (a library algorithm only when runnable), -1 when unknown. */
int mg_dispatch_kind(int alg);
/* What running `alg` on the call would do, without running anything: MPIGUIDE_RAN_DEFAULT (it is
 * a default), MPIGUIDE_RAN_MOCKUP (the algorithm itself can run), or a FALLBACK_* outcome with
 * the decline bit in *declined; -1 with *err when the id is unknown or the call's shape could
 * not be computed. Fills *s for mg_dispatch_run. The same answer on every rank. */
int mg_dispatch_plan(int alg, const mg_args *a, mg_shape *s, unsigned *declined, int *err);
/* Runs a row (a default or a mock-up) that was planned: the call's result. */
int mg_dispatch_run_row(const mg_alg *A, const mg_args *a, const mg_shape *s);
#ifdef MPIGUIDE_TEST_ALGORITHMS
/* Test builds: mg_libalg_run after MPIGUIDE_TEST_SLOW_ALG's delay (interfaces.md section 2). */
int mg_dispatch_run_lib(int alg, const mg_args *a, int *rc);
#else
#define mg_dispatch_run_lib mg_libalg_run
#endif
/* Runs a planned algorithm: 1 with its result in *rc; for a library algorithm 0 when it could
 * not be set up on the communicator and 2 when the ranks' datatypes differ where it needs them
 * equal (all ranks agree; nothing ran). Inline: every call that runs a mock-up comes here. */
static inline int mg_dispatch_run(int alg, const mg_args *a, const mg_shape *s, int *rc) {
    const mg_alg *A = mg_alg_get(alg);
    if (!A) return mg_dispatch_run_lib(alg, a, rc);
    *rc = mg_dispatch_run_row(A, a, s);
    return 1;
}
/* mg_dispatch_run, and the default when the algorithm did not run; *ran (may be NULL) as
 * mg_dispatch_run says. Returns the call's result. */
int mg_dispatch_complete(int alg, const mg_args *a, const mg_shape *s, int *ran);
/* Plan and run, the default on any fallback: mpiguide_run. */
int mg_dispatch(int alg, const mg_args *a, int *outcome, unsigned *declined);

#endif
