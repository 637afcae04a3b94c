/* A gather of variable-sized byte blocks as a binomial tree of point-to-point messages
 * (tree_gather.h). A linear MPI_Gatherv makes the root wait for p - 1 receives at once;
 * SimGrid's SMPI completes such a wait one request at a time, scanning all that remain, so at
 * 1,024 simulated ranks the record merge cost the simulator quadratic time (docs/at-scale.md).
 * Here each rank waits for one message at a time: its children's subtree sizes first, then,
 * once every rank has its buffer, their data, appended in rank order (child r + 2^k holds ranks
 * r + 2^k .. r + 2^(k+1) - 1). */
#include "tree_gather.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Far from any tag an application uses at MPI_Finalize; the minimum MPI_TAG_UB is 32767. */
#define TREE_TAG 32123

int mg_tree_gather_bytes(const void *mine, int bytes, void **all, size_t *total, MPI_Comm comm) {
    int me, p, rc = MPI_SUCCESS;
    *all = NULL;
    *total = 0;
    PMPI_Comm_rank(comm, &me);
    PMPI_Comm_size(comm, &p);
    /* children: me + mask for each mask below my lowest set bit; parent: me - that bit */
    int nchild = 0, parent_mask = 0;
    int64_t child_bytes[32], sub = bytes;
    for (int mask = 1; mask < p; mask <<= 1) {
        if (me & mask) {
            parent_mask = mask;
            break;
        }
        if (me + mask >= p) continue;
        rc = PMPI_Recv(&child_bytes[nchild], 1, MPI_INT64_T, me + mask, TREE_TAG, comm,
                       MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
        sub += child_bytes[nchild++];
    }
    if (parent_mask) rc = PMPI_Send(&sub, 1, MPI_INT64_T, me - parent_mask, TREE_TAG, comm);
    char *buf = rc == MPI_SUCCESS ? malloc(sub ? (size_t)sub : 1) : NULL;
    int ok = buf != NULL, all_ok = 0;
    int rc2 = PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS || !all_ok) {
        free(buf);
        return rc != MPI_SUCCESS ? rc : rc2 != MPI_SUCCESS ? rc2 : 1;
    }
    if (bytes) memcpy(buf, mine, (size_t)bytes);
    int64_t filled = bytes;
    for (int c = 0, mask = 1; c < nchild && rc == MPI_SUCCESS; mask <<= 1) {
        if (me + mask >= p) continue;
        rc = PMPI_Recv(buf + filled, (int)child_bytes[c], MPI_BYTE, me + mask, TREE_TAG, comm,
                       MPI_STATUS_IGNORE);
        filled += child_bytes[c++];
    }
    if (rc == MPI_SUCCESS && parent_mask)
        rc = PMPI_Send(buf, (int)filled, MPI_BYTE, me - parent_mask, TREE_TAG, comm);
    if (rc != MPI_SUCCESS || me != 0) {
        free(buf);
        return rc;
    }
    *all = buf;
    *total = (size_t)filled;
    return MPI_SUCCESS;
}
