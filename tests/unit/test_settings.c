/* Rank 0's reading of the configuration, with a table standing in for the environment:
 * forced syntaxes, precedence MPIGUIDE_* > PGMPI_PARAMS > argv (argv only with MPIGUIDE_ARGV=1),
 * each bad input reported once under the name of its source, MPIGUIDE_OFF reading nothing. */
#include "check.h"
#include "startup/settings.h"
#include "catalog/catalog.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct var {
    const char *name, *value;
} var;

static const char *table_get(void *ctx, const char *name) {
    for (const var *v = ctx; v->name; v++)
        if (!strcmp(v->name, name)) return v->value;
    return NULL;
}

typedef struct log {
    int errors;
    char where[16][128], what[16][512];
} log_t;

static void collect(void *ctx, int error, const char *where, const char *what) {
    log_t *l = ctx;
    if (!error) return;
    if (l->errors < 16) {
        snprintf(l->where[l->errors], sizeof l->where[0], "%s", where);
        snprintf(l->what[l->errors], sizeof l->what[0], "%s", what);
    }
    l->errors++;
}

static int read_with(const var *vars, int argc, char **argv, mg_settings *s, log_t *l) {
    mg_env env = {table_get, (void *)vars, argc, argv};
    char path[256];
    void *seltab = NULL;
    mg_profile_set ps = {0};
    *l = (log_t){0};
    int n = mg_settings_read(&env, s, path, sizeof path, &seltab, &ps, collect, l);
    free(seltab);
    mg_profile_set_free(&ps);
    return n;
}

static int alg(int coll, const char *name) {
    return mpiguide_algorithm_id(coll, name);
}

