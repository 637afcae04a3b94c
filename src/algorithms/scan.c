/* PENDING: mock-ups of MPI_scan (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_scan_as_exscan_reducelocal(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_scan_as_exscan_reducelocal_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_scan_as_exscan_reducelocal_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
