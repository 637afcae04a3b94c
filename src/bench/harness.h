/* Internals of the measurement harness: communicators and synchronised clock, the call under
 * test with its buffers, the observation loop, the raw writer and the progress line. */
#ifndef MG_BENCH_HARNESS_H
#define MG_BENCH_HARNESS_H

#include "mpiguide.h"
#include "model/clock_model.h"
#include "nrep.h"
#include "options.h"
#include <stdint.h>
#include <stdio.h>

/* ---- the machine: ranks per node against cores (machine.c) ---- */
typedef struct mg_machine {
    int node_ranks, node_cores;   /* this rank's node */
    int over;                     /* this node has more ranks than cores */
    int any_over;                 /* some node has (the same on every rank) */
    int worst_ranks, worst_cores; /* the node with the most ranks beyond its cores */
    int busy_poll;                /* MPICH, oversubscribed: its progress engine spins */
    int simulated;                /* SMPI: waits for a time sleep on the simulated clock */
} mg_machine;

/* Collective over comm. Returns an MPI error code. */
int mg_machine_probe(MPI_Comm comm, mg_machine *m);

/* Other processes sharing the cores: a rank switched out of its core while it runs
 * (involuntary context switches: preempted, or its yield taken) at least this often per second
 * of a run measured the scheduler as much as the collectives. Quiet, a busy-polling rank is
 * switched out a few times a second at most; beside a busy process per core, 25-160 times. */
#define MG_BUSY_SWITCHES_PER_S 20.0
typedef struct mg_busy {
    double wall, cpu; /* at the start of the run */
    long switches;
} mg_busy;
void mg_busy_begin(mg_busy *b);
/* Collective over comm: the most involuntary context switches per second on one rank since
 * mg_busy_begin, and the smallest share of a core one got, on every rank. */
int mg_busy_end(MPI_Comm comm, const mg_busy *b, double *per_s, double *share);

/* ---- harness: communicators, clock, synchronisation ---- */
/* What went wrong with the clocks since rank 0 last wrote it to the raw file (`#@clock_sync`
 * lines, docs/benchmark.md "Clock synchronisation"); the same on every rank. */
typedef struct mg_clock_events {
    int64_t rejected; /* synchronisations in which some rank's fitted drift was rejected */
    double drift;     /* the largest such drift (signed) */
    int64_t failed;   /* observations whose start was a failed synchronisation (most on a rank) */
    double ahead;     /* the farthest such start was ahead of the rank's clock (seconds) */
} mg_clock_events;

typedef struct mg_harness {
    MPI_Comm comm;  /* the calls under test run here: the caller's world (not freed here) */
    MPI_Comm hcomm; /* synchronisation, decisions and result collection (its duplicate) */
    int rank, p;
    int sync;    /* mg_sync_method */
    int runtime; /* mg_runtime_type */
    int need_clock;
    mg_clock_model clock; /* this rank's clock -> rank 0's clock */
    double clock_err;     /* max over ranks of the model's residual error (seconds) */
    int fitpoints, exchanges;
    double window;         /* window sync: seconds; 0 = measure per call */
    int64_t barrier_count; /* roundtime: barrier after this many missed starts (0: never) */
    double slack;          /* time to agree on a start (seconds, same on all ranks) */
    double synced_at;      /* rank 0's clock at the last synchronisation */
    int resync_due;        /* this rank met a failed start: synchronise at the next chance */
    int64_t failed_starts; /* this rank's failed starts since the last synchronisation */
    double failed_ahead;   /* and how far ahead the farthest of them was */
    mg_clock_events ev;
    int unbounded; /* test builds: MPIGUIDE_TEST_CLOCK_UNBOUNDED=1, waits not bounded */
    int yield;     /* more ranks than cores on this node: waiting loops yield */
    mg_machine machine;
    int64_t batch; /* --back-to-back: calls per observation (1: single-call timing) */
} mg_harness;

/* The calls under test run on world, which the caller keeps (and frees, if it is its own)
 * until after mg_harness_free; the harness talks on a duplicate of it. */
int mg_harness_init(mg_harness *h, MPI_Comm world, const mg_bench_opts *o);
void mg_harness_free(mg_harness *h);
/* Fits the clock models again and re-measures the slack (collective; no-op without a clock).
 * Without force only when the last fit is older than MG_RESYNC_S (rank 0 decides) or some rank
 * met a failed start (h->resync_due). Counts what went wrong in h->ev. */
#define MG_RESYNC_S 1.0
int mg_harness_sync_clocks(mg_harness *h, int force);
/* HCA-style clock synchronisation on comm: fits each rank's model against rank 0; *err gets
 * the largest residual error over ranks, *rejected the largest drift a rank's fit rejected
 * (MG_CLOCK_DRIFT_MAX; signed, 0 when none), both on every rank. yield: wait without
 * spinning. */
