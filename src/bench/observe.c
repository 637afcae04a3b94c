/* The observation loop. Inside the timed region there is only the call: t0 = MPI_Wtime(), the
 * call through one function pointer, t1 = MPI_Wtime(). Synchronisation, stop decisions and
 * result collection happen outside it, and nothing is allocated per observation. */
#include "harness.h"
#include "sim.h"
#include "watchdog.h"
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

int mg_obs_alloc(mg_obs *o, int64_t cap, int rank) {
    memset(o, 0, sizeof *o);
    if (cap < 1) cap = 1;
    o->cap = cap;
    o->t0 = malloc(sizeof(double) * (size_t)cap);
    o->t1 = malloc(sizeof(double) * (size_t)cap);
    o->flag = calloc((size_t)cap, sizeof(int));
    o->work = malloc(sizeof(double) * 3 * (size_t)cap);
    int ok = o->t0 && o->t1 && o->flag && o->work;
    if (rank == 0) {
        o->runtime = malloc(sizeof(double) * 3 * (size_t)cap); /* also the reduce target */
        o->gflag = malloc(sizeof(int) * (size_t)cap);
        ok = ok && o->runtime && o->gflag;
    }
    if (!ok) mg_obs_free(o);
    return ok ? 0 : -1;
}

void mg_obs_free(mg_obs *o) {
    free(o->t0);
    free(o->t1);
    free(o->flag);
    free(o->work);
    free(o->runtime);
    free(o->gflag);
    memset(o, 0, sizeof *o);
}

/* The timed region: one call, or --back-to-back's batch of h->batch consecutive calls; with
 * --roots each call takes the next root of the sequence (an array load, no allocation). */
static inline int run_calls(const mg_harness *h, int (*run)(mg_call *), mg_call *c) {
    int rc = MPI_SUCCESS;
    for (int64_t k = 0; k < h->batch && rc == MPI_SUCCESS; k++) {
        if (c->roots) c->args.root = c->roots[c->kroot++ % c->nroots];
        rc = run(c);
    }
    return rc;
}

/* Flags are combined with MAX over ranks; a missed start must win over an overrun. */
enum { CODE_OK = 0, CODE_OVERRUN = 1, CODE_MISSED = 2 };
static int flag_of_code(double c) {
    return c >= CODE_MISSED ? 1 : c >= CODE_OVERRUN ? 2 : 0;
}

/* Stream mode: this observation's runtime (and whether it is valid) on rank 0. */
static int stream_runtime(mg_harness *h, mg_obs *o, int64_t i, int code) {
    double in[4] = {(o->t1[i] - o->t0[i]) / (double)h->batch, 0.0, 0.0, (double)code}, out[4];
    if (h->runtime == MG_RUNTIME_GLOBAL) {
        in[1] = mg_gtime(h, o->t1[i]);
        in[2] = -mg_gtime(h, o->t0[i]);
    }
    int rc = PMPI_Reduce(in, out, 4, MPI_DOUBLE, MPI_MAX, 0, h->hcomm);
    if (h->rank == 0) {
        o->last = h->runtime == MG_RUNTIME_GLOBAL ? (out[1] + out[2]) / (double)h->batch : out[0];
        if (out[3] > 0) o->last = -1.0; /* flagged: not fed to the rule */
    }
    return rc;
}

/* Rank 0 decides whether observation i was the last one; every rank learns it. */
static int decide(mg_harness *h, const mg_obs_plan *pl, mg_obs *o, int64_t i, double tm0, int code,
                  int already, int *stop) {
    int rc = MPI_SUCCESS, s = already;
    if (pl->stream) {
        rc = stream_runtime(h, o, i, code);
        if (h->rank == 0 && pl->rule && o->last >= 0.0 && mg_nrep_add(pl->rule, o->last)) s = 1;
    }
    if (h->rank == 0 && pl->budget > 0.0 && MPI_Wtime() - tm0 >= pl->budget) s = 1;
    if (rc == MPI_SUCCESS) rc = PMPI_Bcast(&s, 1, MPI_INT, 0, h->hcomm);
    *stop = s;
    return rc;
}

