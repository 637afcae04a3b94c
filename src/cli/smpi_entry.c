/* The SMPI build only (cmake/smpi.cmake). smpirun's smpimain loads a program as a shared object
 * and calls its main once per simulated rank; the tool is therefore a shared object, and these
 * make the same file a program the shell runs as well, for the commands without MPI (tune,
 * analyze, info, ...): the dynamic loader in .interp, and an entry point that calls main with
 * the command line. The loader does not pass argc and argv to a shared object's entry point,
 * so they come from /proc/self/cmdline. */
#include "util/file.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char mg_smpi_interp[] __attribute__((section(".interp"), used)) = MG_INTERP;

int main(int argc, char **argv);

/* Entered by a jump with the stack as the kernel left it, hence the realignment. */
__attribute__((force_align_arg_pointer, noreturn, used)) void mg_smpi_entry(void) {
    size_t n = 0;
    char *cmd = mg_file_read("/proc/self/cmdline", (size_t)1 << 24, &n);
    int argc = 0;
    for (size_t i = 0; cmd && i < n; i += strlen(cmd + i) + 1) argc++;
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    if (!cmd || !argv) {
        fputs("mpiguide: error: cannot read the command line (/proc/self/cmdline)\n", stderr);
        exit(1);
    }
    argc = 0;
    for (size_t i = 0; i < n; i += strlen(cmd + i) + 1) argv[argc++] = cmd + i;
    exit(main(argc, argv));
}
