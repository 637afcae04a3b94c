/* The growing text buffer of sbuf.h. */
#include "sbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void mg_sbuf_printf(mg_sbuf *b, const char *fmt, ...) {
    if (b->failed) return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0) {
        b->failed = 1;
        return;
    }
    if (b->n + (size_t)need + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        while (nc < b->n + (size_t)need + 1) nc *= 2;
        char *p = realloc(b->s, nc);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->s = p;
        b->cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)need;
}

char *mg_sbuf_take(mg_sbuf *b) {
    char *s = b->failed ? NULL : b->s;
    if (b->failed) free(b->s);
    b->s = NULL;
    b->n = b->cap = 0;
    b->failed = 0;
    return s;
}
