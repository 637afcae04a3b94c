/* export_mpit.h through MPI_T and the dynamic loader (Open MPI and MPICH builds). */
#define _GNU_SOURCE
#include "export_mpit.h"
#include "catalog/catalog.h"
#include "util/file.h"
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

int mg_export_ompi_param(int coll, const char *suffix) {
    char name[160];
    int idx, count = 0, v[4] = {0};
    MPI_T_cvar_handle h;
    snprintf(name, sizeof name, "coll_tuned_%s_algorithm_%s", mg_coll_short(coll), suffix);
    if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS)
        return 0;
    if (count != 1 || MPI_T_cvar_read(h, v) != MPI_SUCCESS) v[0] = 0;
    MPI_T_cvar_handle_free(&h);
    return v[0];
}

char *mg_export_library_bytes(size_t *n, char *path, size_t plen) {
    Dl_info info;
    if (!dladdr((void *)&PMPI_T_init_thread, &info) || !info.dli_fname) return NULL;
    snprintf(path, plen, "%s", info.dli_fname);
    return mg_file_read(path, (size_t)1 << 30, n);
}
