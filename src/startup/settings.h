/* What libmpiguide does in this job (docs/dev/interfaces.md section 2): forced algorithms, the
 * tuned selection table, config, report, verify. Rank 0 reads environment, argv, config file and
 * profiles; every rank receives the parsed result (mg_settings_share), so all ranks decide
 * identically whatever their own environment or files say. */
#ifndef MG_SETTINGS_H
#define MG_SETTINGS_H

#include "runtime/state.h"
#include "mpiguide.h"
#include "profile/profile.h"
#include <stdint.h>

/* Where rank 0 finds its inputs; a table in unit tests, the process otherwise. */
typedef struct mg_env {
    const char *(*get)(void *ctx, const char *name);
    void *ctx;
    int argc; /* the program's arguments (argv[0] first), for MPIGUIDE_ARGV=1 */
    char **argv;
} mg_env;

/* Rank 0's reading: environment, PGMPI_PARAMS, argv (only with MPIGUIDE_ARGV=1), config file,
 * profiles. Every problem is reported as one `mpiguide: error:` line through diag and then
 * ignored. Fills s, the report path, the selection table (*seltab, malloc) and the profiles
 * (kept for the provenance check). Returns the number of errors. */
int mg_settings_read(const mg_env *env, mg_settings *s, char *report_path, size_t plen,
                     void **seltab, mg_profile_set *profiles, mg_diag_fn diag, void *ctx);

/* Parsers of the forced-selection syntax, exposed for the unit tests. `where` names the source
 * (MPIGUIDE_ALG, PGMPI_PARAMS, argv). Entries are `coll=alg`, `coll=alg:NAME` or
 * `coll:alg=NAME`, comma-separated. Returns the number of bad entries. */
int mg_settings_parse_forced(const char *spec, const char *where, int16_t *forced, mg_diag_fn diag,
                             void *ctx);

/* The environment of this process. */
mg_env mg_env_process(int argc, char **argv);

/* Collective over MPI_COMM_WORLD, right after MPI_Init: rank 0 reads, everyone receives, the
 * pools are created (not with MPIGUIDE_OFF=1). argv may be NULL (then /proc/self/cmdline
 * serves MPIGUIDE_ARGV=1). Idempotent. */
int mg_startup(int argc, char **argv);
/* Releases tables, pools and buffers (before PMPI_Finalize). */
void mg_shutdown(void);

#endif
