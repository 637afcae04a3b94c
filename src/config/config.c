/* The config file parser: `key value` lines, `#` comments; an unknown key or a bad value is an
 * error naming file and line, and only that line is ignored. */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_config_defaults(mg_config *c) {
    c->size_msg_buffer_bytes = 100000000;
    c->size_int_buffer_bytes = 200000;
    c->tune_user_ops = 0;
    c->tuw_degrade_bytes = 1 << 20;
}

static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    if (!isdigit((unsigned char)*s)) return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *v = x;
    return 0;
}

/* One line without its comment; 0, or -1 with the problem in what. */
static int parse_line(char *line, mg_config *c, char *what, size_t wlen) {
    char key[128], val[256], extra[2];
    int n = sscanf(line, "%127s %255s %1s", key, val, extra);
    if (n <= 0) return 0;
    if (n != 2) {
        snprintf(what, wlen, "expected `key value`");
        return -1;
    }
    uint64_t v;
    int known = !strcmp(key, "size_msg_buffer_bytes") || !strcmp(key, "size_int_buffer_bytes") ||
                !strcmp(key, "tuw_degrade_bytes") || !strcmp(key, "tune_user_ops");
    if (!known) {
        snprintf(what, wlen, "unknown key %s", key);
        return -1;
    }
    if (parse_u64(val, &v)) {
        snprintf(what, wlen, "%s: not a non-negative integer: %s", key, val);
        return -1;
    }
    if (!strcmp(key, "size_msg_buffer_bytes"))
        c->size_msg_buffer_bytes = v;
    else if (!strcmp(key, "size_int_buffer_bytes"))
        c->size_int_buffer_bytes = v;
    else if (!strcmp(key, "tuw_degrade_bytes"))
        c->tuw_degrade_bytes = v;
    else if (v <= 1)
        c->tune_user_ops = (int)v;
    else {
        snprintf(what, wlen, "tune_user_ops: expected 0 or 1");
        return -1;
    }
    return 0;
}

/* Walks the lines; stops at the first bad one when stop is set. */
static int walk(const char *text, const char *fname, mg_config *c, mg_diag_fn diag, void *ctx,
                int stop, char *first, size_t flen) {
    int lineno = 0, bad = 0;
    const char *p = text;
    while (*p) {
        char line[512], what[600], where[600];
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        int rc = 0;
        lineno++;
        if (len >= sizeof line) {
            snprintf(what, sizeof what, "line too long");
            rc = -1;
        } else {
            memcpy(line, p, len);
            line[len] = 0;
            char *hash = strchr(line, '#');
            if (hash) *hash = 0;
            rc = parse_line(line, c, what, sizeof what);
        }
        p += len + (nl != NULL);
        if (rc == 0) continue;
        bad++;
        snprintf(where, sizeof where, "%s:%d", fname, lineno);
        if (diag) diag(ctx, 1, where, what);
        if (first && bad == 1) snprintf(first, flen, "%s: %s", where, what);
        if (stop) break;
    }
    return bad;
}

int mg_config_parse_all(const char *text, const char *fname, mg_config *c, mg_diag_fn diag,
                        void *ctx) {
    return walk(text, fname, c, diag, ctx, 0, NULL, 0);
}

int mg_config_parse(const char *text, const char *fname, mg_config *c, char *err, size_t errlen) {
    return walk(text, fname, c, NULL, NULL, 1, err, errlen) ? -1 : 0;
}
