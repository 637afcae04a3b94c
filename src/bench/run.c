/* `mpiguide bench`: turns options into a list of measurements (call, algorithm, msize and, with
 * --comm-sizes, the sub-communicator), checks everything that can be wrong before the first
 * observation (algorithm names, roots, communicator sizes, the nrep file, the file to resume),
 * then measures each one in turn and writes its rows. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "harness.h"
#include "rawdata/scan.h"
#include "summary.h"
#include "algorithms/irregular/problems.h"
#include "runstate.h"
#include "table.h"
#include "util/file.h"
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
        if (s && s->member) PMPI_Comm_free(&comm);
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
        rc = PMPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done) nanosleep(&pause, NULL);
    }
    return rc != MPI_SUCCESS || all;
}

/* ---- one measurement ---- */
typedef mg_runstate runstate;

static void print_summary(runstate *rs, const mg_job *j, const double *rt, const int *flag,
                          int64_t n_obs) {
    unsigned m = rs->o->summary;
    if (!rs->summary_header) {
        printf("# test alg msize n_valid%s%s%s%s\n", m & MG_SUMMARY_MIN ? " min" : "",
               m & MG_SUMMARY_MEDIAN ? " median ci95_lo ci95_hi" : "",
               m & MG_SUMMARY_MEAN ? " mean" : "", m & MG_SUMMARY_MAX ? " max" : "");
        rs->summary_header = 1;
    }
    double *v = malloc(sizeof(double) * (size_t)(n_obs ? n_obs : 1));
    if (!v) return;
    size_t n = 0;
    for (int64_t i = 0; i < n_obs; i++)
        if (flag[i] == 0) v[n++] = rt[i];
    mg_bench_summary s;
    mg_bench_summarize(v, n, &s);
    printf("%s %s %lld %zu", mpiguide_collective_name(j->coll), j->algname, (long long)j->msize, n);
    if (m & MG_SUMMARY_MIN) printf(" %.10f", s.min);
    if (m & MG_SUMMARY_MEDIAN) printf(" %.10f %.10f %.10f", s.median, s.ci_lo, s.ci_hi);
    if (m & MG_SUMMARY_MEAN) printf(" %.10f", s.mean);
    if (m & MG_SUMMARY_MAX) printf(" %.10f", s.max);
    printf("\n");
    fflush(stdout);
    free(v);
}

/* Per-rank counts of an irregular problem for Gatherv/Scatterv (NULL: regular counts); a
 * --table measurement carries its own problem type. */
static int64_t *problem_counts(const runstate *rs, const mg_job *j, int p) {
    const mg_bench_opts *o = rs->o;
    if (!o->irregular[0] || (j->coll != MPIGUIDE_COLL_GATHERV && j->coll != MPIGUIDE_COLL_SCATTERV))
        return NULL;
    int64_t *counts = malloc(sizeof(int64_t) * (size_t)p);
    if (counts)
        mg_problem_counts(j->table_cell ? j->problem : mg_problem_parse(o->irregular), p,
                          j->msize / (int64_t)sizeof(int), o->rho, rs->seed, counts);
    return counts;
}

mg_harness *mg_meas_harness(runstate *rs, const mg_job *j) {
    for (int k = 0; k < rs->nsub; k++)
        if (rs->sub[k].q == j->q) return rs->sub[k].member ? &rs->sub[k].h : NULL;
    return &rs->h;
}

