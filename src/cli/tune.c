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
#include "outdir/outdir.h"
#include "report/report.h"
#include "record/record.h"
#include "rawdata/skipped.h"
#include "cli.h"
#include "measure_plan.h"
#include "check_input.h"
#include "util/diag.h"
#include "util/optval.h"
#include "util/file.h"
#include <dirent.h>
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
    "A launch whose measurements make no progress for 300 s (MPIGUIDE_WATCHDOG=S, which\n"         \
    "the launches inherit; --watchdog on an input line) stops; tune names it and why.\n"           \
    "Candidates are the mock-ups and the MPI's own algorithms (*_lib_*); export the\n"             \
    "library-algorithm part with `mpiguide export` (docs/library-algorithms.md).\n"                \
    "  --launcher CMD   how to start an MPI job: \"mpirun.openmpi -n 4\", \"srun --mpi=pmix\"\n"   \
    "  -f INPUT         input file (as for check)\n"                                               \
    "  --for RECORD     tune for an application: plan from its record (MPIGUIDE_RECORD) into\n"    \
    "                   OUTDIR/plan.txt first; --cover F, --np N, --nrep N, --time-ms T,\n"        \
    "                   --back-to-back N as for `mpiguide plan`; the record is copied to\n"        \
    "                   OUTDIR/record.txt: no profile range covers a size it lists that was\n"     \
    "                   not measured (the default runs there)\n"                                   \
    "  -o OUTDIR        output directory\n"                                                        \
    "  --launches R     check launches (default 3)\n"                                              \
    "  --validate-launches V  validation launches (default 2; OUTDIR/tuned/ is replaced)\n"        \
    "  --quiet          no progress lines from the launches\n"                                     \
    "Analysis options (as mpiguide analyze): -c N, -t N, -m, -s, -v, --alpha A,\n"                 \
    "  --min-gain G, --correction holm|bh, --exit-code\n"                                          \
    "Exit code 5: the launches skipped measurements for lack of memory (the last line says\n"      \
    "how many and where; the profiles and report of what was measured are written).\n"

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
/* --launches N, --validate-launches V: 1 when argv[*i] is `name` (*i past its value), 0 when
 * another option, -1 after a message. */
static int count_opt(int argc, char **argv, int *i, const char *name, int *out) {
    if (!mg_opt_is(argv[*i], name)) return 0;
    int64_t v;
    if (mg_opt_i64_say(name, mg_opt_value(argc, argv, i, name), 1, 1000, &v)) return -1;
    *out = (int)v;
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
        } else if (mg_opt_is(a, "--for")) {
            o->record = mg_opt_value(argc, argv, &i, "--for");
            if (!o->record || !*o->record) {
                mg_error("--for", "missing value (the record of the application)");
                return 2;
            }
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
        mg_out_path(o->planfile, sizeof o->planfile, o->r.outdir, MG_OUT_PLAN);
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

/* The `#@stopped=` note the watchdog of a launch left at the end of a raw file (src/bench/
 * watchdog.c), from the last 4 KiB of `file`; 1 when found (in note, without the key). */
static int note_of_file(const char *file, char *note, size_t len) {
    FILE *f = fopen(file, "r");
    if (!f) return 0;
    char tail[4097];
    size_t n = 0;
    if (!fseek(f, 0, SEEK_END)) {
        long size = ftell(f);
        if (size > 4096 && fseek(f, size - 4096, SEEK_SET)) size = 0;
        if (size <= 4096) rewind(f);
        n = fread(tail, 1, sizeof tail - 1, f);
    }
    fclose(f);
    tail[n] = 0;
    const char *at = NULL;
    for (const char *p = tail; (p = strstr(p, "#@stopped=")); p++)
        if (p == tail || p[-1] == '\n') at = p;
    if (!at) return 0;
    at += strlen("#@stopped=");
    snprintf(note, len, "%.*s", (int)strcspn(at, "\n"), at);
    return 1;
}

/* The note of a launch that wrote `path`: a raw file, or a directory of them. */
static int stop_note(const char *path, char *note, size_t len) {
    DIR *d = opendir(path);
    if (!d) return note_of_file(path, note, len);
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".dat")) continue;
        char file[8400];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        found = note_of_file(file, note, len);
    }
    closedir(d);
    return found;
}

