/* `mpiguide tune --launcher "mpirun -n 4" -f INPUT -o OUTDIR [--launches R]`: runs without
 * mpirun. Launches `check` R times, analyses the merged launches (profiles only for violations
 * that hold on the merge), then launches a validation that measures the tuned library through
 * the real intercepted MPI_* calls (LD_PRELOAD + MPIGUIDE_PROFILES) next to the default and
 * every mock-up, interleaved, and prints Default / best mock-up / Tuned per (collective, size)
 * from the analysis (tables/tuned.txt). */
#define _GNU_SOURCE /* dladdr, realpath */
#include "analyze/analyze.h"
#include "cli.h"
#include "cli_check.h"
#include "check_input.h"
#include "util/diag.h"
#include "util/file.h"
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TUNE_USAGE                                                                                 \
    "usage: mpiguide tune --launcher \"mpirun -n 4\" -f INPUT -o OUTDIR [options]\n"               \
    "Runs `mpiguide check` in R launches through the launcher, analyses the merged\n"              \
    "launches, writes OUTDIR/profiles/, then measures the tuned library (LD_PRELOAD with\n"        \
    "MPIGUIDE_PROFILES) against the default, every mock-up and every library algorithm\n"          \
    "(*_lib_*) in one more launch. Profiles take the fastest of either kind; export the\n"         \
    "library-algorithm part with `mpiguide export` (docs/library-algorithms.md).\n"                \
    "  --launcher CMD   how to start an MPI job: \"mpirun.openmpi -n 4\", \"srun --mpi=pmix\"\n"   \
    "  -f INPUT         input file (as for check)\n"                                               \
    "  -o OUTDIR        output directory\n"                                                        \
    "  --launches R     check launches (default 3)\n"                                              \
    "  --quiet          no progress lines from the launches\n"                                     \
    "Analysis options (as mpiguide analyze): -c N, -t N, -m, -s, -v, --alpha A,\n"                 \
    "  --min-gain G, --correction holm|bh, --exit-code\n"

typedef struct tune_opts {
    mg_run_opts r;
    const char *launcher;
    int launches;
} tune_opts;

static int parse_tune(int argc, char **argv, tune_opts *o) {
    mg_run_opts_init(&o->r);
    o->launcher = NULL;
    o->launches = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(TUNE_USAGE, stdout);
            exit(0);
        } else if (!strcmp(a, "--launcher") && more) {
            o->launcher = argv[++i];
        } else if (!strncmp(a, "--launcher=", 11)) {
            o->launcher = a + 11;
        } else if ((!strcmp(a, "--launches") && more) || !strncmp(a, "--launches=", 11)) {
            const char *v = a[10] == '=' ? a + 11 : argv[++i];
            char *end;
            long r = strtol(v, &end, 10);
            if (*end || r < 1 || r > 1000) {
                mg_error("--launches", "expected 1..1000, got %s", v);
                return 2;
            }
            o->launches = (int)r;
        } else {
            int used = mg_run_opts_parse(argc, argv, i, &o->r, "tune");
            if (used < 0) return 2;
            i += used - 1;
        }
    }
    if (!o->launcher) {
        mg_error("tune", "--launcher is required");
        return 2;
    }
    return mg_run_opts_require(&o->r, "tune");
}

/* Appends s to the command in single quotes, so paths with spaces survive the shell. */
static void add_quoted(char *cmd, size_t len, const char *s) {
    size_t at = strlen(cmd);
    if (at + 3 >= len) return;
    cmd[at++] = ' ';
    cmd[at++] = '\'';
    for (; *s && at + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(cmd + at, "'\\''", 4);
            at += 4;
        } else {
            cmd[at++] = *s;
        }
    }
    cmd[at++] = '\'';
    cmd[at] = 0;
}

/* Runs a shell command; returns its exit status (or 1 when it did not run). A failure is named
 * here, with the command when --quiet did not show it: the launcher's own messages (srun:
 * error: ...) rarely say which of tune's launches failed. */