int main(void) {
    mg_settings s;
    log_t l;
    const int AR = MPIGUIDE_COLL_ALLREDUCE, AG = MPIGUIDE_COLL_ALLGATHER, BC = MPIGUIDE_COLL_BCAST;

    /* the three forced syntaxes and both collective spellings */
    int16_t forced[MPIGUIDE_COLL_COUNT];
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) forced[c] = -1;
    l = (log_t){0};
    int bad = mg_settings_parse_forced(
        " allreduce=allreduce_as_reduce_bcast , MPI_Allgather=alg:allgather_as_alltoall,"
        "bcast:alg=bcast_as_allgatherv,,scatter=default,exscan=default,MPI_Barrier=default",
        "T", forced, collect, &l);
    CHECK(bad == 0 && l.errors == 0, "forced syntaxes: %d errors", bad);
    CHECK(forced[AR] == alg(AR, "allreduce_as_reduce_bcast") &&
              forced[AG] == alg(AG, "allgather_as_alltoall") &&
              forced[BC] == alg(BC, "bcast_as_allgatherv") &&
              forced[MPIGUIDE_COLL_SCATTER] == MPIGUIDE_COLL_SCATTER &&
              forced[MPIGUIDE_COLL_EXSCAN] == MPIGUIDE_COLL_EXSCAN &&
              forced[MPIGUIDE_COLL_BARRIER] == MPIGUIDE_COLL_BARRIER,
          "forced entries (Exscan and Barrier are intercepted too)");

    /* bad forced entries: each one message naming the variable */
    struct {
        const char *spec, *word;
    } badf[] = {{"allreduce", "expected collective=algorithm"},
                {"allreducex=default", "unknown collective"},
                {"allreduce=allgather_as_alltoall", "unknown algorithm"},
                {"allreduce=", "unknown algorithm"}};
    for (size_t i = 0; i < sizeof badf / sizeof badf[0]; i++) {
        l = (log_t){0};
        for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) forced[c] = -1;
        int n = mg_settings_parse_forced(badf[i].spec, "MPIGUIDE_ALG", forced, collect, &l);
        CHECK(n == 1 && l.errors == 1 && !strcmp(l.where[0], "MPIGUIDE_ALG") &&
                  strstr(l.what[0], badf[i].word),
              "bad forced `%s`: %s: %s", badf[i].spec, l.where[0], l.what[0]);
        CHECK(forced[AR] == -1, "bad forced `%s` leaves allreduce unforced", badf[i].spec);
    }

    /* precedence: MPIGUIDE_ALG over PGMPI_PARAMS over argv, per collective */
    char *argv[] = {"app",
                    "--module=allreduce=alg:allreduce_as_reducescatter_allgatherv,"
                    "bcast=bcast_as_scatter_allgather",
                    "--unrelated", "--ppath=/nonexistent/argv", NULL};
    var v1[] = {{"MPIGUIDE_ARGV", "1"},
                {"PGMPI_PARAMS", "--module=allreduce=alg:allreduce_as_reducescatterblock_allgather "
                                 "--module=allgather:alg=allgather_as_allreduce"},
                {"MPIGUIDE_ALG", "allgather=allgather_as_gather_bcast"},
                {NULL, NULL}};
    read_with(v1, 4, argv, &s, &l);
    CHECK(s.forced[AR] == alg(AR, "allreduce_as_reducescatterblock_allgather"),
          "PGMPI_PARAMS beats argv");
    CHECK(s.forced[AG] == alg(AG, "allgather_as_gather_bcast"), "MPIGUIDE_ALG beats PGMPI_PARAMS");
    CHECK(s.forced[BC] == alg(BC, "bcast_as_scatter_allgather"), "argv fills the rest");
    CHECK(l.errors == 1 && !strcmp(l.where[0], "/nonexistent/argv"),
          "argv --ppath used and reported: %d %s", l.errors, l.where[0]);

    /* argv ignored without MPIGUIDE_ARGV=1 */
    var v2[] = {{NULL, NULL}};
    read_with(v2, 4, argv, &s, &l);
    CHECK(s.forced[BC] == -1 && l.errors == 0, "argv off by default");

    /* MPIGUIDE_PROFILES beats --ppath; unknown PGMPI option; bad flag values */
    var v3[] = {{"PGMPI_PARAMS", "--ppath=/nonexistent/pg --bogus=1 --config=/nonexistent/cfg"},
                {"MPIGUIDE_PROFILES", "/nonexistent/env"},
                {"MPIGUIDE_VERIFY", "yes"},
                {"MPIGUIDE_REPORT", "/tmp/report.txt"},
                {NULL, NULL}};
    int n = read_with(v3, 0, NULL, &s, &l);
    int saw_env = 0, saw_pg = 0, saw_bogus = 0, saw_verify = 0, saw_cfg = 0;
    for (int i = 0; i < l.errors && i < 16; i++) {
        saw_env |= !strcmp(l.where[i], "/nonexistent/env");
        saw_pg |= !strcmp(l.where[i], "/nonexistent/pg");
        saw_bogus |= !strcmp(l.where[i], "PGMPI_PARAMS") && strstr(l.what[i], "--bogus") != NULL;
        saw_verify |= !strcmp(l.where[i], "MPIGUIDE_VERIFY");
        saw_cfg |= !strcmp(l.where[i], "/nonexistent/cfg");
    }
    CHECK(n == 4 && saw_env && !saw_pg && saw_bogus && saw_verify && saw_cfg,
          "v3: %d errors env %d pg %d bogus %d verify %d cfg %d", n, saw_env, saw_pg, saw_bogus,
          saw_verify, saw_cfg);
    CHECK(s.verify == 0 && s.report == MG_REPORT_FILE, "verify off after bad value; report file");

    /* MPIGUIDE_GUARD: on unless 0; a bad value is an error and keeps it on */
    const struct {
        const char *v;
        int guard, errors;
    } gc[] = {{NULL, 1, 0}, {"", 1, 0}, {"1", 1, 0}, {"0", 0, 0}, {"off", 1, 1}};
    for (size_t i = 0; i < sizeof gc / sizeof gc[0]; i++) {
        var vg[] = {{"MPIGUIDE_GUARD", gc[i].v}, {NULL, NULL}};
        n = read_with(gc[i].v ? vg : vg + 1, 0, NULL, &s, &l);
        CHECK(s.guard == gc[i].guard && n == gc[i].errors &&
                  (!n || !strcmp(l.where[0], "MPIGUIDE_GUARD")),
              "MPIGUIDE_GUARD=%s: guard %d, %d errors", gc[i].v ? gc[i].v : "(unset)", s.guard, n);
    }
    /* MPIGUIDE_RECORD names a file (0 is off); MPIGUIDE_MATCH is exact (default) or size */
    var v6[] = {{"MPIGUIDE_RECORD", "/tmp/rec.txt"}, {"MPIGUIDE_MATCH", "size"}, {NULL, NULL}};
    n = read_with(v6, 0, NULL, &s, &l);
    CHECK(n == 0 && s.record && !strcmp(s.record_path, "/tmp/rec.txt") && s.match_size,
          "record and match=size: %d errors", n);
    var v7[] = {{"MPIGUIDE_RECORD", "0"}, {"MPIGUIDE_MATCH", "exact"}, {NULL, NULL}};
    n = read_with(v7, 0, NULL, &s, &l);
    CHECK(n == 0 && !s.record && !s.match_size, "record 0 is off, match exact");
    var v8[] = {{"MPIGUIDE_MATCH", "loose"}, {NULL, NULL}};
    n = read_with(v8, 0, NULL, &s, &l);
    CHECK(n == 1 && !strcmp(l.where[0], "MPIGUIDE_MATCH") && strstr(l.what[0], "`loose`") &&
              !s.match_size,
          "bad MPIGUIDE_MATCH: %d errors", n);

    /* profiles of nonblocking collectives apply under their guard unless MPIGUIDE_NONBLOCKING=0;
     * without the guard (MPIGUIDE_GUARD=0) only with MPIGUIDE_NONBLOCKING=1 */
    char dir[] = "/tmp/mg_test_nb_XXXXXX";
    if (mkdtemp(dir)) {
        const char *files[2][2] = {
            {"MPI_Allreduce_p4.prf",
             "MPI_Allreduce\n4\n1\n1 allreduce_as_reduce_bcast\n1\n8 8 1\n"},
            {"MPI_Iallreduce_p4.prf", "MPI_Iallreduce\n4\n1\n1 default\n1\n8 8 1\n"}};
        char path[300];
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
            FILE *f = fopen(path, "w");
            if (f) fputs(files[i][1], f), fclose(f);
        }
        const struct {
            const char *v, *guard;
            int kept, errors, value;
        } nc[] = {{NULL, NULL, 2, 0, -1}, {"0", NULL, 1, 0, 0},  {"1", NULL, 2, 0, 1},
                  {"yes", NULL, 1, 1, 0}, {NULL, "0", 1, 0, -1}, {"0", "0", 1, 0, 0},
                  {"1", "0", 2, 0, 1}};
        for (size_t i = 0; i < sizeof nc / sizeof nc[0]; i++) {
            var vn[] = {{"MPIGUIDE_PROFILES", dir},
                        {"MPIGUIDE_NONBLOCKING", nc[i].v},
                        {"MPIGUIDE_GUARD", nc[i].guard},
                        {NULL, NULL}};
            if (!nc[i].guard) vn[2] = vn[3];
            if (!nc[i].v) vn[1] = vn[2], vn[2] = vn[3];
            mg_env env = {table_get, vn, 0, NULL};
            char rp[256];
            void *seltab = NULL;
            mg_profile_set ps = {0};
            l = (log_t){0};
            n = mg_settings_read(&env, &s, rp, sizeof rp, &seltab, &ps, collect, &l);
            int nb = 0;
            for (int k = 0; k < ps.n; k++) nb += mg_coll_is_nb(ps.v[k].coll);
            CHECK(ps.n == nc[i].kept && nb == (nc[i].kept == 2) && n == nc[i].errors &&
                      s.nonblocking == nc[i].value,
                  "MPIGUIDE_NONBLOCKING=%s MPIGUIDE_GUARD=%s: %d profiles kept (%d nonblocking), "
                  "%d errors",
                  nc[i].v ? nc[i].v : "(unset)", nc[i].guard ? nc[i].guard : "(unset)", ps.n, nb,
                  n);
            free(seltab);
            mg_profile_set_free(&ps);
        }
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
            unlink(path);
        }
        rmdir(dir);
    }

    /* config file applies; MPIGUIDE_OFF reads nothing */
    char cfg[] = "/tmp/mg_test_settings_XXXXXX";
    int fd = mkstemp(cfg);
    if (fd >= 0) {
        const char *text = "size_msg_buffer_bytes 4096\nbad_key 1\ntune_user_ops 1\n";
        if (write(fd, text, strlen(text)) < 0) CHECK(0, "write");
        close(fd);
        var v4[] = {{"MPIGUIDE_CONFIG", cfg}, {"MPIGUIDE_REPORT", "1"}, {NULL, NULL}};
        n = read_with(v4, 0, NULL, &s, &l);
        CHECK(n == 1 && strstr(l.where[0], ":2") && s.cfg.size_msg_buffer_bytes == 4096 &&
                  s.cfg.tune_user_ops == 1 && s.report == MG_REPORT_STDERR,
              "config: %d errors, %s", n, l.where[0]);
        var v5[] = {
            {"MPIGUIDE_OFF", "1"}, {"MPIGUIDE_CONFIG", cfg}, {"MPIGUIDE_ALG", "x"}, {NULL, NULL}};
        n = read_with(v5, 0, NULL, &s, &l);
        CHECK(n == 0 && s.off == 1 && s.cfg.size_msg_buffer_bytes == 100000000 &&
                  s.forced[AR] == -1,
              "MPIGUIDE_OFF reads nothing");
        unlink(cfg);
    }
    return DONE();
}
