/* `mpiguide bench`: turns options into a list of measurements (call, algorithm, msize and, with
 * --comm-sizes, the sub-communicator), checks everything that can be wrong before the first
 * observation (algorithm names, roots, communicator sizes, the nrep file, the file to resume),
 * then measures each one in turn and writes its rows. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "harness.h"
#include "rawdata/scan.h"
#include "measurement_summary.h"
#include "model/problems.h"
#include "runstate.h"
#include "table.h"
#include "util/file.h"
#include "watchdog.h"
#include <errno.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Rank 0: reads the nrep file. 0, or 2 after a message. */
static int load_nrep(const mg_bench_opts *o, mg_nrep_table *t) {
    size_t len;
    char *text = mg_file_read(o->nrep_file, MG_TEXT_FILE_MAX, &len);
    if (!text) {
        char why[128];
        mg_say(0, 1, o->nrep_file, "cannot read the nrep file (--nrep-file): %s",
               mg_file_error(errno, MG_TEXT_FILE_MAX, why, sizeof why));
        return 2;
    }
    char err[600];
    int rc = mg_nrep_table_parse(text, o->nrep_file, t, err, sizeof err);
    free(text);
    if (rc) mg_say(0, 1, err, "bad nrep file");
    return rc;
}

/* Rank 0 with --resume: marks complete measurements, checks the header describes the same
 * kind of run, and cuts an unfinished trailing measurement. *fresh: write a header. */
static int load_resume(const mg_bench_opts *o, int p, mg_harness *h, mg_joblist *l, int *fresh) {
    size_t len = 0;
    char *text = mg_file_read(o->output_file, MG_RAW_FILE_MAX, &len);
    *fresh = 1;
    if (!text && errno == ENOENT) return 0; /* nothing to resume: start */
    if (!text) {
        char why[128];
        mg_say(0, 1, o->output_file, "cannot resume this file (--resume): %s",
               mg_file_error(errno, MG_RAW_FILE_MAX, why, sizeof why));
        return 2;
    }
    mg_raw_scan s;
    char err[600];
    if (mg_raw_scan_text(text, len, o->output_file, &s, err, sizeof err)) {
        free(text);
        mg_say(0, 1, err, "cannot resume this file (--resume)");
        return 2;
    }
    free(text);
    char want[6][64];
    const char *keys[6] = {"nprocs",   "procsync",  "runtime_type",
                           "datatype", "operation", "root_proc"};
    snprintf(want[0], sizeof want[0], "%d", p);
    snprintf(want[1], sizeof want[1], "%s", mg_sync_name(h->sync));
    snprintf(want[2], sizeof want[2], "%s", mg_runtime_name(h->runtime));
    snprintf(want[3], sizeof want[3], "%s", o->datatype);
    snprintf(want[4], sizeof want[4], "%s", o->op);
    snprintf(want[5], sizeof want[5], "%d", o->root);
    int rc = 0;
    for (int k = 0; k < 6 && s.nkeys && !rc; k++) {
        const char *v = mg_raw_get(&s, keys[k]);
        if (v && strcmp(v, want[k])) {
            mg_say(0, 1, "--resume", "%s was measured with %s=%s, this run has %s", o->output_file,
                   keys[k], v, want[k]);
            rc = 2;
        }
    }
    if (!rc) {
        *fresh = s.nkeys == 0;
        for (int i = 0; i < l->n; i++)
            l->v[i].done = mg_raw_done(&s, mpiguide_collective_name(l->v[i].coll), l->v[i].algname,
                                       l->v[i].msize, l->v[i].q);
        if (s.keep < len && truncate(o->output_file, (off_t)s.keep)) {
            mg_say(0, 1, o->output_file, "cannot cut the unfinished measurement (--resume)");
            rc = 1;
        }
        if (!rc && s.dropped)
            mg_say(0, 0, "--resume", "%lld rows of an unfinished measurement dropped",
                   (long long)s.dropped);
    }
    mg_raw_scan_free(&s);
    return rc;
}

static int bcast_status(int st, MPI_Comm comm) {
    PMPI_Bcast(&st, 1, MPI_INT, 0, comm);
    return st;
}

/* ---- sub-communicators (--comm-sizes) ---- */

/* One size below the job's: its members measure on a harness of their own. */
typedef mg_subcomm subcomm;

/* This rank's place when the ranks are ordered by node (a node is the ranks sharing memory,
 * nodes in the order of their lowest world rank) and by world rank within a node: the first q
 * places form the sub-communicator of size q, so it fills whole nodes and keeps each node's
 * ranks together, as an application's split by contiguous ranks does under the usual
 * block placement. */
