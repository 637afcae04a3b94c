/* The watchdog of `bench`, `nrep` and `check` (docs/benchmark.md "Watchdog"): a thread
 * that ends the process with one line naming the measurement and what this rank was doing when
 * the measurements stop making progress, also while the main thread is blocked inside an MPI
 * call. The loops mark progress with mg_watchdog_kick: two relaxed atomic stores, no call. */
#ifndef MG_BENCH_WATCHDOG_H
#define MG_BENCH_WATCHDOG_H

#include "options.h" /* MG_WATCHDOG_DEFAULT_S, MG_WATCHDOG_MAX_S */
#include <stdatomic.h>
#include <stdint.h>

#define MG_EXIT_WATCHDOG 4 /* docs/dev/interfaces.md section 3 */

/* What a rank was doing at its last progress: the cause the line names. */
enum mg_wd_phase {
    MG_WD_SETUP,   /* buffers, probe, verification, warm-up */
    MG_WD_CLOCK,   /* clock synchronisation */
    MG_WD_WAIT,    /* waiting for the agreed start (window, round-time) */
    MG_WD_SYNC,    /* the barrier before an observation */
    MG_WD_CALL,    /* inside the measured call */
    MG_WD_AGREE,   /* exchanging an observation's end, flags and the stop decision */
    MG_WD_COLLECT, /* collecting the runtimes of a measurement */
    MG_WD_OTHERS,  /* outside a sub-communicator, waiting for its measurement to end */
    MG_WD_PHASES
};

extern _Atomic unsigned long mg_wd_kicks;
extern _Atomic int mg_wd_phase;

/* Progress, now in `phase`. Only the main thread calls it. */
static inline void mg_watchdog_kick(int phase) {
    atomic_store_explicit(&mg_wd_phase, phase, memory_order_relaxed);
    atomic_store_explicit(&mg_wd_kicks,
                          atomic_load_explicit(&mg_wd_kicks, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* The watchdog's time from the option (seconds; < 0: not given), else MPIGUIDE_WATCHDOG, else
 * MG_WATCHDOG_DEFAULT_S; 0 turns it off. -1 after an error naming the variable (printed when
 * say is set). */
double mg_watchdog_seconds(double option, int say);

/* Starts the thread on this rank (seconds > 0; otherwise nothing happens). Rank 0 gives up
 * after `seconds` without progress; the other ranks after a grace period more, so that rank 0's
 * line is the one the job prints (its exit makes the launcher end the others). `tool` names the
 * run before a measurement is known ("bench", "nrep"). 0, or -1 when the thread cannot start. */
int mg_watchdog_start(double seconds, int rank, const char *tool);
/* Collective over MPI_COMM_WORLD, before a run: the time as rank 0 resolves it
 * (mg_watchdog_seconds), then mg_watchdog_start. 0, or 2 (usage error) after a message. */
int mg_watchdog_begin(double option, const char *tool);
/* Stops and joins the thread. */
void mg_watchdog_stop(void);
/* The measurement now running (static strings; coll NULL: none). */
void mg_watchdog_meas(const char *coll, const char *alg, int64_t msize);
/* Rank 0: the raw or nrep file (a descriptor open for appending; -1: none), which gets a
 * `#@stopped=` line before the process ends. */
void mg_watchdog_output(int fd);

#endif