static int loop_barrier(mg_harness *h, mg_call *c, const mg_obs_plan *pl, mg_obs *o) {
    int (*run)(mg_call *) = c->run;
    int decisions = pl->budget > 0.0 || pl->stream, rc = MPI_SUCCESS, stop = 0;
    double tm0 = MPI_Wtime();
    for (int64_t i = 0; i < pl->nmax && !stop; i++) {
        mg_watchdog_kick(MG_WD_SYNC);
        rc = h->sync == MG_SYNC_MPIBARRIER ? PMPI_Barrier(h->hcomm)
                                           : mg_dissemination_barrier(h->hcomm, h->rank, h->p);
        if (rc != MPI_SUCCESS) return rc;
        mg_watchdog_kick(MG_WD_CALL);
        double t0 = MPI_Wtime();
        rc = run_calls(h, run, c);
        double t1 = MPI_Wtime();
        mg_watchdog_kick(MG_WD_AGREE);
        if (rc != MPI_SUCCESS) return rc;
        o->t0[i] = t0;
        o->t1[i] = t1;
        o->flag[i] = CODE_OK;
        o->n = i + 1;
        /* the last observation needs no decision, but a rule still counts it */
        if (decisions && (i + 1 < pl->nmax || pl->stream) &&
            (rc = decide(h, pl, o, i, tm0, CODE_OK, 0, &stop)) != MPI_SUCCESS)
            return rc;
    }
    return rc;
}

/* Waits until the synchronised clock reaches `start`, which the schedule put `lead` seconds
 * after the moment the ranks agreed on it. Returns how late it already was (0 when on time), or
 * -1 for a failed synchronisation: the model puts the start further away than any rank can be
 * early by, 2 lead + 1 ms (docs/benchmark.md "Bounded waits"), or the start has not come after
 * that long on this rank's own clock, which no model can stretch. Issue 26: a drift fitted a
 * thousand times too large made a rank wait seconds per observation and `check` hang. It spins;
 * with more ranks than cores it yields the core until the last 20 microseconds, so the other
 * ranks can make progress. A simulated rank sleeps on the simulated clock instead (sim.h: every
 * read of it is an event of the simulation). *ahead: how far away the start was when it failed. */
static double wait_until(mg_harness *h, double start, double lead, double *ahead) {
    double local = MPI_Wtime(), now = mg_gtime(h, local), most = 2.0 * lead + 1e-3;
    mg_watchdog_kick(MG_WD_WAIT);
    if (now > start) return now - start;
    if (start - now > most && !h->unbounded) {
        *ahead = start - now;
        return -1.0;
    }
    double until = local + most;
    if (h->machine.simulated) mg_sim_sleep(start - now);
    while (now < start) {
        if (h->yield && start - now > 20e-6) sched_yield();
        double t = MPI_Wtime();
        now = mg_gtime(h, t);
        if (t > until && now < start && !h->unbounded) {
            *ahead = start - now;
            return -1.0;
        }
    }
    return 0.0;
}

/* A failed synchronisation on this rank: counted, and the clocks are fitted again at the next
 * chance (every rank learns it in mg_harness_sync_clocks). */
static void failed_start(mg_harness *h, double ahead) {
    h->resync_due = 1;
    h->failed_starts++;
    if (ahead > h->failed_ahead) h->failed_ahead = ahead;
}

/* Round-time: each observation starts at a global time agreed after the previous one (the
 * latest end over ranks plus the slack); one allreduce per observation carries the end times,
 * how late the latest rank was (a missed start), rank 0's budget decision and whether a rank's
 * start was a failed synchronisation (wait_until), which flags the observation, fits the clocks
 * again and agrees on a fresh start. After a miss the slack doubles (up to 0.1 s); while starts
 * are met it shrinks back towards the measured one by 10 % per observation, so a one-off delay
 * of a rank costs little and a systematic one is absorbed within a few observations. */
