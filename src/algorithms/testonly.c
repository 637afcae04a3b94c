/* Deliberately wrong algorithms, compiled into the registry only with MPIGUIDE_TEST_ALGORITHMS
 * (the test variant of the library, see tests/mpi/bench.cmake): they prove that `bench --verify`
 * catches a mock-up whose result differs from the library's own. Never in a production build. */
#ifdef MPIGUIDE_TEST_ALGORITHMS
#include "algorithms.h"

/* The library's Allreduce, then the first result byte flipped on rank 0. */
int mg_allreduce_testonly_wrong(const mg_args *a, const mg_shape *s, const mg_scratch *scratch) {
    (void)scratch;
    int rc = PMPI_Allreduce(a->sendbuf, a->recvbuf, a->recvcount, a->recvtype, a->op, a->comm);
    if (rc == MPI_SUCCESS && s->rank == 0 && s->count > 0) *(unsigned char *)a->recvbuf ^= 0x5a;
    return rc;
}

void mg_allreduce_testonly_wrong_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a, (void)s;
    need->msg = need->ints = 0;
}

unsigned mg_allreduce_testonly_wrong_supports(const mg_args *a, const mg_shape *s) {
    (void)a, (void)s;
    return 0;
}
#else
typedef int mg_testonly_empty; /* ISO C wants at least one declaration */
#endif
