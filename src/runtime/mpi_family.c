/* Built-for-this-MPI check (docs/dev/design.md invariant 7): Open MPI and MPICH have different
 * ABIs, so a library preloaded into the other MPI's program must pass everything through. */
#include "mpi_family.h"
#include "util/diag.h"
#include <mpi.h>
#include <string.h>

/* Room for any MPI's string: a library preloaded into the other MPI's program receives that
 * MPI's string, which may exceed our MPI_MAX_LIBRARY_VERSION_STRING (Open MPI 256, MPICH 8192). */
#define MG_VERSION_ROOM                                                                            \
    (MPI_MAX_LIBRARY_VERSION_STRING > 16384 ? MPI_MAX_LIBRARY_VERSION_STRING : 16384)

const char *mg_library_version(void) {
    static char version[MG_VERSION_ROOM];
    int len = 0;
    if (PMPI_Get_library_version(version, &len) != MPI_SUCCESS) return "unknown";
    version[strcspn(version, "\n")] = 0;
    return version;
}

int mg_library_matches(void) {
    const char *kind = mg_library_kind(mg_library_version());
    if (!strcmp(kind, MG_BUILT_FOR)) return 1;
    mg_error("libmpiguide", "built for %s but running under %s (%s); passing everything through",
             MG_BUILT_FOR, kind, mg_library_version());
    return 0;
}
