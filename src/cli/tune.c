/* `mpiguide tune --launcher "mpirun -n 4" -f INPUT|--for RECORD -o OUTDIR [--launches R]`: runs
 * without mpirun. With --for, the input is OUTDIR/plan.txt, planned from an application's
 * record (`mpiguide plan`). Launches `check` R times, analyses the merged launches (candidate
 * profile entries for violations that hold on the merge), then validates them in V fresh
 * launches (--validate-launches) that measure the tuned library through the real intercepted
 * MPI_* calls (LD_PRELOAD + MPIGUIDE_PROFILES) against the default, interleaved in batches in
 * one job (bench --interleave), and analyses again: an entry stays in the profiles only when it
 * held in every validation launch (src/analyze/validate.c). Ends with the tuned table and a
 * short verdict. */
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
    "usage: mpiguide tune --launcher \"mpirun -n 4\" -f INPUT|--for RECORD -o OUTDIR [options]\n"  \
    "Runs `mpiguide check` in R launches through the launcher, analyses the merged\n"              \
    "launches, writes OUTDIR/profiles/, then validates every entry in V more launches that\n"      \
    "measure the tuned library (LD_PRELOAD with MPIGUIDE_PROFILES) against the default,\n"         \
    "interleaved; an entry is kept only when significantly faster in every one of them.\n"         \
    "A launch whose default runs over 3x its check median at an entry's size is set aside\n"       \
    "as disturbed and that collective's lines run once more (at most max(V, 2) more).\n"           \
    "Candidates are the mock-ups and the MPI's own algorithms (*_lib_*); export the\n"             \
    "library-algorithm part with `mpiguide export` (docs/library-algorithms.md).\n"                \
    "  --launcher CMD   how to start an MPI job: \"mpirun.openmpi -n 4\", \"srun --mpi=pmix\"\n"   \
    "  -f INPUT         input file (as for check)\n"                                               \
    "  --for RECORD     tune for an application: plan from its record (MPIGUIDE_RECORD) into\n"    \
    "                   OUTDIR/plan.txt first; --cover F, --np N, --nrep N, --time-ms T,\n"        \
    "                   --back-to-back N as for `mpiguide plan`\n"                                 \
    "  -o OUTDIR        output directory\n"                                                        \
    "  --launches R     check launches (default 3)\n"                                              \
    "  --validate-launches V  validation launches (default 2; OUTDIR/tuned/ is replaced)\n"        \
    "  --quiet          no progress lines from the launches\n"                                     \
    "Analysis options (as mpiguide analyze): -c N, -t N, -m, -s, -v, --alpha A,\n"                 \
    "  --min-gain G, --correction holm|bh, --exit-code\n"

typedef struct tune_opts {
    mg_run_opts r;
    const char *launcher;
    int launches, validate;
    const char *record; /* --for */
    mg_plan_opts plan;
    int plan_flags; /* planning flags given */
    char planfile[4200];
} tune_opts;

/* The value of `--NAME V` or `--NAME=V` at argv[*i] (1 .. 1000); 0 when argv[*i] is not that
 * option, -1 after an error. */
static int count_opt(int argc, char **argv, int *i, const char *name, int *out) {
    const char *a = argv[*i], *v;
    size_t n = strlen(name);
    if (!strcmp(a, name) && *i + 1 < argc)
        v = argv[++*i];
    else if (!strncmp(a, name, n) && a[n] == '=')
        v = a + n + 1;
    else
        return 0;
    char *end;
    long r = strtol(v, &end, 10);
    if (!*v || *end || r < 1 || r > 1000) {
        mg_error(name, "expected 1..1000, got %s", v);
        return -1;
    }
    *out = (int)r;
    return 1;
}

