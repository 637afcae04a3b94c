/* The predicted-nrep file: `test msize nrep` rows written by `mpiguide nrep` and read by
 * `bench --nrep-file`. */
#include "nrep.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int mg_nrep_table_parse(const char *text, const char *fname, mg_nrep_table *t, char *err,
                        size_t errlen) {
    t->n = 0;
    t->e = NULL;
    int line = 0, cap = 0;
    const char *p = text;
    while (*p) {
        line++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[512];
        if (len >= sizeof buf) {
            snprintf(err, errlen, "%s:%d: line too long", fname, line);
            goto bad;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        p += len + (nl ? 1 : 0);
        char *s = buf;
        while (isspace((unsigned char)*s)) s++;
        if (!*s || *s == '#') continue;
        char test[128], extra[8];
        long long msize, nrep;
        int k = sscanf(s, "%127s %lld %lld %7s", test, &msize, &nrep, extra);
        if (k != 3 || msize < 0 || nrep < 1) {
            snprintf(err, errlen, "%s:%d: expected `test msize nrep` (nrep >= 1)", fname, line);
            goto bad;
        }
        int coll = mg_coll_lookup(test);
        if (coll < 0) {
            snprintf(err, errlen, "%s:%d: unknown collective '%s'", fname, line, test);
            goto bad;
        }
        int found = 0;
        for (int i = 0; i < t->n; i++)
            if (t->e[i].coll == coll && t->e[i].msize == msize) {
                if (nrep > t->e[i].nrep) t->e[i].nrep = nrep;
                found = 1;
            }
        if (found) continue;
        if (t->n == cap) {
            cap = cap ? 2 * cap : 64;
            mg_nrep_entry *ne = realloc(t->e, sizeof *ne * (size_t)cap);
            if (!ne) {
                snprintf(err, errlen, "%s: out of memory", fname);
                goto bad;
            }
            t->e = ne;
        }
        t->e[t->n++] = (mg_nrep_entry){coll, msize, nrep};
    }
    return 0;
bad:
    mg_nrep_table_free(t);
    return 2;
}

int64_t mg_nrep_table_get(const mg_nrep_table *t, int coll, int64_t msize) {
    for (int i = 0; i < t->n; i++)
        if (t->e[i].coll == coll && t->e[i].msize == msize) return t->e[i].nrep;
    return -1;
}

void mg_nrep_table_free(mg_nrep_table *t) {
    free(t->e);
    t->e = NULL;
    t->n = 0;
}
