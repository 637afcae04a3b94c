/* The interception of a call whose selection (forced or tuned) is a library algorithm: the
 * plan of src/libalg/ (declared restrictions, intercommunicators, threads), the tuned-mode rule
 * for user-defined ops, then the library's own algorithm or the default, each counted for the
 * report footer. Out of line: calls that select the default or a mock-up never come here. */
#include "intercept.h"
#include "guard.h"
#include "libalg/libalg_mpi.h"

int mg_intercept_library(int coll, int alg, int tuned, const mg_args *a, int64_t msize, int *rc) {
    int why = MG_N_FB_THREADS;
    if (!mg_threads) {
        mg_shape s;
        unsigned declined = 0;
        int err = MPI_SUCCESS, ran = 1;
        int o = mg_libalg_plan(alg, a, &s, &declined, &err);
        if (o < 0) return 0;
        /* A user-defined op may cost far more than the op the profile was measured with. */
        if (o == MPIGUIDE_RAN_MOCKUP && tuned && mg_coll_is_reduction(coll) && !s.predefined_op &&
            !mg_cfg.tune_user_ops)
            o = -2;
        switch (o) {
        case MPIGUIDE_RAN_MOCKUP:
            /* a profile's entry checks itself (guard.c); unsampled calls come back here */
            if (tuned && mg_rt.s.guard && mg_guard_run(coll, alg, a, &s, msize, rc)) return 1;
            if (mg_rt.s.verify)
                *rc = mg_verify_run(alg, a, &s, msize, &ran);
            else
                ran = mg_libalg_run(alg, a, rc);
            if (ran == 1) {
                mg_count(coll, MG_N_LIBRARY);
                if (mg_report_on) mg_report_seen(coll, msize, alg);
                return 1;
            }
            /* every rank agreed that it could not be set up (0) or that the datatypes differ
             * (2); a verified call already ran the default and holds its result */
            mg_count(coll, ran == 2 ? MG_N_FB_ARGS : MG_N_FB_LIBRARY);
            if (mg_rt.s.verify) return 1;
            if (mg_intercept_repair(coll, a, msize, rc)) return 1;
            if (mg_report_on) mg_report_seen(coll, msize, coll);
            return 0;
        case MPIGUIDE_FALLBACK_ARGS:
            why = declined == MPIGUIDE_DECLINE_THREADS  ? MG_N_FB_THREADS
                  : declined == MPIGUIDE_DECLINE_DEFECT ? MG_N_FB_DEFECT
                                                        : MG_N_FB_ARGS;
            break;
        case -2:
            why = MG_N_FB_USEROP;
            break;
        default:
            why = MG_N_FB_LIBRARY;
            break;
        }
    }
    mg_count(coll, why);
    /* the default is due: on a known defect of it, MPIGUIDE_REPAIR=1 runs the repair */
    if (mg_intercept_repair(coll, a, msize, rc)) return 1;
    if (mg_report_on) mg_report_seen(coll, msize, coll);
    return 0;
}
