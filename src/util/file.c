/* Whole-file reads for every input mpiguide takes: profiles, config, raw data, input and NREP
 * files. Grows the buffer geometrically, so a pipe or /proc file (size unknown) reads as well. */
#include "file.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *mg_file_read(const char *path, size_t limit, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    int err = 0;
    while (buf) {
        if (n == cap) {
            if (cap > limit) {
                err = EFBIG;
                break;
            }
            char *b = realloc(buf, 2 * cap + 1);
            if (!b) {
                err = ENOMEM;
                break;
            }
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) err = errno ? errno : EIO;
            break;
        }
    }
    if (!buf) err = ENOMEM;
    fclose(f);
    if (!err && n > limit) err = EFBIG;
    if (err) {
        free(buf);
        errno = err;
        return NULL;
    }
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

const char *mg_file_error(int err, size_t limit, char *buf, size_t buflen) {
    if (err == EFBIG)
        snprintf(buf, buflen, "larger than %zu bytes", limit);
    else
        snprintf(buf, buflen, "cannot read: %s", strerror(err));
    return buf;
}
