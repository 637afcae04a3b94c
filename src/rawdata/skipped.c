/* The `#@skipped=` marker of a measurement skipped for lack of memory, and the line that
 * counts them (skipped.h). */
#include "skipped.h"
#include <stdio.h>
#include <string.h>

#define LINE_PLACES 4 /* places named in the line; the others are counted */

void mg_skipped_text(const mg_skipped *s, char *buf, size_t len) {
    snprintf(buf, len, "#@skipped=%s %s %lld %s\n", s->coll, s->alg, s->msize, s->why);
}

int mg_skipped_parse(const char *v, size_t len, mg_skipped *s) {
    char buf[512];
    int at = 0;
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), v);
    if (sscanf(buf, "%63s %127s %lld %n", s->coll, s->alg, &s->msize, &at) != 3 || !buf[at] ||
        s->msize < 0)
        return -1;
    snprintf(s->why, sizeof s->why, "%s", buf + at);
    return 0;
}

void mg_skips_note(mg_skips *t, const char *coll, long long msize, const char *file) {
    t->total++;
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->e[i].coll, coll) && !strcmp(t->e[i].file, file)) {
            t->e[i].n++;
            if (msize < t->e[i].lo) t->e[i].lo = msize;
            if (msize > t->e[i].hi) t->e[i].hi = msize;
            return;
        }
    if (t->n == MG_SKIPS_PLACES) return; /* counted in total only */
    snprintf(t->e[t->n].coll, sizeof t->e[t->n].coll, "%s", coll);
    snprintf(t->e[t->n].file, sizeof t->e[t->n].file, "%s", file);
    t->e[t->n].lo = t->e[t->n].hi = msize;
    t->e[t->n++].n = 1;
}

int mg_skips_line(const mg_skips *t, char *buf, size_t len) {
    buf[0] = 0;
    if (!t->total) return 0;
    size_t at = (size_t)snprintf(buf, len,
                                 "mpiguide: incomplete: %lld measurement%s skipped for lack of "
                                 "memory: ",
                                 t->total, t->total == 1 ? "" : "s");
    long named = 0;
    for (int i = 0; i < t->n && i < LINE_PLACES && at < len; i++) {
        char sizes[64];
        if (t->e[i].lo == t->e[i].hi)
            snprintf(sizes, sizeof sizes, "%lld B", t->e[i].lo);
        else
            snprintf(sizes, sizeof sizes, "%lld-%lld B", t->e[i].lo, t->e[i].hi);
        at += (size_t)snprintf(buf + at, len - at, "%s%s %s (%ld, in %s)", i ? ", " : "",
                               t->e[i].coll, sizes, t->e[i].n, t->e[i].file);
        named += t->e[i].n;
    }
    if (named < t->total && at < len)
        at += (size_t)snprintf(buf + at, len - at, " and %lld more", t->total - named);
    if (at < len)
        snprintf(buf + at, len - at,
                 "; the rest is written; #@skipped lines in the raw data name each (exit code %d)",
                 MG_EXIT_INCOMPLETE);
    return 1;
}
