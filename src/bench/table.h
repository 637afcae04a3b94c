/* `mpiguide bench --irregular=TYPE|all --table`: Träff's Tables 1-5 from the benchmark's own
 * measurements. table.c turns the options into measurements (per problem type, b and side:
 * the regular collective on padded blocks, the padding guideline, the library's v-collective,
 * TUW), run.c measures them with its usual loop and hands each result back here, and rank 0
 * prints the tables at the end through mg_irr_table_print (src/model/problems_table.h). */
#ifndef MG_BENCH_TABLE_H
#define MG_BENCH_TABLE_H

#include "harness.h"

typedef struct mg_irrtab mg_irrtab;

/* The b values without --b (MPI_INT elements). */
#define MG_IRRTAB_DEFAULT_BS                                                                       \
    { 1, 10, 100, 1000 }

/* Builds the measurements of the tables into l (each job's table_cell and problem set) and *t.
 * o->root must already be the table's root. Collective over MPI_COMM_WORLD; returns 0, or 1
 * after a message (out of memory on some rank), the same on every rank. */
int mg_irrtab_jobs(const mg_bench_opts *o, int p, uint64_t seed, mg_irrtab **t, mg_joblist *l,
                   int rank);
/* Rank 0: a raw-file comment naming the problem and b of a table measurement (`# table ...`). */
const char *mg_irrtab_label(mg_irrtab *t, const mg_job *j);
/* Rank 0: average and minimum of the valid observations (flag 0) of j into its cell. */
void mg_irrtab_note(mg_irrtab *t, const mg_job *j, const double *runtime, const int *flag,
                    int64_t n);
/* Rank 0: the gather table and, when asked for, the scatter table. */
void mg_irrtab_print(const mg_irrtab *t, FILE *f);
void mg_irrtab_free(mg_irrtab *t);

#endif
