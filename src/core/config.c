/* The config file parser: `key value` lines, `#` comments, unknown keys and bad values are
 * errors naming file and line. */
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

int mg_config_parse(const char *text, const char *fname, mg_config *c, char *err, size_t errlen) {
    int lineno = 0;
    const char *p = text;
    while (*p) {
        char line[512], key[128], val[256], extra[2];
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (len >= sizeof line) {
            snprintf(err, errlen, "%s:%d: line too long", fname, lineno);
            return -1;
        }
        memcpy(line, p, len);
        line[len] = 0;
        p += len + (nl != NULL);
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        int n = sscanf(line, "%127s %255s %1s", key, val, extra);
        if (n <= 0) continue;
        if (n != 2) {
            snprintf(err, errlen, "%s:%d: expected `key value`", fname, lineno);
            return -1;
        }
        uint64_t v;
        if (parse_u64(val, &v)) {
            snprintf(err, errlen, "%s:%d: %s: not a non-negative integer: %s", fname, lineno, key,
                     val);
            return -1;
        }
        if (!strcmp(key, "size_msg_buffer_bytes"))
            c->size_msg_buffer_bytes = v;
        else if (!strcmp(key, "size_int_buffer_bytes"))
            c->size_int_buffer_bytes = v;
        else if (!strcmp(key, "tuw_degrade_bytes"))
            c->tuw_degrade_bytes = v;
        else if (!strcmp(key, "tune_user_ops") && v <= 1)
            c->tune_user_ops = (int)v;
        else if (!strcmp(key, "tune_user_ops")) {
            snprintf(err, errlen, "%s:%d: tune_user_ops: expected 0 or 1", fname, lineno);
            return -1;
        } else {
            snprintf(err, errlen, "%s:%d: unknown key %s", fname, lineno, key);
            return -1;
        }
    }
    return 0;
}
