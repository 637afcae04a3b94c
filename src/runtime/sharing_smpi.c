/* sharing.h under SMPI: each rank counts itself into a global of this library; after a
 * barrier every rank has, so the count is the number of ranks this copy serves (1 when the
 * library is linked into the program, which SMPI copies per rank, or copied by
 * --cfg=smpi/privatize-libs). */
#include "sharing.h"
#include <mpi.h>

static int ranks_here;

int mg_globals_shared_by(void) {
    ranks_here++;
    if (PMPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) return 1;
    return ranks_here;
}
