/* The record of an application run (MPIGUIDE_RECORD, docs/record.md, docs/dev/interfaces.md
 * section 12): per (collective, communicator size, its nodes and ranks per node, datatype, op,
 * message-size bucket) the calls, the time spent in them, the exact sizes and roots seen and
 * how many calls ran a profile entry. This folder owns the format end to end: the library
 * renders it (write.c), `plan --from` and the tests read it back with the one strict parser
 * (parse.c), and coverage summaries are computed from it (cover.c). Pure: no MPI. */
#ifndef MG_RECORD_H
#define MG_RECORD_H

#include "model/problems.h"
#include <stddef.h>
#include <stdint.h>

#define MG_REC_VERSION   2
#define MG_REC_SIZES     8          /* exact sizes listed per row */
#define MG_REC_ROOTS     8          /* roots listed per row */
#define MG_REC_MAX_ROWS  1000000    /* rows in one record */
#define MG_REC_MAX_BYTES (64 << 20) /* size of a record file */
#define MG_REC_MAX_LINE  8192       /* characters in one line */

typedef struct mg_rec_size {
    int64_t msize;
    uint64_t calls;
    double time_s;
    uint64_t covered; /* calls that ran a profile entry */
    double covered_s;
} mg_rec_size;

typedef struct mg_rec_root {
    int root;
    uint64_t calls;
} mg_rec_root;

/* One row. Counts and times are those of the rank with the largest value (max over ranks). */
typedef struct mg_rec_row {
    int coll;            /* collective id (catalog) */
    int p, nodes, ppn;   /* communicator size; its nodes and most ranks on a node, 0 unknown */
    char datatype[40];   /* MPI name of a predefined type, "derived", or "-" (Barrier) */
    int esize;           /* MPI_Type_size of that datatype; 0 with "-" */
    char op[24];         /* MPI name of a predefined op, "user", or "-" (not a reduction) */
    int64_t lo, hi;      /* message-size bucket: 0-0 or 2^k .. 2^(k+1) - 1 bytes (0-0: sizeless) */
    uint64_t calls;      /* >= 1 */
    double time_s;       /* total time in the calls */
    double median_s;     /* median time of one call */
    uint64_t covered;    /* calls that ran a profile entry (mock-up or explicit default) */
    double covered_s;    /* their time */
    uint64_t mockup;     /* covered calls that ran a mock-up */
    uint64_t other_type; /* calls a profile of (collective, p) did not take: datatype or op */
    uint64_t b2b;        /* calls started right after the previous collective (back to back) */
    int nsizes;          /* exact sizes (v-collectives: totals), most frequent first */
    mg_rec_size sizes[MG_REC_SIZES];
    uint64_t sizes_other; /* calls of sizes beyond the listed ones */
    /* v-collectives (block, spread): the largest block of one rank in bytes, and per problem
     * type (model/problems.h) the calls whose counts had that shape, where a rank knew them */
    int vrow;
    int64_t block;
    uint64_t spread[MG_PROBLEM_COUNT];
    /* nonblocking collectives: the calls whose completion (a wait or test) was seen; their
     * time counts from the start to that completion, the others' the start call only */
    int nb;
    uint64_t completed;
    int rooted; /* the collective has a root: roots, roots_other, rotations */
    int nroots;
    mg_rec_root roots[MG_REC_ROOTS];
    uint64_t roots_other; /* calls with roots beyond the listed ones */
    uint64_t rotations;   /* calls whose root was the previous call's root + 1 (mod p) */
    int line;             /* where the parser found it */
} mg_rec_row;

typedef struct mg_record {
    int version;
    char mpi_library[512], hostname[256], date[64], mpiguide_version[32];
    char command[1024]; /* rank 0's command line */
    char mode[16];      /* untuned, forced, tuned */
    char profiles[1024];
    char match[16]; /* exact, size */
    int nprocs, nodes, ppn;
    double wall_s;       /* rank 0: MPI_Init to MPI_Finalize */
    uint64_t lost_calls; /* calls that found no room in the library's table */
    int nrows, caprows;
    mg_rec_row *rows;
} mg_record;

/* ---- writing and reading ---- */

/* The text of a record: header, rows, a coverage summary in comments and `#@end`. NULL when
 * out of memory; caller frees. */
char *mg_record_render(const mg_record *r);
/* Parses len bytes of text (need not be NUL-terminated). Strict: anything the writer would
 * not write is an error. Returns 0, or 2 with "FILE:LINE: problem" in err (a truncated file
 * names its last line) and *r empty. */
int mg_record_parse(const char *text, size_t len, const char *fname, mg_record *r, char *err,
                    size_t errlen);
/* Reads and parses a file (mg_file_read); 0, or 2 with the message in err. */
int mg_record_read(const char *path, mg_record *r, char *err, size_t errlen);
void mg_record_free(mg_record *r);
/* Appends a zeroed row; NULL when out of memory or at MG_REC_MAX_ROWS. */
mg_rec_row *mg_record_add_row(mg_record *r);

/* The bucket of a message size: [0, 0] for 0, else [2^k, 2^(k+1) - 1]. */
void mg_rec_bucket(int64_t msize, int64_t *lo, int64_t *hi);

/* ---- coverage (the report footer and the record's summary) ---- */

typedef struct mg_rec_cover {
    uint64_t calls, covered, mockup, other_type;
    double time_s, covered_s;
} mg_rec_cover;

/* Totals over every row; per collective and communicator size with coll >= 0 and p > 0. */
void mg_rec_coverage(const mg_record *r, int coll, int p, mg_rec_cover *c);

typedef struct mg_rec_gap { /* an uncovered (collective, p, size) */
    int coll, p;
    const char *datatype, *op; /* of its row (pointers into the record) */
    int64_t msize;             /* -1: the row's sizes beyond the listed ones (lo..hi) */
    int64_t lo, hi;
    uint64_t calls;
    double time_s;
} mg_rec_gap;

/* The uncovered (collective, p, size) with the most time, largest first; returns how many
 * were written (at most n). */
int mg_rec_top_uncovered(const mg_record *r, mg_rec_gap *out, int n);

#endif
