/* Scratch pools: allocated once, agreed over MPI_COMM_WORLD so every rank makes the same
 * memory decision for every call. Under MPI_THREAD_MULTIPLE the pools only set the limits:
 * each communicator gets its own scratch (comm_scratch.c). */
#include "scratch.h"
#include "comm_scratch.h"
#include <stdint.h>
#include <stdlib.h>

mg_pool_state mg_pool;

static void *alloc_or_null(size_t bytes) {
    return bytes ? malloc(bytes) : NULL;
}

int mg_pool_create(size_t msg_bytes, size_t int_bytes) {
    int rc, level = MPI_THREAD_SINGLE;
    mg_pool_destroy();
    if ((rc = PMPI_Query_thread(&level)) != MPI_SUCCESS) return rc;
    int threads = level == MPI_THREAD_MULTIPLE;
    void *msg = threads ? NULL : alloc_or_null(msg_bytes);
    int *ints = threads ? NULL : alloc_or_null(int_bytes);
    /* A rank that could not allocate makes every rank run without that pool. */
    unsigned long long have[2] = {msg || !msg_bytes || threads ? msg_bytes : 0,
                                  ints || !int_bytes || threads ? int_bytes : 0};
    unsigned long long agreed[2];
    rc = PMPI_Allreduce(have, agreed, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_dup(MPI_COMM_SELF, &mg_pool.self);
    /* Errors in local packing and copies are returned to the mock-up, which returns them. */
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_errhandler(mg_pool.self, MPI_ERRORS_RETURN);
    if (rc == MPI_SUCCESS && threads) rc = mg_cscratch_start();
    if (rc != MPI_SUCCESS) {
        free(msg);
        free(ints);
        return rc;
    }
    mg_pool.msg = msg;
    mg_pool.ints = ints;
    mg_pool.msg_bytes = agreed[0];
    mg_pool.int_bytes = agreed[1];
    mg_pool.thread_multiple = threads;
    mg_pool.ready = 1;
    return MPI_SUCCESS;
}

void mg_pool_destroy(void) {
    if (!mg_pool.ready) return;
    int finalized = 0;
    PMPI_Finalized(&finalized);
    if (!finalized) {
        mg_cscratch_stop();
        PMPI_Comm_free(&mg_pool.self);
    }
    free(mg_pool.msg);
    free(mg_pool.ints);
    mg_pool = (mg_pool_state){0};
}
