/* export_mpit.h for an MPI without MPI_T (SMPI): nothing to ask. Its build writes neither
 * export format (export.c refuses both before asking), so these only keep the link whole. */
#include "export_mpit.h"

int mg_export_ompi_param(int coll, const char *suffix) {
    (void)coll, (void)suffix;
    return 0;
}

char *mg_export_library_bytes(size_t *n, char *path, size_t plen) {
    *n = 0;
    if (plen) path[0] = 0;
    return NULL;
}
