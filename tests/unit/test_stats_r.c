/* The statistics of src/stats against R: every case of tests/fixtures/stats/reference.txt
 * (made by make_fixtures.R, which records the R call of each case) is recomputed here and
 * must agree with R's numbers. A failure prints the case name and its R call. */
#include "check.h"
#include "stats/stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXF 16

typedef struct {
    char name[64];
    double *v;
    size_t n;
} dataset;

typedef struct {
    char name[128], kind[32], r[1024];
    char key[MAXF][32];
    char *val[MAXF];
    int nf;
    double *vec[3]; /* x, y, v */
    size_t len[3];
} fcase;

static dataset sets[64];

static char *dup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    memcpy(d, s, n);
    return d;
}
static int nsets;

static int parse_vec(const char *s, double **out, size_t *n) {
    if (*s == '@') {
        for (int i = 0; i < nsets; i++)
            if (!strcmp(sets[i].name, s + 1)) {
                *out = malloc(sets[i].n * sizeof **out);
                memcpy(*out, sets[i].v, sets[i].n * sizeof **out);
                *n = sets[i].n;
                return 0;
            }
        return -1;
    }
    size_t cap = 16, k = 0;
    double *v = malloc(cap * sizeof *v);
    char *end;
    for (;;) {
        double x = strtod(s, &end);
        if (end == s) break;
        if (k == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        v[k++] = x;
        s = end;
    }
    *out = v;
    *n = k;
    return 0;
}

static const char *field(const fcase *c, const char *key) {
    for (int i = 0; i < c->nf; i++)
        if (!strcmp(c->key[i], key)) return c->val[i];
    return NULL;
}

static double num(const fcase *c, const char *key) {
    const char *s = field(c, key);
    return s ? strtod(s, NULL) : NAN;
}

/* relative agreement, with an absolute floor for values near zero */
static int close_to(double got, double want, double rel, double abs_tol) {
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    return fabs(got - want) <= abs_tol || fabs(got - want) <= rel * fabs(want);
}

#define AGREE(got, want, rel, abs_tol, what)                                                       \
    CHECK(close_to(got, want, rel, abs_tol), "%s: %s = %.17g, R gives %.17g  [R: %s]", c->name,    \
          what, (double)(got), (double)(want), c->r)

static mg_alternative ralt(const char *s, int ks) {
    /* R's ks.test names the CDFs: "greater" = the CDF of x lies above, i.e. x smaller */
    if (!strcmp(s, "less")) return ks ? MG_GREATER : MG_LESS;
    if (!strcmp(s, "greater")) return ks ? MG_LESS : MG_GREATER;
    return MG_TWO_SIDED;
}

static void run_case(const fcase *c) {
    const char *k = c->kind;
    double *x = c->vec[0], *y = c->vec[1], *v = c->vec[2];
    size_t nx = c->len[0], ny = c->len[1], nv = c->len[2];
    if (!strcmp(k, "welch") || !strcmp(k, "pooled") || !strcmp(k, "wilcox") || !strcmp(k, "ks")) {
        int is_ks = !strcmp(k, "ks");
        mg_alternative alt = ralt(field(c, "alt"), is_ks);
        const char *ex = field(c, "exact");
        mg_exactness exact = ex && !strcmp(ex, "never") ? MG_EXACT_NEVER : MG_EXACT_AUTO;
        mg_test_result r;
        int rc;
        if (!strcmp(k, "welch") || !strcmp(k, "pooled"))
            rc = mg_t_test(x, nx, y, ny, !strcmp(k, "welch"), alt, &r);
        else if (!strcmp(k, "wilcox"))
            rc = mg_wilcox_test(x, nx, y, ny, alt, exact, &r);
        else
            rc = mg_ks_test(x, nx, y, ny, alt, exact, &r);
        CHECK(rc == 0, "%s: test refused the samples (%zu, %zu)", c->name, nx, ny);
        /* KS statistics from R carry cumulative-sum rounding (1e-17); ours are exact */
        AGREE(r.statistic, num(c, "statistic"), 1e-12, is_ks ? 1e-12 : 1e-300, "statistic");
        AGREE(r.p, num(c, "p"), 1e-10, 1e-15, "p-value");
        if (field(c, "df")) AGREE(r.df, num(c, "df"), 1e-10, 0, "df");
    } else if (!strcmp(k, "pnorm")) {
        AGREE(mg_pnorm(num(c, "q"), 1), num(c, "value"), 1e-13, 1e-300, "pnorm");
    } else if (!strcmp(k, "pt")) {
        AGREE(mg_pt(num(c, "q"), num(c, "df"), 1), num(c, "value"), 1e-11, 1e-300, "pt");
    } else if (!strcmp(k, "pt_upper")) {
        AGREE(mg_pt(num(c, "q"), num(c, "df"), 0), num(c, "value"), 1e-11, 1e-300, "pt upper");
    } else if (!strcmp(k, "pbinom")) {
        AGREE(mg_pbinom(num(c, "k"), num(c, "n"), num(c, "prob")), num(c, "value"), 1e-9, 1e-300,
              "pbinom");
    } else if (!strcmp(k, "pwilcox")) {
        AGREE(mg_pwilcox(num(c, "q"), (size_t)num(c, "m"), (size_t)num(c, "n")), num(c, "value"),
              1e-11, 1e-300, "pwilcox");
    } else if (!strcmp(k, "pbeta")) {
        double q = num(c, "q");
        AGREE(mg_pbeta(q, 1 - q, num(c, "a"), num(c, "b")), num(c, "value"), 1e-10, 1e-300,
              "pbeta");
    } else if (!strcmp(k, "summary")) {
        mg_summary s;
        mg_summarize(v, nv, &s);
        AGREE(s.mean, num(c, "mean"), 1e-14, 0, "mean");
        AGREE(s.sd, num(c, "sd"), 1e-12, 0, "sd");
        AGREE(s.median, num(c, "median"), 1e-15, 0, "median");
        AGREE(s.q1, num(c, "q1"), 1e-14, 0, "q1");
        AGREE(s.q3, num(c, "q3"), 1e-14, 0, "q3");
        double med = mg_median_inplace(v, nv); /* selection must agree with sorting */
        AGREE(med, num(c, "median"), 1e-15, 0, "median by selection");
    } else if (!strcmp(k, "median_ci")) {
        mg_median_ci ci;
        mg_sort(v, nv);
        mg_median_ci_sorted(v, nv, num(c, "conf"), &ci);
        AGREE((double)ci.k, num(c, "k"), 0, 0, "k");
        AGREE(ci.lo, num(c, "lo"), 0, 0, "lower bound");
        AGREE(ci.hi, num(c, "hi"), 0, 0, "upper bound");
        AGREE(ci.coverage, num(c, "coverage"), 1e-10, 1e-14, "coverage");
    } else if (!strcmp(k, "p_adjust")) {
        double *want, *got = malloc(nv * sizeof *got);
        size_t nw;
        parse_vec(field(c, "adjusted"), &want, &nw);
        const char *m = field(c, "method");
        mg_p_adjust(v, nv, !strcmp(m, "holm") ? MG_CORR_HOLM : MG_CORR_BH, got);
        CHECK(nw == nv, "%s: %zu adjusted values for %zu p-values", c->name, nw, nv);
        for (size_t i = 0; i < nv && i < nw; i++) AGREE(got[i], want[i], 1e-14, 1e-300, "p.adjust");
        free(want);
        free(got);
    } else {
        CHECK(0, "%s: unknown kind %s", c->name, k);
    }
}

int main(void) {
    const char *path = MG_SOURCE_DIR "/tests/fixtures/stats/reference.txt";
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return DONE();
    static char line[1 << 20];
    fcase c;
    memset(&c, 0, sizeof c);
    int in_case = 0, in_data = 0, cases = 0;
    const char *kinds_seen[32];
    int nkinds = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *sp = strchr(line, ' ');
        const char *rest = sp ? sp + 1 : "";
        if (sp) *sp = 0;
        if (!line[0] || line[0] == '#') continue;
        if (!strcmp(line, "data")) {
            in_data = 1;
            snprintf(sets[nsets].name, sizeof sets[nsets].name, "%s", rest);
        } else if (!strcmp(line, "case")) {
            memset(&c, 0, sizeof c);
            snprintf(c.name, sizeof c.name, "%s", rest);
            in_case = 1;
        } else if (!strcmp(line, "end")) {
            if (in_data) {
                nsets++;
                in_data = 0;
                continue;
            }
            run_case(&c);
            cases++;
            int seen = 0;
            for (int i = 0; i < nkinds; i++) seen |= !strcmp(kinds_seen[i], c.kind);
            if (!seen && nkinds < 32) kinds_seen[nkinds++] = dup(c.kind);
            for (int i = 0; i < c.nf; i++) free(c.val[i]);
            for (int i = 0; i < 3; i++) free(c.vec[i]);
            in_case = 0;
        } else if (in_data && !strcmp(line, "v")) {
            parse_vec(rest, &sets[nsets].v, &sets[nsets].n);
        } else if (in_case && !strcmp(line, "kind")) {
            snprintf(c.kind, sizeof c.kind, "%s", rest);
        } else if (in_case && !strcmp(line, "r")) {
            snprintf(c.r, sizeof c.r, "%s", rest);
        } else if (in_case && (!strcmp(line, "x") || !strcmp(line, "y") || !strcmp(line, "v"))) {
            int i = line[0] == 'x' ? 0 : line[0] == 'y' ? 1 : 2;
            CHECK(parse_vec(rest, &c.vec[i], &c.len[i]) == 0, "%s: unknown data %s", c.name, rest);
        } else if (in_case && c.nf < MAXF) {
            size_t kl = strlen(line);
            if (kl >= sizeof c.key[0]) kl = sizeof c.key[0] - 1;
            memcpy(c.key[c.nf], line, kl);
            c.key[c.nf][kl] = 0;
            c.val[c.nf++] = dup(rest);
        }
    }
    fclose(f);
    CHECK(cases >= 150, "only %d cases read from %s", cases, path);
    printf("%d R reference cases, %d kinds:", cases, nkinds);
    for (int i = 0; i < nkinds; i++) {
        printf(" %s", kinds_seen[i]);
        free((void *)kinds_seen[i]);
    }
    printf("\n");
    for (int i = 0; i < nsets; i++) free(sets[i].v);
    return DONE();
}
