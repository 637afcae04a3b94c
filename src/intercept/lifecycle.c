/* Start and end of the interception: MPI_Init's wrappers start the library (startup/), the
 * caches, the record, online mode, the guard and switch on the collectives that have something
 * to do; MPI_Finalize's wrapper writes the report and releases everything before PMPI_Finalize. */
#include "intercept.h"
#include "guard.h"
#include "online.h"
#include "runtime/mpi_defects.h"
#include "runtime/sharing.h"
#include "util/diag.h"
#include <stdlib.h>
#include <string.h>

static int has_profile(int coll) {
    for (uint32_t i = 0; i < mg_rt.sel.nprof; i++)
        if (mg_rt.sel.prof[i].coll == coll && mg_rt.sel.prof[i].n) return 1;
    return 0;
}

/* One copy of the globals for several ranks (sharing.h): one error, and every rank passes
 * everything through (they all write the same values). */
static int shared_globals(void) {
    int n = mg_globals_shared_by();
    if (n == 1) return 0;
    int me = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0)
        mg_error("libmpiguide",
                 "%d ranks share one copy of its state: SMPI copies the program per rank but "
                 "not a shared library it links; link libmpiguide-smpi.a into the program or "
                 "give smpirun --cfg=smpi/privatize-libs:ABSOLUTE_PATH_OF_THE_LIBRARY; passing "
                 "everything through",
                 n);
    mg_rt.started = 1;
    mg_rt.usable = 0;
    return 1;
}

/* Online mode on every rank or on none (its first call on a communicator is collective); off
 * under MPI_THREAD_MULTIPLE, with one line. */
static int online_start(void) {
    if (!mg_rt.s.online) return 0;
    if (mg_threads) {
        if (mg_rt.rank == 0)
            mg_warning("MPIGUIDE_ONLINE",
                       "not available under MPI_THREAD_MULTIPLE; online mode off");
        return 0;
    }
    int ok = mg_online_start() == MPI_SUCCESS;
    PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!ok) {
        mg_online_stop();
        if (mg_rt.rank == 0) mg_error("MPIGUIDE_ONLINE", "could not start online mode; off");
    }
    return ok;
}

void mg_intercept_start(int argc, char **argv) {
    if (shared_globals()) return;
    mg_startup(argc, argv);
    if (!mg_rt.usable || mg_rt.s.off) return;
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    mg_threads = level == MPI_THREAD_MULTIPLE;
    if (mg_threads && mg_rt.s.verify) { /* its two buffers are process-wide */
        if (mg_rt.rank == 0)
            mg_warning("MPIGUIDE_VERIFY", "not available under MPI_THREAD_MULTIPLE; not verifying");
        mg_rt.s.verify = 0;
    }
    if (mg_comm_start() != MPI_SUCCESS) return;
    mg_types_start();
    if (mg_rt.sel.nprof) {
        mg_lasthit = calloc(mg_rt.sel.nprof, sizeof *mg_lasthit);
        if (!mg_lasthit) memset(&mg_rt.sel, 0, sizeof mg_rt.sel);
    }
    mg_report_on = mg_rt.s.report != MG_REPORT_NONE;
    /* the record needs every call's time: the general path (the report alone keeps the
     * fast path and prints coverage only when the record's accounting runs) */
    mg_acct_on = mg_rt.s.record && mg_record_start() == MPI_SUCCESS;
    mg_general = mg_threads || mg_acct_on;
    mg_online_on = online_start();
    /* online mode alone: the fast path counts down the memo of a cell between timed calls */
    if (mg_online_on && !mg_general) mg_general = MG_GENERAL_ONLINE;
    /* the guard of nonblocking entries decides at the next blocking collective on the
     * communicator (nb_guard.c): every blocking collective is seen while one applies */
    int nbguard = 0;
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++)
        nbguard |= mg_rt.s.guard && !mg_rt.s.verify && mg_coll_is_nb(c) && has_profile(c);
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        /* MPIGUIDE_REPAIR=1: every call of a collective with a known defect of this MPI is
         * checked (general path, never memoised as a repeatable default); the report alone
         * keeps the cheap path and counts known_defect on the general path only */
        int repairs = mg_rt.s.repair && mg_defects_in(c);
        /* online mode: every call reaches the general path until its cell memoises it as a
         * repeatable default (online.c) */
        mg_checked[c] = (unsigned char)(repairs || mg_online_on);
        if (mg_coll_flags(c) & MG_CF_INTERCEPT)
            mg_on[c] = mg_report_on || mg_acct_on || mg_rt.s.forced[c] >= 0 || has_profile(c) ||
                       repairs || mg_online_on || MG_TEST_SLOWED(c) || nbguard;
    }
    /* the guard works on every rank or on none: its first call on a communicator is collective;
     * it checks the profiles' entries and online mode's winners */
    int guard = mg_rt.s.guard && (mg_rt.sel.nprof || mg_online_on) && !mg_threads;
    if (guard) {
        int ok = mg_guard_start() == MPI_SUCCESS;
        PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!ok) mg_guard_stop();
        guard = ok;
    }
    mg_rt.s.guard = guard;
}

void mg_intercept_stop(void) {
    memset(mg_on, 0, sizeof mg_on);
    memset(mg_checked, 0, sizeof mg_checked);
    mg_general = 0;
    if (mg_rt.usable && !mg_rt.s.off && mg_report_on) mg_guard_agree();
    if (mg_online_on) mg_online_finish();
    if (mg_acct_on) {
        mg_nb_flush();
        mg_record_finish();
    }
    if (mg_rt.usable && !mg_rt.s.off) mg_report_write();
    mg_guard_stop();
    if (mg_online_on) mg_online_stop();
    mg_record_stop();
    mg_acct_on = 0;
    mg_comm_stop();
    free(mg_lasthit);
    mg_lasthit = NULL;
    mg_shutdown();
}
