/* Per-communicator scratch under MPI_THREAD_MULTIPLE (see comm_scratch.h). The scratch hangs
 * off the communicator as an attribute whose delete callback frees it, so it lives exactly as
 * long as the communicator, however that is freed; MPI_Comm_dup does not copy it. Growth
 * allocates the new buffers before releasing the old ones and agrees with MPI_MIN over the
 * communicator, so a rank short of memory makes every rank fall back for that size. */
#include "comm_scratch.h"
#include "scratch.h"
#include <stdatomic.h>
#include <stdlib.h>

typedef struct cscratch {
    void *msg;
    int *ints;
    size_t msg_bytes, int_bytes;
    size_t refused_msg, refused_ints; /* smallest needs some rank could not allocate (0: none) */
} cscratch;

static int keyval = MPI_KEYVAL_INVALID;
static _Atomic unsigned long long created, released; /* for the report */

/* First allocations are at least this large, so small needs do not agree again and again. */
#define MIN_BYTES ((size_t)64 << 10)

static int delete_attr(MPI_Comm comm, int kv, void *val, void *extra) {
    (void)comm, (void)kv, (void)extra;
    cscratch *c = val;
    atomic_fetch_add(&released, 1);
    free(c->msg);
    free(c->ints);
    free(c);
    return MPI_SUCCESS;
}

int mg_cscratch_start(void) {
    if (keyval != MPI_KEYVAL_INVALID) return MPI_SUCCESS;
    return PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_attr, &keyval, NULL);
}

void mg_cscratch_stop(void) {
    if (keyval == MPI_KEYVAL_INVALID) return;
    void *val;
    int flag = 0;
    if (PMPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag) == MPI_SUCCESS && flag)
        PMPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
    if (PMPI_Comm_get_attr(MPI_COMM_SELF, keyval, &val, &flag) == MPI_SUCCESS && flag)
        PMPI_Comm_delete_attr(MPI_COMM_SELF, keyval);
    PMPI_Comm_free_keyval(&keyval);
    keyval = MPI_KEYVAL_INVALID;
}

/* The size to grow to: the need, at least twice the old size and MIN_BYTES, at most the
 * configured pool size (which every need was already checked against). */
static size_t grown(size_t need, size_t have, size_t cap) {
    size_t want = have * 2 > MIN_BYTES ? have * 2 : MIN_BYTES;
    if (want > cap) want = cap;
    return need > want ? need : want;
}

int mg_cscratch_reserve(MPI_Comm comm, const mg_need *need, int *fits) {
    int rc, flag = 0;
    cscratch *c = NULL;
    *fits = 1;
    if (!need->msg && !need->ints) return MPI_SUCCESS;
    if ((rc = PMPI_Comm_get_attr(comm, keyval, &c, &flag)) != MPI_SUCCESS) return rc;
    if (flag && need->msg <= c->msg_bytes && need->ints <= c->int_bytes) return MPI_SUCCESS;
    if (flag && ((c->refused_msg && need->msg >= c->refused_msg) ||
                 (c->refused_ints && need->ints >= c->refused_ints))) {
        *fits = 0;
        return MPI_SUCCESS;
    }
    cscratch fresh = {0};
    if (flag) fresh = *c;
    size_t mb = need->msg > fresh.msg_bytes ? grown(need->msg, fresh.msg_bytes, mg_pool.msg_bytes)
                                            : fresh.msg_bytes;
    size_t ib = need->ints > fresh.int_bytes ? grown(need->ints, fresh.int_bytes, mg_pool.int_bytes)
                                             : fresh.int_bytes;
    void *msg = mb != fresh.msg_bytes ? malloc(mb) : NULL;
    int *ints = ib != fresh.int_bytes ? malloc(ib) : NULL;
    int ok = (mb == fresh.msg_bytes || msg) && (ib == fresh.int_bytes || ints), all = 0;
    if (!flag && ok) {
        c = calloc(1, sizeof *c);
        ok = c != NULL;
    }
    rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS || !all) {
        free(msg);
        free(ints);
        if (!flag) free(c);
        if (rc == MPI_SUCCESS && flag) { /* remember, on every rank alike */
            if (mb != c->msg_bytes) c->refused_msg = need->msg;
            if (ib != c->int_bytes) c->refused_ints = need->ints;
        }
        /* a communicator without scratch refuses nothing for good: its first need may have
         * been unusually large, so the next one asks again */
        *fits = 0;
        return rc;
    }
    if (msg) {
        free(c->msg);
        c->msg = msg, c->msg_bytes = mb;
    }
    if (ints) {
        free(c->ints);
        c->ints = ints, c->int_bytes = ib;
    }
    if (!flag) {
        atomic_fetch_add(&created, 1);
        if ((rc = PMPI_Comm_set_attr(comm, keyval, c)) != MPI_SUCCESS) {
            delete_attr(comm, keyval, c, NULL);
            *fits = 0;
        }
    }
    return rc;
}

void mg_cscratch_counts(unsigned long long *made, unsigned long long *freed) {
    *made = atomic_load(&created);
    *freed = atomic_load(&released);
}

int mg_cscratch_get(MPI_Comm comm, mg_scratch *x) {
    cscratch *c = NULL;
    int flag = 0, rc = PMPI_Comm_get_attr(comm, keyval, &c, &flag);
    x->msg = flag ? c->msg : NULL;
    x->ints = flag ? c->ints : NULL;
    return rc;
}
