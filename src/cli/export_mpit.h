/* What `mpiguide export` asks the MPI library itself, outside MPI_Init: an Open MPI algorithm
 * parameter through MPI_T, the library file for MPICH's built-in selection. export_mpit.c
 * reads them; export_nompit.c stands in where the MPI has no MPI_T (SMPI), whose build exports
 * no format. */
#ifndef MG_EXPORT_MPIT_H
#define MG_EXPORT_MPIT_H

#include <stddef.h>

/* coll_tuned_<coll>_algorithm_<suffix> as this process sees it (segment size, fan-out): the
 * value mpiguide measured the algorithm with; 0 when unknown. */
int mg_export_ompi_param(int coll, const char *suffix);
/* The bytes of the MPI library this program runs with, its path in `path`; NULL when unknown. */
char *mg_export_library_bytes(size_t *n, char *path, size_t plen);

#endif
