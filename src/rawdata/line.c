/* The raw-data line parser shared by the analysis and `bench --resume`. */
#include "line.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

static const char *word_end(const char *p, const char *end) {
    while (p < end && *p != ' ' && *p != '\t' && *p != '\r') p++;
    return p;
}

/* A non-negative decimal integer filling [w, we). */
static int whole(const char *w, const char *we, long long *out) {
    char num[64];
    size_t l = (size_t)(we - w);
    if (l == 0 || l >= sizeof num || !isdigit((unsigned char)w[0])) return 0;
    memcpy(num, w, l);
    num[l] = 0;
    char *e;
    errno = 0;
    *out = strtoll(num, &e, 10);
    return !*e && !errno && *out >= 0;
}

static int seconds(const char *w, const char *we, double *out) {
    char num[64];
    size_t l = (size_t)(we - w);
    if (l == 0 || l >= sizeof num) return 0;
    memcpy(num, w, l);
    num[l] = 0;
    char *e;
    *out = strtod(num, &e);
    return !*e && *out >= 0 && *out <= 1e9; /* also rejects nan and inf */
}

int mg_raw_line_parse(const char *p, const char *end, mg_raw_line *l) {
    memset(l, 0, sizeof *l);
    p = skip_ws(p, end);
    if (p >= end) return l->kind = MG_RAW_BLANK;
    if (*p == '#') {
        const char *eq = p + 2 <= end ? memchr(p, '=', (size_t)(end - p)) : NULL;
        if (p + 1 < end && p[1] == '@' && eq && eq > p + 2) {
            const char *ve = end;
            while (ve > eq + 1 && isspace((unsigned char)ve[-1])) ve--;
            l->key = p + 2, l->klen = (size_t)(eq - p - 2);
            l->val = eq + 1, l->vlen = (size_t)(ve - eq - 1);
            return l->kind = MG_RAW_HEADER;
        }
        return l->kind = MG_RAW_COMMENT;
    }
    const char *w[7], *we[7];
    int nw = 0;
    while (nw < 7) {
        p = skip_ws(p, end);
        if (p >= end) break;
        w[nw] = p;
        p = word_end(p, end);
        we[nw++] = p;
    }
    if (nw < 5 || nw > 6 || !whole(w[2], we[2], &l->index) || !whole(w[3], we[3], &l->msize) ||
        !seconds(w[4], we[4], &l->runtime))
        return l->kind = MG_RAW_BAD;
    if (nw == 6) {
        if (we[5] - w[5] != 1 || w[5][0] < '0' || w[5][0] > '2') return l->kind = MG_RAW_BAD;
        l->flag = w[5][0] - '0';
    }
    l->test = w[0], l->tlen = (size_t)(we[0] - w[0]);
    l->alg = w[1], l->alen = (size_t)(we[1] - w[1]);
    return l->kind = MG_RAW_ROW;
}