int mg_clock_sync(MPI_Comm comm, int fitpoints, int exchanges, int yield, mg_clock_model *model,
                  double *err, double *rejected);
/* Rank 0: the `#@clock_sync=...` lines for h->ev into out (empty when nothing happened), and
 * h->ev cleared. */
void mg_clock_events_text(mg_harness *h, char *out, size_t len);
/* Dissemination barrier on PMPI point-to-point: ceil(log2 p) rounds of zero-byte messages. */
int mg_dissemination_barrier(MPI_Comm comm, int rank, int p);

static inline double mg_gtime(const mg_harness *h, double local) {
    return mg_clock_apply(&h->clock, local);
}

/* ---- the call under test ---- */
/* What a measurement calls besides a registry algorithm id (ids are >= 0). */
enum mg_call_kind {
    MG_CALL_TUNED = -2, /* the public MPI_* name */
    MG_CALL_EMPTY = -3  /* nothing (harness cost) */
};

typedef struct mg_call {
    int coll, alg; /* registry id, MG_CALL_TUNED or MG_CALL_EMPTY */
    int (*run)(struct mg_call *c);
    mpiguide_args args;
    MPI_Datatype type;
    int tsize;
    int64_t count;
    void *sbuf, *rbuf, *ref;
    void *block; /* the region holding sbuf and rbuf (calls.c places them) */
    size_t sbytes, rbytes;
    int *scounts, *sdispls, *rcounts, *rdispls;
    int significant;  /* the receive buffer holds a defined result on this rank */
    const int *roots; /* --roots: the root of the k-th call of the measurement is */
    int nroots;       /* roots[k mod nroots] (NULL: always args.root) */
    int64_t kroot;
    MPI_Request req; /* nonblocking collectives: the request args.request points to */
} mg_call;

MPI_Datatype mg_bench_datatype(const char *name); /* MPI_DATATYPE_NULL when unknown */
MPI_Op mg_bench_op(const char *name);             /* MPI_OP_NULL when unknown */
/* Allocates the buffers and arguments of coll with msize bytes (elements of `type`; the
 * v-collectives take vcounts[i] elements from rank i when vcounts is not NULL). root < 0: the
 * root changes from call to call (--roots), so every rank gets the root's buffers. Returns 0,
 * -1 with a reason in why (counts beyond int: the same on every rank) or -2 with a reason (out
 * of memory: this rank's alone). */
int mg_call_setup(mg_call *c, int coll, int alg, int64_t msize, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm comm, const int64_t *vcounts, char *why, size_t whylen);
void mg_call_free(mg_call *c);
/* Test builds (MPIGUIDE_TEST_HOOKS) with MPIGUIDE_TEST_NOMEM=BYTES: 1 when the allocations of a
 * measurement of msize bytes are to fail (mg_call_setup's buffers on the last rank, the
 * interleaved observation arrays on rank 0); always 0 otherwise. */
int mg_test_nomem(int64_t msize);
/* Buffers of later mg_call_setup calls on transparent huge pages (1, the default) or on the
 * kernel's base pages (0): `bench --pages`. */
void mg_call_pages(int huge);
/* One run of c's algorithm through mpiguide_run, saying how it ran (outcome, declined: as
 * there). A nonblocking collective is completed before it returns: a start left pending would
 * still write the receive buffer during the next call (and leak its request). */
int mg_call_probe(mg_call *c, int *outcome, unsigned *declined);
/* Deterministic inputs (and a sentinel in the receive buffers) for verification. */
void mg_call_fill(mg_call *c, int rank);
/* Runs the default and c's algorithm on the same inputs and compares the results; returns 0 on
 * success with *bad_rank = -1, or the lowest rank whose result differs (collective). */
int mg_call_verify(mg_call *c, int rank, int *bad_rank);

/* ---- observations ---- */
typedef struct mg_obs_plan {
    int64_t nmax;
    double budget;       /* seconds; 0: none */
    mg_nrep_state *rule; /* rank 0: NREP rule fed with each runtime (needs stream) */
    int stream;          /* all ranks: collect each runtime on rank 0 and let it decide */
} mg_obs_plan;

typedef struct mg_obs {
    int64_t cap, n;
    double *t0, *t1; /* local timestamps */
    int *flag;       /* window/roundtime: 0 valid, 1 start missed, 2 window overrun */
    double *work;    /* collection buffer (3 cap) */
    double *runtime; /* rank 0 after mg_obs_collect */
    int *gflag;      /* rank 0 after mg_obs_collect: flags combined over ranks */
    double last;     /* stream mode, rank 0: runtime of the last observation */
} mg_obs;

int mg_obs_alloc(mg_obs *o, int64_t cap, int rank);
void mg_obs_free(mg_obs *o);
/* The observation loop: up to plan->nmax observations of c under h's synchronisation. Stops
 * early, on every rank after the same observation, when rank 0 finds the budget spent or the
 * rule satisfied. Nothing is allocated. Returns an MPI error code. */
