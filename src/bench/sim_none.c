/* sim.h for a real MPI: nothing is simulated. */
#include "sim.h"

int mg_sim_start(void) {
    return 0;
}

int mg_sim_host_cores(void) {
    return 0;
}

void mg_sim_sleep(double seconds) {
    (void)seconds;
}

void mg_sim_header(char *out, size_t len, size_t *pos) {
    (void)out, (void)len, (void)pos;
}