static int parse_tune(int argc, char **argv, tune_opts *o) {
    mg_run_opts_init(&o->r);
    o->launcher = NULL;
    o->launches = 3;
    o->validate = 2;
    o->record = NULL;
    o->plan_flags = 0;
    mg_plan_defaults(&o->plan);
    o->plan.mpi = MG_BUILT_MPI;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc, got;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(TUNE_USAGE, stdout);
            exit(0);
        } else if (!strcmp(a, "--launcher") && more) {
            o->launcher = argv[++i];
        } else if (!strncmp(a, "--launcher=", 11)) {
            o->launcher = a + 11;
        } else if ((got = count_opt(argc, argv, &i, "--launches", &o->launches)) ||
                   (got = count_opt(argc, argv, &i, "--validate-launches", &o->validate))) {
            if (got < 0) return 2;
        } else if (mg_flag_is(a, "--for")) {
            int used;
            o->record = mg_flag_value(argc, argv, i, "--for", &used);
            if (!o->record || !*o->record) {
                mg_error("--for", "missing value (the record of the application)");
                return 2;
            }
            i += used - 1;
        } else {
            int used = mg_plan_parse_flag(argc, argv, i, &o->plan);
            if (used)
                o->plan_flags = 1;
            else
                used = mg_run_opts_parse(argc, argv, i, &o->r, "tune");
            if (used < 0) return 2;
            i += used - 1;
        }
    }
    if (!o->launcher) {
        mg_error("tune", "--launcher is required");
        return 2;
    }
    if (o->record && o->r.input) {
        mg_error("--for", "takes the place of -f (the input is planned from the record)");
        return 2;
    }
    if (o->plan_flags && !o->record) {
        mg_error("tune", "--cover, --np, --nrep, --time-ms and --back-to-back plan from a record: "
                         "they need --for RECORD");
        return 2;
    }
    if (o->record && o->r.outdir) {
        snprintf(o->planfile, sizeof o->planfile, "%s/plan.txt", o->r.outdir);
        o->r.input = o->planfile;
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

/* Launch k of the validation of one input line: the default and `tuned` (the intercepted
 * MPI_* call with the profiles) interleaved in batches of 10 observations, the sizes in turn
 * (--spread), in one job. */
static int validate_line(const tune_opts *o, const char *self, const char *lib,
                         const mg_input_line *l, int k, const char *stem) {
    char cmd[16384], arg[4200];
    /* The ranks' variables go through `env` between the launcher and the program. smpirun
     * (SMPI) takes its first word as the program and runs every rank in its own process, so
     * there they go before it; and the SMPI tool holds the library itself (cmake/smpi.cmake),
     * nothing is preloaded. */
    int smpi = !strcmp(MG_BUILT_MPI, "smpi");
    snprintf(cmd, sizeof cmd, "%s env", smpi ? "" : o->launcher);
    if (!smpi) {
        snprintf(arg, sizeof arg, "LD_PRELOAD=%s", lib);
        add_quoted(cmd, sizeof cmd, arg);
    }
    snprintf(arg, sizeof arg, "MPIGUIDE_PROFILES=%s/profiles", o->r.outdir);
    add_quoted(cmd, sizeof cmd, arg);
    /* the profile itself is on trial, without the guard's samples of the default */
    add_quoted(cmd, sizeof cmd, "MPIGUIDE_GUARD=0");
    if (smpi) snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " %s", o->launcher);
    add_quoted(cmd, sizeof cmd, self);
    add_quoted(cmd, sizeof cmd, "bench");
    for (int i = 0; i < l->argc; i++) add_quoted(cmd, sizeof cmd, l->argv[i]);
    snprintf(arg, sizeof arg, "--calls-list=%s", l->call);
    add_quoted(cmd, sizeof cmd, arg);
    add_quoted(cmd, sizeof cmd, "--algs=default,tuned");
    add_quoted(cmd, sizeof cmd, "--interleave=10");
    add_quoted(cmd, sizeof cmd, "--spread");
    add_quoted(cmd, sizeof cmd, "--shuffle");
    snprintf(arg, sizeof arg, "--output-file=%s/tuned/launch-%d/%s.dat", o->r.outdir, k, stem);
    add_quoted(cmd, sizeof cmd, arg);
    if (o->r.quiet) add_quoted(cmd, sizeof cmd, "--quiet");
    char what[256];
    if (k <= o->validate)
        snprintf(what, sizeof what, "validation launch %d of %d: %s, tuned library against default",
                 k, o->validate, l->call);
    else
        snprintf(what, sizeof what,
                 "validation launch %d: %s again (a launch was disturbed at an entry's size)", k,
                 l->call);
    return run(what, cmd, o->r.quiet);
}

/* OUTDIR/tuned/launch-K, writable. 0, or 1. */
static int launch_dir(const tune_opts *o, int k) {
    char sub[4300], mk[9000] = "mkdir -p";
    snprintf(sub, sizeof sub, "%s/tuned/launch-%d", o->r.outdir, k);
    add_quoted(mk, sizeof mk, sub);
    return system(mk) != 0 || access(sub, W_OK) != 0;
}

