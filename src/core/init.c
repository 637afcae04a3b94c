/* Library initialisation for the in-process API: configuration read on rank 0 and broadcast,
 * the MPI check, the pack-format self-test and the scratch pools. The interception layer
 * calls the same entry from its MPI_Init wrappers. */
#include "config.h"
#include "diag.h"
#include "library.h"
#include "registry.h"
#include "scratch.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mg_config mg_cfg;

/* Reads a whole small file; NULL with errno set on failure. Caller frees. */
char *mg_read_file(const char *path, size_t limit) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(limit + 1);
    size_t n = buf ? fread(buf, 1, limit, f) : 0;
    fclose(f);
    if (buf) buf[n] = 0;
    return buf;
}

/* Rank 0's view of the configuration (environment and file). */
static void load_config(mg_config *c) {
    mg_config_defaults(c);
    const char *path = getenv("MPIGUIDE_CONFIG");
    if (!path || !*path) return;
    char *text = mg_read_file(path, 1 << 20);
    if (!text) {
        mg_error(path, "cannot read config file; using defaults");
        return;
    }
    char err[600];
    mg_config tmp = *c;
    if (mg_config_parse(text, path, &tmp, err, sizeof err)) {
        mg_error(err, "config ignored");
        if (getenv("MPIGUIDE_STRICT") && !strcmp(getenv("MPIGUIDE_STRICT"), "1"))
            PMPI_Abort(MPI_COMM_WORLD, 2);
    } else {
        *c = tmp;
    }
    free(text);
}

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

MG_EXPORT int mpiguide_init(void) {
    int rank = 0, rc;
    if (mg_pool.ready) return MPI_SUCCESS;
    if (!mg_library_matches()) return MPI_ERR_OTHER;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) load_config(&mg_cfg);
    rc = PMPI_Bcast(&mg_cfg, sizeof mg_cfg, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) return rc;
    int ok = pack_is_signature(), all_ok = 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        if (rank == 0)
            mg_error("libmpiguide", "MPI_Pack output is not the type signature; "
                                    "mock-ups disabled");
        return MPI_ERR_OTHER;
    }
    return mg_pool_create(mg_cfg.size_msg_buffer_bytes, mg_cfg.size_int_buffer_bytes);
}

MG_EXPORT void mpiguide_finalize(void) {
    mg_pool_destroy();
}
