/* One busy process for the tests of label `load` (tests/mpi/under_load.sh starts one per core):
 * spins on the CPU until it is killed, its parent ends (PR_SET_PDEATHSIG: also when the parent
 * is killed with SIGKILL, as a test timeout may do) or the seconds given as its argument (default
 * 3600) have passed, so it can never outlive the test that started it. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) return 0; /* the parent ended before the line above */
    double limit = argc > 1 ? atof(argv[1]) : 3600.0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    volatile unsigned long spin = 0;
    for (;;) {
        for (int i = 0; i < 10000000; i++) spin++;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((double)(t.tv_sec - t0.tv_sec) > limit || getppid() != parent) return 0;
    }
}
