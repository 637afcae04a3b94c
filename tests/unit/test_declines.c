/* Quiet declines (issue 27 item 5): the launch's one line (which candidates, why, at how many
 * sizes), the raw `#@declined=` lines read back distinct, and summary.txt listing them per
 * candidate and reason with their sizes. */
#include "bench/declines.h"
#include "check.h"
#include "rawdata/dataset.h"
#include "report/report.h"
#include "synth.h"

static void line(void) {
    mg_declines d;
    char buf[2048];
    mg_declines_clear(&d);
    CHECK(!mg_declines_line(&d, buf, sizeof buf) && !buf[0], "nothing declined: no line");
    for (int i = 0; i < 6; i++)
        mg_declines_note(&d, "MPI_Reduce", "reduce_with_own_op",
                         "the algorithm declines these arguments");
    mg_declines_note(&d, "MPI_Allreduce", "allreduce_with_own_op",
                     "the algorithm declines these arguments");
    mg_declines_note(&d, "MPI_Reduce", "reduce_with_own_op",
                     "scratch need beyond size_msg_buffer_bytes");
    CHECK(mg_declines_line(&d, buf, sizeof buf) &&
              strstr(buf, "mpiguide: 3 candidates declined the measured arguments at 8 sizes") &&
              strstr(buf, ": allreduce_with_own_op (MPI_Allreduce, 1 size: the algorithm "
                          "declines these arguments), reduce_with_own_op (MPI_Reduce, 6 sizes: the "
                          "algorithm declines these arguments), reduce_with_own_op (MPI_Reduce, 1 "
                          "size: scratch") &&
              !strchr(buf, '\n'),
          "one line: %s", buf);
    for (int i = 0; i < 5; i++) {
        char alg[32];
        snprintf(alg, sizeof alg, "alg%d", i);
        mg_declines_note(&d, "MPI_Bcast", alg, "why");
    }
    CHECK(mg_declines_line(&d, buf, sizeof buf) && strstr(buf, " and 4 more;"), "capped: %s", buf);
    char small[40];
    CHECK(mg_declines_line(&d, small, sizeof small) && strlen(small) == sizeof small - 1,
          "truncated safely");
}

static void raw_and_summary(void) {
    char *dir = synth_tmpdir();
    synth_seed(7);
    long long m[] = {8, 64};
    for (int i = 0; i < 2; i++) {
        synth_series(dir, 2, "MPI_Reduce", "default", m[i], 10e-6, 0.01, 50);
        synth_series(dir, 2, "MPI_Reduce", "reduce_as_allreduce", m[i], 10e-6, 0.01, 50);
    }
    for (int l = 1; l <= 2; l++) { /* the same decline in both launches: listed once */
        FILE *f = synth_open(dir, l, "MPI_Reduce", 4);
        fprintf(f, "#@declined=MPI_Reduce reduce_with_own_op 8 the algorithm declines these "
                   "arguments\n#@declined=MPI_Reduce reduce_with_own_op 64 the algorithm "
                   "declines these arguments\n#@declined=MPI_Reduce broken\n");
        fclose(f);
    }
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    o.out = NULL, o.merge = 1;
    char *dirs[1] = {dir}, path[600];
    CHECK(mg_analyze_dirs(&o, dirs, 1) == 0, "analyze failed");
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    char *s = synth_slurp(path);
    CHECK(s && strstr(s, "Candidates that declined the measured arguments") &&
              strstr(s, "  - MPI_Reduce reduce_with_own_op: 8 B, 64 B: the algorithm declines "
                        "these arguments\n") &&
              synth_count(s, "reduce_with_own_op") == 1 && strstr(s, "bad #@declined line"),
          "summary.txt:\n%s", s ? s : "(none)");
    free(s);
    synth_rmrf(dir);
}

int main(void) {
    line();
    raw_and_summary();
    return DONE();
}
