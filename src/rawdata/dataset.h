/* Raw benchmark data (docs/dev/interfaces.md section 5) of one or more OUTDIRs: every observation,
 * grouped by launch, collective, algorithm and message size. Pure (no MPI). */
#ifndef MG_RAW_H
#define MG_RAW_H

#include "skipped.h"
#include "stats/stats.h"
#include <stddef.h>
#include <stdio.h>

typedef struct mg_kv {
    char *key, *val;
} mg_kv;

/* One launch (one mpirun): a directory of <MPI_Name>.dat files. */
typedef struct mg_launch {
    char *path; /* as given, e.g. out/raw/launch-0 */
    int tuned;  /* 1 for the tuned validation (OUTDIR/tuned/) */
    mg_kv *hdr; /* `#@key=value` lines, first occurrence of each key in the launch */
    int nhdr;
} mg_launch;

/* One raw file: its `#@key=value` lines (first occurrence of each key), for what a file, not a
 * launch, says: datatype, op, roots and timing mode can differ between the files of a launch
 * (one per input line of a check). */
typedef struct mg_rawfile {
    char *path;
    int launch;
    mg_kv *hdr;
    int nhdr;
} mg_rawfile;

/* The valid observations of one (launch, collective, algorithm, msize, communicator size). */
typedef struct mg_series {
    int coll, alg, launch; /* indexes into mg_dataset.names and .launches */
    int p;                 /* communicator size: the file's #@comm_size section, else #@nprocs */
    int file;              /* the file the series was first read from (mg_dataset.files) */
    /* The first file with the same #@datatype and #@operation as that file: lines of one
     * collective and size measured with other types (an application's MPI_INT/MPI_MAX calls
     * beside its MPI_DOUBLE/MPI_SUM ones) stay apart. */
    int variant;
    long long msize;
    double *v; /* sorted by mg_dataset_sort */
    size_t n, cap;
    /* Validation (tuned) launches only: the same observations in the order read, with their
     * indexes, so that interleaved batches can be paired (analyze/validate.c); NULL otherwise */
    mg_indexed *seq;
    size_t nseq, capseq;
    size_t nflagged; /* rows with flag 1 (start missed) or 2 (window overrun), left out */
} mg_series;

/* The rows of MPI_Barrier in a file named MPI_Barrier.dat: the synchronisation noise `check`
 * measures first in every launch (the barrier warning), kept apart from MPI_Barrier measured as
 * a collective of the input (its lines write MPI_Barrier-K.dat, K >= 2, measure_plan.c). */
#define MG_BARRIER_NOISE "MPI_Barrier#noise"

/* A `#@declined=COLL ALG MSIZE WHY` line of the benchmark: candidate ALG declined the
 * arguments at MSIZE, the default ran, nothing was measured for it there. Distinct over all
 * files read. */
typedef struct mg_declined {
    char *coll, *alg, *why;
    long long msize;
} mg_declined;

/* A `#@skipped=COLL ALG MSIZE WHY` line (rawdata/skipped.h): the benchmark skipped that
 * measurement for lack of memory. Distinct per file (`file`: mg_dataset.files). */
typedef struct mg_skipped_at {
    mg_skipped s;
    int file;
} mg_skipped_at;

typedef struct mg_dataset {
    char **names; /* interned collective and algorithm names */
    int nnames, capnames;
    mg_launch *launches;
    int nlaunches, caplaunches;
    mg_rawfile *files;
    int nfiles, capfiles;
    mg_series *series;
    size_t nseries, capseries;
    size_t *index; /* open-addressing hash of series; SIZE_MAX marks a free slot */
    size_t nindex;
    char **notes; /* what reading met: incomplete last lines, malformed rows, empty files */
    int nnotes, capnotes;
    mg_declined *declined;
    int ndeclined, capdeclined;
    mg_skipped_at *skipped;
    int nskipped, capskipped;
    long long rows, bad_rows, flagged_rows;
    int cache_name[2]; /* last interned test and algorithm, for runs of equal rows */
} mg_dataset;

void mg_dataset_init(mg_dataset *ds);
void mg_dataset_free(mg_dataset *ds);

/* Adds what a command-line argument names: an OUTDIR (its raw/launch-K/ directories, or
 * *.dat files directly in raw/, and the tuned/ validation likewise), a launch directory of
 * *.dat files, or one .dat file. Returns the number of launches added, or -1 with a message
 * in err (nothing readable there). */
int mg_dataset_add_path(mg_dataset *ds, const char *path, char *err, size_t errlen);

/* Registers a launch; returns its index. */
int mg_dataset_add_launch(mg_dataset *ds, const char *path, int tuned);
/* Parses raw rows of one file's text into launch `launch`; text is modified (tokenised) and
 * need not be NUL-terminated beyond len. fname names the file in notes. Returns 0, or -1 when
 * memory ran out. A last line without a newline is incomplete (an interrupted run) and is
 * dropped with a note; malformed rows are skipped with a note naming FILE:LINE. Rows after a
 * `#@comm_size=Q` line belong to communicator size Q (docs/dev/interfaces.md section 5). */
int mg_dataset_parse(mg_dataset *ds, int launch, char *text, size_t len, const char *fname);
int mg_dataset_read_file(mg_dataset *ds, int launch, const char *path);

int mg_dataset_intern(mg_dataset *ds, const char *name, size_t len); /* -1: out of memory */
int mg_dataset_find_name(const mg_dataset *ds, const char *name);    /* -1: unknown */
/* Header value of a launch, or of the first launch having the key when launch < 0. */
const char *mg_dataset_header(const mg_dataset *ds, int launch, const char *key);
void mg_dataset_note(mg_dataset *ds, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Header value of a file, NULL when absent. */
const char *mg_dataset_file_header(const mg_dataset *ds, int file, const char *key);

/* The series of (coll, alg, launch, msize, p, variant), NULL when there is none. */
const mg_series *mg_dataset_find_series(const mg_dataset *ds, int coll, int alg, int launch,
                                        long long msize, int p, int variant);
/* Sorts every series ascending (the analysis needs sorted samples). */
void mg_dataset_sort(mg_dataset *ds);

#endif
