/* One call timed on this rank for an in-application comparison (the guard's samples, online
 * mode's pairs): the library's default or a planned algorithm, with whether this rank was
 * switched out of its core meanwhile (a preempted rank, or one whose yield another process or
 * rank took, measures the scheduler: guard_rule.h "disturbed"; a simulated rank's time (SMPI) is
 * the simulation's, whatever the host's scheduler does, so never disturbed). */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "timed.h"
#include "runtime/mpi_family.h"
#include <sys/resource.h>

long mg_switches(void) {
    struct rusage r;
    return !MG_SIMULATED_MPI && getrusage(RUSAGE_THREAD, &r) == 0 ? r.ru_nivcsw : -1;
}

double mg_timed_call(int coll, int alg, const mg_args *a, const mg_shape *sh, int64_t msize,
                     int *rc, int *ran, int *disturbed) {
    long s0 = mg_switches();
    double t0 = PMPI_Wtime();
    *ran = 1;
    if (alg == coll)
        *rc = mg_run_default(coll, a);
    else
        *rc = mg_rt.s.verify ? mg_verify_run(alg, a, sh, msize, ran)
                             : mg_dispatch_complete(alg, a, sh, ran);
    double t = PMPI_Wtime() - t0;
    *disturbed = s0 >= 0 && mg_switches() != s0;
    if (alg != coll) /* what ran, as a selected algorithm's call is counted */
        mg_count(coll, alg < mg_nalgs ? MG_N_MOCKUP
                       : *ran == 1    ? MG_N_LIBRARY
                       : *ran == 2    ? MG_N_FB_ARGS
                                      : MG_N_FB_LIBRARY);
    return t;
}
