/* One line of raw benchmark data (docs/dev/interfaces.md section 5): a `#@key=value` header, a
 * comment, a blank line, or a row `test alg index msize runtime_sec [flag]`. The one parser of
 * the format: the analysis reads leniently (dataset.c: a bad row is a note), `bench --resume`
 * strictly (scan.c: a bad row is an error); both take their rows from here. Pure. */
#ifndef MG_RAW_LINE_H
#define MG_RAW_LINE_H

#include <stddef.h>

enum mg_raw_kind {
    MG_RAW_BLANK,
    MG_RAW_HEADER,  /* #@key=value */
    MG_RAW_COMMENT, /* any other # line */
    MG_RAW_ROW,
    MG_RAW_BAD /* not a row of the format */
};

typedef struct mg_raw_line {
    enum mg_raw_kind kind;
    /* MG_RAW_HEADER: key and value (trailing white space trimmed) */
    const char *key, *val;
    size_t klen, vlen;
    /* MG_RAW_ROW */
    const char *test, *alg;
    size_t tlen, alen;
    long long index, msize;
    double runtime; /* seconds, finite, in [0, 1e9] */
    int flag;       /* 0 valid, 1 start missed, 2 window overrun */
} mg_raw_line;

/* Classifies and parses the line [p, end) (no newline). Returns l->kind. */
int mg_raw_line_parse(const char *p, const char *end, mg_raw_line *l);

#endif
