/* Mock-up of MPI_Alltoall: GL8 (Alltoallv with regular counts). Send and receive sides keep
 * their own counts, because sendtype and recvtype may differ while their signatures match. */
#include "algorithms.h"
#include "algutil.h"

/* GL8: block j of each side starts at j * count of that side. MPI_IN_PLACE has the same meaning
 * for Alltoallv (data in recvbuf, send arguments ignored) and passes through. */
int mg_alltoall_as_alltoallv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    if (s->msize == 0) return MPI_SUCCESS;
    int p = s->p;
    int *scounts = x->ints, *sdispls = scounts + p, *rcounts = sdispls + p, *rdispls = rcounts + p;
    int sc = a->sendbuf == MPI_IN_PLACE ? 0 : a->sendcount;
    for (int i = 0; i < p; i++) {
        scounts[i] = sc;
        sdispls[i] = i * sc;
        rcounts[i] = a->recvcount;
        rdispls[i] = i * a->recvcount;
    }
    return PMPI_Alltoallv(a->sendbuf, scounts, sdispls, a->sendtype, a->recvbuf, rcounts, rdispls,
                          a->recvtype, a->comm);
}

/* Four arrays of p ints: send counts and displacements, receive counts and displacements. */
void mg_alltoall_as_alltoallv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->msg = 0;
    need->ints = 4 * (size_t)s->p * sizeof(int);
}

/* The displacements reach (p - 1) * count on either side; p * msize bounds both everywhere. */
unsigned mg_alltoall_as_alltoallv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}