static int loop_roundtime(mg_harness *h, mg_call *c, const mg_obs_plan *pl, mg_obs *o) {
    int (*run)(mg_call *) = c->run;
    double slack = h->slack, start = 0.0, lead = slack, tm0 = MPI_Wtime();
    int64_t misses = 0;
    int rc = MPI_SUCCESS, stop = 0;
    if (h->rank == 0) start = mg_gtime(h, MPI_Wtime()) + slack;
    if ((rc = PMPI_Bcast(&start, 1, MPI_DOUBLE, 0, h->hcomm)) != MPI_SUCCESS) return rc;
    for (int64_t i = 0; i < pl->nmax && !stop; i++) {
        double ahead = 0.0, late = wait_until(h, start, lead, &ahead);
        mg_watchdog_kick(MG_WD_CALL);
        double t0 = MPI_Wtime();
        rc = run_calls(h, run, c);
        double t1 = MPI_Wtime();
        mg_watchdog_kick(MG_WD_AGREE);
        if (rc != MPI_SUCCESS) return rc;
        o->t0[i] = t0;
        o->t1[i] = t1;
        o->n = i + 1;
        double in[4] = {mg_gtime(h, t1), late > 0.0 ? late : 0.0, 0.0, late < 0.0 ? 1.0 : 0.0},
               out[4];
        if (h->rank == 0 && pl->budget > 0.0 && MPI_Wtime() - tm0 >= pl->budget) in[2] = 1.0;
        if ((rc = PMPI_Allreduce(in, out, 4, MPI_DOUBLE, MPI_MAX, h->hcomm)) != MPI_SUCCESS)
            return rc;
        int failed = out[3] > 0.0;
        if (failed) failed_start(h, ahead); /* on every rank: all resynchronise below */
        o->flag[i] = out[1] > 0.0 || failed ? CODE_MISSED : CODE_OK;
        stop = out[2] > 0.0;
        if (out[1] > 0.0) {
            misses++;
            slack = slack * 2.0 < 0.1 ? slack * 2.0 : 0.1;
        } else {
            misses = 0;
            slack = slack * 0.9 > h->slack ? slack * 0.9 : h->slack;
        }
        if (pl->stream && (rc = decide(h, pl, o, i, tm0, o->flag[i], stop, &stop)) != MPI_SUCCESS)
            return rc;
        if (stop || i + 1 == pl->nmax) break;
        if (failed || (h->barrier_count > 0 && misses >= h->barrier_count)) {
            /* fit the clocks again (a failed start) or re-synchronise the processes, then agree
             * on a fresh start */
            misses = 0;
            if (failed) {
                if ((rc = mg_harness_sync_clocks(h, 1)) != MPI_SUCCESS) return rc;
                slack = slack > h->slack ? slack : h->slack;
            } else if ((rc = PMPI_Barrier(h->hcomm)) != MPI_SUCCESS) {
                return rc;
            }
            if (h->rank == 0) start = mg_gtime(h, MPI_Wtime()) + slack;
            if ((rc = PMPI_Bcast(&start, 1, MPI_DOUBLE, 0, h->hcomm)) != MPI_SUCCESS) return rc;
            lead = slack;
        } else {
            /* stream mode spent a reduce and a broadcast since the allreduce */
            lead = (pl->stream ? 3.0 : 1.0) * slack;
            start = out[0] + lead;
        }
    }
    return rc;
}

/* The window size when none was given: twice the slowest of a few barrier-synchronised calls
 * plus the clock error on both sides and a margin. */
static int auto_window(mg_harness *h, mg_call *c, double *w) {
    double worst = 0.0;
    for (int i = 0; i < 3; i++) {
        mg_watchdog_kick(MG_WD_SYNC);
        int rc = mg_dissemination_barrier(h->hcomm, h->rank, h->p);
        double t0 = MPI_Wtime();
        if (rc == MPI_SUCCESS) rc = run_calls(h, c->run, c);
        double t = MPI_Wtime() - t0;
        if (rc != MPI_SUCCESS) return rc;
        if (t > worst) worst = t;
    }
    double all;
    int rc = PMPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, h->hcomm);
    *w = 2.0 * all + 4.0 * h->clock_err + 10e-6;
    return rc;
}

/* Window: observation i runs in [T0 + i W, T0 + (i + 1) W) on the synchronised clock. The
 * schedule is fixed in advance, so rank 0 turns the budget into a number of windows before
 * the first one and no message is exchanged between observations. */