/* Runs a shell command; returns its exit status (or 1 when it did not run). A failure is named
 * here, with the command when --quiet did not show it: the launcher's own messages (srun:
 * error: ...) rarely say which of tune's launches failed. A launch its watchdog stopped is
 * named with the watchdog's note from its raw data (`out`, a file or a directory): launchers
 * report the rank's exit code 4 differently (MPICH's mpiexec may say 9, the signal it ended
 * the other ranks with). */
static int run(const char *what, const char *cmd, int quiet, const char *out) {
    if (!quiet) fprintf(stderr, "mpiguide tune: %s\n  $ %s\n", what, cmd);
    fflush(NULL);
    int st = system(cmd), rc = 1;
    char note[1024];
    /* a launch that skipped measurements for lack of memory wrote everything else: tune goes on
     * and counts the skips from the raw data at its end (say_skipped) */
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == MG_EXIT_INCOMPLETE) return 0;
    if (st == -1) {
        mg_error("tune", "%s: cannot run the shell: %s", what, strerror(errno));
    } else if (WIFSIGNALED(st)) {
        mg_error("tune", "%s: the launcher was killed by signal %d (%s)", what, WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    } else if ((rc = WEXITSTATUS(st)) == 127 || rc == 126) {
        mg_error("tune",
                 "%s: the launcher could not be started (exit code %d: %s); check --launcher", what,
                 rc, rc == 127 ? "command not found" : "not executable");
    } else if (rc && out && stop_note(out, note, sizeof note)) {
        mg_error("tune", "%s failed with exit code %d: stopped by the %s", what, rc, note);
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

/* A copy of the record into OUTDIR (the plan already read it: a failure here is the disk's). */
static int copy_file(const char *from, const char *to) {
    size_t len = 0;
    char *text = mg_file_read(from, MG_REC_MAX_BYTES, &len);
    FILE *f = text ? fopen(to, "w") : NULL;
    int ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f)) ok = 0;
    if (!ok) mg_error(to, "cannot write the copy of the record: %s", strerror(errno));
    free(text);
    return ok ? 0 : -1;
}

/* Launch k of the validation of one input line: the default and `tuned` (the intercepted
 * MPI_* call with the profiles) interleaved in batches of 10 observations, the sizes in turn
 * (--spread), in one job. */
static int validate_line(const tune_opts *o, const char *self, const char *lib,
                         const mg_input_line *l, int k, const char *stem) {
    char cmd[16384], arg[4400];
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
    /* the profiles of nonblocking collectives are on trial too (without the guard, only =1
     * applies them) */
    add_quoted(cmd, sizeof cmd, "MPIGUIDE_NONBLOCKING=1");
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
    char dir[4096], out[4300];
    mg_out_launch(dir, sizeof dir, o->r.outdir, MG_OUT_TUNED, k);
    mg_out_rawfile(out, sizeof out, dir, stem);
    snprintf(arg, sizeof arg, "--output-file=%s", out);
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
    return run(what, cmd, o->r.quiet, out);
}

/* OUTDIR/tuned/launch-K, writable. 0, or 1. */
static int launch_dir(const tune_opts *o, int k) {
    char sub[4300];
    return mg_out_launch(sub, sizeof sub, o->r.outdir, MG_OUT_TUNED, k) || mg_out_mkdir(sub) ||
           access(sub, W_OK) != 0;
}

/* OUTDIR/tuned/ afresh with launch-1 .. launch-V: a validation of earlier profiles must not
 * mix with this one. 0, or 1 after a message. */
static int fresh_tuned_dir(const tune_opts *o) {
    char dir[4200], cmd[9000] = "rm -rf";
    mg_out_path(dir, sizeof dir, o->r.outdir, MG_OUT_TUNED);
    add_quoted(cmd, sizeof cmd, dir);
    int rc = system(cmd) != 0;
    for (int k = 1; k <= o->validate && !rc; k++) rc = launch_dir(o, k);
    if (rc) mg_error(dir, "cannot create the validation directories");
    return rc;
}

/* A validation launch failed: what is there. 1. */
static int stopped(const tune_opts *o) {
    mg_error("tune",
             "stopped; the analysis of the check launches and the unvalidated profiles are in %s "
             "(summary.txt, profiles/, report.html)",
             o->r.outdir);
    return 1;
}

/* The measurements the launches skipped for lack of memory (the `#@skipped` lines of the raw
 * data analysed): the last line, and exit code 5 where it would have been 0 or 3; the profiles
 * and the report of what was measured are written. */
