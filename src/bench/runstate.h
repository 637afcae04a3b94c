/* The state of one `mpiguide bench` run shared by run.c (one measurement at a time),
 * interleave.c (the measurements of one (call, msize) alternated in batches) and measurement.c
 * (the steps of a measurement both use: open, with buffers, probe, verify and warm-up; write,
 * with rows and summary). */
#ifndef MG_BENCH_RUNSTATE_H
#define MG_BENCH_RUNSTATE_H

#include "harness.h"
#include "table.h"

/* a sub-communicator of --comm-sizes and its harness (member 0: this rank is outside it) */
typedef struct mg_subcomm {
    int q, member;
    mg_harness h;
} mg_subcomm;

typedef struct mg_runstate {
    const mg_bench_opts *o;
    mg_harness h;
    mg_subcomm *sub; /* --comm-sizes below the job's size */
    int nsub;
    int *rotate; /* 0, 1, ..., p - 1: the root sequence of --roots=rotate */
    mg_raw_writer w;
    int write_raw, summary_header;
    MPI_Datatype type;
    MPI_Op op;
    uint64_t seed;
    int exit;
    mg_progress pr;
    mg_irrtab *table; /* --table */
} mg_runstate;

/* Sets up j's call and its observation arrays (cap obs_cap), probes that the algorithm runs
 * itself, verifies with --verify and makes the warm-up calls. *ready = 0 when the measurement
 * is skipped (a warning said why; one for lack of memory is mg_meas_skipped; nothing to free).
 * Collective; returns an MPI error code. */
/* The harness j is measured with: the job's or its sub-communicator's (NULL: this rank is not
 * in it and takes no part in the measurement). */
mg_harness *mg_meas_harness(mg_runstate *rs, const mg_job *j);
int mg_meas_open(mg_runstate *rs, const mg_job *j, int64_t obs_cap, mg_call *c, mg_obs *obs,
                 int *ready);
/* j skipped for lack of memory (why: of what), on every rank of its harness: rank 0 warns,
 * marks it in the raw data (`#@skipped=`) and counts it for the launch's last line and exit
 * code (skips.h). */
void mg_meas_skipped(mg_runstate *rs, int rank, const mg_job *j, const char *why);
/* Rank 0: j's rows (runtimes and flags of n observations) and its --summary line. */
void mg_meas_write(mg_runstate *rs, const mg_job *j, const double *rt, const int *flag, int64_t n);

/* The measurements jobs[0..) in groups of sizes[0..ngroups) consecutive jobs (a group: one
 * call and size, different algorithms; every group on the same communicator), in rounds of
 * o->interleave observations per measurement, alternating ABBA, until every one has its nrep
 * or its group's time budget is spent. One group: --interleave; all of a run's: --spread.
 * Collective; returns an MPI error code. */
int mg_measure_rounds(mg_runstate *rs, const mg_job *jobs, const int *sizes, int ngroups);

#endif
