/* Input-file parser of `mpiguide check` / `tune`: joins continued lines, drops comments and
 * splits entries into words. Option meaning is checked later by the benchmark's parser. */
#include "check_input.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_word(mg_input_line *l, const char *w, size_t len) {
    char *copy = malloc(len + 1);
    char **argv = realloc(l->argv, sizeof(char *) * (size_t)(l->argc + 1));
    if (!copy || !argv) {
        free(copy);
        if (argv) l->argv = argv;
        return -1;
    }
    memcpy(copy, w, len);
    copy[len] = 0;
    l->argv = argv;
    if (!l->call)
        l->call = copy;
    else
        l->argv[l->argc++] = copy;
    return 0;
}

/* Splits one logical line (comments removed) into words; returns the word count or -1. */
static int split(const char *s, mg_input_line *l) {
    int words = 0;
    while (*s) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        const char *w = s;
        while (*s && !isspace((unsigned char)*s)) s++;
        if (add_word(l, w, (size_t)(s - w))) return -1;
        words++;
    }
    return words;
}

int mg_input_parse(const char *text, const char *fname, mg_input *in, char *err, size_t errlen) {
    in->n = 0;
    in->lines = NULL;
    size_t cap = strlen(text) + 1;
    char *logical = malloc(cap);
    int lineno = 0, start = 0, rc = 0;
    size_t used = 0;
    if (!logical) return -1;
    const char *p = text;
    while (*p || used) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (*p || nl) lineno++;
        if (!used) start = lineno;
        const char *hash = memchr(p, '#', len);
        size_t keep = hash ? (size_t)(hash - p) : len;
        while (keep && (p[keep - 1] == '\r' || p[keep - 1] == ' ' || p[keep - 1] == '\t')) keep--;
        int cont = !hash && keep && p[keep - 1] == '\\';
        if (cont) keep--;
        memcpy(logical + used, p, keep);
        used += keep;
        logical[used++] = ' ';
        p += len + (nl != NULL);
        if (cont && (*p || nl)) continue;
        logical[used] = 0;
        used = 0;
        mg_input_line l = {start, NULL, 0, NULL};
        int words = split(logical, &l);
        if (words < 0) {
            snprintf(err, errlen, "%s:%d: out of memory", fname, start);
            rc = -1;
        } else if (words > 0 && (strncmp(l.call, "MPI_", 4) != 0 || l.call[4] == 0)) {
            snprintf(err, errlen, "%s:%d: expected an MPI collective name first, got `%s`", fname,
                     start, l.call);
            rc = -1;
        } else if (words > 0) {
            mg_input_line *lines = realloc(in->lines, sizeof *lines * (size_t)(in->n + 1));
            if (!lines)
                rc = -1;
            else
                (in->lines = lines)[in->n++] = l;
            if (!rc) continue;
        }
        free(l.call);
        for (int i = 0; i < l.argc; i++) free(l.argv[i]);
        free(l.argv);
        if (rc || !*p) break;
    }
    free(logical);
    if (rc) mg_input_free(in);
    return rc;
}

void mg_input_free(mg_input *in) {
    for (int i = 0; i < in->n; i++) {
        free(in->lines[i].call);
        for (int j = 0; j < in->lines[i].argc; j++) free(in->lines[i].argv[j]);
        free(in->lines[i].argv);
    }
    free(in->lines);
    in->lines = NULL;
    in->n = 0;
}