static int say_skipped(const mg_dataset *ds, int rc) {
    static mg_skips t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < ds->nskipped; i++)
        mg_skips_note(&t, ds->skipped[i].s.coll, ds->skipped[i].s.msize,
                      ds->files[ds->skipped[i].file].path);
    char line[2048];
    if (!mg_skips_line(&t, line, sizeof line)) return rc;
    fflush(stdout);
    fprintf(stderr, "%s\n", line);
    return rc == 0 || rc == 3 ? MG_EXIT_INCOMPLETE : rc;
}

/* After the V validation launches: the analysis of everything measured decides. Validation
 * launches set aside as disturbed at an entry's size (docs/check.md) leave it with fewer than
 * V (at least 2) launches to be judged by: the input lines of those collectives run once more,
 * as launch V+1, V+2, ..., at most max(V, 2) more times in all, and the data is analysed
 * again. The last analysis, which needs no more launches, is the one written (every set of
 * raw data is read and analysed once). Its exit code, or 1 after a message. */
static int validated_analysis(const tune_opts *o, const char *self, const char *lib,
                              const mg_input *in, const int *colls) {
    /* an entry needs two launches once one was set aside (validate.c), even with V = 1 */
    int want = o->validate < 2 ? 2 : o->validate;
    char *dirs[1] = {(char *)o->r.outdir};
    mg_analyze_opts last = o->r.an;
    last.out = NULL;
    last.verdict = stdout;
    for (int extra = 1;; extra++) {
        mg_analyzed x;
        if (mg_analyzed_load(&x, &last, dirs, 1)) return 1;
        char **names = NULL;
        int n = 0, rc = extra > want ? 0 : mg_analyzed_disturbed(&x, want, &names, &n);
        if (!rc && !n) rc = say_skipped(&x.ds, mg_analyzed_write(&x, &last, o->r.outdir));
        mg_analyzed_free(&x);
        if (rc || !n) return rc;
        int k = o->validate + extra;
        if (launch_dir(o, k)) {
            mg_error(o->r.outdir, "cannot create tuned/launch-%d", k);
            rc = 1;
        }
        for (int i = 0; i < in->n && !rc; i++) {
            int again = 0; /* the canonical name, as the raw files have it */
            for (int j = 0; j < n; j++) again |= mg_coll_lookup(names[j]) == colls[i];
            if (!again) continue;
            char stem[128];
            mg_line_stem(colls, i, stem, sizeof stem);
            rc = validate_line(o, self, lib, &in->lines[i], k, stem) ? 1 : 0;
        }
        for (int j = 0; j < n; j++) free(names[j]);
        free(names);
        if (rc) return stopped(o);
    }
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
        /* the analysis keeps profile ranges off recorded sizes nobody measured (record.txt) */
        char copy[4200];
        mg_out_path(copy, sizeof copy, o.r.outdir, MG_OUT_RECORD);
        if (copy_file(o.record, copy)) return 1;
        if (!o.r.quiet)
            fprintf(stderr, "mpiguide tune: planned from %s into %s\n", o.record, o.planfile);
    }
    char *text = read_text(o.r.input);
    if (!text) {
        mg_error(o.r.input, "cannot read input file: %s", strerror(errno));
        return 2;
    }
    /* the input is read once: the plan checks every line's options before anything runs */
    mg_bench_opts *plan = NULL;
    mg_input in = {0, NULL};
    char err[600];
    int nplan = 0, rc = mg_input_parse(text, o.r.input, &in, err, sizeof err);
    free(text);
    if (rc) {
        mg_error(NULL, "%s", err);
        return 2;
    }
    rc = mg_plan_of_input(&in, o.r.input, o.r.quiet, 1, &plan, &nplan);
    mg_check_plan_free(plan, nplan);
    if (rc) {
        mg_input_free(&in);
        return rc;
    }

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
        /* the directory this launch creates: check takes the first free raw/launch-K */
        char dir[4300];
        mg_out_launch(dir, sizeof dir, o.r.outdir, MG_OUT_RAW,
                      mg_out_free_launch(o.r.outdir, MG_OUT_RAW));
        rc = run(what, cmd, o.r.quiet, dir) ? 1 : 0;
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
        if (rc) stopped(&o);
        /* again with the validation: the profiles lose what did not hold */
        if (!rc) rc = validated_analysis(&o, self, lib, &in, colls);
        free(colls);
    }
    mg_input_free(&in);
    return rc;
}
