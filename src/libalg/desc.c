/* The item list of an MPICH algorithm variable's description. MPICH 4.0 gives these variables
 * no MPI_T enumeration; the description lists the items in value order, one per source line,
 * `name<spaces>- explanation`, but its generator joins the lines without a separator, so each
 * name is glued to the end of the previous explanation: "...selection (...)binomial   - Force
 * Binomial Treenb   - Force nonblocking algorithmsmp   - ...". The split is unambiguous where the
 * previous text ends in `)` or in the word "algorithm" (as MPICH's explanations do); the other
 * names are split with the words of those unambiguous names from every description (the
 * longest suffix made only of known words). A line break before a name is taken as is, so a
 * library that keeps its line breaks parses exactly. The nonblocking collectives' descriptions
 * add two glues: "algorithmssched_naive" (an explanation ending in "algorithms": the name after
 * "algorithms" is taken where its first word starts other names and the one after "algorithm"
 * does not), and "receivestsp_ring" (the longest suffix, not right after `_`, whose first word
 * starts unambiguous names, before the known-words rule, which would give "ring"). Pure. */
#include "libalg.h"
#include <ctype.h>
#include <string.h>

static int ident_char(char c) {
    return islower((unsigned char)c) || isdigit((unsigned char)c) || c == '_';
}

/* 1 when s[0..n) is a name: lower-case letters, digits and `_`, starting with a letter. */
static int is_ident(const char *s, size_t n) {
    if (!n || !islower((unsigned char)s[0])) return 0;
    for (size_t i = 0; i < n; i++)
        if (!ident_char(s[i])) return 0;
    return 1;
}

/* The glued tokens before each " - " separator: start offset and length. */
static int tokens(const char *d, size_t *start, size_t *len, int max, int *newline) {
    int n = 0;
    size_t L = strlen(d);
    for (size_t i = 1; i + 1 < L && n < max; i++) {
        if (d[i] != '-' || d[i + 1] != ' ' || d[i - 1] != ' ') continue;
        size_t e = i;
        while (e > 0 && d[e - 1] == ' ') e--;
        size_t b = e;
        while (b > 0 && !isspace((unsigned char)d[b - 1])) b--;
        if (b == e) continue;
        start[n] = b;
        len[n] = e - b;
        newline[n] = b == 0 || d[b - 1] == '\n' || d[b - 1] == '\r';
        n++;
    }
    return n;
}

/* The unambiguous split of a glued token: after the last `)`, after a leading "algorithm", or
 * the whole token after a line break. Length of the name (at the token's end), 0 when none. */
static size_t sure_split(const char *t, size_t n, int newline) {
    if (newline && is_ident(t, n)) return n;
    for (size_t i = n; i > 0; i--)
        if (t[i - 1] == ')') return is_ident(t + i, n - i) ? n - i : 0;
    static const char alg[] = "algorithm";
    size_t a = sizeof alg - 1;
    if (n > a && !strncmp(t, alg, a) && is_ident(t + a, n - a)) return n - a;
    return 0;
}

static int known(const mg_desc_vocab *v, const char *w, size_t n) {
    for (int i = 0; i < v->n; i++)
        if (strlen(v->word[i]) == n && !strncmp(v->word[i], w, n)) return 1;
    return 0;
}

static void add_word(mg_desc_vocab *v, const char *w, size_t n) {
    if (!n || n >= sizeof v->word[0] || known(v, w, n) ||
        v->n >= (int)(sizeof v->word / sizeof v->word[0]))
        return;
    memcpy(v->word[v->n], w, n);
    v->word[v->n++][n] = 0;
}

/* Length of the first `_`-separated word of s[0..n). */
static size_t first_word(const char *s, size_t n) {
    size_t k = 0;
    while (k < n && s[k] != '_') k++;
    return k;
}

static int is_lead(const mg_desc_vocab *v, const char *w, size_t n) {
    size_t k = first_word(w, n);
    for (int i = 0; i < v->nlead; i++)
        if (strlen(v->lead[i]) == k && !strncmp(v->lead[i], w, k)) return 1;
    return 0;
}

