/* What libmpiguide does in this job (docs/dev/interfaces.md section 2): forced algorithms, the
 * tuned selection table, config, report, verify. Rank 0 reads environment, argv, config file and
 * profiles; every rank receives the parsed result (mg_settings_share), so all ranks decide
 * identically whatever their own environment or files say. */
#ifndef MG_SETTINGS_H
#define MG_SETTINGS_H

#include "config/config.h"
#include "mpiguide.h"
#include "profile/profile.h"
#include <stdint.h>

enum mg_report_to { MG_REPORT_NONE = 0, MG_REPORT_STDERR = 1, MG_REPORT_FILE = 2 };

/* Broadcast as plain bytes (no pointers). */
typedef struct mg_settings {
    int off;        /* MPIGUIDE_OFF=1 on rank 0: pure pass-through */
    int strict;     /* MPIGUIDE_STRICT=1 */
    int verify;     /* MPIGUIDE_VERIFY=1 */
    int repair;     /* MPIGUIDE_REPAIR=1: defaults on a known defect run a repair mock-up */
    int guard;      /* MPIGUIDE_GUARD: tuned mode checks its entries in the run (default 1) */
    int report;     /* enum mg_report_to (the path stays on rank 0) */
    int errors;     /* configuration errors rank 0 found */
    int provenance; /* some profile records nodes/ppn to compare with this job */
    int record;     /* MPIGUIDE_RECORD names a file (record_path, used on rank 0) */
    int match_size; /* MPIGUIDE_MATCH=size: profiles apply whatever the datatype and op */
    int16_t forced[MPIGUIDE_COLL_COUNT]; /* algorithm id per collective, -1 when not forced */
    mg_config cfg;
    uint64_t seltab_bytes; /* size of the selection table that follows the broadcast */
    char record_path[4096];
} mg_settings;

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

#include "profile/seltab.h"

/* The state every rank holds after mg_startup. */
typedef struct mg_runtime {
    int started;    /* mg_startup ran */
    int usable;     /* the running MPI is ours and the settings arrived */
    int rank, size; /* in MPI_COMM_WORLD */
    mg_settings s;  /* as rank 0 read them */
    void *seltab;   /* the selection table block, and a view into it */
    mg_selview sel;
    char report_path[4096]; /* rank 0 only */
    void *verify_buf[2];    /* MPIGUIDE_VERIFY: saved input and the default's output */
    size_t verify_bytes;
} mg_runtime;

extern mg_runtime mg_rt;

/* Collective over MPI_COMM_WORLD, right after MPI_Init: rank 0 reads, everyone receives, the
 * pools are created (not with MPIGUIDE_OFF=1). argv may be NULL (then /proc/self/cmdline
 * serves MPIGUIDE_ARGV=1). Idempotent. */
int mg_startup(int argc, char **argv);
/* Releases tables, pools and buffers (before PMPI_Finalize). */
void mg_shutdown(void);

#endif
