/* `mpirun -np P mpiguide check -f INPUT -o OUTDIR`: measures the default and every registered
 * algorithm of each collective in INPUT, plus MPI_Barrier, into OUTDIR/raw/launch-K/, then
 * analyses all launches in OUTDIR (docs/dev/interfaces.md section 7). Input and OUTDIR are checked
 * before anything is measured. */
#include "outdir/outdir.h"
#include "report/report.h"
#include "bench/bench.h"
#include "bench/declines.h"
#include "bench/harness.h"
#include "bench/launcher.h"
#include "bench/skips.h"
#include "cli.h"
#include "measure_plan.h"
#include "util/diag.h"
#include "util/file.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CHECK_USAGE                                                                                \
    "usage: mpirun -np P mpiguide check -f INPUT -o OUTDIR [options]\n"                            \
    "Measures every algorithm of each collective in INPUT (default, mock-ups and the MPI's\n"      \
    "own algorithms *_lib_*; one collective per line, followed by\n"                               \
    "benchmark options; see docs/check.md; --algs=a,b on a line: the default and those\n"          \
    "only) and MPI_Barrier, writes the raw rows to\n"                                              \
    "OUTDIR/raw/launch-K/ and analyses every launch found in OUTDIR.\n"                            \
    "  -f INPUT         input file\n"                                                              \
    "  -o OUTDIR        output directory (created; launches accumulate)\n"                         \
    "  --no-analyze     measure only (mpiguide analyze OUTDIR does the rest)\n"                    \
    "  --quiet          no progress lines\n"                                                       \
    "Analysis options (as mpiguide analyze): -c N, -t N, -m, -s, -v, --alpha A,\n"                 \
    "  --min-gain G, --correction holm|bh, --exit-code\n"                                          \
    "Exit code 5: measurements were skipped for lack of memory (the last line says how\n"          \
    "many and where; everything measured is written and analysed).\n"

typedef struct check_opts {
    mg_run_opts r;
    int analyze;
} check_opts;

/* Parses check's own flags and the shared ones; 0, or 2 with a message printed. */
static int parse_check(int argc, char **argv, check_opts *o) {
    mg_run_opts_init(&o->r);
    o->analyze = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(CHECK_USAGE, stdout);
            exit(0);
        } else if (!strcmp(a, "--no-analyze")) {
            o->analyze = 0;
        } else {
            int used = mg_run_opts_parse(argc, argv, i, &o->r, "check");
            if (used < 0) return 2;
            i += used - 1;
        }
    }
    return mg_run_opts_require(&o->r, "check");
}

/* Rank 0: the next free OUTDIR/raw/launch-K, created; 0 on failure (message printed). */
static int new_launch_dir(const char *outdir, char *dir, size_t len) {
    int k = mg_out_free_launch(outdir, MG_OUT_RAW);
    if (!mg_out_launch(dir, len, outdir, MG_OUT_RAW, k) && !mg_out_mkdir(dir)) {
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/.writable", dir);
        FILE *f = fopen(probe, "w");
        if (f) {
            fclose(f);
            remove(probe);
            return k;
        }
    }
    mg_error(outdir, "cannot create a launch directory: %s", strerror(errno));
    return 0;
}

