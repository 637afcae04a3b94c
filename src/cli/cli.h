/* Subcommands of the mpiguide tool. Each returns the exit code of docs/dev/interfaces.md section 3.
 */
#ifndef MG_CLI_H
#define MG_CLI_H

#include "mpiguide.h"

int mg_cmd_info(int argc, char **argv);
int mg_cmd_selftest(int argc, char **argv);
int mg_cmd_check(int argc, char **argv);
int mg_cmd_tune(int argc, char **argv);
int mg_cmd_bench(int argc, char **argv);
int mg_cmd_nrep(int argc, char **argv);

int mg_cmd_analyze(int argc, char **argv);
int mg_cmd_compare(int argc, char **argv);
int mg_cmd_simulate(int argc, char **argv);
int mg_cmd_profile(int argc, char **argv);
int mg_cmd_plan(int argc, char **argv);
int mg_cmd_export(int argc, char **argv);

#endif
