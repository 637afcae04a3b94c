/* Library start-up, collective over MPI_COMM_WORLD: the MPI check, rank 0's reading of
 * environment, config and profiles, one broadcast of the parsed result (so every rank decides
 * identically, docs/dev/design.md invariant 1), the provenance check, the pack-format self-test and
 * the scratch pools. The MPI_Init wrappers call mg_startup; mpiguide_init() is the same for
 * programs that use the in-process API. */
#include "config/config.h"
#include "runtime/mpi_defects.h"
#include "util/diag.h"
#include "runtime/mpi_family.h"
#include "dispatch/registry.h"
#include "runtime/scratch.h"
#include "settings.h"
#include "libalg/libalg_mpi.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Packed scratch assumes PMPI_Pack writes exactly the signature bytes (homogeneous data
 * representation); a type with a gap proves it. */
static int pack_is_signature(void) {
    struct {
        int i;
        double d;
    } v = {7, 2.5};
    int lens[2] = {1, 1}, pos = 0;
    MPI_Aint disp[2] = {0, offsetof(__typeof__(v), d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
    char out[64];
    if (PMPI_Type_create_struct(2, lens, disp, types, &t) != MPI_SUCCESS) return 0;
    PMPI_Type_commit(&t);
    int rc = PMPI_Pack(&v, 1, t, out, sizeof out, &pos, MPI_COMM_SELF);
    PMPI_Type_free(&t);
    return rc == MPI_SUCCESS && pos == (int)(sizeof(int) + sizeof(double));
}

/* The pools, sized by the agreed configuration. Collective. */
static int start_pools(void) {
    int ok = pack_is_signature(), all_ok = 0;
    int rc = PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) return rc;
    if (!all_ok) {
        if (mg_rt.rank == 0)
            mg_error("libmpiguide", "MPI_Pack output is not the type signature; "
                                    "mock-ups disabled");
        return MPI_ERR_OTHER;
    }
    return mg_pool_create(mg_cfg.size_msg_buffer_bytes, mg_cfg.size_int_buffer_bytes);
}

/* MPIGUIDE_VERIFY keeps two buffers of the message-pool size (at most INT_MAX bytes, what
 * MPI_Pack can address); a rank that cannot allocate them turns verification off everywhere. */
static int start_verify(void) {
    size_t want = mg_cfg.size_msg_buffer_bytes < INT_MAX ? mg_cfg.size_msg_buffer_bytes : INT_MAX;
    void *a = want ? malloc(want) : NULL, *b = want ? malloc(want) : NULL;
    unsigned long long have = a && b ? want : 0, agreed = 0;
    int rc = PMPI_Allreduce(&have, &agreed, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS || !agreed) {
        free(a);
        free(b);
        if (rc == MPI_SUCCESS && mg_rt.rank == 0)
            mg_warning("MPIGUIDE_VERIFY", "no memory for the verification buffers; not verifying");
        mg_rt.s.verify = 0;
        return rc;
    }
    mg_rt.verify_buf[0] = a;
    mg_rt.verify_buf[1] = b;
    mg_rt.verify_bytes = (size_t)agreed;
    return MPI_SUCCESS;
}

/* 1 when the profile's #@mpi_library names the running library (either string holds the
 * other, or it is the short name of this MPI). */
static int same_library(const char *recorded) {
    const char *running = mg_library_version();
    return !recorded[0] || strstr(running, recorded) || strstr(recorded, running) ||
           !strcmp(recorded, MG_BUILT_FOR);
}

/* Profiles measured elsewhere may select badly here: rank 0 warns once, naming the first
 * profile that differs from this job. The node count needs a collective, done only when some
 * profile records nodes or ppn (a value every rank received). */
static int check_provenance(const mg_profile_set *ps) {
    int nodes = 0, ppn = 0, rc = MPI_SUCCESS;
    if (mg_rt.s.provenance) {
        MPI_Comm local;
        int lsize = 1, lrank = 0;
        rc = PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
        if (rc != MPI_SUCCESS) return rc;
        PMPI_Comm_size(local, &lsize);
        PMPI_Comm_rank(local, &lrank);
        PMPI_Comm_free(&local);
        int leader = lrank == 0;
        rc = PMPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Allreduce(&lsize, &ppn, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) return rc;
    }
    if (mg_rt.rank != 0) return MPI_SUCCESS;
    int differ = 0;
    char first[900] = "";
    const char *first_file = NULL;
    for (int i = 0; i < ps->n; i++) {
        const mg_profile *p = &ps->v[i];
        char what[900] = "";
        size_t n = 0;
        if (!same_library(p->mpi_library))
            n += (size_t)snprintf(what + n, sizeof what - n, " mpi_library=%s (running %s)",
                                  p->mpi_library, mg_library_version());
        if (p->nodes && p->nodes != nodes && n < sizeof what)
            n += (size_t)snprintf(what + n, sizeof what - n, " nodes=%d (running %d)", p->nodes,
                                  nodes);
        if (p->ppn && p->ppn != ppn && n < sizeof what)
            n += (size_t)snprintf(what + n, sizeof what - n, " ppn=%d (running %d)", p->ppn, ppn);
        if (!n) continue;
        if (!differ++) {
            snprintf(first, sizeof first, "%s", what);
            first_file = ps->file[i];
        }
    }
    if (differ)
        mg_warning(first_file, "profile measured on a different job:%s%s", first,
                   differ > 1 ? " (and more profiles differ)" : "");
    return MPI_SUCCESS;
}

/* Library algorithms the ranks could not agree on: every selection of one becomes the default
 * (the forced table and the selection table rank 0 built before the agreement). */
static void drop_library_selections(void) {
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++)
        if (mg_rt.s.forced[c] >= mg_nalgs) mg_rt.s.forced[c] = -1;
    for (uint32_t i = 0; i < mg_rt.sel.nprof; i++) {
        const mg_selprof *P = &mg_rt.sel.prof[i];
        int32_t *alg = (int32_t *)(uintptr_t)mg_rt.sel.alg;
        for (uint32_t r = P->first; r < P->first + P->n; r++)
            if (alg[r] >= mg_nalgs) alg[r] = P->coll;
    }
}