static int node_position(int rank, int p, int *pos) {
    MPI_Comm local;
    int rc = PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    if (rc != MPI_SUCCESS) return rc;
    int me[2] = {rank, rank};
    rc = PMPI_Bcast(&me[0], 1, MPI_INT, 0, local); /* the node's lowest world rank */
    PMPI_Comm_free(&local);
    int *all = malloc(sizeof(int) * 2 * (size_t)p);
    if (!all) return MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = PMPI_Allgather(me, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
    *pos = 0;
    for (int i = 0; i < p; i++)
        *pos += all[2 * i] < me[0] || (all[2 * i] == me[0] && all[2 * i + 1] < me[1]);
    free(all);
    return rc;
}

/* Creates the sub-communicators of o->comm_sizes below p with their harnesses and the
 * `#@comm_layout` header (rank 0, which is in every one). Collective over the world. */
static int make_subcomms(const mg_bench_opts *o, int rank, int p, subcomm **out, int *nout,
                         char *layout, size_t len) {
    int pos = 0, rc = node_position(rank, p, &pos), n = 0;
    subcomm *v = calloc((size_t)o->ncomm_sizes + 1, sizeof *v);
    if (!v) return MPI_ERR_NO_MEM;
    size_t at = (size_t)snprintf(layout, len, "#@comm_layout=");
    for (int k = 0; rc == MPI_SUCCESS && k < o->ncomm_sizes; k++) {
        int q = o->comm_sizes[k], nodes = 0, ppn = 0;
        MPI_Comm comm = MPI_COMM_WORLD;
        subcomm *s = q < p ? &v[n++] : NULL;
        if (s) {
            s->q = q;
            s->member = pos < q;
            rc = PMPI_Comm_split(MPI_COMM_WORLD, s->member ? 0 : MPI_UNDEFINED, pos, &comm);
            if (rc == MPI_SUCCESS && s->member) rc = mg_harness_init(&s->h, comm, o);
        }
        if (rc == MPI_SUCCESS && (!s || s->member)) rc = mg_comm_layout(comm, &nodes, &ppn);
        if (rank == 0 && at < len)
            at +=
                (size_t)snprintf(layout + at, len - at, "%s%d:%dx%d", k ? "," : "", q, nodes, ppn);
    }
    if (at < len) snprintf(layout + at, len - at, "\n");
    *out = v;
    *nout = n;
    return rc;
}

/* After a measurement on a sub-communicator: the ranks outside it wait here without spinning
 * (a spinning rank takes a core from the measured ones when ranks outnumber cores), and every
 * rank learns whether the measurement failed. Simulated ranks take no core and SMPI's
 * nonblocking allreduce sends p(p-1) messages (one call at 128 ranks: 19 s of wall time): the
 * blocking one there. */
static int settle(MPI_Comm world, int failed, int simulated) {
    int all = 0, done = 0;
    MPI_Request req;
    const struct timespec pause = {0, 20000};
    if (simulated) {
        int rc = PMPI_Allreduce(&failed, &all, 1, MPI_INT, MPI_MAX, world);
        return rc != MPI_SUCCESS || all;
    }
    int rc = PMPI_Iallreduce(&failed, &all, 1, MPI_INT, MPI_MAX, world, &req);
    while (rc == MPI_SUCCESS && !done) {
        /* the measured ranks (rank 0 among them) watch the measurement itself */
        mg_watchdog_kick(MG_WD_OTHERS);
        rc = PMPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done) nanosleep(&pause, NULL);
    }
    return rc != MPI_SUCCESS || all;
}

/* ---- one measurement (measurement.c opens and writes it) ---- */
typedef mg_runstate runstate;

static int measure(runstate *rs, const mg_job *j) {
    mg_harness *h = mg_meas_harness(rs, j);
    if (!h) return MPI_SUCCESS; /* not in this sub-communicator */
    mg_watchdog_meas(mpiguide_collective_name(j->coll), j->algname, j->msize);
    int rc = mg_harness_sync_clocks(h, 0), ready;
    if (rc != MPI_SUCCESS) return rc;
    mg_call c;
    mg_obs obs;
    rc = mg_meas_open(rs, j, j->nrep, &c, &obs, &ready);
    if (rc != MPI_SUCCESS || !ready) return rc;
    mg_obs_plan plan = {j->nrep, rs->o->time_ms / 1000.0, NULL, 0};
    if ((rc = mg_observe(h, &c, &plan, &obs)) != MPI_SUCCESS) goto out;
    if ((rc = mg_obs_collect(h, &obs)) != MPI_SUCCESS) goto out;
    if (h->rank == 0) mg_meas_write(rs, j, obs.runtime, obs.gflag, obs.n);
out:
    mg_call_free(&c);
    mg_obs_free(&obs);
    return rc;
}

