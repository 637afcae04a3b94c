/* Every rank's bytes to rank 0, in rank order, through a binomial tree of point-to-point
 * messages: the record merge at MPI_Finalize (record.c). */
#ifndef MG_TREE_GATHER_H
#define MG_TREE_GATHER_H

#include <mpi.h>
#include <stddef.h>

/* Collective over comm. Rank 0 gets in *all (malloc'ed, to free) the bytes of every rank, rank
 * 0's first, and their sum in *total; other ranks get NULL and 0. The sum over all ranks must
 * fit an int. Returns 0; 1 when some rank could not allocate its buffer (agreed on every rank,
 * nothing sent, *all NULL); or an MPI error code. */
int mg_tree_gather_bytes(const void *mine, int bytes, void **all, size_t *total, MPI_Comm comm);

#endif
