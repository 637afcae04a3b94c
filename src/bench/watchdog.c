/* The watchdog (watchdog.h). A thread rather than a signal: a timer signal would interrupt the
 * MPI library's system calls (EINTR in its progress engine) on every tick, while a thread
 * touches nothing of the main thread's. The thread never calls MPI (the tool initialises MPI
 * with MPI_THREAD_FUNNELED for it) and, when it gives up, only formats into its own buffers,
 * write()s and _exit()s: no stdio lock or MPI lock the blocked main thread may hold is taken,
 * and no atexit handler (MPI's among them) runs. The launcher sees the rank end with
 * MG_EXIT_WATCHDOG and ends the job. */
#define _POSIX_C_SOURCE 200809L
#include "watchdog.h"
#include "sim.h"
#include "util/diag.h"
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

_Atomic unsigned long mg_wd_kicks;
_Atomic int mg_wd_phase;

static _Atomic(const char *) meas_coll, meas_alg;
static _Atomic int64_t meas_msize;
static _Atomic int out_fd = -1;

static const char *const phase_text[MG_WD_PHASES] = {
    [MG_WD_SETUP] = "setting up the measurement (buffers, probe, verification, warm-up)",
    [MG_WD_CLOCK] = "synchronising the clocks",
    [MG_WD_WAIT] = "waiting for the agreed start of an observation",
    [MG_WD_SYNC] = "in the barrier before an observation",
    [MG_WD_CALL] = "inside the measured call",
    [MG_WD_AGREE] = "exchanging an observation's end time and the stop decision",
    [MG_WD_COLLECT] = "collecting the measurement's runtimes",
    [MG_WD_OTHERS] = "waiting for a sub-communicator's measurement (--comm-sizes)",
};

static struct {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int running, stopping, rank;
    double limit, seconds;
    const char *tool;
} wd = {.mu = PTHREAD_MUTEX_INITIALIZER};

double mg_watchdog_seconds(double option, int say) {
    if (option >= 0) return option;
    const char *v = getenv("MPIGUIDE_WATCHDOG");
    if (!v || !*v) return MG_WATCHDOG_DEFAULT_S;
    char *end;
    errno = 0;
    double s = strtod(v, &end);
    if (*end || errno || !(s >= 0 && s <= MG_WATCHDOG_MAX_S)) {
        if (say)
            mg_error("MPIGUIDE_WATCHDOG",
                     "expected seconds without progress, 0 .. %g (0: off), got `%s`",
                     MG_WATCHDOG_MAX_S, v);
        return -1;
    }
    return s;
}

void mg_watchdog_meas(const char *coll, const char *alg, int64_t msize) {
    atomic_store_explicit(&meas_coll, coll, memory_order_relaxed);
    atomic_store_explicit(&meas_alg, alg, memory_order_relaxed);
    atomic_store_explicit(&meas_msize, msize, memory_order_relaxed);
}

void mg_watchdog_output(int fd) {
    atomic_store_explicit(&out_fd, fd, memory_order_relaxed);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* No progress for `idle` seconds: the line, the note in the output file (rank 0), the end. */
static _Noreturn void give_up(double idle) {
    const char *coll = atomic_load(&meas_coll), *alg = atomic_load(&meas_alg);
    int phase = atomic_load(&mg_wd_phase);
    char where[256], cause[400];
    if (coll)
        snprintf(where, sizeof where, "%s %s %lld", coll, alg ? alg : "?",
                 (long long)atomic_load(&meas_msize));
    else
        snprintf(where, sizeof where, "%s", wd.tool);
    snprintf(cause, sizeof cause, "no progress for %.0f s, rank %d %s", idle, wd.rank,
             phase >= 0 && phase < MG_WD_PHASES ? phase_text[phase] : "?");
    int fd = atomic_load(&out_fd);
    if (wd.rank == 0 && fd >= 0) {
        char note[800];
        int n = snprintf(note, sizeof note, "#@stopped=watchdog: %s: %s\n", where, cause);
        if (n > 0 && write(fd, note, (size_t)n < sizeof note ? (size_t)n : sizeof note - 1) < 0) {
            /* nothing more to do: the line below still says it */
        }
    }
    mg_error(where,
             "stopped by the watchdog: %s (--watchdog=%g, MPIGUIDE_WATCHDOG); the measurements "
             "completed before it are in the output file",
             cause, wd.seconds);
    _exit(MG_EXIT_WATCHDOG);
}

static void *watch(void *unused) {
    (void)unused;
    double tick = wd.limit / 4 < 1.0 ? wd.limit / 4 : 1.0;
    if (tick < 0.02) tick = 0.02;
    unsigned long last = atomic_load_explicit(&mg_wd_kicks, memory_order_relaxed);
    double since = now_s();
    pthread_mutex_lock(&wd.mu);
    while (!wd.stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double at = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + tick;
        ts.tv_sec = (time_t)at;
        ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
        pthread_cond_timedwait(&wd.cv, &wd.mu, &ts);
        if (wd.stopping) break;
        unsigned long k = atomic_load_explicit(&mg_wd_kicks, memory_order_relaxed);
        double t = now_s();
        if (k != last) {
            last = k;
            since = t;
        } else if (t - since >= wd.limit) {
            give_up(t - since);
        }
    }
    pthread_mutex_unlock(&wd.mu);
    return NULL;
}

int mg_watchdog_start(double seconds, int rank, const char *tool) {
    /* Simulated ranks (SMPI) share one process and one thread, each with its own copy of these
     * globals mapped in while it runs: a thread beside them would read whichever copy is
     * mapped. The simulation cannot hang unseen either: SimGrid ends a deadlocked run itself. */
    if (mg_sim_host_cores() > 0) return 0;
    if (wd.running || !(seconds > 0)) return 0;
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
        pthread_cond_init(&wd.cv, &ca))
        return -1;
    pthread_condattr_destroy(&ca);
    /* the others later, so that rank 0's line is the one printed */
    double grace = seconds / 10 > 5.0 ? seconds / 10 : 5.0;
    wd.seconds = seconds;
    wd.limit = rank == 0 ? seconds : seconds + grace;
    wd.rank = rank;
    wd.tool = tool;
    wd.stopping = 0;
    mg_watchdog_meas(NULL, NULL, 0);
    mg_watchdog_kick(MG_WD_SETUP);
    if (pthread_create(&wd.thread, NULL, watch, NULL)) {
        pthread_cond_destroy(&wd.cv);
        return -1;
    }
    wd.running = 1;
    return 0;
}

void mg_watchdog_stop(void) {
    if (!wd.running) return;
    pthread_mutex_lock(&wd.mu);
    wd.stopping = 1;
    pthread_cond_signal(&wd.cv);
    pthread_mutex_unlock(&wd.mu);
    pthread_join(wd.thread, NULL);
    pthread_cond_destroy(&wd.cv);
    wd.running = 0;
    mg_watchdog_output(-1);
}

int mg_watchdog_begin(double option, const char *tool) {
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double s = rank == 0 ? mg_watchdog_seconds(option, 1) : 0.0;
    PMPI_Bcast(&s, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (s < 0) return 2;
    if (mg_watchdog_start(s, rank, tool) && rank == 0)
        mg_warning("--watchdog", "cannot start the watchdog thread; measuring without it");
    return 0;
}
