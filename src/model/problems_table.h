/* The layout of Träff's Tables 1-5 for irregular Gatherv/Scatterv measurements: per problem
 * type and base block b, the totals m and m' and average/minimum times of the regular
 * collective on padded blocks, the padding guideline, the library's v-collective and TUW, with
 * guideline violations marked. Pure: the benchmark fills the rows from measured values. */
#ifndef MG_PROBLEMS_TABLE_H
#define MG_PROBLEMS_TABLE_H

#include <stdint.h>
#include <stdio.h>

/* One measured column: average and minimum in microseconds; negative when not measured. */
typedef struct mg_irr_time {
    double avg, min;
} mg_irr_time;

typedef struct mg_irr_row {
    int type;          /* enum mg_problem */
    int64_t b;         /* base block, MPI_INT elements */
    int64_t m, mpad;   /* sum of all blocks and p * largest block, elements (mg_irr_totals) */
    mg_irr_time plain; /* MPI_Gather (MPI_Scatter) on blocks padded to the largest */
    mg_irr_time guide; /* padding guideline: gatherv_as_allreduce_gather (scatterv_...) */
    mg_irr_time lib;   /* MPI_Gatherv (MPI_Scatterv): the library's own */
    mg_irr_time tuw;   /* gatherv_as_tuw (scatterv_as_tuw) */
} mg_irr_row;

/* m = sum of all p blocks and m' = p * max block of a problem (elements), as in the tables. */
void mg_irr_totals(int type, int p, int64_t b, double rho, uint64_t seed, int64_t *m,
                   int64_t *mpad);

/* Prints the table: a caption line, two header lines, one row per entry (problem name on the
 * first row of each problem). A '*' follows a time that violates a guideline: guideline 1
 * (regular <= irregular, only where m = m') in the MPI_Gather column, guideline 2 (irregular
 * <= padding guideline) in the MPI_Gatherv and TUW columns; each statistic is compared with
 * the same statistic. scatter selects the Scatter/Scatterv column names. */
void mg_irr_table_print(FILE *f, int scatter, const char *caption, const mg_irr_row *rows, int n);

#endif
