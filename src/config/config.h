/* Configuration of libmpiguide (docs/dev/interfaces.md section 2): the `key value` config file and
 * its defaults. Parsing is pure (no MPI) so it can be unit-tested and fuzzed. */
#ifndef MG_CONFIG_H
#define MG_CONFIG_H

#include <stddef.h>
#include <stdint.h>

typedef struct mg_config {
    uint64_t size_msg_buffer_bytes;
    uint64_t size_int_buffer_bytes;
    int tune_user_ops;
    uint64_t tuw_degrade_bytes;
} mg_config;

/* The configuration in effect (identical on every rank: rank 0 reads, everyone receives). */
extern mg_config mg_cfg;

void mg_config_defaults(mg_config *c);

/* Called once per bad line with WHERE = "FILE:LINE" and WHAT the problem. */
typedef void (*mg_config_diag)(void *ctx, const char *where, const char *what);

/* Parses config text; every bad line is reported through diag (may be NULL) and skipped, the
 * good lines apply. Returns the number of bad lines. */
int mg_config_parse_all(const char *text, const char *fname, mg_config *c, mg_config_diag diag,
                        void *ctx);
/* The same, stopping at the first bad line: returns -1 with "FILE:LINE: problem" in err (c
 * keeps the values parsed before it), 0 on success. */
int mg_config_parse(const char *text, const char *fname, mg_config *c, char *err, size_t errlen);

#endif