/* OUTDIR/tuned/ afresh with launch-1 .. launch-V: a validation of earlier profiles must not
 * mix with this one. 0, or 1 after a message. */
static int fresh_tuned_dir(const tune_opts *o) {
    char dir[4200], cmd[9000] = "rm -rf";
    snprintf(dir, sizeof dir, "%s/tuned", o->r.outdir);
    add_quoted(cmd, sizeof cmd, dir);
    int rc = system(cmd) != 0;
    for (int k = 1; k <= o->validate && !rc; k++) rc = launch_dir(o, k);
    if (rc) mg_error(dir, "cannot create the validation directories");
    return rc;
}

/* Validation launches set aside as disturbed at an entry's size (docs/check.md) leave it with
 * fewer than V (at least 2) launches to be judged by: the input lines of those collectives run
 * once more, as launch V+1, V+2, ..., at most max(V, 2) more times in all. 0, or 1 after a
 * message. */
static int revalidate(const tune_opts *o, const char *self, const char *lib, const mg_input *in,
                      const int *colls) {
    /* an entry needs two launches once one was set aside (validate.c), even with V = 1 */
    int want = o->validate < 2 ? 2 : o->validate;
    for (int extra = 1; extra <= want; extra++) {
        char **names = NULL;
        int n = 0, rc = mg_analyze_disturbed(&o->r.an, o->r.outdir, want, &names, &n);
        int k = o->validate + extra;
        if (!rc && n && launch_dir(o, k)) {
            mg_error(o->r.outdir, "cannot create tuned/launch-%d", k);
            rc = 1;
        }
        for (int i = 0; i < in->n && !rc && n; i++) {
            int again = 0; /* the canonical name, as the raw files have it */
            for (int j = 0; j < n; j++) again |= mg_coll_lookup(names[j]) == colls[i];
            if (!again) continue;
            char stem[128];
            mg_line_stem(colls, i, stem, sizeof stem);
            rc = validate_line(o, self, lib, &in->lines[i], k, stem) ? 1 : 0;
        }
        for (int j = 0; j < n; j++) free(names[j]);
        free(names);
        if (rc || !n) return rc;
    }
    return 0;
}

int mg_cmd_tune(int argc, char **argv) {
    tune_opts o;
    if (parse_tune(argc, argv, &o)) return 2;
    if (o.record) {
        char mk[8400] = "mkdir -p";
        add_quoted(mk, sizeof mk, o.r.outdir);
        if (system(mk) != 0) {
            mg_error(o.r.outdir, "cannot create the output directory");
            return 1;
        }
        int prc = mg_plan_write(o.record, &o.plan, o.planfile);
        if (prc) return prc;
        if (!o.r.quiet)
            fprintf(stderr, "mpiguide tune: planned from %s into %s\n", o.record, o.planfile);
    }
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

    char self[PATH_MAX], lib[PATH_MAX];
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
    /* an earlier validation in OUTDIR would prune this run's candidates: start afresh */
    if (fresh_tuned_dir(&o)) {
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
    if (rc == 0 || rc == 3) {
        rc = 0;
        int *colls = malloc(sizeof(int) * (size_t)(in.n ? in.n : 1));
        for (int i = 0; colls && i < in.n; i++) colls[i] = mg_coll_lookup(in.lines[i].call);
        if (!colls) rc = 1;
        for (int k = 1; k <= o.validate && !rc; k++)
            for (int i = 0; i < in.n && !rc; i++) {
                char stem[128];
                mg_line_stem(colls, i, stem, sizeof stem);
                rc = validate_line(&o, self, lib, &in.lines[i], k, stem) ? 1 : 0;
            }
        if (!rc && colls) rc = revalidate(&o, self, lib, &in, colls);
        free(colls);
        if (rc)
            mg_error("tune",
                     "stopped; the analysis of the check launches and the unvalidated profiles "
                     "are in %s (summary.txt, profiles/, report.html)",
                     o.r.outdir);
        if (!rc) { /* again with the validation: the profiles lose what did not hold */
            mg_analyze_opts last = o.r.an;
            last.out = NULL;
            last.verdict = stdout;
            rc = mg_analyze_dirs(&last, dirs, 1);
        }
    }
    mg_input_free(&in);
    return rc;
}
