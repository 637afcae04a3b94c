/* Diagnostics: formatted into one buffer and written with one call so lines from several
 * ranks do not interleave mid-line. */
#include "diag.h"
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static void emit(const char *level, const char *where, const char *fmt, va_list ap) {
    char line[1024];
    int n = where ? snprintf(line, sizeof line, "mpiguide: %s: %s: ", level, where)
                  : snprintf(line, sizeof line, "mpiguide: %s: ", level);
    if (n < 0 || n >= (int)sizeof line) n = 0;
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    if (m < 0) m = 0;
    n += m < (int)(sizeof line - (size_t)n - 1) ? m : (int)(sizeof line - (size_t)n - 2);
    line[n++] = '\n';
    ssize_t w = write(2, line, (size_t)n);
    (void)w;
}

void mg_error(const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emit("error", where, fmt, ap);
    va_end(ap);
}

void mg_warning(const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emit("warning", where, fmt, ap);
    va_end(ap);
}

void mg_diag(int error, const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emit(error ? "error" : "warning", where, fmt, ap);
    va_end(ap);
}

void mg_diag_stderr(void *ctx, int error, const char *where, const char *what) {
    (void)ctx;
    mg_diag(error, where, "%s", what);
}
