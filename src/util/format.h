/* Readable units (us/ms/s, B/KiB/MiB) and a small table builder that prints aligned text for
 * the terminal and RFC 4180 CSV with exact numbers for other programs. Pure. */
#ifndef MG_FORMAT_H
#define MG_FORMAT_H

#include <stdio.h>

/* "8 B", "64 KiB", "1 MiB", "1000 B", "97.7 KiB" */
char *mg_fmt_size(char *buf, size_t n, long long bytes);
/* "12.3 us", "1.234 ms", "2.50 s"; "-" for NaN */
char *mg_fmt_time(char *buf, size_t n, double seconds);
/* "%.3g"-like with a fixed number of significant digits; "-" for NaN */
char *mg_fmt_num(char *buf, size_t n, double v, int digits);
/* p-values: "3.2e-05", "0.0412", "1"; "-" for NaN */
char *mg_fmt_p(char *buf, size_t n, double p);

typedef struct mg_table {
    int ncols;
    const char **head, **csvhead;
    char *align; /* 'l' or 'r' per column */
    char ***text, ***csv;
    int nrows, caprows, cur; /* cur: next column of the last row */
} mg_table;

/* cols: "text head|csv head|align" per column, e.g. "median|median_s|r". */
mg_table *mg_table_new(int ncols, const char *const *cols);
/* Appends a cell to the current row (mg_table_row starts one). csv NULL: same as text. */
void mg_table_row(mg_table *t);
void mg_table_cell(mg_table *t, const char *text, const char *csv);
void mg_table_cellf(mg_table *t, const char *csv, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void mg_table_print(const mg_table *t, FILE *f);
void mg_table_csv(const mg_table *t, FILE *f, int with_header);
void mg_table_free(mg_table *t);

void mg_csv_field(FILE *f, const char *s);

/* snprintf for file paths: a path that does not fit becomes "" (so opening it fails with a
 * message instead of touching a truncated name). Returns 0, or -1 when it did not fit. */
int mg_path(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
