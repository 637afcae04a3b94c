/* Configuration of libmpiguide (docs/dev/interfaces.md section 2): the `key value` config file and
 * its defaults. Parsing is pure (no MPI) so it can be unit-tested and fuzzed. */
#ifndef MG_CONFIG_H
#define MG_CONFIG_H

#include "util/diag.h"
#include <stddef.h>
#include <stdint.h>

typedef struct mg_config {
    uint64_t size_msg_buffer_bytes;
    uint64_t size_int_buffer_bytes;
    int tune_user_ops;
    uint64_t tuw_degrade_bytes;
} mg_config;

void mg_config_defaults(mg_config *c);

/* Parses config text; every bad line is reported through diag (may be NULL) and skipped, the
 * good lines apply. Returns the number of bad lines. */
int mg_config_parse_all(const char *text, const char *fname, mg_config *c, mg_diag_fn diag,
                        void *ctx);
/* The same, stopping at the first bad line: returns -1 with "FILE:LINE: problem" in err (c
 * keeps the values parsed before it), 0 on success. */
int mg_config_parse(const char *text, const char *fname, mg_config *c, char *err, size_t errlen);

#endif
