/* What libmpiguide does in this job, as every rank holds it after start-up (src/startup/ reads
 * and shares it): the settings rank 0 read (forced algorithms, config, report, verify, guard,
 * record), the tuned selection table, and the configuration in effect. Read-only after
 * start-up, so every layer above may read it (docs/dev/design.md invariant 1). */
#ifndef MG_STATE_H
#define MG_STATE_H

#include "config/config.h"
#include "mpiguide.h"
#include "profile/seltab.h"
#include <stddef.h>
#include <stdint.h>

enum mg_report_to { MG_REPORT_NONE = 0, MG_REPORT_STDERR = 1, MG_REPORT_FILE = 2 };
/* MPIGUIDE_ONLINE: off, the race (1), or every call the next candidate in turn (rotate). */
enum mg_online_mode { MG_ONLINE_OFF = 0, MG_ONLINE_RACE = 1, MG_ONLINE_ROTATE = 2 };

/* Broadcast as plain bytes (no pointers). */
typedef struct mg_settings {
    int off;              /* MPIGUIDE_OFF=1 on rank 0: pure pass-through */
    int strict;           /* MPIGUIDE_STRICT=1 */
    int verify;           /* MPIGUIDE_VERIFY=1 */
    int repair;           /* MPIGUIDE_REPAIR=1: defaults on a known defect run a repair mock-up */
    int guard;            /* MPIGUIDE_GUARD: tuned mode checks its entries in the run (default 1) */
    int nonblocking;      /* MPIGUIDE_NONBLOCKING: -1 unset (nonblocking profiles apply under their
                             guard), 0 never, 1 always */
    int report;           /* enum mg_report_to (the path stays on rank 0) */
    int errors;           /* configuration errors rank 0 found */
    int provenance;       /* some profile records nodes/ppn to compare with this job */
    int record;           /* MPIGUIDE_RECORD names a file (record_path, used on rank 0) */
    int match_size;       /* MPIGUIDE_MATCH=size: profiles apply whatever the datatype and op */
    int online;           /* MPIGUIDE_ONLINE: enum mg_online_mode */
    double online_budget; /* MPIGUIDE_ONLINE_BUDGET: share of a cell's (and the run's) time */
    int16_t forced[MPIGUIDE_COLL_COUNT]; /* algorithm id per collective, -1 when not forced */
    mg_config cfg;
    uint64_t seltab_bytes; /* size of the selection table that follows the broadcast */
    char record_path[4096];
    char profiles_out[4096]; /* MPIGUIDE_PROFILES_OUT: where rank 0 writes what the run learned */
} mg_settings;

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

/* The configuration in effect (identical on every rank: rank 0 reads, everyone receives). */
extern mg_config mg_cfg;

#endif