/* Collective, after the run: whether other processes shared the cores (mg_busy_end). Then the
 * raw file ends with `#@busy=1`, `#@busy_switches_per_s=N`, `#@busy_cpu_share=S` (the analysis
 * says the timings are not trustworthy) and rank 0 warns unless --quiet. */
static void say_busy(runstate *rs, const mg_busy *b) {
    double per_s, share;
    /* oversubscribed (the header says so), the ranks switch each other out: nothing to add;
     * simulated (SMPI), the times are the simulation's, which no other process can disturb,
     * and the host's switches would make two identical launches' raw data differ */
    if (rs->h.machine.any_over || rs->h.machine.simulated) return;
    if (mg_busy_end(rs->h.hcomm, b, &per_s, &share) != MPI_SUCCESS ||
        per_s < MG_BUSY_SWITCHES_PER_S || rs->h.rank != 0)
        return;
    char text[160];
    snprintf(text, sizeof text, "#@busy=1\n#@busy_switches_per_s=%.0f\n#@busy_cpu_share=%.2f\n",
             per_s, share);
    if (rs->write_raw && mg_raw_write_text(&rs->w, text)) {
        mg_say(0, 1, rs->o->output_file ? rs->o->output_file : "stdout", "write failed");
        rs->exit = 1;
    }
    if (rs->o->quiet) return;
    mg_progress_clear(&rs->pr);
    mg_say(0, 0, "bench",
           "other processes shared the cores: a rank was switched out of its core %.0f times a "
           "second and got %.0f%% of one; timings are not trustworthy",
           per_s, 100 * share);
}

/* glibc maps a block of 128 KiB and more with mmap and unmaps it at free, until the first free
 * of such a block raises that threshold to the block's size (and the heap's trim threshold to
 * twice that). An MPI that allocates a temporary buffer per call (Open MPI 4.1's butterfly
 * Reduce_scatter_block: twice the message) then pays fresh pages on every call, or not,
 * depending on what the process freed before, which differs between a check launch (many
 * algorithms, many frees) and a validation launch (two). Every benchmark process therefore
 * starts in the raised state that a long-running application reaches, whatever it ran before:
 * one source of difference between launches less. (Suspected, not shown: the check measured
 * reduce_scatter_block_lib_butterfly at 256 KiB 1.2-4.6x faster than the default and the
 * validation 0.3-0.7x, and the difference did not go away with this alone.) */
static void settle_allocator(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
#endif
}

static int bench_run(const mg_bench_opts *o);

/* The run under the watchdog (watchdog.h): --watchdog, else MPIGUIDE_WATCHDOG, as rank 0 has
 * them. */
int mg_bench_run(const mg_bench_opts *o) {
    if (mg_watchdog_begin(o->watchdog_s, "bench")) return 2;
    int st = bench_run(o);
    mg_watchdog_stop();
    return st;
}

