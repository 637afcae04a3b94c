/* A growing text buffer for renderers (profiles, records): printf-style appends that remember
 * an allocation failure, so a renderer checks once at the end. MPI-free. */
#ifndef MG_SBUF_H
#define MG_SBUF_H

#include <stddef.h>

typedef struct mg_sbuf {
    char *s;
    size_t n, cap;
    int failed;
} mg_sbuf;

void mg_sbuf_printf(mg_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text (caller frees), or NULL when an append failed (the buffer is released). */
char *mg_sbuf_take(mg_sbuf *b);

#endif
