/* Library algorithms where the MPI has no MPI_T (SMPI, SimGrid's simulated MPI): there is
 * nothing to discover at run time, so they are off with the reason `info` prints. SMPI chooses
 * its collective algorithms once per launch (--cfg=smpi/<coll>:<alg>), which
 * docs/library-algorithms.md shows how to compare. The same interface as discover.c. */
#include "libalg_mpi.h"
#include "runtime/mpi_family.h"
#include "runtime/state.h"

int mg_libalg_multinode; /* no library algorithm needs it here */

static const char why[] = "SMPI has no MPI_T: it chooses its collective algorithms once per launch "
                          "(smpirun --cfg=smpi/<coll>:<alg>), never per call";

static void off(int first_id) {
    mg_libalg_reset(first_id);
    mg_libalg_set_mpi(MG_BUILT_FOR);
    mg_libalg_set_off(why);
}

void mg_libalg_preinit(int level) {
    (void)level;
}

int mg_libalg_discover(int first_id) {
    off(first_id);
    return 0;
}

int mg_libalg_agree(void) {
    return MPI_SUCCESS;
}

int mg_libalg_var_set(int coll, int value, int *old) {
    (void)coll, (void)value, (void)old;
    return MPI_ERR_OTHER;
}

int mg_libalg_var_restore(int coll, int old) {
    (void)coll, (void)old;
    return MPI_ERR_OTHER;
}

int mg_libalg_device_set(int *old) {
    (void)old;
    return -1;
}

void mg_libalg_device_restore(int old) {
    (void)old;
}

void mg_libalg_discover_stop(void) {}

MG_EXPORT int mpiguide_library_probe(void) {
    if (mg_rt.started) return mg_libalg_count();
    off(mg_nalg_names);
    return 0;
}
