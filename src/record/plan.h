/* From a record to a check input file (`mpiguide plan --from`, `tune --for`): the collectives,
 * communicator sizes and message sizes that account for a given share of the application's
 * collective time, measured under its conditions (datatype, op, roots, back-to-back calls).
 * docs/record.md "Planning from a record" states every rule. Pure. */
#ifndef MG_RECORD_PLAN_H
#define MG_RECORD_PLAN_H

#include "record.h"
#include <stddef.h>
#include <stdint.h>

typedef struct mg_plan_opts {
    double cover;    /* share of the recorded collective time and calls to plan for, (0, 1] */
    int np;          /* processes of the check job; 0: the record's */
    const char *mpi; /* this build's MPI ("openmpi", "mpich"); NULL: no check */
    int64_t nrep;    /* observations per measurement */
    double time_ms;  /* time budget per measurement */
    int64_t batch;   /* --back-to-back for calls the record saw back to back */
} mg_plan_opts;

/* A row with at least this share of the recorded time or calls is planned whatever --cover. */
#define MG_PLAN_NOTABLE 0.01

void mg_plan_defaults(mg_plan_opts *o);

/* The input text for r (read from rname). Returns 0 with *text (caller frees) and, in warn,
 * a warning for the user or ""; or 2 with "RNAME: problem" in err: a record of another MPI, a
 * job too small for the record's communicators, nothing to plan. */
int mg_plan_from_record(const mg_record *r, const char *rname, const mg_plan_opts *o, char **text,
                        char *warn, size_t warnlen, char *err, size_t errlen);

/* The datatype and op the benchmark measures for a recorded (datatype, element size, op): the
 * same name when the benchmark knows it, else a type of the same size and an op of the same
 * class. Returns 1 when the profile will apply to the recorded calls (same element size and
 * op class), 0 when only MPIGUIDE_MATCH=size lets it. */
int mg_plan_bench_type(const char *datatype, int esize, const char *op, int reduction,
                       const char **type, const char **bop);

#endif
