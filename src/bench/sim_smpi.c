/* sim.h under SMPI. smpirun starts one process, smpimain, that runs every rank; its command line
 * (/proc/self/cmdline) holds the program, smpirun's --cfg=KEY:VALUE options and the platform
 * file, which is how the raw header learns the settings (SMPI's C API reads numbers and
 * switches, not the strings of the collective selector). */
#include "sim.h"
#include "util/file.h"
#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <smpi/smpi.h> /* smpi_nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xbt/config.h>

int mg_sim_start(void) {
    if (!sg_actor_self()) return 0; /* run by itself: tune, analyze, ... */
    sg_cfg_set_boolean("smpi/simulate-computation", "no");
    return 1;
}

int mg_sim_host_cores(void) {
    return sg_actor_self() ? sg_host_core_count(sg_host_self()) : 0;
}

void mg_sim_sleep(double seconds) {
    if (seconds <= 0.0) return;
    struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    smpi_nanosleep(&t, NULL); /* SMPI's: the simulated clock, one event */
}

/* smpirun's options that change no simulated time (bookkeeping, tracing, the deployment that
 * nodes/ppn already describe); simulate-computation has its own line. */
static int bookkeeping(const char *kv) {
    static const char *const skip[] = {"smpi/privatization:",
                                       "smpi/privatize-libs:",
                                       "smpi/np:",
                                       "smpi/hostfile:",
                                       "smpi/tmpdir:",
                                       "smpi/keep-temps:",
                                       "smpi/map:",
                                       "smpi/display-",
                                       "smpi/list-leaks:",
                                       "smpi/pedantic:",
                                       "smpi/trace-call-",
                                       "tracing",
                                       "smpi/simulate-computation:"};
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (!strncmp(kv, skip[i], strlen(skip[i]))) return 1;
    return 0;
}

void mg_sim_header(char *out, size_t len, size_t *pos) {
    if (!sg_actor_self()) return;
    size_t n = 0;
    char *cmd = mg_file_read("/proc/self/cmdline", 1 << 20, &n);
    const char *platform = "?", *selector = "default";
    char cfg[4096] = "";
    size_t at = 0;
    /* smpimain PROGRAM [--cfg=K:V | --log=...]... PLATFORM [program arguments] */
    int arg = 0;
    for (size_t i = 0; cmd && i < n; i += strlen(cmd + i) + 1, arg++) {
        const char *a = cmd + i;
        if (arg < 2 || !strncmp(a, "--log=", 6)) continue;
        if (strncmp(a, "--cfg=", 6)) {
            platform = a;
            break;
        }
        a += 6;
        if (!strncmp(a, "smpi/coll-selector:", 19)) selector = a + 19;
        if (bookkeeping(a) || at >= sizeof cfg) continue;
        int k = snprintf(cfg + at, sizeof cfg - at, "%s%s", at ? " " : "", a);
        if (k > 0) at += (size_t)k;
    }
    if (*pos < len) {
        int k = snprintf(out + *pos, len - *pos,
                         "#@sim_platform=%s\n#@sim_selector=%s\n#@sim_cfg=%s\n"
                         "#@sim_computation=%d\n#@sim_local_work=free\n#@sim_wtime_s=%g\n",
                         platform, selector, at ? cfg : "-",
                         sg_cfg_get_boolean("smpi/simulate-computation"),
                         sg_cfg_get_double("smpi/wtime"));
        if (k > 0) *pos += (size_t)k;
    }
    free(cmd);
}
