/* Writing profiles: the format of docs/dev/interfaces.md section 8 that parse.c reads, so the
 * two stay each other's inverse (test_profile renders and parses back). */
#include "profile.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *s;
    size_t n, cap;
    int failed;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
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

char *mg_profile_render(const char *coll, int p, const mg_profile_kv *prov, int nprov,
                        const char *comment, const mg_profile_wrange *r, int nr) {
    const char **names = malloc((size_t)(nr ? nr : 1) * sizeof *names);
    if (!names) return NULL;
    int nnames = 0;
    for (int i = 0; i < nr; i++) {
        int seen = 0;
        for (int j = 0; j < nnames; j++) seen |= !strcmp(names[j], r[i].alg);
        if (!seen) names[nnames++] = r[i].alg;
    }
    sbuf b = {0};
    sb_printf(&b, "# mpiguide profile of %s for %d processes\n", coll, p);
    for (int i = 0; i < nprov; i++)
        if (prov[i].val && prov[i].val[0]) sb_printf(&b, "#@%s=%s\n", prov[i].key, prov[i].val);
    if (comment) sb_printf(&b, "%s", comment);
    sb_printf(&b, "%s\n%d\n%d\n", coll, p, nnames);
    for (int j = 0; j < nnames; j++) sb_printf(&b, "%d %s\n", j + 1, names[j]);
    sb_printf(&b, "%d\n", nr);
    for (int i = 0; i < nr; i++) {
        int id = 0;
        for (int j = 0; j < nnames && !id; j++)
            if (!strcmp(names[j], r[i].alg)) id = j + 1;
        sb_printf(&b, "%lld %lld %d\n", (long long)r[i].lo, (long long)r[i].hi, id);
    }
    free(names);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
