/* `bench --interleave=B`: the measurements of one (call, msize) alternate in batches of B
 * observations (ABBA: the order reverses every round), so a slow period of the machine falls
 * on every algorithm alike and ratios measured side by side stay comparable; tune's validation
 * measures the default and the tuned library this way. Each batch is synchronised and
 * collected like a measurement of its own (the clock model may be refitted between rounds);
 * rank 0 appends the runtimes, and every algorithm's rows are written in one write() at the
 * end, as a measurement's always are. The time budget of a group is that of all its
 * measurements together (n times --rt-bench-time-ms); rank 0 decides after each round.
 *
 * `--spread` takes the groups of the run (every size) in turn as well: round r measures one
 * batch of every lane of every group, so each size's observations are spread over the whole
 * launch instead of a few milliseconds of it. Why: on a virtual machine the speed of the
 * ranks' shared-memory exchange changes in steps that last from a tenth of a second to
 * seconds (Open MPI 4.1, MPI_Bcast of 4 KiB at 2 ranks, 20,000 observations in one launch:
 * bcast_as_scatter_allgather at 1.4, 2.2, 3.6 or 4.9 us for long stretches, the default
 * 2.6-4.7 us), and a measurement of a few milliseconds saw one step only, a different one in
 * every launch. */
#include "runstate.h"
#include "util/diag.h"
#include "watchdog.h"
#include <stdlib.h>
#include <string.h>

typedef struct lane {
    mg_call c;
    mg_obs unused; /* mg_meas_open's observation arrays (cap 1; batches use `batch`) */
    int ready;
    int64_t n;  /* observations so far */
    double *rt; /* rank 0: runtimes of every batch, in order */
    int *flag;  /* rank 0: their flags */
} lane;

/* the measurements of one (call, msize): the lanes that alternate */
typedef struct group {
    const mg_job *jobs;
    int n;
    lane *v;
    double budget, spent; /* seconds; rank 0 measures what the group's batches took */
    int stop;
} group;

/* Every lane runs on the buffers of the first ready one (the calls of one group have the same
 * collective, size, datatype and root, so the same buffer sizes): where the buffers lie alone
 * changed a collective's time up to 3x (Open MPI 4.1, MPI_Allgather of 64 KiB at 2 ranks: the
 * lane allocated first 17 us, the second 52 us, whichever algorithm it held), which would be
 * read as a difference between algorithms. Verification and warm-up ran on each lane's own. */
static void share_buffers(lane *v, int n) {
    const mg_call *own = NULL;
    for (int i = 0; i < n; i++) {
        if (!v[i].ready) continue;
        if (!own) {
            own = &v[i].c;
            continue;
        }
        mpiguide_args *a = &v[i].c.args;
        if (a->sendbuf == v[i].c.sbuf) a->sendbuf = own->sbuf;
        if (a->recvbuf == v[i].c.rbuf) a->recvbuf = own->rbuf;
        /* the lane's own block is not used again (only verification and warm-up filled it):
         * free it, or a spread run holds every lane's block, 2 MiB each with huge pages */
        int elsewhere = (a->sendbuf == own->sbuf || a->sendbuf == MPI_IN_PLACE || !a->sendbuf) &&
                        (a->recvbuf == own->rbuf || !a->recvbuf);
        if (elsewhere) {
            free(v[i].c.block);
            v[i].c.block = NULL;
            v[i].c.sbuf = v[i].c.rbuf = NULL;
        }
    }
}

static void group_free(group *g) {
    for (int i = 0; g->v && i < g->n; i++) {
        if (g->v[i].ready) {
            mg_call_free(&g->v[i].c);
            mg_obs_free(&g->v[i].unused);
        }
        free(g->v[i].rt);
        free(g->v[i].flag);
    }
    free(g->v);
    g->v = NULL;
}

/* Allocates, verifies and warms up g's lanes; a group without memory is skipped, each of its
 * measurements marked (mg_meas_skipped; g->stop). Collective; returns an MPI error code. */
static int group_open(mg_runstate *rs, mg_harness *h, group *g) {
    const mg_bench_opts *o = rs->o;
    g->v = g->n > 0 ? calloc((size_t)g->n, sizeof *g->v) : NULL;
    int bad = !g->v;
    for (int i = 0; g->v && i < g->n && h->rank == 0; i++) {
        g->v[i].rt = malloc(sizeof(double) * (size_t)g->jobs[i].nrep);
        g->v[i].flag = malloc(sizeof(int) * (size_t)g->jobs[i].nrep);
        bad |= !g->v[i].rt || !g->v[i].flag || mg_test_nomem(g->jobs[i].msize);
    }
    int any;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, h->hcomm);
    if (any) {
        const char *why = "out of memory for the interleaved observations";
        for (int i = 0; i < g->n; i++) mg_meas_skipped(rs, h->rank, &g->jobs[i], why);
        group_free(g);
        g->stop = 1;
        return MPI_SUCCESS;
    }
    int rc = MPI_SUCCESS;
    for (int i = 0; i < g->n && rc == MPI_SUCCESS; i++)
        rc = mg_meas_open(rs, &g->jobs[i], 1, &g->v[i].c, &g->v[i].unused, &g->v[i].ready);
    share_buffers(g->v, g->n);
    g->budget = o->time_ms / 1000.0 * g->n;
    return rc;
}

