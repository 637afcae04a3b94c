/* `mpiguide`: the command-line tool; dispatches to one subcommand per file. */
#include "bench/sim.h"
#include "cli.h"
#include "util/diag.h"
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} commands[] = {
    {"info", mg_cmd_info, "list every collective and algorithm with its guideline [--csv]"},
    {"selftest", mg_cmd_selftest,
     "under mpirun: every algorithm next to the library's own; --random: find MPI defects"},
    {"bench", mg_cmd_bench, "under mpirun: measure collectives and algorithms (raw rows)"},
    {"nrep", mg_cmd_nrep, "under mpirun: predict the repetitions each measurement needs"},
    {"check", mg_cmd_check, "under mpirun: measure every algorithm of an input file, analyse"},
    {"tune", mg_cmd_tune, "launch check R times, write profiles, validate the tuned library"},
    {"plan", mg_cmd_plan, "no MPI: the check input file for a record (MPIGUIDE_RECORD)"},
    {"analyze", mg_cmd_analyze, "no MPI: tables, summary, profiles, report from raw data"},
    {"compare", mg_cmd_compare, "no MPI: two OUTDIRs (libraries, machines) side by side"},
    {"profile", mg_cmd_profile, "no MPI: `profile check FILE|DIR` validates tuned-mode profiles"},
    {"simulate", mg_cmd_simulate, "no MPI: TUW, binomial and direct Gatherv under the cost model"},
    {"export", mg_cmd_export,
     "no MPI: library-algorithm entries of profiles as the MPI's own tuning file"},
};

static void usage(FILE *f) {
    fprintf(f, "usage: mpiguide COMMAND [options]   (mpiguide COMMAND --help for details)\n\n"
               "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nBuilt for %s. Documentation: docs/ in the source tree.\n", MG_BUILT_MPI);
}

int main(int argc, char **argv) {
    mg_sim_start(); /* a simulated rank (SMPI): deterministic times for the tool's runs */
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("mpiguide %s (%s)\n", MPIGUIDE_VERSION, MG_BUILT_MPI);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    mg_error(argv[1], "unknown command (mpiguide --help lists them)");
    return 2;
}
