/* Packed views of typed buffers for the data-movement mock-ups: when count elements of a
 * datatype lie back to back without holes, the user's bytes already are the packed form, so a
 * collective can move them as MPI_BYTE without a copy through scratch. */
#ifndef MG_PACKVIEW_H
#define MG_PACKVIEW_H

#include <mpi.h>
#include <stddef.h>

/* Sets *view to the first byte of count elements of t at buf when they are contiguous (no
 * holes, extent equal to size), else to NULL. Returns an MPI error code. */
static inline int mg_packed_view(const void *buf, int count, MPI_Datatype t, const void **view) {
    int size = 0;
    MPI_Aint lb, ext, tlb, text;
    *view = NULL;
    int rc = PMPI_Type_size(t, &size);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_extent(t, &lb, &ext);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_true_extent(t, &tlb, &text);
    if (rc != MPI_SUCCESS) return rc;
    if (text == size && (count <= 1 || ext == size)) *view = (const char *)buf + tlb;
    return MPI_SUCCESS;
}

#endif
