/* `bench --interleave=B`: the measurements of one (call, msize) alternate in batches of B
 * observations (ABBA: the order reverses every round), so a slow period of the machine falls
 * on every algorithm alike and ratios measured side by side stay comparable; tune's validation
 * measures the default and the tuned library this way. Each batch is synchronised and
 * collected like a measurement of its own (the clock model may be refitted between rounds);
 * rank 0 appends the runtimes, and every algorithm's rows are written in one write() at the
 * end, as a measurement's always are. The time budget is that of all the measurements
 * together (n times --rt-bench-time-ms); rank 0 decides after each round. */
#include "runstate.h"
#include "util/diag.h"
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
    }
}

int mg_measure_interleaved(mg_runstate *rs, const mg_job *jobs, int n) {
    mg_harness *h = mg_meas_harness(rs, &jobs[0]); /* the group shares the communicator size */
    if (!h) return MPI_SUCCESS;                    /* not in this sub-communicator */
    const mg_bench_opts *o = rs->o;
    int64_t most = 0, bsize = o->interleave;
    for (int i = 0; i < n; i++)
        if (jobs[i].nrep > most) most = jobs[i].nrep;
    if (bsize > most) bsize = most;
    lane *v = n > 0 ? calloc((size_t)n, sizeof *v) : NULL;
    mg_obs batch;
    memset(&batch, 0, sizeof batch);
    int bad = !v || mg_obs_alloc(&batch, bsize, h->rank) != 0, rc = MPI_SUCCESS;
    for (int i = 0; v && i < n && h->rank == 0; i++) {
        v[i].rt = malloc(sizeof(double) * (size_t)jobs[i].nrep);
        v[i].flag = malloc(sizeof(int) * (size_t)jobs[i].nrep);
        bad |= !v[i].rt || !v[i].flag;
    }
    int any;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, h->hcomm);
    if (any) {
        mg_say(h->rank, 0, mpiguide_collective_name(jobs[0].coll),
               "%lld B skipped: out of memory for the interleaved observations",
               (long long)jobs[0].msize);
        goto out;
    }
    if ((rc = mg_harness_sync_clocks(h, 0)) != MPI_SUCCESS) goto out;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = mg_meas_open(rs, &jobs[i], 1, &v[i].c, &v[i].unused, &v[i].ready);
    if (rc != MPI_SUCCESS) goto out;
    share_buffers(v, n);

    double budget = o->time_ms / 1000.0 * n, t0 = MPI_Wtime();
    for (int round = 0, stop = 0; !stop && rc == MPI_SUCCESS; round++) {
        for (int k = 0; k < n && rc == MPI_SUCCESS; k++) {
            lane *l = &v[round % 2 ? n - 1 - k : k];
            const mg_job *j = &jobs[l - v];
            if (!l->ready || l->n >= j->nrep) continue;
            int64_t left = j->nrep - l->n;
            mg_obs_plan plan = {left < bsize ? left : bsize, 0.0, NULL, 0};
            rc = mg_observe(h, &l->c, &plan, &batch);
            if (rc == MPI_SUCCESS) rc = mg_obs_collect(h, &batch);
            if (rc == MPI_SUCCESS && h->rank == 0) {
                memcpy(l->rt + l->n, batch.runtime, sizeof(double) * (size_t)batch.n);
                memcpy(l->flag + l->n, batch.gflag, sizeof(int) * (size_t)batch.n);
            }
            l->n += batch.n;
        }
        /* rank 0 decides: every measurement complete, or the shared budget spent */
        stop = 1;
        for (int i = 0; i < n; i++) stop &= !v[i].ready || v[i].n >= jobs[i].nrep;
        if (h->rank == 0 && budget > 0.0 && MPI_Wtime() - t0 >= budget) stop = 1;
        if (rc == MPI_SUCCESS) rc = PMPI_Bcast(&stop, 1, MPI_INT, 0, h->hcomm);
        if (rc == MPI_SUCCESS) rc = mg_harness_sync_clocks(h, 0);
    }
    for (int i = 0; i < n && rc == MPI_SUCCESS && h->rank == 0; i++)
        if (v[i].ready) mg_meas_write(rs, &jobs[i], v[i].rt, v[i].flag, v[i].n);
out:
    for (int i = 0; v && i < n; i++) {
        if (v[i].ready) {
            mg_call_free(&v[i].c);
            mg_obs_free(&v[i].unused);
        }
        free(v[i].rt);
        free(v[i].flag);
    }
    free(v);
    mg_obs_free(&batch);
    return rc;
}
