/* The two scratch pools (messages, ints), allocated once at initialisation and sized by the
 * configuration; algorithms take scratch from here, never from the heap. */
#ifndef MG_SCRATCH_H
#define MG_SCRATCH_H

#include <mpi.h>
#include <stddef.h>

typedef struct mg_pool_state {
    int ready;           /* pools agreed on every rank of MPI_COMM_WORLD */
    int thread_multiple; /* scratch per communicator (comm_scratch.h); msg, ints are NULL */
    void *msg;
    int *ints;
    size_t msg_bytes, int_bytes; /* the pools' sizes; the limit of a communicator's scratch */
    MPI_Comm self;               /* private duplicate of MPI_COMM_SELF for typed local copies */
} mg_pool_state;

extern mg_pool_state mg_pool;

/* Allocates the pools with the given sizes on every rank of MPI_COMM_WORLD; when any rank
 * fails, all ranks end up with the same smaller size. Collective. */
int mg_pool_create(size_t msg_bytes, size_t int_bytes);
void mg_pool_destroy(void);

#endif
