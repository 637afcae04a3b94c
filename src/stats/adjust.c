/* Multiple-testing corrections over all tests of one check: Holm's step-down (controls the
 * family-wise error rate) and Benjamini-Hochberg's step-up (controls the false discovery
 * rate), as adjusted p-values in the manner of R's p.adjust. */
#include "stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *mg_correction_name(mg_correction c) {
    switch (c) {
    case MG_CORR_NONE:
        return "none";
    case MG_CORR_HOLM:
        return "holm";
    case MG_CORR_BH:
        return "bh";
    }
    return "?";
}

int mg_correction_parse(const char *s) {
    if (!strcmp(s, "none")) return MG_CORR_NONE;
    if (!strcmp(s, "holm")) return MG_CORR_HOLM;
    if (!strcmp(s, "bh") || !strcmp(s, "BH") || !strcmp(s, "fdr")) return MG_CORR_BH;
    return -1;
}

typedef struct {
    double p;
    size_t i;
} pidx;

static int cmp_pidx(const void *a, const void *b) {
    const pidx *x = a, *y = b;
    if (x->p != y->p) return x->p < y->p ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

int mg_p_adjust(const double *p, size_t n, mg_correction c, double *adj) {
    pidx *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) return -1;
    size_t m = 0; /* tests with a p-value */
    for (size_t i = 0; i < n; i++)
        if (!isnan(p[i])) s[m++] = (pidx){p[i], i};
    for (size_t i = 0; i < n; i++)
        if (isnan(p[i])) adj[i] = NAN;
    qsort(s, m, sizeof *s, cmp_pidx);
    if (c == MG_CORR_HOLM) {
        /* step down: adj_(j) = max_{l <= j} min(1, (m - l + 1) p_(l)) */
        double run = 0;
        for (size_t j = 0; j < m; j++) {
            double v = (double)(m - j) * s[j].p;
            if (v > 1) v = 1;
            if (v > run) run = v;
            adj[s[j].i] = run;
        }
    } else if (c == MG_CORR_BH) {
        /* step up: adj_(j) = min_{l >= j} min(1, m / l p_(l)) */
        double run = 1;
        for (size_t j = m; j-- > 0;) {
            double v = (double)m / (double)(j + 1) * s[j].p;
            if (v < run) run = v;
            adj[s[j].i] = run;
        }
    } else {
        for (size_t j = 0; j < m; j++) adj[s[j].i] = s[j].p;
    }
    free(s);
    return 0;
}