static int loop_window(mg_harness *h, mg_call *c, const mg_obs_plan *pl, mg_obs *o) {
    int (*run)(mg_call *) = c->run;
    double w = h->window;
    int rc = MPI_SUCCESS;
    if (w <= 0.0 && (rc = auto_window(h, c, &w)) != MPI_SUCCESS) return rc;
    double plan[3] = {0.0, w, (double)pl->nmax};
    if (h->rank == 0) {
        plan[0] = mg_gtime(h, MPI_Wtime()) + 2.0 * h->slack + w;
        if (pl->budget > 0.0 && pl->budget / w < plan[2]) plan[2] = floor(pl->budget / w + 1e-9);
        if (plan[2] < 1.0) plan[2] = 1.0;
    }
    if ((rc = PMPI_Bcast(plan, 3, MPI_DOUBLE, 0, h->hcomm)) != MPI_SUCCESS) return rc;
    int64_t n = (int64_t)plan[2];
    for (int64_t i = 0; i < n; i++) {
        /* the first window comes 2 slack + W after rank 0 fixed it, each later one W after the
         * previous (a failed start runs at once and is flagged; the clocks are fitted again
         * before the next measurement or batch: no message between windows) */
        double start = plan[0] + (double)i * plan[1], ahead = 0.0;
        double late = wait_until(h, start, i ? plan[1] : 2.0 * h->slack + w, &ahead);
        if (late < 0.0) failed_start(h, ahead);
        int missed = late != 0.0;
        mg_watchdog_kick(MG_WD_CALL);
        double t0 = MPI_Wtime();
        rc = run_calls(h, run, c);
        double t1 = MPI_Wtime();
        mg_watchdog_kick(MG_WD_AGREE);
        if (rc != MPI_SUCCESS) return rc;
        o->t0[i] = t0;
        o->t1[i] = t1;
        o->flag[i] = missed                              ? CODE_MISSED
                     : mg_gtime(h, t1) > start + plan[1] ? CODE_OVERRUN
                                                         : CODE_OK;
        o->n = i + 1;
    }
    return rc;
}

int mg_observe(mg_harness *h, mg_call *c, const mg_obs_plan *pl, mg_obs *o) {
    mg_obs_plan plan = *pl;
    if (plan.nmax > o->cap) plan.nmax = o->cap;
    o->n = 0;
    switch (h->sync) {
    case MG_SYNC_ROUNDTIME:
        return loop_roundtime(h, c, &plan, o);
    case MG_SYNC_WINDOW:
        return loop_window(h, c, &plan, o);
    default:
        return loop_barrier(h, c, &plan, o);
    }
}

int mg_obs_collect(mg_harness *h, mg_obs *o) {
    int64_t n = o->n;
    mg_watchdog_kick(MG_WD_COLLECT);
    double *in = o->work;
    for (int64_t i = 0; i < n; i++) {
        if (h->runtime == MG_RUNTIME_GLOBAL) {
            in[i] = mg_gtime(h, o->t1[i]);
            in[n + i] = -mg_gtime(h, o->t0[i]);
        } else {
            in[i] = o->t1[i] - o->t0[i];
            in[n + i] = 0.0;
        }
        in[2 * n + i] = (double)o->flag[i];
    }
    if (n == 0) return MPI_SUCCESS;
    if (n > INT32_MAX / 3) return MPI_ERR_COUNT;
    int rc = PMPI_Reduce(in, o->runtime, (int)(3 * n), MPI_DOUBLE, MPI_MAX, 0, h->hcomm);
    if (rc != MPI_SUCCESS || h->rank != 0) return rc;
    double *out = o->runtime;
    for (int64_t i = 0; i < n; i++) {
        o->gflag[i] = flag_of_code(out[2 * n + i]);
        /* runtime[i] overwrites out[i] only after out[i] and out[n + i] were read; a batch's
         * time is shared by its calls */
        out[i] =
            (h->runtime == MG_RUNTIME_GLOBAL ? out[i] + out[n + i] : out[i]) / (double)h->batch;
    }
    return MPI_SUCCESS;
}