static void add_lead(mg_desc_vocab *v, const char *w, size_t n) {
    size_t k = first_word(w, n);
    if (!k || k >= sizeof v->lead[0] || is_lead(v, w, n) ||
        v->nlead >= (int)(sizeof v->lead / sizeof v->lead[0]))
        return;
    memcpy(v->lead[v->nlead], w, k);
    v->lead[v->nlead++][k] = 0;
}

static void add_words(mg_desc_vocab *v, const char *w, size_t k) {
    for (size_t a = 0, b = 0; b <= k; b++)
        if (b == k || w[b] == '_') {
            add_word(v, w + a, b - a);
            a = b + 1;
        }
}

/* "algorithms" + name glued: an explanation ending in "algorithm" or in "algorithms". */
static int plural_glue(const char *t, size_t n) {
    return n > 10 && !strncmp(t, "algorithms", 10);
}

void mg_desc_vocab_add(mg_desc_vocab *v, const char *desc) {
    size_t st[64], ln[64];
    int nl[64];
    int n = tokens(desc, st, ln, 64, nl);
    for (int i = 0; i < n; i++) {
        const char *t = desc + st[i];
        size_t k = sure_split(t, ln[i], nl[i]);
        const char *w = t + ln[i] - k;
        add_words(v, w, k);
        if (plural_glue(t, ln[i]) && !nl[i]) /* both readings' words; neither starts names */
            add_words(v, t + 10, ln[i] - 10);
        else if (k)
            add_lead(v, w, k);
    }
}

/* 1 when every `_`-separated word of s[0..n) is known. */
static int all_known(const mg_desc_vocab *v, const char *s, size_t n) {
    for (size_t a = 0, b = 0; b <= n; b++)
        if (b == n || s[b] == '_') {
            if (b == a || !known(v, s + a, b - a)) return 0;
            a = b + 1;
        }
    return 1;
}

int mg_desc_items(const char *desc, const mg_desc_vocab *v, char items[][MG_LIBALG_ITEM], int max) {
    size_t st[64], ln[64];
    int nl[64];
    int n = tokens(desc, st, ln, 64, nl);
    if (n == 0) return -1;
    int out = 0;
    for (int i = 0; i < n && out < max; i++) {
        const char *t = desc + st[i];
        size_t k = sure_split(t, ln[i], nl[i]);
        if (k && plural_glue(t, ln[i]) && !nl[i] && is_ident(t + 10, ln[i] - 10) &&
            is_lead(v, t + 10, ln[i] - 10) && !is_lead(v, t + 9, ln[i] - 9))
            k = ln[i] - 10;
        if (!k) /* a suffix that starts like other names */
            for (size_t s = 1; s < ln[i] && !k; s++)
                if (t[s - 1] != '_' && is_ident(t + s, ln[i] - s) && is_lead(v, t + s, ln[i] - s))
                    k = ln[i] - s;
        if (!k) /* the longest suffix of known words, else the longest that is a name */
            for (size_t s = 1; s < ln[i] && !k; s++)
                if (is_ident(t + s, ln[i] - s) && all_known(v, t + s, ln[i] - s)) k = ln[i] - s;
        if (!k)
            for (size_t s = 0; s < ln[i] && !k; s++)
                if (is_ident(t + s, ln[i] - s)) k = ln[i] - s;
        if (!k || k >= MG_LIBALG_ITEM) return -1;
        memcpy(items[out], t + ln[i] - k, k);
        items[out++][k] = 0;
    }
    return out;
}

/* The value of a known item: the index of the first item whose glued token ends with it. */
int mg_desc_index(const char *desc, const char *item) {
    size_t st[64], ln[64], k = strlen(item);
    int nl[64];
    int n = tokens(desc, st, ln, 64, nl);
    for (int i = 0; i < n; i++)
        if (ln[i] >= k && !strncmp(desc + st[i] + ln[i] - k, item, k)) return i;
    return -1;
}
