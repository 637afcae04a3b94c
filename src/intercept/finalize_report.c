/* The report written at MPI_Finalize (MPIGUIDE_REPORT, docs/dev/interfaces.md section 4): the
 * `#@pgmpi alg` lines of alg_seen.c's table, `#@pgmpi config` lines, the `#@mpiguide calls`
 * counters, then the guard's, online mode's and the record's lines. Counts are rank 0's own calls,
 * except the verification counters, which are summed over all ranks. */
#include "guard.h"
#include "intercept.h"
#include "online.h"
#include "runtime/comm_scratch.h"
#include "util/diag.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const counter_names[MG_N_COUNT] = {
    "total",           "mockup",        "fallback_memory", "fallback_args",    "fallback_threads",
    "fallback_userop", "fallback_pool", "optout",          "large_count",      "other",
    "guard_default",   "other_type",    "library",         "fallback_library", "fallback_defect",
    "known_defect",    "repaired",      "verified",        "verify_mismatch"};

void mg_report_write(void) {
    if (!mg_report_on) return;
    /* Verification results of every rank (collective: every rank reaches this point). */
    uint64_t local[MPIGUIDE_COLL_COUNT][2], sum[MPIGUIDE_COLL_COUNT][2];
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        local[c][0] = atomic_load(&mg_counts[c][MG_N_VERIFIED]);
        local[c][1] = atomic_load(&mg_counts[c][MG_N_MISMATCH]);
    }
    if (mg_rt.s.verify)
        PMPI_Reduce(local, sum, 2 * MPIGUIDE_COLL_COUNT, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mg_rt.rank != 0) return;
    FILE *f = stderr;
    if (mg_rt.s.report == MG_REPORT_FILE) {
        f = fopen(mg_rt.report_path, "w");
        if (!f) {
            mg_error(mg_rt.report_path, "cannot write the report: %s; writing it to stderr",
                     strerror(errno));
            f = stderr;
        }
    }
    static mg_seen_row rows[MG_SEEN_SLOTS];
    size_t n = mg_seen_rows(rows);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "#@pgmpi alg %s %lld %s\n", mg_coll_name(rows[i].coll), (long long)rows[i].msize,
                mpiguide_algorithm_name(rows[i].alg));
    fprintf(f, "#@pgmpi config size_msg_buffer_bytes %llu\n",
            (unsigned long long)mg_cfg.size_msg_buffer_bytes);
    fprintf(f, "#@pgmpi config size_int_buffer_bytes %llu\n",
            (unsigned long long)mg_cfg.size_int_buffer_bytes);
    fprintf(f, "#@pgmpi config tune_user_ops %d\n", mg_cfg.tune_user_ops);
    fprintf(f, "#@pgmpi config tuw_degrade_bytes %llu\n",
            (unsigned long long)mg_cfg.tuw_degrade_bytes);
    if (mg_threads) { /* scratch per communicator: made at first use, freed with it */
        unsigned long long made, freed;
        mg_cscratch_counts(&made, &freed);
        fprintf(f, "#@mpiguide comm_scratch created=%llu released=%llu\n", made, freed);
    }
    /* the MPI's own algorithms (src/libalg/): how many could be selected, or why none */
    if (mpiguide_library_off())
        fprintf(f, "#@mpiguide library_algorithms off: %s\n", mpiguide_library_off());
    else
        fprintf(f, "#@mpiguide library_algorithms %d\n", mpiguide_algorithm_count() - mg_nalgs);
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        if (!atomic_load(&mg_counts[c][MG_N_TOTAL])) continue;
        char line[1024];
        int len = snprintf(line, sizeof line, "#@mpiguide calls %s", mg_coll_name(c));
        int last = mg_rt.s.verify ? MG_N_COUNT : MG_N_VERIFIED;
        for (int k = 0; k < last && len < (int)sizeof line; k++) {
            uint64_t v = k == MG_N_VERIFIED   ? sum[c][0]
                         : k == MG_N_MISMATCH ? sum[c][1]
                                              : atomic_load(&mg_counts[c][k]);
            len += snprintf(line + len, sizeof line - (size_t)len, " %s=%llu", counter_names[k],
                            (unsigned long long)v);
        }
        fprintf(f, "%s\n", line);
#ifdef MPIGUIDE_TEST_ALGORITHMS
        fprintf(f, "#@mpiguide test memo_hits %s %llu\n", mg_coll_name(c),
                (unsigned long long)mg_test_memo_hits[c]);
#endif
    }
    mg_guard_report(f);
    mg_online_report(f);
    mg_record_report(f);
    if (f != stderr)
        fclose(f);
    else
        fflush(stderr);
}