static int bench_run(const mg_bench_opts *o) {
    settle_allocator();
    mg_call_pages(!o->small_pages);
    int rank, p;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &p);
    mg_bench_opts table_opts;
    /* Problem types use the paper's root, floor(p/2), unless --root says otherwise; p of the
     * smallest communicator measured (--comm-sizes), whose ranks every root must be (a plan's
     * Allgatherv or Alltoallv line on a half-size split took the job's p/2, out of range). */
    if (o->irregular[0] && !o->root_given) {
        int q = p;
        for (int k = 0; k < o->ncomm_sizes; k++)
            if (o->comm_sizes[k] > 0 && o->comm_sizes[k] < q) q = o->comm_sizes[k];
        table_opts = *o;
        table_opts.root = q / 2;
        o = &table_opts;
    }
    runstate rs;
    memset(&rs, 0, sizeof rs);
    rs.o = o;
    rs.type = mg_bench_datatype(o->datatype);
    rs.op = mg_bench_op(o->op);
    int st = 0, smallest = p;
    for (int k = 0; k < o->ncomm_sizes; k++) {
        if (o->comm_sizes[k] > p) {
            mg_say(rank, 1, "--comm-sizes", "%d is more than the %d processes of this job",
                   o->comm_sizes[k], p);
            return 2;
        }
        if (o->comm_sizes[k] < smallest) smallest = o->comm_sizes[k];
    }
    if (o->root >= smallest) {
        mg_say(rank, 1, "--root", "%d is not a rank of %d processes", o->root, smallest);
        return 2;
    }
    for (int k = 0; k < o->nroots; k++)
        if (o->roots[k] >= smallest) {
            mg_say(rank, 1, "--roots", "%d is not a rank of %d processes%s", o->roots[k], smallest,
                   o->ncomm_sizes ? " (the smallest of --comm-sizes)" : "");
            return 2;
        }
    mg_nrep_table nt = {0, NULL};
    if (o->nrep_file) {
        if (rank == 0) st = load_nrep(o, &nt);
        if ((st = bcast_status(st, MPI_COMM_WORLD))) return st;
        /* every rank needs the same table: broadcast it */
        PMPI_Bcast(&nt.n, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (rank != 0) nt.e = malloc(sizeof(mg_nrep_entry) * (size_t)(nt.n ? nt.n : 1));
        PMPI_Bcast(nt.e, (int)(sizeof(mg_nrep_entry) * (size_t)nt.n), MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    mg_joblist jobs = {0, 0, NULL};
    st = o->table ? 0 : mg_build_jobs(o, o->nrep_file ? &nt : NULL, &jobs, rank);
    mg_nrep_table_free(&nt);
    rs.rotate = st ? NULL : malloc(sizeof(int) * (size_t)p);
    if (!st && !rs.rotate) st = 1;
    if (st) {
        free(jobs.v);
        return st;
    }
    for (int i = 0; i < p; i++) rs.rotate[i] = i;
    char layout[4096] = "";
    if (mg_harness_init(&rs.h, MPI_COMM_WORLD, o) != MPI_SUCCESS ||
        (o->ncomm_sizes &&
         make_subcomms(o, rank, p, &rs.sub, &rs.nsub, layout, sizeof layout) != MPI_SUCCESS)) {
        mg_say(rank, 1, "bench", "synchronisation set-up failed");
        free(jobs.v);
        free(rs.rotate);
        return 1;
    }

    mg_busy busy;
    mg_busy_begin(&busy);

    /* rank 0 owns --output-file for the whole run (mg_raw_lock) */
    int lock_fd = -1, created = 0;
    if (rank == 0 && o->output_file && mg_raw_lock(o->output_file, &lock_fd, &created)) {
        if (errno == EWOULDBLOCK)
            mg_say(0, 1, o->output_file,
                   "another process is writing this file (a stopped run whose ranks are still "
                   "ending, or a second run): nothing measured; try again once it has ended");
        else
            mg_say(0, 1, o->output_file, "cannot open the output file (--output-file): %s",
                   strerror(errno));
        st = 1;
    }
    if ((st = bcast_status(st, MPI_COMM_WORLD))) goto finish;

    /* the file to resume, on rank 0; the complete measurements go to every rank */
    int fresh = 1;
    if (o->resume) {
        if (rank == 0) st = load_resume(o, p, &rs.h, &jobs, &fresh);
        st = bcast_status(st, MPI_COMM_WORLD);
        int *done = malloc(sizeof(int) * (size_t)(jobs.n ? jobs.n : 1));
        for (int i = 0; done && i < jobs.n; i++) done[i] = jobs.v[i].done;
        if (done) PMPI_Bcast(done, jobs.n, MPI_INT, 0, MPI_COMM_WORLD);
        for (int i = 0; done && i < jobs.n; i++) jobs.v[i].done = done[i];
        free(done);
        if (st) goto finish;
    }

    /* order: (call, msize, algorithm) as listed, or shuffled with the seed */
    uint64_t seed = o->seed;
    if (!o->seed_given && rank == 0)
        seed = (uint64_t)time(NULL) * 6364136223846793005ULL ^ (uint64_t)getpid();
    PMPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    rs.seed = seed;
    if (o->table && (st = mg_irrtab_jobs(o, p, seed, &rs.table, &jobs, rank))) goto finish;
    int *order = malloc(sizeof(int) * (size_t)(jobs.n ? jobs.n : 1));
    if (!order) {
        st = 1;
        goto finish;
    }
    for (int i = 0; i < jobs.n; i++) order[i] = i;
    if (o->shuffle) mg_bench_shuffle(order, jobs.n, seed);

    /* header and output */
    char extra[4400];
    snprintf(extra, sizeof extra,
             "#@seed=%llu\n#@shuffle=%d\n#@interleave=%lld\n#@spread=%d\n#@pages=%s\n%s",
             (unsigned long long)seed, o->shuffle, (long long)o->interleave, o->spread,
             o->small_pages ? "small" : "huge", layout);
    char *header = malloc(8192);
    if (header && mg_bench_header(&rs.h, o, 1, extra, header, 8192) != MPI_SUCCESS) st = 1;
    rs.write_raw = o->output_file || (!o->summary && !o->table);
    if (rank == 0 && rs.write_raw) {
        int with_flag = o->sync == MG_SYNC_WINDOW || o->sync == MG_SYNC_ROUNDTIME;
        if (mg_raw_open(&rs.w, o->output_file, o->resume && !fresh, with_flag)) {
            mg_say(0, 1, o->output_file, "cannot open the output file (--output-file)");
            st = 1;
        } else if (fresh && header && mg_raw_write_text(&rs.w, header)) {
            mg_say(0, 1, o->output_file ? o->output_file : "stdout", "write failed");
            st = 1;
        }
        if (!st) mg_watchdog_output(rs.w.fd);
    }
    free(header);
    if ((st = bcast_status(st, MPI_COMM_WORLD))) goto finish_order;

    int64_t todo = 0;
    for (int i = 0; i < jobs.n; i++) todo += !jobs.v[i].done;
    mg_progress_begin(&rs.pr, todo, o->quiet, rank);
    mg_job *group = o->interleave ? malloc(sizeof(mg_job) * (size_t)(jobs.n ? jobs.n : 1)) : NULL;
    int *gsizes = o->interleave ? malloc(sizeof(int) * (size_t)(jobs.n ? jobs.n : 1)) : NULL;
    for (int k = 0; k < jobs.n && !(o->interleave && (!group || !gsizes)); k++) {
        mg_job *j = &jobs.v[order[k]];
        if (j->done) continue;
        mg_progress_step(&rs.pr, mpiguide_collective_name(j->coll), j->algname, j->msize);
        int ng = 1, rc;
        if (group) { /* --interleave: every algorithm of this (call, msize) together */
            int ngroups = 0;
            ng = 0;
            for (int f = k; f < jobs.n; f++) { /* --spread: and every (call, msize) after it */
                mg_job *first = &jobs.v[order[f]];
                if (first->done || first->q != j->q || (f > k && !o->spread)) continue;
                gsizes[ngroups] = 0;
                for (int i = f; i < jobs.n; i++) {
                    mg_job *g = &jobs.v[order[i]];
                    if (g->done || g->coll != first->coll || g->msize != first->msize ||
                        g->q != first->q)
                        continue;
                    group[ng++] = *g;
                    g->done = 1;
                    gsizes[ngroups]++;
                }
                ngroups++;
            }
            rc = mg_measure_rounds(&rs, group, gsizes, ngroups);
        } else {
            rc = measure(&rs, j);
        }
        int failed = rc != MPI_SUCCESS;
        if (j->q && j->q < p) failed = settle(rs.h.hcomm, failed, rs.h.machine.simulated);
        if (failed) {
            mg_say(rank, 1, "bench", "an MPI call failed; stopping");
            st = 1;
            break;
        }
        rs.pr.done += ng;
    }
    if (o->interleave && (!group || !gsizes)) {
        mg_say(rank, 1, "bench", "out of memory");
        st = 1;
    }
    free(group);
    free(gsizes);
    mg_progress_end(&rs.pr);
    if (!st && rs.table && rank == 0) mg_irrtab_print(rs.table, stdout);
    if (!st) say_busy(&rs, &busy);
    if (!st) st = rs.exit;
    PMPI_Allreduce(MPI_IN_PLACE, &st, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
finish_order:
    free(order);
finish:
    /* a file this run created and failed before writing its header to goes again */
    if (rank == 0 && st && created && rs.w.fd <= STDERR_FILENO) unlink(o->output_file);
    if (rank == 0) mg_raw_close(&rs.w);
    if (lock_fd >= 0) close(lock_fd);
    mg_harness_free(&rs.h);
    for (int k = 0; k < rs.nsub; k++)
        if (rs.sub[k].member) { /* the sub-communicator is the harness's world */
            mg_harness_free(&rs.sub[k].h);
            if (rs.sub[k].h.comm != MPI_COMM_NULL) PMPI_Comm_free(&rs.sub[k].h.comm);
        }
    free(rs.sub);
    free(rs.rotate);
    mg_irrtab_free(rs.table);
    free(jobs.v);
    return st;
}
