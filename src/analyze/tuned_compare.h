/* The tuned-validation table of `mpiguide tune`: per (collective, size) the default, the best
 * mock-up and the tuned library measured in one launch, the speed-up and whether tuned is
 * within 5 % of the best. Pure. */
#ifndef MG_TUNED_COMPARE_H
#define MG_TUNED_COMPARE_H

#include "analyze/raw.h"
#include <stdio.h>

typedef struct mg_tuned_row {
    const char *coll;
    long long msize;
    double def, best, tuned; /* medians in seconds; NaN when not measured */
    const char *best_alg;    /* fastest algorithm other than tuned (may be "default") */
    int within;              /* tuned median <= 1.05 * best median */
} mg_tuned_row;

/* Rows of every (collective, size) in ds that has default and tuned series (all launches
 * pooled), ascending by collective then size. Returns the count (rows malloc'ed into *out,
 * caller frees) or -1 when memory ran out. */
int mg_tuned_rows(const mg_dataset *ds, mg_tuned_row **out);
/* Prints the rows as an aligned table; returns how many rows have tuned within 5 % of best. */
int mg_tuned_print(const mg_tuned_row *rows, int n, FILE *f);

#endif
