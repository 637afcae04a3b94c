/* A small JSON scanner for MPICH's collective-selection files: validates a text and lists the
 * members (key, value span) of an object, without building a tree, so the MPICH writer can copy
 * subtrees verbatim. Nothing in the input is trusted (depth, lengths, escapes). Pure. */
#include "tuning_files.h"
#include <string.h>

#define MAX_DEPTH 200

static size_t skip_ws(const char *t, size_t n, size_t i) {
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    return i;
}

/* End of the string starting at t[i] == '"' (index after the closing quote), 0 when bad. */
static size_t skip_string(const char *t, size_t n, size_t i) {
    for (i++; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '"') return i + 1;
        if (c < 0x20) return 0;
        if (c == '\\') {
            if (++i >= n) return 0;
            if (t[i] == 'u') {
                for (int k = 1; k <= 4; k++) {
                    char h = i + (size_t)k < n ? t[i + (size_t)k] : 0;
                    if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') ||
                          (h >= 'A' && h <= 'F')))
                        return 0;
                }
                i += 4;
            } else if (!t[i] || !strchr("\"\\/bfnrt", t[i])) {
                return 0;
            }
        }
    }
    return 0;
}

static size_t skip_value(const char *t, size_t n, size_t i, int depth);

static size_t skip_container(const char *t, size_t n, size_t i, int depth, char close) {
    int object = close == '}';
    i = skip_ws(t, n, i + 1);
    if (i < n && t[i] == close) return i + 1;
    for (;;) {
        if (object) {
            if (i >= n || t[i] != '"' || !(i = skip_string(t, n, i))) return 0;
            i = skip_ws(t, n, i);
            if (i >= n || t[i] != ':') return 0;
            i = skip_ws(t, n, i + 1);
        }
        if (!(i = skip_value(t, n, i, depth + 1))) return 0;
        i = skip_ws(t, n, i);
        if (i < n && t[i] == close) return i + 1;
        if (i >= n || t[i] != ',') return 0;
        i = skip_ws(t, n, i + 1);
    }
}

static size_t skip_literal(const char *t, size_t n, size_t i) {
    static const char *lit[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t l = strlen(lit[k]);
        if (n - i >= l && !strncmp(t + i, lit[k], l)) return i + l;
    }
    size_t s = i;
    if (i < n && t[i] == '-') i++;
    while (i < n && ((t[i] >= '0' && t[i] <= '9') || t[i] == '.' || t[i] == 'e' || t[i] == 'E' ||
                     t[i] == '+' || t[i] == '-'))
        i++;
    return i > s && (t[s] != '-' || i > s + 1) ? i : 0;
}

static size_t skip_value(const char *t, size_t n, size_t i, int depth) {
    if (depth > MAX_DEPTH || i >= n) return 0;
    switch (t[i]) {
    case '{':
        return skip_container(t, n, i, depth, '}');
    case '[':
        return skip_container(t, n, i, depth, ']');
    case '"':
        return skip_string(t, n, i);
    default:
        return skip_literal(t, n, i);
    }
}

int mg_json_valid(const char *t, size_t n) {
    size_t i = skip_ws(t, n, 0);
    if (i >= n || t[i] != '{') return 0;
    size_t e = skip_value(t, n, i, 0);
    return e && skip_ws(t, n, e) == n;
}

int mg_json_members(const char *t, mg_json_span obj, mg_json_member *out, int max) {
    size_t i = obj.off, n = obj.off + obj.len;
    if (i >= n || t[i] != '{') return -1;
    int k = 0;
    i = skip_ws(t, n, i + 1);
    if (i < n && t[i] == '}') return 0;
    for (;;) {
        if (i >= n || t[i] != '"') return -1;
        size_t ke = skip_string(t, n, i);
        if (!ke) return -1;
        mg_json_span key = {i + 1, ke - i - 2};
        i = skip_ws(t, n, ke);
        if (i >= n || t[i] != ':') return -1;
        i = skip_ws(t, n, i + 1);
        size_t ve = skip_value(t, n, i, 1);
        if (!ve) return -1;
        if (k < max) out[k] = (mg_json_member){key, {i, ve - i}};
        k++;
        i = skip_ws(t, n, ve);
        if (i < n && t[i] == '}') return k;
        if (i >= n || t[i] != ',') return -1;
        i = skip_ws(t, n, i + 1);
    }
}

int mg_json_key_is(const char *t, mg_json_span key, const char *s) {
    return key.len == strlen(s) && !strncmp(t + key.off, s, key.len);
}
