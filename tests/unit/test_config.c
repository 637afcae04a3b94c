/* Config file parser: every key, comments, and each kind of bad line, which is reported with
 * its file and line and skipped while the good lines still apply. */
#include "check.h"
#include "config/config.h"
#include <string.h>

typedef struct seen {
    int n;
    char where[8][128], what[8][256];
} seen;

static void collect(void *ctx, int error, const char *where, const char *what) {
    (void)error;
    seen *s = ctx;
    if (s->n < 8) {
        snprintf(s->where[s->n], sizeof s->where[0], "%s", where);
        snprintf(s->what[s->n], sizeof s->what[0], "%s", what);
    }
    s->n++;
}

typedef struct bad_case {
    const char *name, *text, *where, *word;
} bad_case;

static const bad_case bad[] = {
    {"unknown key", "size_msg_buffer 10\n", "c.cfg:1", "unknown key"},
    {"negative", "size_msg_buffer_bytes -1\n", "c.cfg:1", "non-negative"},
    {"text value", "\n\nsize_int_buffer_bytes lots\n", "c.cfg:3", "non-negative"},
    {"trailing junk", "size_msg_buffer_bytes 10 20\n", "c.cfg:1", "key value"},
    {"key alone", "tune_user_ops\n", "c.cfg:1", "key value"},
    {"tune_user_ops 2", "tune_user_ops 2\n", "c.cfg:1", "0 or 1"},
    {"overflow", "size_msg_buffer_bytes 99999999999999999999999\n", "c.cfg:1", "non-negative"},
    {"number suffix", "size_msg_buffer_bytes 10k\n", "c.cfg:1", "non-negative"},
};

int main(void) {
    mg_config c;
    mg_config_defaults(&c);
    CHECK(c.size_msg_buffer_bytes == 100000000 && c.size_int_buffer_bytes == 200000 &&
              c.tune_user_ops == 0 && c.tuw_degrade_bytes == 1 << 20,
          "defaults");
    seen s = {0};
    const char *all = "# full config\nsize_msg_buffer_bytes 1000   # msg\n"
                      "  size_int_buffer_bytes\t77\ntune_user_ops 1\ntuw_degrade_bytes 5\n\n";
    CHECK(mg_config_parse_all(all, "c.cfg", &c, collect, &s) == 0 && s.n == 0, "all keys");
    CHECK(c.size_msg_buffer_bytes == 1000 && c.size_int_buffer_bytes == 77 &&
              c.tune_user_ops == 1 && c.tuw_degrade_bytes == 5,
          "all keys applied");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mg_config_defaults(&c);
        s = (seen){0};
        int n = mg_config_parse_all(bad[i].text, "c.cfg", &c, collect, &s);
        CHECK(n == 1 && s.n == 1, "bad `%s`: %d errors", bad[i].name, n);
        CHECK(!strcmp(s.where[0], bad[i].where) && strstr(s.what[0], bad[i].word),
              "bad `%s`: want %s `%s`, got %s %s", bad[i].name, bad[i].where, bad[i].word,
              s.where[0], s.what[0]);
        mg_config d;
        mg_config_defaults(&d);
        CHECK(c.size_msg_buffer_bytes == d.size_msg_buffer_bytes &&
                  c.size_int_buffer_bytes == d.size_int_buffer_bytes &&
                  c.tune_user_ops == d.tune_user_ops && c.tuw_degrade_bytes == d.tuw_degrade_bytes,
              "bad `%s` leaves the defaults", bad[i].name);
    }
    /* bad lines are skipped, good ones apply */
    mg_config_defaults(&c);
    s = (seen){0};
    int n = mg_config_parse_all("size_msg_buffer_bytes 5\nbogus 1\nsize_int_buffer_bytes 6\n",
                                "x.cfg", &c, collect, &s);
    CHECK(n == 1 && !strcmp(s.where[0], "x.cfg:2"), "one bad line of three: %d %s", n, s.where[0]);
    CHECK(c.size_msg_buffer_bytes == 5 && c.size_int_buffer_bytes == 6, "good lines apply");
    /* the first-error form */
    char err[256];
    mg_config_defaults(&c);
    CHECK(mg_config_parse("a 1\nb 2\n", "y.cfg", &c, err, sizeof err) == -1 &&
              !strncmp(err, "y.cfg:1: unknown key a", 22),
          "first error: %s", err);
    char longline[700];
    memset(longline, 'x', sizeof longline - 1);
    longline[sizeof longline - 1] = 0;
    s = (seen){0};
    CHECK(mg_config_parse_all(longline, "z.cfg", &c, collect, &s) == 1 &&
              strstr(s.what[0], "too long"),
          "long line");
    return DONE();
}