/* Rank 0 reads the input file and shares it, so every rank plans the same measurements. */
static char *shared_text(const char *path, int rank) {
    long len = -1;
    char *text = NULL;
    if (rank == 0) {
        size_t n = 0;
        text = mg_file_read(path, MG_TEXT_FILE_MAX, &n);
        char why[128];
        if (!text)
            mg_error(path, "cannot read input file: %s",
                     mg_file_error(errno, MG_TEXT_FILE_MAX, why, sizeof why));
        len = text ? (long)n : -1;
    }
    MPI_Bcast(&len, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (len < 0) {
        free(text);
        return NULL;
    }
    if (rank != 0) text = malloc((size_t)len + 1);
    MPI_Bcast(text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    text[len] = 0;
    return text;
}

/* The library algorithm names of --algs lines, once MPI has started and the library's own
 * algorithms are known (measure_plan.c checked every other name); 0, or 2 after a message. */
static int check_algs_named(const mg_bench_opts *v, int n, const char *input, int rank) {
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char where[600];
        snprintf(where, sizeof where, "%s: %s --algs", input, mg_coll_name(v[i].calls[0]));
        if (v[i].algs_given && mg_check_alg_names(&v[i], rank, where, 0)) rc = 2;
    }
    return rc;
}

/* Lines with --algs measure the default and the named algorithms only: the guidelines whose
 * mock-up was left out are not checked, and the report says which (docs/check.md). */
static void say_unchecked(const mg_bench_opts *v, int n, FILE *out) {
    int cap = mpiguide_algorithm_count() + 2, head = 0;
    int *ids = malloc(sizeof(int) * (size_t)cap);
    const char **names = malloc(sizeof(char *) * (size_t)cap);
    for (int i = 0; ids && names && i < n; i++) {
        if (!v[i].algs_given) continue;
        int coll = v[i].calls[0], na = mg_expand_algs(coll, &v[i], ids, names), left = 0;
        for (int k = 0; k < mpiguide_algorithm_count(); k++) {
            const char *g = mpiguide_algorithm_guideline(k);
            if (mpiguide_algorithm_collective(k) != coll ||
                mpiguide_algorithm_kind(k) != MPIGUIDE_KIND_MOCKUP || !g ||
                !strncmp(g, "TEST ONLY", 9))
                continue;
            int measured = 0;
            for (int a = 0; a < na; a++) measured |= ids[a] == k;
            if (measured) continue;
            if (!head++)
                fprintf(out, "\nGuidelines left unchecked (--algs on the input line: their "
                             "mock-up was not measured):\n");
            fprintf(out, "%s%s%.*s %s", left ? ", " : mg_coll_name(coll), left ? "" : "  ",
                    (int)strcspn(g, ":"), g, mpiguide_algorithm_name(k));
            left++;
        }
        if (left) fputc('\n', out);
    }
    free(ids);
    free(names);
}

int mg_cmd_check(int argc, char **argv) {
    check_opts c;
    if (parse_check(argc, argv, &c)) return 2;
    /* FUNNELED: the watchdog's thread (src/bench/watchdog.h) never calls MPI */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    mpiguide_init();
    int rank, rc = 0, nplan = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mg_bench_opts *v = NULL;
    if (mg_launcher_check()) {
        MPI_Finalize();
        return 1;
    }
    char *text = shared_text(c.r.input, rank);
    rc = text ? mg_check_plan(text, c.r.input, c.r.quiet, rank == 0, &v, &nplan) : 2;
    free(text);
    if (!rc) rc = check_algs_named(v, nplan, c.r.input, rank);
    char dir[4096] = "";
    int launch = 0;
    if (!rc && rank == 0) launch = new_launch_dir(c.r.outdir, dir, sizeof dir);
    MPI_Bcast(&launch, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!rc && !launch) rc = 1;
    if (rc) goto out;
    mg_out_launch(dir, sizeof dir, c.r.outdir, MG_OUT_RAW, launch);
    if (rank == 0 && !c.r.quiet)
        fprintf(stderr, "mpiguide check: launch %d, %d collective(s), raw data in %s\n", launch,
                nplan, dir);
    /* MPI_Barrier first: the barrier warning compares against its median. */
    mg_bench_opts barrier;
    mg_bench_defaults(&barrier);
    char *bargv[] = {"--calls-list=MPI_Barrier", "--msizes-list=0", "--nrep=200",
                     "--rt-bench-time-ms=1000"};
    char err[600], path[4300];
    mg_bench_parse(4, bargv, &barrier, err, sizeof err);
    mg_out_rawfile(path, sizeof path, dir, "MPI_Barrier");
    barrier.output_file = strdup(path);
    barrier.quiet = c.r.quiet;
    rc = mg_bench_run(&barrier);
    mg_bench_opts_free(&barrier);
    int *colls = malloc(sizeof(int) * (size_t)(nplan ? nplan : 1));
    for (int i = 0; colls && i < nplan; i++) colls[i] = v[i].calls[0];
    if (!colls) rc = 1;
    for (int i = 0; i < nplan && !rc; i++) {
        if (rank == 0 && !c.r.quiet)
            fprintf(stderr, "mpiguide check: [%d/%d] %s\n", i + 1, nplan,
                    mg_coll_name(v[i].calls[0]));
        char stem[128];
        mg_line_stem(colls, i, stem, sizeof stem);
        mg_out_rawfile(path, sizeof path, dir, stem);
        free(v[i].output_file);
        v[i].output_file = strdup(path);
        rc = mg_bench_run(&v[i]);
    }
    free(colls);
    mg_declines_say(rank == 0);
    if (!rc && c.analyze && rank == 0) {
        char *dirs[1] = {(char *)c.r.outdir};
        c.r.an.outdir = c.r.outdir;
        c.r.an.out = stdout;
        rc = mg_analyze_dirs(&c.r.an, dirs, 1);
        say_unchecked(v, nplan, stdout);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    /* the last line: measurements left out for lack of memory; the analysis had the rest */
    if (mg_skips_end(MPI_COMM_WORLD) && (rc == 0 || rc == 3)) rc = MG_EXIT_INCOMPLETE;
out:
    mg_check_plan_free(v, nplan);
    MPI_Finalize();
    return rc;
}
