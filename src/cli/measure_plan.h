/* Shared by `check` and `tune`: the plan of measurements from an input file. */
#ifndef MG_MEASURE_PLAN_H
#define MG_MEASURE_PLAN_H

#include "analyze/analyze.h"
#include "bench/options.h"
#include "check_input.h"
#include "record/plan.h"

/* Parses the input text (file name fname for messages) into one bench option set per line:
 * that collective, every algorithm, shuffled order. Every caller parsing the same text reaches
 * the same verdict; only callers with talk print errors. Returns 0, or 2 (bad input). */
int mg_check_plan(const char *text, const char *fname, int quiet, int talk, mg_bench_opts **out,
                  int *n);
/* The same from an input file already parsed (tune reads its input once). */
int mg_plan_of_input(const mg_input *in, const char *fname, int quiet, int talk,
                     mg_bench_opts **out, int *n);
void mg_check_plan_free(mg_bench_opts *v, int n);
/* The name of input line i's raw file (without .dat), from the lines' collectives: the MPI
 * name, and NAME-K for the K-th line of the same collective (a plan from a record has one
 * line per communicator size), so no line overwrites another's rows; MPI_Barrier lines
 * start at MPI_Barrier-2 (MPI_Barrier.dat is the launch's synchronisation noise). */
void mg_line_stem(const int *colls, int i, char *buf, size_t len);

/* Options `check` and `tune` share: input file, output directory, quiet, analysis flags. */
typedef struct mg_run_opts {
    const char *input, *outdir;
    int quiet;
    mg_analyze_opts an;
} mg_run_opts;

void mg_run_opts_init(mg_run_opts *o);
/* Parses the shared option at argv[i] (-f, -o, --quiet, analysis flags). Returns how many
 * arguments it used, or -1 after an error message (unknown option of `cmd`, bad value). */
int mg_run_opts_parse(int argc, char **argv, int i, mg_run_opts *o, const char *cmd);
/* 0 when -f and -o were given, else 2 after a message. */
int mg_run_opts_require(const mg_run_opts *o, const char *cmd);

/* `plan` and `tune --for`: one planning flag at argv[i] (--cover, --np, --nrep, --time-ms,
 * --back-to-back); used arguments, 0 when not one, -1 after a message. */
int mg_plan_parse_flag(int argc, char **argv, int i, mg_plan_opts *o);
/* Reads the record, plans and writes the input file to out (NULL: stdout); messages on
 * stderr. Returns the exit code (2: bad record or plan, 1: not written). */
int mg_plan_write(const char *record, const mg_plan_opts *o, const char *out);

/* Parses one analysis flag at argv[i] into o. Returns how many arguments it used (1 or 2),
 * 0 when argv[i] is not an analysis flag, -1 after printing an error about its value. */
int mg_analyze_parse_flag(int argc, char **argv, int i, mg_analyze_opts *o);

#endif
