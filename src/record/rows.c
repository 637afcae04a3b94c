/* A record in memory: its rows, the message-size buckets, and the coverage figures the report
 * footer and the record's own summary print (which share of calls and time ran a profile
 * entry, and the uncovered (collective, p, size) with the most time: the next thing to tune). */
#include "record.h"
#include <stdlib.h>
#include <string.h>

mg_rec_row *mg_record_add_row(mg_record *r) {
    if (r->nrows >= MG_REC_MAX_ROWS) return NULL;
    if (r->nrows == r->caprows) {
        int cap = r->caprows ? 2 * r->caprows : 64;
        mg_rec_row *v = realloc(r->rows, sizeof *v * (size_t)cap);
        if (!v) return NULL;
        r->rows = v;
        r->caprows = cap;
    }
    mg_rec_row *w = &r->rows[r->nrows++];
    memset(w, 0, sizeof *w);
    return w;
}

void mg_record_free(mg_record *r) {
    free(r->rows);
    memset(r, 0, sizeof *r);
}

void mg_rec_bucket(int64_t msize, int64_t *lo, int64_t *hi) {
    if (msize <= 0) {
        *lo = *hi = 0;
        return;
    }
    int k = 63 - __builtin_clzll((unsigned long long)msize);
    *lo = (int64_t)1 << k;
    *hi = k >= 62 ? INT64_MAX : ((int64_t)1 << (k + 1)) - 1;
}

void mg_rec_coverage(const mg_record *r, int coll, int p, mg_rec_cover *c) {
    memset(c, 0, sizeof *c);
    for (int i = 0; i < r->nrows; i++) {
        const mg_rec_row *w = &r->rows[i];
        if ((coll >= 0 && w->coll != coll) || (p > 0 && w->p != p)) continue;
        c->calls += w->calls;
        c->covered += w->covered;
        c->mockup += w->mockup;
        c->other_type += w->other_type;
        c->time_s += w->time_s;
        c->covered_s += w->covered_s;
    }
}

static int gap_cmp(const void *a, const void *b) {
    const mg_rec_gap *x = a, *y = b;
    return x->time_s < y->time_s ? 1 : x->time_s > y->time_s ? -1 : 0;
}

/* Uncovered time per listed size, and the row's unlisted sizes as one gap. Every number of a
 * row is the largest over ranks, so parts need not add up to the row's totals: the rest is
 * clamped at 0. */
int mg_rec_top_uncovered(const mg_record *r, mg_rec_gap *out, int n) {
    int have = 0;
    for (int i = 0; i < r->nrows && n > 0; i++) {
        const mg_rec_row *w = &r->rows[i];
        double rest_t = w->time_s - w->covered_s;
        for (int k = 0; k <= w->nsizes; k++) {
            mg_rec_gap g = {w->coll, w->p, w->datatype, w->op, -1, w->lo, w->hi, 0, 0};
            if (k < w->nsizes) {
                const mg_rec_size *z = &w->sizes[k];
                g.msize = z->msize;
                g.calls = z->calls - z->covered;
                g.time_s = z->time_s - z->covered_s;
                rest_t -= g.time_s;
            } else {
                g.calls = w->sizes_other;
                g.time_s = rest_t;
            }
            if (!g.calls || g.time_s <= 0) continue;
            if (have < n) {
                out[have++] = g;
            } else if (g.time_s > out[n - 1].time_s) {
                out[n - 1] = g;
            } else {
                continue;
            }
            qsort(out, (size_t)have, sizeof *out, gap_cmp);
        }
    }
    return have;
}
