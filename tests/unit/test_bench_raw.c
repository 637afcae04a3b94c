/* Reading raw files for --resume: header keys, complete measurements, an unfinished tail cut at
 * the start of its measurement, and malformed files rejected with FILE:LINE. */
#include "check.h"
#include "rawdata/scan.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *whole = "#@nprocs=4\n#@procsync=dissemination\n"
                           "MPI_Bcast default 0 8 0.0000012000\n"
                           "MPI_Bcast default 1 8 0.0000013000\n"
                           "MPI_Bcast bcast_as_allgatherv 0 8 0.0000020000\n"
                           "MPI_Bcast default 0 64 0.0000030000 0\n"
                           "MPI_Bcast default 1 64 0.0000031000 1\n";

static void test_whole(void) {
    mg_raw_scan s;
    char err[600];
    CHECK(mg_raw_scan_text(whole, strlen(whole), "f", &s, err, sizeof err) == 0, "%s", err);
    CHECK(s.nkeys == 2 && !strcmp(mg_raw_get(&s, "nprocs"), "4") &&
              !strcmp(mg_raw_get(&s, "procsync"), "dissemination") && !mg_raw_get(&s, "x"),
          "header keys");
    CHECK(s.nmeas == 3 && s.meas[0].rows == 2 && s.meas[1].rows == 1 && s.meas[2].rows == 2,
          "measurements %d", s.nmeas);
    CHECK(mg_raw_done(&s, "MPI_Bcast", "default", 8, 0) &&
              mg_raw_done(&s, "MPI_Bcast", "default", 64, 0) &&
              mg_raw_done(&s, "MPI_Bcast", "bcast_as_allgatherv", 8, 0) &&
              !mg_raw_done(&s, "MPI_Bcast", "bcast_as_allgatherv", 64, 0),
          "done");
    CHECK(s.keep == strlen(whole) && s.dropped == 0, "keep all");
    mg_raw_scan_free(&s);
}

/* A run killed in the middle of writing its last measurement. */
static void test_cut(void) {
    char text[1024];
    snprintf(text, sizeof text, "%sMPI_Gather default 0 8 0.1\nMPI_Gather default 1 8 0.", whole);
    mg_raw_scan s;
    char err[600];
    CHECK(mg_raw_scan_text(text, strlen(text), "f", &s, err, sizeof err) == 0, "%s", err);
    CHECK(s.nmeas == 3 && !mg_raw_done(&s, "MPI_Gather", "default", 8, 0), "unfinished dropped");
    CHECK(s.keep == strlen(whole) && s.dropped == 2, "keep %zu of %zu, dropped %lld", s.keep,
          strlen(text), (long long)s.dropped);
    mg_raw_scan_free(&s);
    /* a header cut in the middle: nothing to keep beyond the complete lines */
    const char *h = "#@nprocs=4\n#@procs";
    CHECK(mg_raw_scan_text(h, strlen(h), "f", &s, err, sizeof err) == 0 && s.keep == 11 &&
              s.nmeas == 0,
          "cut header: keep %zu", s.keep);
    mg_raw_scan_free(&s);
    CHECK(mg_raw_scan_text("", 0, "f", &s, err, sizeof err) == 0 && s.keep == 0 && s.nkeys == 0,
          "empty file");
    mg_raw_scan_free(&s);
}

/* --comm-sizes: the same (test, alg, msize) in two sections are two measurements; a measurement
 * cut short is dropped together with the section line written with it. */
static void test_sections(void) {
    const char *head = "#@nprocs=4\n"
                       "#@comm_size=4\nMPI_Bcast default 0 8 0.1\nMPI_Bcast default 1 8 0.1\n"
                       "#@comm_size=2\nMPI_Bcast default 0 8 0.2\n";
    char text[1024];
    snprintf(text, sizeof text, "%s#@comm_size=4\nMPI_Bcast default 0 64 0.1\nMPI_Bcast de", head);
    mg_raw_scan s;
    char err[600];
    CHECK(mg_raw_scan_text(text, strlen(text), "f", &s, err, sizeof err) == 0, "%s", err);
    CHECK(s.nmeas == 2 && mg_raw_done(&s, "MPI_Bcast", "default", 8, 4) &&
              mg_raw_done(&s, "MPI_Bcast", "default", 8, 2) &&
              !mg_raw_done(&s, "MPI_Bcast", "default", 8, 0) &&
              !mg_raw_done(&s, "MPI_Bcast", "default", 64, 4),
          "sections: %d measurements", s.nmeas);
    CHECK(s.keep == strlen(head) && s.nkeys == 1, "cut with its section line: keep %zu of %zu",
          s.keep, strlen(head));
    mg_raw_scan_free(&s);
    const char *bad = "#@comm_size=0\n";
    CHECK(mg_raw_scan_text(bad, strlen(bad), "f", &s, err, sizeof err) == 2 &&
              strstr(err, "f:1: bad #@comm_size"),
          "bad section: %s", err);
}

static void test_bad(void) {
    static const struct {
        const char *text, *err;
    } bad[] = {
        {"MPI_Bcast default 1 8 0.1\n", "f:1: observation 1 of MPI_Bcast default 8 does not"},
        {"MPI_Bcast default 0 8 0.1\nMPI_Bcast default 2 8 0.1\n", "f:2: observation 2"},
        {"MPI_Bcast default 0 8\n", "f:1: expected `test alg nrep msize runtime_sec [flag]`"},
        {"#@a=1\nMPI_Bcast default 0 8 0.1 0 9\n", "f:2: expected"},
        {"MPI_Bcast default x 8 0.1\n", "f:1: expected"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mg_raw_scan s;
        char err[600];
        int rc = mg_raw_scan_text(bad[i].text, strlen(bad[i].text), "f", &s, err, sizeof err);
        CHECK(rc == 2 && !strncmp(err, bad[i].err, strlen(bad[i].err)), "'%s': rc %d '%s'",
              bad[i].text, rc, err);
    }
}

int main(void) {
    test_whole();
    test_cut();
    test_sections();
    test_bad();
    return DONE();
}