int mg_observe(mg_harness *h, mg_call *c, const mg_obs_plan *plan, mg_obs *o);
/* Runtimes (local: max over ranks of the local time; global: latest end minus earliest start
 * on the synchronised clock) and combined flags of o's observations, on rank 0. */
int mg_obs_collect(mg_harness *h, mg_obs *o);

/* ---- raw output (rank 0) ---- */
typedef struct mg_raw_writer {
    int fd;
    int with_flag;
    int section; /* the #@comm_size last written (0: none yet since opening) */
    char *buf;
    size_t cap;
} mg_raw_writer;

/* Nodes (ranks sharing memory count as one) and most ranks per node of comm; collective. */
int mg_comm_layout(MPI_Comm comm, int *nodes, int *ppn);
/* Header lines (#@key=value) for h and o; collective (counts nodes); text on rank 0. raw: a raw
 * file (with nrep, warmup ...), else the predicted-nrep file. */
int mg_bench_header(mg_harness *h, const mg_bench_opts *o, int raw, const char *extra, char *out,
                    size_t outlen);
/* Rank 0 holds an exclusive lock (flock) on --output-file for the whole run, from before
 * --resume reads it: a second run on the same file, such as a --resume started while the ranks
 * of a stopped run are still ending (they can append a last measurement seconds after their
 * launcher is gone), would otherwise interleave its rows with theirs. *fd: the lock's
 * descriptor, -1 when nothing is locked (not a regular file, or a file system without locks);
 * *created: the file did not exist before. 0; -1 with errno EWOULDBLOCK when another process
 * holds the lock; -1 with errno set when the file cannot be opened or locked. */
int mg_raw_lock(const char *path, int *fd, int *created);
int mg_raw_open(mg_raw_writer *w, const char *path, int append, int with_flag);
int mg_raw_write_text(mg_raw_writer *w, const char *text);
/* All rows of one measurement in a single write (a killed run keeps whole measurements); with
 * section > 0 (--comm-sizes) preceded by `#@comm_size=section` when the file's current
 * section differs. */
int mg_raw_write_meas(mg_raw_writer *w, const char *test, const char *alg, int64_t msize,
                      const double *rt, const int *flag, int64_t n, int section);
void mg_raw_close(mg_raw_writer *w);

/* ---- the measurements of a run ---- */
typedef struct mg_job {
    int coll, alg; /* registry id or MG_CALL_TUNED */
    const char *algname;
    int64_t msize, nrep;
    int done;       /* complete in the file being resumed */
    int table_cell; /* --table (table.c): 1 + the cell this measurement fills; 0: none */
    int problem;    /* --table: problem type of the counts (v-collectives) or of the padding */
    int q;          /* --comm-sizes: the sub-communicator's size; 0: the whole job, no section */
} mg_job;

typedef struct mg_joblist {
    int n, cap;
    mg_job *v;
} mg_joblist;

/* (call, msize, algorithm) in the order of the options; nrep from nt (may be NULL) or o->nrep.
 * Returns 0, 1 (out of memory) or 2 after a usage message on rank 0; same on every rank. */
int mg_build_jobs(const mg_bench_opts *o, const mg_nrep_table *nt, mg_joblist *l, int rank);
/* The algorithms of collective coll that o->algs names (keywords expanded), in order, without
 * duplicates: registry ids in ids, names in names (room for mpiguide_algorithm_count() + 2). */
int mg_expand_algs(int coll, const mg_bench_opts *o, int *ids, const char **names);
/* Every name in o->algs is a keyword or an algorithm of a listed collective: 0, or 2 after
 * one error per bad name on rank 0 (`where` names the option). With skip_lib, `*_lib_*` names
 * are not looked at (a process that has not started MPI knows no library algorithms). */
int mg_check_alg_names(const mg_bench_opts *o, int rank, const char *where, int skip_lib);
/* A `<coll>_lib_<item>` name this process cannot run: one error on rank 0 naming the library
 * algorithms it can (or why they are off); 1 when `name` has that form, else 0 (nothing said). */
int mg_unknown_library_algorithm(int rank, const char *where, const char *name);
/* Appends j to l; 0, or -1 when out of memory. */
int mg_add_job(mg_joblist *l, mg_job j);
/* A diagnostic (util/diag.h; error 1, warning 0) from rank 0 only. */
void mg_say(int rank, int error, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- progress on stderr (rank 0) ---- */
typedef struct mg_progress {
    int on, tty;
    int64_t total, done;
    double t_begin, t_last;
    int live; /* a live line is on the terminal */
} mg_progress;

void mg_progress_begin(mg_progress *pr, int64_t total, int quiet, int rank);
void mg_progress_step(mg_progress *pr, const char *call, const char *alg, int64_t msize);
void mg_progress_end(mg_progress *pr);
/* Clears a live line before another message goes to stderr. */
void mg_progress_clear(mg_progress *pr);

#endif
