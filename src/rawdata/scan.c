/* Raw-file scanner behind `bench --resume` (see scan.h): the strict reading of the format. */
#include "scan.h"
#include "line.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_key(mg_raw_scan *s, const char *k, size_t kl, const char *v, size_t vl) {
    char **nk = realloc(s->keys, sizeof(char *) * (size_t)(s->nkeys + 1));
    if (!nk) return -1;
    s->keys = nk;
    char **nv = realloc(s->vals, sizeof(char *) * (size_t)(s->nkeys + 1));
    if (!nv) return -1;
    s->vals = nv;
    char *kk = malloc(kl + 1), *vv = malloc(vl + 1);
    if (!kk || !vv) {
        free(kk);
        free(vv);
        return -1;
    }
    memcpy(kk, k, kl);
    kk[kl] = 0;
    memcpy(vv, v, vl);
    vv[vl] = 0;
    s->keys[s->nkeys] = kk;
    s->vals[s->nkeys++] = vv;
    return 0;
}

int mg_raw_scan_text(const char *text, size_t len, const char *fname, mg_raw_scan *s, char *err,
                     size_t errlen) {
    memset(s, 0, sizeof *s);
    int cap = 0, line = 0, open = 0; /* open: the last measurement may still grow */
    int section = 0;                 /* the current #@comm_size */
    size_t pos = 0, group_start = 0, section_start = SIZE_MAX;
    int64_t next = 0;
    while (pos < len) {
        line++;
        const char *p = text + pos;
        const char *nl = memchr(p, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - p) : len - pos;
        size_t line_start = pos;
        pos += ll + (nl ? 1 : 0);
        if (!nl) { /* unfinished last line: the measurement it belongs to is dropped */
            if (open && ll > 0) {
                s->dropped = s->meas[s->nmeas - 1].rows + 1;
                s->nmeas--;
                s->keep = group_start;
            } else {
                s->dropped += ll > 0;
                s->keep = line_start;
            }
            return 0;
        }
        mg_raw_line r;
        int kind = mg_raw_line_parse(p, p + ll, &r);
        if (kind == MG_RAW_BLANK || kind == MG_RAW_COMMENT) continue;
        if (kind == MG_RAW_HEADER && r.klen == 9 && !strncmp(r.key, "comm_size", 9)) {
            /* written with the measurement that follows: cut together with it */
            char num[24];
            snprintf(num, sizeof num, "%.*s", (int)(r.vlen < 20 ? r.vlen : 20), r.val);
            char *e;
            long q = strtol(num, &e, 10);
            if (*e || q < 1 || q > 1 << 30) {
                snprintf(err, errlen, "%s:%d: bad #@comm_size `%s`", fname, line, num);
                goto bad;
            }
            section = (int)q;
            section_start = line_start;
            open = 0;
            continue;
        }
        if (kind == MG_RAW_HEADER) {
            if (add_key(s, r.key, r.klen, r.val, r.vlen)) {
                snprintf(err, errlen, "%s: out of memory", fname);
                goto bad;
            }
            continue;
        }
        if (kind == MG_RAW_BAD || r.tlen >= sizeof s->meas->test || r.alen >= sizeof s->meas->alg) {
            snprintf(err, errlen, "%s:%d: expected `test alg nrep msize runtime_sec [flag]`", fname,
                     line);
            goto bad;
        }
        char test[64], alg[128];
        snprintf(test, sizeof test, "%.*s", (int)r.tlen, r.test);
        snprintf(alg, sizeof alg, "%.*s", (int)r.alen, r.alg);
        long long idx = r.index, msize = r.msize;
        mg_raw_meas *m = s->nmeas ? &s->meas[s->nmeas - 1] : NULL;
        int same = m && open && !strcmp(m->test, test) && !strcmp(m->alg, alg) &&
                   m->msize == msize && m->p == section && idx == next;
        if (!same) {
            if (idx != 0) {
                snprintf(err, errlen, "%s:%d: observation %lld of %s %s %lld does not follow %s",
                         fname, line, idx, test, alg, msize,
                         m ? "the previous row" : "a first row with index 0");
                goto bad;
            }
            if (s->nmeas == cap) {
                cap = cap ? 2 * cap : 64;
                mg_raw_meas *nm = realloc(s->meas, sizeof *nm * (size_t)cap);
                if (!nm) {
                    snprintf(err, errlen, "%s: out of memory", fname);
                    goto bad;
                }
                s->meas = nm;
            }
            m = &s->meas[s->nmeas++];
            snprintf(m->test, sizeof m->test, "%s", test);
            snprintf(m->alg, sizeof m->alg, "%s", alg);
            m->msize = msize;
            m->p = section;
            m->rows = 0;
            group_start = section_start != SIZE_MAX ? section_start : line_start;
            section_start = SIZE_MAX;
            open = 1;
        }
        m->rows++;
        next = idx + 1;
    }
    s->keep = len;
    return 0;
bad:
    mg_raw_scan_free(s);
    return 2;
}

const char *mg_raw_get(const mg_raw_scan *s, const char *key) {
    const char *v = NULL;
    for (int i = 0; i < s->nkeys; i++)
        if (!strcmp(s->keys[i], key)) v = s->vals[i];
    return v;
}

int mg_raw_done(const mg_raw_scan *s, const char *test, const char *alg, int64_t msize, int p) {
    for (int i = 0; i < s->nmeas; i++)
        if (s->meas[i].msize == msize && s->meas[i].p == p && !strcmp(s->meas[i].test, test) &&
            !strcmp(s->meas[i].alg, alg))
            return 1;
    return 0;
}

void mg_raw_scan_free(mg_raw_scan *s) {
    for (int i = 0; i < s->nkeys; i++) free(s->keys[i]), free(s->vals[i]);
    free(s->keys);
    free(s->vals);
    free(s->meas);
    memset(s, 0, sizeof *s);
}
