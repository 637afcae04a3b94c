/* The launch's tally of declined candidates and its one line (declines.h). */
#include "declines.h"
#include <stdio.h>
#include <string.h>

#define LINE_ALGS 4 /* candidates named in the line; the others are counted */

mg_declines *mg_declines_launch(void) {
    static mg_declines d;
    return &d;
}

void mg_declines_note(mg_declines *d, const char *coll, const char *alg, const char *why) {
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->e[i].coll, coll) && !strcmp(d->e[i].alg, alg) && !strcmp(d->e[i].why, why)) {
            d->e[i].nsizes++;
            return;
        }
    if (d->n == MG_DECLINES_MAX) {
        d->more++;
        return;
    }
    snprintf(d->e[d->n].coll, sizeof d->e[d->n].coll, "%s", coll);
    snprintf(d->e[d->n].alg, sizeof d->e[d->n].alg, "%s", alg);
    snprintf(d->e[d->n].why, sizeof d->e[d->n].why, "%s", why);
    d->e[d->n++].nsizes = 1;
}

int mg_declines_line(const mg_declines *d, char *buf, size_t len) {
    buf[0] = 0;
    if (!d->n && !d->more) return 0;
    int sizes = d->more;
    for (int i = 0; i < d->n; i++) sizes += d->e[i].nsizes;
    size_t at = (size_t)snprintf(buf, len,
                                 "mpiguide: %d candidate%s declined the measured arguments at %d "
                                 "size%s (the default ran there, nothing measured): ",
                                 d->n, d->n == 1 ? "" : "s", sizes, sizes == 1 ? "" : "s");
    /* in collective and candidate order: the launch measured them shuffled */
    int order[MG_DECLINES_MAX];
    for (int i = 0; i < d->n; i++) {
        int k = i;
        for (; k > 0; k--) {
            const char *c = d->e[order[k - 1]].coll, *a = d->e[order[k - 1]].alg;
            int cmp = strcmp(c, d->e[i].coll);
            if (cmp < 0 || (!cmp && strcmp(a, d->e[i].alg) <= 0)) break;
            order[k] = order[k - 1];
        }
        order[k] = i;
    }
    for (int j = 0; j < d->n && j < LINE_ALGS && at < len; j++) {
        int i = order[j];
        at += (size_t)snprintf(buf + at, len - at, "%s%s (%s, %d size%s: %s)", j ? ", " : "",
                               d->e[i].alg, d->e[i].coll, d->e[i].nsizes,
                               d->e[i].nsizes == 1 ? "" : "s", d->e[i].why);
    }
    if (d->n > LINE_ALGS && at < len)
        at += (size_t)snprintf(buf + at, len - at, " and %d more", d->n - LINE_ALGS);
    if (at < len)
        snprintf(buf + at, len - at, "; per size: #@declined lines in the raw data, summary.txt");
    return 1;
}

void mg_declines_say(int say) {
    char line[2048];
    mg_declines *d = mg_declines_launch();
    if (say && mg_declines_line(d, line, sizeof line)) fprintf(stderr, "%s\n", line);
    mg_declines_clear(d);
}

void mg_declines_clear(mg_declines *d) {
    memset(d, 0, sizeof *d);
}
