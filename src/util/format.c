/* Units and tables for the analysis output: the terminal gets aligned columns with readable
 * units, CSV gets the exact numbers (bytes, seconds) and stable column names. */
#include "format.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *mg_fmt_size(char *buf, size_t n, long long b) {
    const long long ki = 1024, mi = 1024 * 1024, gi = 1024LL * 1024 * 1024;
    if (b >= gi && b % gi == 0)
        snprintf(buf, n, "%lld GiB", b / gi);
    else if (b >= mi && b % mi == 0)
        snprintf(buf, n, "%lld MiB", b / mi);
    else if (b >= ki && b % ki == 0)
        snprintf(buf, n, "%lld KiB", b / ki);
    else if (b < 10 * ki)
        snprintf(buf, n, "%lld B", b);
    else if (b < 10 * mi)
        snprintf(buf, n, "%.1f KiB", (double)b / (double)ki);
    else
        snprintf(buf, n, "%.1f MiB", (double)b / (double)mi);
    return buf;
}

char *mg_fmt_time(char *buf, size_t n, double s) {
    if (isnan(s))
        snprintf(buf, n, "-");
    else if (fabs(s) < 1e-3)
        snprintf(buf, n, "%.2f us", s * 1e6);
    else if (fabs(s) < 1)
        snprintf(buf, n, "%.3f ms", s * 1e3);
    else
        snprintf(buf, n, "%.3f s", s);
    return buf;
}

char *mg_fmt_num(char *buf, size_t n, double v, int digits) {
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.*g", digits, v);
    return buf;
}

char *mg_fmt_p(char *buf, size_t n, double p) {
    if (isnan(p))
        snprintf(buf, n, "-");
    else if (p >= 0.99995)
        snprintf(buf, n, "1");
    else if (p < 1e-3)
        snprintf(buf, n, "%.1e", p);
    else
        snprintf(buf, n, "%.4f", p);
    return buf;
}

static char *sdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

mg_table *mg_table_new(int ncols, const char *const *cols) {
    mg_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ncols = ncols;
    t->head = calloc((size_t)ncols, sizeof *t->head);
    t->csvhead = calloc((size_t)ncols, sizeof *t->csvhead);
    t->align = calloc((size_t)ncols + 1, 1);
    if (!t->head || !t->csvhead || !t->align) {
        mg_table_free(t);
        return NULL;
    }
    for (int i = 0; i < ncols; i++) {
        /* "text|csv|align" */
        char *spec = sdup(cols[i]);
        char *a = spec ? strchr(spec, '|') : NULL;
        char *b = a ? strchr(a + 1, '|') : NULL;
        if (!b) {
            free(spec);
            mg_table_free(t);
            return NULL;
        }
        *a = *b = 0;
        t->head[i] = sdup(spec);
        t->csvhead[i] = sdup(a + 1);
        t->align[i] = b[1] == 'r' ? 'r' : 'l';
        free(spec);
    }
    return t;
}

void mg_table_row(mg_table *t) {
    if (!t) return;
    if (t->nrows == t->caprows) {
        int nc = t->caprows ? t->caprows * 2 : 16;
        char ***a = realloc(t->text, (size_t)nc * sizeof *a);
        if (a) t->text = a;
        char ***b = realloc(t->csv, (size_t)nc * sizeof *b);
        if (b) t->csv = b;
        if (!a || !b) return;
        t->caprows = nc;
    }
    t->text[t->nrows] = calloc((size_t)t->ncols, sizeof(char *));
    t->csv[t->nrows] = calloc((size_t)t->ncols, sizeof(char *));
    t->nrows++;
    t->cur = 0;
}

void mg_table_cell(mg_table *t, const char *text, const char *csv) {
    if (!t || !t->nrows || t->cur >= t->ncols) return;
    int r = t->nrows - 1;
    if (!t->text[r] || !t->csv[r]) return;
    t->text[r][t->cur] = sdup(text ? text : "");
    t->csv[r][t->cur] = sdup(csv ? csv : text ? text : "");
    t->cur++;
}

void mg_table_cellf(mg_table *t, const char *csv, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    mg_table_cell(t, buf, csv);
}

/* display width of UTF-8 text (continuation bytes do not count) */
static int width(const char *s) {
    int w = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) w++;
    return w;
}

void mg_table_print(const mg_table *t, FILE *f) {
    if (!t) return;
    int *w = calloc((size_t)t->ncols, sizeof *w);
    if (!w) return;
    for (int c = 0; c < t->ncols; c++) {
        w[c] = width(t->head[c]);
        for (int r = 0; r < t->nrows; r++)
            if (t->text[r] && width(t->text[r][c]) > w[c]) w[c] = width(t->text[r][c]);
    }
    for (int r = -1; r < t->nrows; r++) {
        int last = t->ncols - 1; /* no trailing blanks: the last non-empty column ends the line */
        while (last > 0 && r >= 0 && (!t->text[r][last] || !*t->text[r][last])) last--;
        for (int c = 0; c <= last; c++) {
            const char *s = r < 0 ? t->head[c] : (t->text[r] ? t->text[r][c] : NULL);
            if (!s) s = "";
            int pad = w[c] - width(s);
            if (t->align[c] == 'r')
                fprintf(f, "%*s%s", pad, "", s);
            else
                fprintf(f, "%s%*s", s, c == last ? 0 : pad, "");
            if (c < last) fputs("  ", f);
        }
        fputc('\n', f);
    }
    free(w);
}

void mg_csv_field(FILE *f, const char *s) {
    if (!s) s = "";
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void mg_table_csv(const mg_table *t, FILE *f, int with_header) {
    if (!t) return;
    if (with_header)
        for (int c = 0; c < t->ncols; c++) {
            mg_csv_field(f, t->csvhead[c]);
            fputc(c + 1 < t->ncols ? ',' : '\n', f);
        }
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            mg_csv_field(f, t->csv[r] ? t->csv[r][c] : "");
            fputc(c + 1 < t->ncols ? ',' : '\n', f);
        }
}

void mg_table_free(mg_table *t) {
    if (!t) return;
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (t->text[r]) free(t->text[r][c]);
            if (t->csv[r]) free(t->csv[r][c]);
        }
        free(t->text[r]);
        free(t->csv[r]);
    }
    free(t->text);
    free(t->csv);
    for (int c = 0; c < t->ncols; c++) {
        if (t->head) free((void *)t->head[c]);
        if (t->csvhead) free((void *)t->csvhead[c]);
    }
    free(t->head);
    free(t->csvhead);
    free(t->align);
    free(t);
}

int mg_path(char *buf, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    if (need < 0 || (size_t)need >= n) {
        if (n) buf[0] = 0;
        return -1;
    }
    return 0;
}
