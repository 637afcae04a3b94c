/* Options of `mpiguide bench` (docs/dev/interfaces.md section 6) and their validation, without MPI:
 * every option and ReproMPI alias is known here, anything else is an error naming the option. The
 * checker parses the options of its input lines with the same function. */
#ifndef MG_BENCH_OPTS_H
#define MG_BENCH_OPTS_H

#include "catalog/catalog.h"
#include <stddef.h>
#include <stdint.h>

enum mg_sync_method {
    MG_SYNC_MPIBARRIER,    /* PMPI_Barrier before each observation */
    MG_SYNC_DISSEMINATION, /* our dissemination barrier on PMPI point-to-point */
    MG_SYNC_WINDOW,        /* fixed windows on the synchronised clock */
    MG_SYNC_ROUNDTIME,     /* per-observation start time agreed after the previous one */
    MG_SYNC_COUNT
};

enum mg_runtime_type { MG_RUNTIME_LOCAL, MG_RUNTIME_GLOBAL };

/* --watchdog (src/bench/watchdog.h): seconds without progress before a run is stopped */
#define MG_WATCHDOG_DEFAULT_S 300.0 /* when neither --watchdog nor MPIGUIDE_WATCHDOG is given */
#define MG_WATCHDOG_MAX_S     1e6

/* --summary columns */
#define MG_SUMMARY_MIN    1u
#define MG_SUMMARY_MEDIAN 2u
#define MG_SUMMARY_MEAN   4u
#define MG_SUMMARY_MAX    8u
#define MG_SUMMARY_ALL    15u

/* Algorithm keywords of --algs besides registry names. */
#define MG_ALG_DEFAULT "default" /* the library's own collective, through PMPI */
#define MG_ALG_TUNED   "tuned"   /* the public MPI_* name (intercepted by libmpiguide) */
#define MG_ALG_ALL     "all"     /* default, every mock-up and every library algorithm */
#define MG_ALG_MOCKUPS "mockups" /* every mock-up of the call */
#define MG_ALG_LIBRARY "library" /* every library algorithm of the call (src/libalg/) */

typedef struct mg_bench_opts {
    int ncalls;
    int *calls; /* collective ids in the order of collectives.def */
    int nalgs;
    char **algs;    /* as given: registry names, "default", "tuned", "all" */
    int algs_given; /* --algs was given (check's input lines then measure only those) */
    int nmsizes;
    int64_t *msizes;       /* bytes, in the order given, without duplicates */
    int64_t nrep;          /* observations per measurement (a maximum with a time budget) */
    int nrep_given;        /* --nrep was on the command line */
    char *nrep_file;       /* --nrep-file */
    double time_ms;        /* --rt-bench-time-ms; 0: no budget */
    int64_t barrier_count; /* --rt-barrier-count */
    int root;
    int root_given;    /* --root was on the command line (--table: else floor(p/2)) */
    char op[24];       /* MPI_BOR, ... */
    char datatype[24]; /* MPI_BYTE, ... */
    int shuffle;
    int small_pages;  /* --pages=small: buffers on the kernel's base pages (calls.c) */
    int sync;         /* mg_sync_method */
    int runtime;      /* mg_runtime_type */
    unsigned summary; /* MG_SUMMARY_* bits; 0: no summary */
    char *output_file;
    int resume, verify, quiet;
    int64_t warmup;
    uint64_t seed;
    int seed_given;
    char irregular[32];       /* problem type name, or "all" with --table; "" when not given */
    int64_t b;                /* --b, MPI_INT elements; -1 when not given */
    double rho;               /* --rho */
    int table;                /* --table (src/bench/table.c) */
    double window_us;         /* --window-size (microseconds); 0: automatic */
    int fitpoints, exchanges; /* clock synchronisation: fit points, ping-pongs per point */
    int64_t interleave;       /* --interleave: batch size; 0: one measurement after another */
    int interleave_given;     /* --interleave was given (check's lines interleave by default) */
    int spread;               /* --spread: the sizes' batches in turn too (interleave.c) */
    /* The application's conditions (docs/benchmark.md "Measuring like an application"): */
    int ncomm_sizes;  /* --comm-sizes: sub-communicators of MPI_COMM_WORLD that keep node */
    int *comm_sizes;  /* locality, measured in this launch; 0 entries: the whole job only */
    int roots_rotate; /* --roots=rotate: call k has root k mod p */
    int nroots;       /* --roots=R1,R2,...: call k has root R[k mod n] */
    int *roots;
    int64_t batch;     /* --back-to-back=N: N consecutive calls timed as one; 0: one call */
    double watchdog_s; /* --watchdog (seconds, 0: off); < 0: not given */
    int help;
} mg_bench_opts;

/* Defaults: every collective, algorithm `default`, sizes 1,8,64,512,4096,32768 (rounded up to
 * whole elements), nrep 100, MPI_BYTE with MPI_BOR (as ReproMPI), root 0, round-time
 * synchronisation with global times (no local-timer artefacts), warmup 1. */
/* --irregular=TYPE measures the v-collectives with the counts of that problem type. Gatherv,
 * Scatterv and Alltoallv (selected by communicator size only) take msize as 4 b, b the base
 * block in MPI_INT elements (Alltoallv: every rank sends counts[j] to rank j); Allgatherv keeps
 * its msize, the whole vector, in elements of --datatype. */
static inline int mg_bench_irregular_b(int coll) {
    return mg_coll_is_v(coll) && mg_coll_sizeless(coll);
}
static inline int mg_bench_irregular(int coll) {
    return mg_coll_is_v(coll);
}

void mg_bench_defaults(mg_bench_opts *o);
/* Parses argv[0..argc-1] (all options; `--name=value` or `--name value`) on top of what o
 * holds (call mg_bench_defaults first). Returns 0, or 2 with "OPTION: problem" in err. */
int mg_bench_parse(int argc, char *const *argv, mg_bench_opts *o, char *err, size_t errlen);
void mg_bench_opts_free(mg_bench_opts *o);
/* Deep copy (for drivers that derive options per input line); 0 or -1 on allocation failure. */
int mg_bench_opts_copy(mg_bench_opts *dst, const mg_bench_opts *src);

const char *mg_sync_name(int sync);       /* "mpibarrier", ... */
const char *mg_runtime_name(int runtime); /* "local", "global" */
/* The #@roots value of the options: "rotate", "R1,R2,...", or the fixed root ("0"). */
void mg_bench_roots_text(const mg_bench_opts *o, char *buf, size_t len);

/* Whether option NAME (without the leading dashes, len bytes) exists and takes a value: -1
 * unknown, 0 a flag, 1 a required value, 2 an optional value (`--summary[=...]`). */
int mg_bench_option_arity(const char *name, size_t len);

/* Random permutation of idx[0..n-1] (Fisher-Yates on splitmix64 of seed): the same seed
 * gives the same order on every rank. */
void mg_bench_shuffle(int *idx, int n, uint64_t seed);

/* Usage text of `mpiguide bench`. */
extern const char mg_bench_usage[];

#endif
