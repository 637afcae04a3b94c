/* mpiguide_plan and mpiguide_run agree for every algorithm id `mpiguide info` lists: the
 * defaults, the mock-ups and the library algorithms this MPI has (the dispatcher plans every
 * kind alike). Each id runs once on a plain call of its collective (16 MPI_INT per block,
 * MPI_SUM, root 0, MPI_COMM_WORLD); the plan must succeed, name what the run then did, and the
 * result must equal the library's own collective's. A nonblocking collective is started with a
 * request and waited for at once, and compared with its blocking counterpart; without a request
 * its plan and run return MPI_ERR_REQUEST. */
#include "mpitest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 16

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    int p = mt_size(), rank = mt_rank(), total = mpiguide_algorithm_count();
    size_t cap = (size_t)p * N;
    int *send = malloc(sizeof(int) * cap), *ref = malloc(sizeof(int) * cap),
        *got = malloc(sizeof(int) * cap), *counts = malloc(sizeof(int) * (size_t)p),
        *displs = malloc(sizeof(int) * (size_t)p);
    for (int i = 0; i < p; i++) counts[i] = N, displs[i] = i * N;
    int kinds[3] = {0, 0, 0};
    for (int alg = 0; alg < total; alg++) {
        int coll = mpiguide_algorithm_collective(alg), kind = mpiguide_algorithm_kind(alg);
        const char *name = mpiguide_algorithm_name(alg);
        if (coll < 0 || kind < 0 || !name) {
            mt_check(0, "id %d of %d: no collective, kind or name", alg, total);
            continue;
        }
        kinds[kind]++;
        for (size_t i = 0; i < cap; i++) send[i] = (int)(rank * 1000 + i), ref[i] = got[i] = -1;
        mpiguide_args a = {send,   ref,     N,       N,       counts, displs,         counts,
                           displs, MPI_INT, MPI_INT, MPI_SUM, 0,      MPI_COMM_WORLD, NULL};
        const char *cname = mpiguide_collective_name(coll);
        int blocking = cname[4] == 'I' ? mpiguide_collective_id(cname + 5) : coll;
        MPI_Request req = MPI_REQUEST_NULL;
        mt_reference(blocking, &a);
        a.recvbuf = got;
        int planned = -1, outcome = -1;
        unsigned pwhy = 0, why = 0;
        if (blocking != coll) {
            mt_check(blocking >= 0, "%s: no blocking counterpart", cname);
            mt_check(mpiguide_plan(alg, &a, &planned, &pwhy) == MPI_ERR_REQUEST &&
                         mpiguide_run(alg, &a, &outcome, &why) == MPI_ERR_REQUEST,
                     "%s (id %d): no request, yet not MPI_ERR_REQUEST", name, alg);
            a.request = &req;
        }
        int prc = mpiguide_plan(alg, &a, &planned, &pwhy);
        int rc = mpiguide_run(alg, &a, &outcome, &why);
        if (rc == MPI_SUCCESS && a.request) rc = MPI_Wait(a.request, MPI_STATUS_IGNORE);
        mt_check(prc == MPI_SUCCESS, "%s (id %d, kind %d): mpiguide_plan returned %d", name, alg,
                 kind, prc);
        mt_check(planned == outcome && pwhy == why,
                 "%s (id %d, kind %d): planned outcome %d decline 0x%x, ran %d decline 0x%x", name,
                 alg, kind, planned, pwhy, outcome, why);
        mt_check(kind != MPIGUIDE_KIND_DEFAULT || outcome == MPIGUIDE_RAN_DEFAULT,
                 "%s: a default ran as %d", name, outcome);
        mt_check(rc == MPI_SUCCESS && !memcmp(ref, got, sizeof(int) * cap),
                 "%s (id %d): rc %d, result differs from the library's own collective", name, alg,
                 rc);
    }
    /* the library's own algorithms are candidates wherever MPI_T finds them */
    mt_check(kinds[MPIGUIDE_KIND_DEFAULT] > 0 && kinds[MPIGUIDE_KIND_MOCKUP] > 0,
             "ids of every static kind: %d defaults, %d mock-ups", kinds[0], kinds[1]);
    mt_check(mpiguide_library_off() || kinds[MPIGUIDE_KIND_LIBRARY] > 0,
             "library algorithms on but none listed");
    if (rank == 0)
        printf("plan_ids: %d ids (%d defaults, %d mock-ups, %d library algorithms)\n", total,
               kinds[0], kinds[1], kinds[2]);
    free(send), free(ref), free(got), free(counts), free(displs);
    return mt_finish();
}
