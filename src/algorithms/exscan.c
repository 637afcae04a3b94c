/* Mock-up of MPI_Exscan: the inclusive prefix s_r = x_0 op ... op x_r of MPI_Scan, from which
 * rank r > 0 takes its own contribution back out, e_r = s_r op^-1 x_r. Exact only where op has
 * an inverse that undoes it bit for bit: MPI_SUM on integers (C's unsigned arithmetic wraps
 * modulo 2^bits, as the library's integer sums do, so s_r - x_r is e_r whatever the order of
 * the additions) and MPI_BXOR (its own inverse). Floating-point sums are not (s_r - x_r rounds
 * differently from e_r); other ops have no inverse. Rank 0's recvbuf, undefined in MPI_Exscan,
 * is left as the library leaves it: untouched. */
#include "algorithms.h"
#include "algutil.h"

/* out = incl op^-1 own, element by element (own may be out: MPI_IN_PLACE). */
#define INVERSE_LOOP(U)                                                                            \
    do {                                                                                           \
        const U *p = incl, *o = own;                                                               \
        U *d = out;                                                                                \
        for (int i = 0; i < n; i++) d[i] = is_xor ? (U)(p[i] ^ o[i]) : (U)(p[i] - o[i]);           \
    } while (0)

static void inverse(int is_xor, const void *incl, const void *own, void *out, int n, int size) {
    switch (size) {
    case 1:
        INVERSE_LOOP(uint8_t);
        break;
    case 2:
        INVERSE_LOOP(uint16_t);
        break;
    case 4:
        INVERSE_LOOP(uint32_t);
        break;
    default:
        INVERSE_LOOP(uint64_t);
        break;
    }
}

/* Integer datatype of a size C has, or MPI_BYTE with MPI_BXOR. */
static int element_size(const mg_args *a, int *size) {
    int sgn;
    if (mg_integer_kind(a->recvtype, size, &sgn))
        return *size == 1 || *size == 2 || *size == 4 || *size == 8;
    *size = 1;
    return a->recvtype == MPI_BYTE && a->op == MPI_BXOR;
}

int mg_exscan_as_scan_inverse(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS, n = a->recvcount, size = 0;
    if (n == 0) return MPI_SUCCESS;
    const void *own = a->sendbuf == MPI_IN_PLACE ? a->recvbuf : a->sendbuf;
    void *incl = mg_typed(x->msg, s);
    element_size(a, &size);
    MG_TRY(PMPI_Scan(own, incl, n, a->recvtype, a->op, a->comm));
    if (s->rank > 0) inverse(a->op == MPI_BXOR, incl, own, a->recvbuf, n, size);
out:
    return rc;
}

void mg_exscan_as_scan_inverse_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->msg = mg_span(s, s->count);
    need->ints = 0;
}

/* op and datatype are the same on every rank of a reduction: OP for an op without an exact
 * inverse, DATATYPE for MPI_SUM on anything but integers; DEFECT when the inner MPI_Scan would
 * meet a known defect of the running MPI. */
unsigned mg_exscan_as_scan_inverse_supports(const mg_args *a, const mg_shape *s) {
    int size;
    if (a->op != MPI_SUM && a->op != MPI_BXOR) return MPIGUIDE_DECLINE_OP;
    if (!element_size(a, &size)) return MPIGUIDE_DECLINE_DATATYPE;
    return mg_inner_defect(s, MPIGUIDE_COLL_SCAN, s->count, 0, 0);
}
