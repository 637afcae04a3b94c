/* LD_PRELOAD shim for correctness runs of MPICH (ch4:ucx) with more ranks than cores: a rank
 * that polls UCX without progress gives its core away (sched_yield) instead of spinning until
 * the scheduler tick takes it off. Oversubscribed MPICH then needs ~20 us per small collective
 * instead of ~4 ms (one tick), which makes the 100,000-call fuzz at p = 3 and 4 on 2 cores a
 * matter of minutes. Semantics are untouched (the real progress function runs every time);
 * timings are not those of an unmodified MPICH, so benchmarks must never load it.
 * Build: cc -O2 -shared -fPIC -o ucx_yield.so bench/ucx_yield.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* UCX's ucp_worker_h is an opaque pointer; the shim needs no UCX headers. */
typedef unsigned (*progress_fn)(void *worker);

unsigned ucp_worker_progress(void *worker);

unsigned ucp_worker_progress(void *worker) {
    static progress_fn real;
    if (!real) {
        real = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
        if (!real) {
            fprintf(stderr, "ucx_yield: ucp_worker_progress not found: %s\n", dlerror());
            abort();
        }
    }
    unsigned events = real(worker);
    if (events == 0) sched_yield();
    return events;
}
