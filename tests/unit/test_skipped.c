/* Measurements skipped for lack of memory: the `#@skipped=` line written and read back, the one
 * line that ends the run (how many, which collective at which sizes, in which file), and the
 * analysis listing them in summary.txt, distinct per file, with the measured rest analysed. */
#include "check.h"
#include "rawdata/dataset.h"
#include "rawdata/skipped.h"
#include "report/report.h"
#include "synth.h"

static void text_and_parse(void) {
    mg_skipped s = {"MPI_Allreduce", "allreduce_as_reduce_bcast", "out of memory on another rank",
                    1048576},
               r;
    char buf[512];
    mg_skipped_text(&s, buf, sizeof buf);
    CHECK(!strcmp(buf, "#@skipped=MPI_Allreduce allreduce_as_reduce_bcast 1048576 out of memory "
                       "on another rank\n"),
          "text: %s", buf);
    const char *v = buf + strlen("#@skipped=");
    CHECK(!mg_skipped_parse(v, strlen(v) - 1, &r) && !strcmp(r.coll, s.coll) &&
              !strcmp(r.alg, s.alg) && r.msize == s.msize && !strcmp(r.why, s.why),
          "read back: %s %s %lld %s", r.coll, r.alg, r.msize, r.why);
    static const char *bad[] = {"",
                                "MPI_Bcast",
                                "MPI_Bcast default",
                                "MPI_Bcast default 8",
                                "MPI_Bcast default -8 why",
                                "MPI_Bcast default x why"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(mg_skipped_parse(bad[i], strlen(bad[i]), &r) == -1, "malformed accepted: `%s`",
              bad[i]);
}

static void line(void) {
    mg_skips t;
    char buf[2048];
    memset(&t, 0, sizeof t);
    CHECK(!mg_skips_line(&t, buf, sizeof buf) && !buf[0], "nothing skipped: no line");
    mg_skips_note(&t, "MPI_Bcast", 4096, "a.dat");
    CHECK(mg_skips_line(&t, buf, sizeof buf) &&
              strstr(buf, "mpiguide: incomplete: 1 measurement skipped for lack of memory: "
                          "MPI_Bcast 4096 B (1, in a.dat);") &&
              strstr(buf, "(exit code 5)"),
          "one: %s", buf);
    mg_skips_note(&t, "MPI_Bcast", 1024, "a.dat");
    mg_skips_note(&t, "MPI_Bcast", 65536, "a.dat");
    mg_skips_note(&t, "MPI_Bcast", 1024, "b.dat");
    CHECK(mg_skips_line(&t, buf, sizeof buf) &&
              strstr(buf, "4 measurements skipped for lack of memory: MPI_Bcast 1024-65536 B (3, "
                          "in a.dat), MPI_Bcast 1024 B (1, in b.dat);") &&
              !strchr(buf, '\n'),
          "per collective and file: %s", buf);
    for (int i = 0; i < MG_SKIPS_PLACES + 3; i++) {
        char file[32];
        snprintf(file, sizeof file, "f%d.dat", i);
        mg_skips_note(&t, "MPI_Gather", 8, file);
    }
    /* 4 + 35 measurements; places named: a.dat (3), b.dat (1), f0 and f1 (1 each) */
    CHECK(t.total == 39 && mg_skips_line(&t, buf, sizeof buf) &&
              strstr(buf, "mpiguide: incomplete: 39 measurements") && strstr(buf, " and 33 more;"),
          "capped: %s", buf);
    /* a buffer too small for the line gets as much as fits, terminated */
    static const size_t room[] = {1, 2, 40, 100};
    for (size_t k = 0; k < sizeof room / sizeof *room; k++) {
        char cut[100];
        int said = mg_skips_line(&t, cut, room[k]);
        CHECK(said && strlen(cut) == room[k] - 1 && !strncmp(cut, buf, room[k] - 1),
              "line in %zu bytes: `%s`", room[k], cut);
    }
}

static void raw_and_summary(void) {
    char *dir = synth_tmpdir();
    synth_seed(11);
    synth_series(dir, 1, "MPI_Bcast", "default", 8, 10e-6, 0.01, 50);
    synth_series(dir, 1, "MPI_Bcast", "bcast_as_allgatherv", 8, 12e-6, 0.01, 50);
    FILE *f = synth_open(dir, 1, "MPI_Bcast", 4);
    /* twice the same (a resumed run skipped it again): listed once; a malformed one is a note */
    for (int k = 0; k < 2; k++)
        fprintf(f, "#@skipped=MPI_Bcast default 1048576 out of memory for 1048576-byte buffers\n"
                   "#@skipped=MPI_Bcast bcast_as_allgatherv 1048576 out of memory on another "
                   "rank\n");
    fprintf(f, "#@skipped=MPI_Bcast broken\n");
    fclose(f);
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    o.out = NULL;
    char *dirs[1] = {dir}, path[600];
    CHECK(mg_analyze_dirs(&o, dirs, 1) == 0, "analyze's exit code changed");
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    char *s = synth_slurp(path);
    CHECK(
        s && strstr(s, "Skipped for lack of memory: 2 measurements, nothing measured for them:") &&
            strstr(s, "  - MPI_Bcast default 1 MiB: out of memory for 1048576-byte buffers (") &&
            strstr(s, "  - MPI_Bcast bcast_as_allgatherv 1 MiB: out of memory on another rank (") &&
            synth_count(s, "MPI_Bcast default 1 MiB") == 1 && strstr(s, "bad #@skipped line"),
        "summary.txt:\n%s", s ? s : "(none)");
    free(s);
    synth_rmrf(dir);
}

int main(void) {
    text_and_parse();
    line();
    raw_and_summary();
    return DONE();
}