/* One batch of every lane of g, in ABBA order over the rounds. */
static int group_round(mg_harness *h, group *g, int round, int64_t bsize, mg_obs *batch) {
    int rc = MPI_SUCCESS;
    double t0 = MPI_Wtime();
    for (int k = 0; k < g->n && rc == MPI_SUCCESS; k++) {
        lane *l = &g->v[round % 2 ? g->n - 1 - k : k];
        const mg_job *j = &g->jobs[l - g->v];
        if (!l->ready || l->n >= j->nrep) continue;
        int64_t left = j->nrep - l->n;
        mg_obs_plan plan = {left < bsize ? left : bsize, 0.0, NULL, 0};
        mg_watchdog_meas(mpiguide_collective_name(j->coll), j->algname, j->msize);
        rc = mg_observe(h, &l->c, &plan, batch);
        if (rc == MPI_SUCCESS) rc = mg_obs_collect(h, batch);
        if (rc == MPI_SUCCESS && h->rank == 0) {
            memcpy(l->rt + l->n, batch->runtime, sizeof(double) * (size_t)batch->n);
            memcpy(l->flag + l->n, batch->gflag, sizeof(int) * (size_t)batch->n);
        }
        l->n += batch->n;
    }
    g->spent += MPI_Wtime() - t0;
    return rc;
}

/* Rank 0: is g done (every lane has its nrep, or the group's budget is spent)? */
static int group_done(const group *g) {
    int done = 1;
    for (int i = 0; i < g->n; i++) done &= !g->v[i].ready || g->v[i].n >= g->jobs[i].nrep;
    return done || (g->budget > 0.0 && g->spent >= g->budget);
}

int mg_measure_rounds(mg_runstate *rs, const mg_job *jobs, const int *sizes, int ngroups) {
    mg_harness *h = mg_meas_harness(rs, &jobs[0]); /* every group has the same communicator */
    if (!h || ngroups <= 0) return MPI_SUCCESS;    /* not in this sub-communicator */
    int64_t most = 0, bsize = rs->o->interleave, nall = 0;
    for (int gi = 0; gi < ngroups; gi++) nall += sizes[gi];
    for (int64_t i = 0; i < nall; i++)
        if (jobs[i].nrep > most) most = jobs[i].nrep;
    if (bsize > most) bsize = most;
    group *gs = calloc((size_t)ngroups, sizeof *gs);
    int *stop = malloc(sizeof(int) * (size_t)ngroups);
    mg_obs batch;
    memset(&batch, 0, sizeof batch);
    int bad = !gs || !stop || mg_obs_alloc(&batch, bsize, h->rank) != 0, any, rc = MPI_SUCCESS;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, h->hcomm);
    if (any) {
        for (int64_t i = 0; i < nall; i++)
            mg_meas_skipped(rs, h->rank, &jobs[i], "out of memory for the interleaved batches");
        goto out;
    }
    if ((rc = mg_harness_sync_clocks(h, 0)) != MPI_SUCCESS) goto out;
    for (int gi = 0, at = 0; gi < ngroups && rc == MPI_SUCCESS; at += sizes[gi++]) {
        gs[gi].jobs = jobs + at;
        gs[gi].n = sizes[gi];
        rc = group_open(rs, h, &gs[gi]);
    }
    /* opening (probe, verification, warm-up of every lane) can take longer than the clock
     * model stays fresh */
    if (rc == MPI_SUCCESS) rc = mg_harness_sync_clocks(h, 0);
    for (int round = 0, left = ngroups; left > 0 && rc == MPI_SUCCESS; round++) {
        /* the groups in turn, the order reversed every round as the lanes' is */
        for (int k = 0; k < ngroups && rc == MPI_SUCCESS; k++) {
            group *g = &gs[round % 2 ? ngroups - 1 - k : k];
            if (!g->stop) rc = group_round(h, g, round, bsize, &batch);
        }
        /* rank 0 decides for every group at once: one broadcast per round */
        left = 0;
        for (int gi = 0; gi < ngroups; gi++)
            stop[gi] = gs[gi].stop || (h->rank == 0 && group_done(&gs[gi]));
        if (rc == MPI_SUCCESS) rc = PMPI_Bcast(stop, ngroups, MPI_INT, 0, h->hcomm);
        for (int gi = 0; gi < ngroups; gi++) left += !(gs[gi].stop = stop[gi]);
        if (rc == MPI_SUCCESS) rc = mg_harness_sync_clocks(h, 0);
    }
    for (int gi = 0; gi < ngroups && rc == MPI_SUCCESS && h->rank == 0; gi++)
        for (int i = 0; gs[gi].v && i < gs[gi].n; i++)
            if (gs[gi].v[i].ready)
                mg_meas_write(rs, &gs[gi].jobs[i], gs[gi].v[i].rt, gs[gi].v[i].flag, gs[gi].v[i].n);
out:
    for (int gi = 0; gs && gi < ngroups; gi++) group_free(&gs[gi]);
    free(gs);
    free(stop);
    mg_obs_free(&batch);
    return rc;
}