static int run(const char *what, const char *cmd, int quiet) {
    if (!quiet) fprintf(stderr, "mpiguide tune: %s\n  $ %s\n", what, cmd);
    fflush(NULL);
    int st = system(cmd), rc = 1;
    if (st == -1) {
        mg_error("tune", "%s: cannot run the shell: %s", what, strerror(errno));
    } else if (WIFSIGNALED(st)) {
        mg_error("tune", "%s: the launcher was killed by signal %d (%s)", what, WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    } else if ((rc = WEXITSTATUS(st)) == 127 || rc == 126) {
        mg_error("tune",
                 "%s: the launcher could not be started (exit code %d: %s); check --launcher", what,
                 rc, rc == 127 ? "command not found" : "not executable");
    } else if (rc) {
        char why[64] = "";
        if (rc > 128 && rc < 128 + 65)
            snprintf(why, sizeof why, " (128 + %d: a task was killed by signal %d)", rc - 128,
                     rc - 128);
        mg_error("tune", "%s failed with exit code %d%s", what, rc, why);
    }
    if (rc && quiet) fprintf(stderr, "  $ %s\n", cmd);
    return rc;
}

static char *read_text(const char *path) {
    return mg_file_read(path, MG_TEXT_FILE_MAX, NULL);
}

/* The validation launch of one input line: every algorithm plus `tuned`, interleaved. */
static int validate_line(const tune_opts *o, const char *self, const char *lib,
                         const mg_input_line *l) {
    char cmd[16384], arg[4200];
    snprintf(cmd, sizeof cmd, "%s env", o->launcher);
    snprintf(arg, sizeof arg, "LD_PRELOAD=%s", lib);
    add_quoted(cmd, sizeof cmd, arg);
    snprintf(arg, sizeof arg, "MPIGUIDE_PROFILES=%s/profiles", o->r.outdir);
    add_quoted(cmd, sizeof cmd, arg);
    add_quoted(cmd, sizeof cmd, self);
    add_quoted(cmd, sizeof cmd, "bench");
    for (int k = 0; k < l->argc; k++) add_quoted(cmd, sizeof cmd, l->argv[k]);
    snprintf(arg, sizeof arg, "--calls-list=%s", l->call);
    add_quoted(cmd, sizeof cmd, arg);
    add_quoted(cmd, sizeof cmd, "--algs=all,tuned");
    add_quoted(cmd, sizeof cmd, "--shuffle");
    snprintf(arg, sizeof arg, "--output-file=%s/tuned/%s.dat", o->r.outdir, l->call);
    add_quoted(cmd, sizeof cmd, arg);
    if (o->r.quiet) add_quoted(cmd, sizeof cmd, "--quiet");
    char what[256];
    snprintf(what, sizeof what, "validation of %s (tuned library vs default)", l->call);
    return run(what, cmd, o->r.quiet);
}

/* Shows the tuned-validation table the analysis wrote (tables/tuned.txt). */
static int print_tuned(const char *outdir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/tables/tuned.txt", outdir);
    char *text = read_text(path);
    if (!text) {
        mg_error(path, "no tuned validation table");
        return 1;
    }
    printf("\nTuned library (LD_PRELOAD, profiles in %s/profiles) against the default and the "
           "best candidate (mock-up or library algorithm), measured in one launch:\n%s",
           outdir, text);
    free(text);
    return 0;
}

int mg_cmd_tune(int argc, char **argv) {
    tune_opts o;
    if (parse_tune(argc, argv, &o)) return 2;
    char *text = read_text(o.r.input);
    if (!text) {
        mg_error(o.r.input, "cannot read input file: %s", strerror(errno));
        return 2;
    }
    mg_bench_opts *plan = NULL;
    mg_input in = {0, NULL};
    char err[600];
    int nplan = 0, rc = mg_check_plan(text, o.r.input, o.r.quiet, 1, &plan, &nplan);
    if (!rc) mg_input_parse(text, o.r.input, &in, err, sizeof err);
    free(text);
    mg_check_plan_free(plan, nplan);
    if (rc) return rc;

    char self[PATH_MAX], lib[PATH_MAX], tuned[4200];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    /* The validation preloads the very library this tool runs with (build or install tree). */
    Dl_info where;
    if (len <= 0 || !dladdr((void *)mpiguide_init, &where) || !where.dli_fname ||
        !realpath(where.dli_fname, lib)) {
        mg_error("tune", "cannot find its own executable and library");
        mg_input_free(&in);
        return 1;
    }
    self[len] = 0;
    snprintf(tuned, sizeof tuned, "%s/tuned", o.r.outdir);
    char mk[8400] = "mkdir -p";
    add_quoted(mk, sizeof mk, tuned);
    if (system(mk) != 0 || access(tuned, W_OK) != 0) {
        mg_error(o.r.outdir, "cannot create the output directory");
        mg_input_free(&in);
        return 1;
    }
    for (int k = 1; k <= o.launches && !rc; k++) {
        char cmd[16384], what[64];
        snprintf(cmd, sizeof cmd, "%s", o.launcher);
        add_quoted(cmd, sizeof cmd, self);
        add_quoted(cmd, sizeof cmd, "check");
        add_quoted(cmd, sizeof cmd, "-f");
        add_quoted(cmd, sizeof cmd, o.r.input);
        add_quoted(cmd, sizeof cmd, "-o");
        add_quoted(cmd, sizeof cmd, o.r.outdir);
        add_quoted(cmd, sizeof cmd, "--no-analyze");
        if (o.r.quiet) add_quoted(cmd, sizeof cmd, "--quiet");
        snprintf(what, sizeof what, "check launch %d of %d", k, o.launches);
        rc = run(what, cmd, o.r.quiet) ? 1 : 0;
        if (rc)
            mg_error("tune",
                     "stopped; the raw data of the launches so far is in %s/raw (`mpiguide analyze "
                     "%s` analyses it)",
                     o.r.outdir, o.r.outdir);
    }
    char *dirs[1] = {(char *)o.r.outdir};
    if (!rc) {
        o.r.an.outdir = o.r.outdir;
        o.r.an.out = stdout;
        rc = mg_analyze_dirs(&o.r.an, dirs, 1);
    }
    int verdict = rc;
    if (rc == 0 || rc == 3) {
        rc = 0;
        for (int i = 0; i < in.n && !rc; i++)
            rc = validate_line(&o, self, lib, &in.lines[i]) ? 1 : 0;
        if (rc)
            mg_error("tune",
                     "stopped; the analysis of the check launches and the profiles are in %s "
                     "(summary.txt, profiles/, report.html)",
                     o.r.outdir);
        if (!rc) {
            mg_analyze_opts quiet = o.r.an;
            quiet.out = NULL;
            int again = mg_analyze_dirs(&quiet, dirs, 1);
            rc = again == 1 ? 1 : print_tuned(o.r.outdir);
        }
        if (!rc) {
            printf("\nprofiles: %s/profiles   report: %s/report.html\n", o.r.outdir, o.r.outdir);
            rc = verdict;
        }
    }
    mg_input_free(&in);
    return rc;
}