/* Local discovery before rank 0 reads the settings, so that profiles and MPIGUIDE_ALG resolve
 * library algorithm names (src/libalg/). Not with this rank's MPIGUIDE_OFF=1: the agreement then
 * turns them off everywhere. */
static void discover_library_algorithms(void) {
    const char *off = getenv("MPIGUIDE_OFF");
    mg_libalg_reset(mg_nalgs);
    if (off && !strcmp(off, "1")) {
        mg_libalg_set_off("MPIGUIDE_OFF=1");
        return;
    }
    mg_libalg_discover(mg_nalgs);
}

int mg_startup(int argc, char **argv) {
    if (mg_rt.started) return MPI_SUCCESS;
    mg_rt.started = 1;
    if (!mg_library_matches()) return MPI_ERR_OTHER;
    int rc;
    PMPI_Comm_rank(MPI_COMM_WORLD, &mg_rt.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &mg_rt.size);
    mg_defects_start(mg_rt.rank);
    discover_library_algorithms();
    mg_profile_set profiles = {0};
    void *block = NULL;
    if (mg_rt.rank == 0) {
        mg_env env = mg_env_process(argc, argv);
        mg_settings_read(&env, &mg_rt.s, mg_rt.report_path, sizeof mg_rt.report_path, &block,
                         &profiles, mg_diag_stderr, NULL);
        if (mg_rt.s.errors && mg_rt.s.strict) {
            mg_error("MPIGUIDE_STRICT", "%d configuration error(s); aborting", mg_rt.s.errors);
            /* launchers forward the ranks' output asynchronously and drop what is still in
             * flight when the job aborts (MPICH 4.0.2's hydra lost this line once in the
             * suite, test ic.strict): a moment for it to pass before the abort */
            fflush(stderr);
            const struct timespec moment = {0, 200 * 1000 * 1000};
            nanosleep(&moment, NULL);
            PMPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    rc = PMPI_Bcast(&mg_rt.s, sizeof mg_rt.s, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS && mg_rt.s.seltab_bytes) {
        if (mg_rt.rank != 0) block = malloc(mg_rt.s.seltab_bytes);
        int have = block != NULL, all = 0;
        rc = PMPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS && all)
            rc = PMPI_Bcast(block, (int)mg_rt.s.seltab_bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS &&
            (!all || mg_seltab_view(block, mg_rt.s.seltab_bytes, &mg_rt.sel))) {
            if (mg_rt.rank == 0)
                mg_error("MPIGUIDE_PROFILES", "selection table not usable; ignored");
            free(block);
            block = NULL;
            memset(&mg_rt.sel, 0, sizeof mg_rt.sel);
        }
    }
    mg_rt.seltab = block;
    mg_cfg = mg_rt.s.cfg;
    if (rc == MPI_SUCCESS && !mg_rt.s.off) rc = check_provenance(&profiles);
    mg_profile_set_free(&profiles);
    if (rc == MPI_SUCCESS && !mg_rt.s.off) {
        rc = mg_libalg_agree();
        if (mg_libalg_off()) drop_library_selections();
    }
    if (rc != MPI_SUCCESS) return rc;
    mg_rt.usable = 1;
    if (mg_rt.s.off) return MPI_SUCCESS;
    rc = start_pools();
    if (rc == MPI_SUCCESS && mg_rt.s.verify) rc = start_verify();
    return rc;
}

void mg_shutdown(void) {
    mg_libalg_stop();
    mg_pool_destroy();
    mg_defects_stop();
    free(mg_rt.seltab);
    free(mg_rt.verify_buf[0]);
    free(mg_rt.verify_buf[1]);
    mg_rt.seltab = mg_rt.verify_buf[0] = mg_rt.verify_buf[1] = NULL;
    memset(&mg_rt.sel, 0, sizeof mg_rt.sel);
}

/* The in-process API's entry: the same start-up (the MPI_Init wrappers normally ran it
 * already); with MPIGUIDE_OFF=1 an explicit call still creates the pools, so mpiguide_run()
 * works. Collective over MPI_COMM_WORLD; idempotent. */
MG_EXPORT int mpiguide_init(void) {
    if (mg_pool.ready) return MPI_SUCCESS;
    if (!mg_rt.started) {
        int rc = mg_startup(0, NULL);
        if (rc != MPI_SUCCESS || mg_pool.ready) return rc;
    }
    if (!mg_rt.usable) return MPI_ERR_OTHER;
    return start_pools();
}

MG_EXPORT void mpiguide_finalize(void) {
    mg_pool_destroy();
}