int mg_meas_open(runstate *rs, const mg_job *j, int64_t obs_cap, mg_call *c, mg_obs *obs,
                 int *ready) {
    mg_harness *h = mg_meas_harness(rs, j);
    *ready = 0;
    if (!h) return MPI_SUCCESS; /* not in this sub-communicator */
    const mg_bench_opts *o = rs->o;
    int rooted = mg_coll_is_rooted(j->coll), seq = rooted && (o->roots_rotate || o->nroots);
    const char *cname = mpiguide_collective_name(j->coll);
    char why[200] = "", where[300];
    snprintf(where, sizeof where, "%s %s %lld", cname, j->algname, (long long)j->msize);
    int irregular = j->table_cell || (o->irregular[0] && (j->coll == MPIGUIDE_COLL_GATHERV ||
                                                          j->coll == MPIGUIDE_COLL_SCATTERV));
    int64_t *vcounts = problem_counts(rs, j, h->p);
    int bad = mg_call_setup(c, j->coll, j->alg, j->msize, irregular ? MPI_INT : rs->type, rs->op,
                            seq ? -1 : o->root, h->comm, vcounts, why, sizeof why) != 0;
    if (!bad && seq) {
        c->roots = o->roots_rotate ? rs->rotate : o->roots;
        c->nroots = o->roots_rotate ? h->p : o->nroots;
        c->args.root = c->roots[0];
    }
    free(vcounts);
    int obs_bad = bad || mg_obs_alloc(obs, obs_cap, h->rank) != 0;
    int any_bad;
    PMPI_Allreduce(&obs_bad, &any_bad, 1, MPI_INT, MPI_MAX, h->hcomm);
    if (any_bad) {
        mg_progress_clear(&rs->pr);
        mg_say(h->rank, 0, where, "skipped: %s",
               why[0] ? why
                      : "out of memory for the "
                        "observation arrays");
        if (!bad) mg_call_free(c);
        if (!obs_bad) mg_obs_free(obs);
        return MPI_SUCCESS;
    }

    /* probe: does the algorithm itself run (the decision is the same on every rank)? */
    int outcome = MPIGUIDE_RAN_DEFAULT;
    unsigned declined = 0;
    int rc =
        j->alg == MG_CALL_TUNED ? c->run(c) : mpiguide_run(j->alg, &c->args, &outcome, &declined);
    if (rc == MPI_SUCCESS && j->alg >= 0 && j->alg != mpiguide_default_algorithm(j->coll) &&
        outcome != MPIGUIDE_RAN_MOCKUP) {
        mg_progress_clear(&rs->pr);
        mg_say(h->rank, 0, where, "skipped: the default ran instead (%s)",
               outcome == MPIGUIDE_FALLBACK_MEMORY    ? "scratch need beyond size_msg_buffer_bytes"
               : outcome == MPIGUIDE_FALLBACK_OFF     ? "mpiguide is not initialised"
               : outcome == MPIGUIDE_FALLBACK_LIBRARY ? "the library algorithm could not be set "
                                                        "up on this communicator"
                                                      : "the algorithm declines these arguments");
        goto fail;
    }
    if (rc == MPI_SUCCESS && o->verify && j->alg != mpiguide_default_algorithm(j->coll)) {
        int bad_rank;
        rc = mg_call_verify(c, h->rank, &bad_rank);
        if (rc == MPI_SUCCESS && h->rank == 0) {
            mg_progress_clear(&rs->pr);
            if (bad_rank < 0) {
                fprintf(stderr, "mpiguide: verify: %s: pass\n", where);
            } else {
                mg_say(0, 1, where, "verify: result differs from the default on rank %d", bad_rank);
                rs->exit = 1;
            }
        }
    }
    for (int64_t i = 1; rc == MPI_SUCCESS && i < o->warmup; i++) rc = c->run(c);
    if (rc != MPI_SUCCESS) goto fail;
    *ready = 1;
    return MPI_SUCCESS;
fail:
    mg_call_free(c);
    mg_obs_free(obs);
    return rc;
}

void mg_meas_write(runstate *rs, const mg_job *j, const double *rt, const int *flag, int64_t n) {
    const mg_bench_opts *o = rs->o;
    const char *label = j->table_cell ? mg_irrtab_label(rs->table, j) : NULL;
    if (rs->write_raw && ((label && mg_raw_write_text(&rs->w, label)) ||
                          mg_raw_write_meas(&rs->w, mpiguide_collective_name(j->coll), j->algname,
                                            j->msize, rt, flag, n, j->q))) {
        mg_say(0, 1, o->output_file ? o->output_file : "stdout", "write failed");
        rs->exit = 1;
    }
    if (o->summary) print_summary(rs, j, rt, flag, n);
    if (j->table_cell) mg_irrtab_note(rs->table, j, rt, flag, n);
}

static int measure(runstate *rs, const mg_job *j) {
    mg_harness *h = mg_meas_harness(rs, j);
    if (!h) return MPI_SUCCESS; /* not in this sub-communicator */
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

int mg_bench_run(const mg_bench_opts *o) {
    settle_allocator();
    mg_call_pages(!o->small_pages);
    int rank, p;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &p);
    mg_bench_opts table_opts;
    /* Problem types use the paper's root, floor(p/2), unless --root says otherwise. */
    if (o->irregular[0] && !o->root_given) {
        table_opts = *o;
        table_opts.root = p / 2;
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
        if (rs.sub[k].member) mg_harness_free(&rs.sub[k].h);
    free(rs.sub);
    free(rs.rotate);
    mg_irrtab_free(rs.table);
    free(jobs.v);
    return st;
}
