/* The record format (src/record/): render and parse back, the parser's errors with FILE:LINE
 * (truncated, foreign, other version, inconsistent rows), buckets, coverage and the top
 * uncovered sizes. */
#include "record/record.h"
#include "catalog/catalog.h"
#include "check.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void sample(mg_record *r) {
    memset(r, 0, sizeof *r);
    snprintf(r->mpi_library, sizeof r->mpi_library, "Open MPI v4.1.4, package: Debian");
    snprintf(r->hostname, sizeof r->hostname, "node1");
    snprintf(r->date, sizeof r->date, "2026-01-02T03:04:05Z");
    snprintf(r->mpiguide_version, sizeof r->mpiguide_version, "0.1.0");
    snprintf(r->command, sizeof r->command, "./app -x\t1"); /* a tab becomes `?` */
    snprintf(r->mode, sizeof r->mode, "tuned");
    snprintf(r->profiles, sizeof r->profiles, "/tmp/p");
    snprintf(r->match, sizeof r->match, "exact");
    r->nprocs = 4, r->nodes = 1, r->ppn = 4, r->wall_s = 1.5, r->lost_calls = 2;
    mg_rec_row *w = mg_record_add_row(r);
    w->coll = mg_coll_lookup("MPI_Allreduce");
    w->p = 4, w->nodes = 1, w->ppn = 4, w->esize = 8;
    snprintf(w->datatype, sizeof w->datatype, "MPI_DOUBLE");
    snprintf(w->op, sizeof w->op, "MPI_SUM");
    mg_rec_bucket(24, &w->lo, &w->hi);
    w->calls = 30, w->time_s = 0.003, w->median_s = 1e-4, w->covered = 20, w->covered_s = 0.001;
    w->mockup = 20, w->other_type = 0, w->b2b = 29;
    w->nsizes = 2;
    w->sizes[0] = (mg_rec_size){24, 20, 0.001, 20, 0.001};
    w->sizes[1] = (mg_rec_size){16, 10, 0.002, 0, 0};
    w = mg_record_add_row(r);
    w->coll = mg_coll_lookup("MPI_Bcast");
    w->p = 2, w->nodes = 1, w->ppn = 2, w->esize = 1, w->rooted = 1;
    snprintf(w->datatype, sizeof w->datatype, "MPI_BYTE");
    snprintf(w->op, sizeof w->op, "-");
    mg_rec_bucket(3000, &w->lo, &w->hi);
    w->calls = 8, w->time_s = 0.004, w->median_s = 5e-4, w->sizes_other = 8;
    w->nroots = 2, w->roots[0] = (mg_rec_root){0, 4}, w->roots[1] = (mg_rec_root){1, 4};
    w->rotations = 7;
    w = mg_record_add_row(r);
    w->coll = mg_coll_lookup("MPI_Gatherv");
    w->p = 4, w->rooted = 1, w->vrow = 1, w->esize = 4;
    snprintf(w->datatype, sizeof w->datatype, "MPI_INT");
    snprintf(w->op, sizeof w->op, "-");
    w->calls = 1, w->time_s = 1e-5, w->median_s = 1e-5, w->covered = 1, w->covered_s = 1e-5;
    /* a sizeless row: bucket 0-0, its sizes the totals the root saw */
    w->nsizes = 1, w->sizes[0] = (mg_rec_size){4000, 1, 1e-5, 1, 1e-5};
    w->nroots = 1, w->roots[0] = (mg_rec_root){3, 1};
    w->block = 2000, w->spread[MG_PROBLEM_SPIKES] = 1;
}

static void round_trip(void) {
    mg_record r, back;
    sample(&r);
    char *text = mg_record_render(&r);
    CHECK(text != NULL, "render");
    if (!text) return;
    char err[600];
    int rc = mg_record_parse(text, strlen(text), "rt", &back, err, sizeof err);
    CHECK(rc == 0, "parse back: %s\n%s", err, text);
    if (!rc) {
        CHECK(back.nrows == 3 && back.nprocs == 4 && back.lost_calls == 2 && back.wall_s == 1.5,
              "header values");
        CHECK(!strcmp(back.command, "./app -x?1"), "command sanitised: %s", back.command);
        CHECK(!strcmp(back.mode, "tuned") && !strcmp(back.profiles, "/tmp/p"), "mode, profiles");
        for (int i = 0; i < 3; i++) {
            const mg_rec_row *a = &r.rows[i], *b = &back.rows[i];
            CHECK(a->coll == b->coll && a->p == b->p && a->lo == b->lo && a->hi == b->hi &&
                      a->calls == b->calls && a->time_s == b->time_s && a->covered == b->covered &&
                      a->nsizes == b->nsizes && a->nroots == b->nroots && a->rooted == b->rooted &&
                      a->rotations == b->rotations && !strcmp(a->datatype, b->datatype) &&
                      !strcmp(a->op, b->op) && a->vrow == b->vrow && a->block == b->block &&
                      !memcmp(a->spread, b->spread, sizeof a->spread),
                  "row %d differs after the round trip", i);
            for (int k = 0; k < a->nsizes; k++)
                CHECK(a->sizes[k].msize == b->sizes[k].msize &&
                          a->sizes[k].time_s == b->sizes[k].time_s,
                      "row %d size %d", i, k);
        }
        mg_record_free(&back);
    }
    CHECK(strstr(text, "# coverage: 53.8 % of 39 calls") != NULL, "summary line:\n%s", text);
    /* every prefix that drops a line or cuts one is an error, never a partial record */
    size_t n = strlen(text);
    for (size_t cut = 0; cut < n; cut++) {
        rc = mg_record_parse(text, cut, "cut", &back, err, sizeof err);
        CHECK(rc == 2 && !strncmp(err, "cut:", 4), "prefix of %zu bytes accepted (%s)", cut, err);
        if (!rc) mg_record_free(&back);
    }
    free(text);
    mg_record_free(&r);
}

/* One bad input per case: the message must name the line and say what is wrong. */
static void errors(void) {
    mg_record r;
    sample(&r);
    char *good = mg_record_render(&r);
    mg_record_free(&r);
    const char *row = "MPI_Allreduce p=4 nodes=1 ppn=4 datatype=MPI_DOUBLE esize=8 op=MPI_SUM "
                      "bytes=16-31 calls=3 time_s=1 median_s=0.1 covered=0 covered_s=0 mockup=0 "
                      "other_type=0 b2b=0 sizes=24:3:1:0:0 sizes_other=0\n";
    char head[] = "#@record_version=2\n#@nprocs=4\n";
    struct {
        const char *what, *text, *expect;
    } cases[] = {
        {"empty", "", "f:1: not an mpiguide record"},
        {"foreign raw data", "#@nprocs=4\nMPI_Bcast default 0 8 0.1\n",
         "f:1: not an mpiguide record"},
        {"foreign text", "hello world\n", "f:1: not an mpiguide record"},
        {"newer version", "#@record_version=3\n", "f:1: record version 3 is not supported"},
        {"older version", "#@record_version=1\n", "f:1: record version 1 is not supported"},
        {"no end", "#@record_version=2\n#@nprocs=4\n", "f:2: truncated: no #@end line"},
        {"cut line", "#@record_version=2\n#@nprocs=4\nMPI_Bcast p=4", "f:3: truncated"},
        {"end count", "#@record_version=2\n#@nprocs=4\n#@end=1\n", "f:3: #@end says 1 rows"},
        {"after end", "#@record_version=2\n#@nprocs=4\n#@end=0\nMPI_Bcast\n", "f:4: content after"},
        {"unknown header", "#@record_version=2\n#@colour=red\n", "f:2: unknown key `#@colour`"},
        {"unknown coll", "#@record_version=2\n#@nprocs=4\nMPI_Frobnicate p=2\n",
         "f:3: `MPI_Frobnicate` is not an intercepted"},
        {"missing key", "#@record_version=1\n#@nprocs=4\nMPI_Barrier p=2\n",
         "version 1 is not supported"},
        {"barrier short", "#@record_version=2\n#@nprocs=4\nMPI_Barrier p=2\n",
         "f:3: missing nodes="},
        {"gatherv without block",
         "#@record_version=2\n#@nprocs=4\nMPI_Gatherv p=4 nodes=1 ppn=4 datatype=MPI_INT esize=4 "
         "op=- bytes=0-0 calls=3 time_s=1 median_s=0.1 covered=0 covered_s=0 mockup=0 "
         "other_type=0 b2b=0 sizes=400:3:1:0:0 sizes_other=0 roots=0:3 roots_other=0 "
         "rotations=0\n#@end=1\n",
         "f:3: block, spread: missing for MPI_Gatherv"},
        {"gatherv bucket",
         "#@record_version=2\n#@nprocs=4\nMPI_Gatherv p=4 nodes=1 ppn=4 datatype=MPI_INT esize=4 "
         "op=- bytes=256-511 calls=3 time_s=1 median_s=0.1 covered=0 covered_s=0 mockup=0 "
         "other_type=0 b2b=0 sizes=400:3:1:0:0 sizes_other=0 block=100 spread=same:3 roots=0:3 "
         "roots_other=0 rotations=0\n#@end=1\n",
         "f:3: bytes: MPI_Gatherv is recorded under 0-0"},
        {"bad spread",
         "#@record_version=2\n#@nprocs=4\nMPI_Gatherv p=4 nodes=1 ppn=4 datatype=MPI_INT esize=4 "
         "op=- bytes=0-0 calls=3 time_s=1 median_s=0.1 covered=0 covered_s=0 mockup=0 "
         "other_type=0 b2b=0 sizes=400:3:1:0:0 sizes_other=0 block=100 spread=zigzag:3 "
         "roots=0:3 roots_other=0 rotations=0\n#@end=1\n",
         "f:3: spread: item 1 is not TYPE:CALLS"},
        {"spread above calls",
         "#@record_version=2\n#@nprocs=4\nMPI_Gatherv p=4 nodes=1 ppn=4 datatype=MPI_INT esize=4 "
         "op=- bytes=0-0 calls=3 time_s=1 median_s=0.1 covered=0 covered_s=0 mockup=0 "
         "other_type=0 b2b=0 sizes=400:3:1:0:0 sizes_other=0 block=100 spread=same:2,spikes:4 "
         "roots=0:3 roots_other=0 rotations=0\n#@end=1\n",
         "f:3: spread: more calls than the row's"},
        {"barrier datatype",
         "#@record_version=2\n#@nprocs=4\nMPI_Barrier p=4 nodes=1 ppn=4 datatype=MPI_INT esize=4 "
         "op=- bytes=0-0 calls=3 time_s=1 median_s=0.1 covered=0 covered_s=0 mockup=0 "
         "other_type=0 b2b=0 sizes=0:3:1:0:0 sizes_other=0\n#@end=1\n",
         "f:3: datatype: MPI_Barrier takes `-` and esize=0"},
        {"short row", "#@record_version=2\n#@nprocs=4\nMPI_Allreduce p=4\n", "f:3: missing nodes="},
        {"bad bucket",
         "#@record_version=2\n#@nprocs=4\nMPI_Allreduce p=4 nodes=1 ppn=4 datatype=MPI_INT "
         "esize=4 op=MPI_SUM bytes=16-30\n",
         "f:3: bytes: expected a bucket"},
        {"unknown op",
         "#@record_version=2\n#@nprocs=4\nMPI_Allreduce p=4 nodes=1 ppn=4 datatype=MPI_INT "
         "esize=4 op=MPI_FOO\n",
         "f:3: op: bad value `MPI_FOO`"},
        {"p above nprocs",
         "#@record_version=2\n#@nprocs=2\nMPI_Allreduce p=4 nodes=1 ppn=4 datatype=MPI_DOUBLE "
         "esize=8 op=MPI_SUM bytes=16-31 calls=3 time_s=1 median_s=0.1 covered=0 covered_s=0 "
         "mockup=0 other_type=0 b2b=0 sizes=24:3:1:0:0 sizes_other=0\n#@end=1\n",
         "f:3: p=4 is more than the 2 processes"},
    };
    char err[600];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mg_record out;
        int rc = mg_record_parse(cases[i].text, strlen(cases[i].text), "f", &out, err, sizeof err);
        CHECK(rc == 2 && strstr(err, cases[i].expect), "case `%s`: rc %d, message `%s`, want `%s`",
              cases[i].what, rc, rc ? err : "", cases[i].expect);
        if (!rc) mg_record_free(&out);
    }
    /* row-level inconsistencies after a valid header */
    struct {
        const char *what, *from, *to, *expect;
    } edits[] = {
        {"size outside bucket", "sizes=24:3", "sizes=40:3", "f:3: sizes: 40 is not a size"},
        {"covered above calls", "covered=0 ", "covered=9 ", "f:3: covered, mockup"},
        {"op on a bcast", "MPI_Allreduce", "MPI_Bcast", "f:3: op: an op for MPI_Bcast"},
        {"duplicate key", "b2b=0", "b2b=0 b2b=0", "f:3: b2b given twice"},
        {"unknown key", "b2b=0", "b2b=0 colour=red", "f:3: unknown key `colour`"},
        {"negative time", "time_s=1", "time_s=-1", "f:3: time_s: bad value"},
        {"nan time", "time_s=1", "time_s=nan", "f:3: time_s: bad value"},
        {"roots on allreduce", "sizes_other=0", "sizes_other=0 roots=0:3 roots_other=0 rotations=0",
         "f:3: roots: given for MPI_Allreduce"},
        {"block on allreduce", "sizes_other=0", "sizes_other=0 block=8 spread=-",
         "f:3: block, spread: given for MPI_Allreduce"},
        {"block alone", "sizes_other=0", "sizes_other=0 block=8",
         "f:3: block and spread go together"},
        {"completed on allreduce", "sizes_other=0", "sizes_other=0 completed=1",
         "f:3: completed: given for MPI_Allreduce"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        char text[2000], body[1200];
        const char *at = strstr(row, edits[i].from);
        snprintf(body, sizeof body, "%.*s%s%s", (int)(at - row), row, edits[i].to,
                 at + strlen(edits[i].from));
        snprintf(text, sizeof text, "%s%s#@end=1\n", head, body);
        mg_record out;
        int rc = mg_record_parse(text, strlen(text), "f", &out, err, sizeof err);
        CHECK(rc == 2 && strstr(err, edits[i].expect), "edit `%s`: rc %d, `%s`, want `%s`",
              edits[i].what, rc, rc ? err : "", edits[i].expect);
        if (!rc) mg_record_free(&out);
    }
    /* the same row twice */
    char twice[3000];
    snprintf(twice, sizeof twice, "%s%s%s#@end=2\n", head, row, row);
    mg_record out;
    int rc = mg_record_parse(twice, strlen(twice), "f", &out, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "f:4: a second row for the key of line 3"), "duplicate row: %s",
          err);
    /* the valid row itself parses */
    snprintf(twice, sizeof twice, "%s%s#@end=1\n", head, row);
    rc = mg_record_parse(twice, strlen(twice), "f", &out, err, sizeof err);
    CHECK(rc == 0, "valid row: %s", err);
    if (!rc) mg_record_free(&out);
    /* CRLF line ends are read like LF */
    char crlf[6000];
    size_t k = 0;
    for (const char *q = good; *q && k + 2 < sizeof crlf; q++) {
        if (*q == '\n') crlf[k++] = '\r';
        crlf[k++] = *q;
    }
    crlf[k] = 0;
    rc = mg_record_parse(crlf, k, "f", &out, err, sizeof err);
    CHECK(rc == 0, "CRLF record: %s", err);
    if (!rc) mg_record_free(&out);
    free(good);
}

static void buckets_and_coverage(void) {
    struct {
        int64_t m, lo, hi;
    } b[] = {{0, 0, 0},
             {1, 1, 1},
             {2, 2, 3},
             {3, 2, 3},
             {24, 16, 31},
             {3000, 2048, 4095},
             {204800, 131072, 262143},
             {INT64_MAX, (int64_t)1 << 62, INT64_MAX}};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        int64_t lo, hi;
        mg_rec_bucket(b[i].m, &lo, &hi);
        CHECK(lo == b[i].lo && hi == b[i].hi, "bucket of %lld: %lld-%lld", (long long)b[i].m,
              (long long)lo, (long long)hi);
    }
    mg_record r;
    sample(&r);
    mg_rec_cover c;
    mg_rec_coverage(&r, -1, 0, &c);
    CHECK(c.calls == 39 && c.covered == 21 && c.mockup == 20, "totals %llu %llu",
          (unsigned long long)c.calls, (unsigned long long)c.covered);
    mg_rec_coverage(&r, mg_coll_lookup("MPI_Allreduce"), 4, &c);
    CHECK(c.calls == 30 && c.covered == 20 && fabs(c.covered_s - 0.001) < 1e-12, "per (coll, p)");
    mg_rec_coverage(&r, mg_coll_lookup("MPI_Allreduce"), 2, &c);
    CHECK(c.calls == 0, "no row for p=2");
    mg_rec_gap g[5];
    int n = mg_rec_top_uncovered(&r, g, 5);
    /* Bcast's unlisted sizes (4 ms) before Allreduce 16 bytes (2 ms) */
    CHECK(n == 2, "two gaps, got %d", n);
    if (n == 2) {
        CHECK(g[0].coll == mg_coll_lookup("MPI_Bcast") && g[0].msize == -1 && g[0].calls == 8 &&
                  g[0].lo == 2048,
              "first gap: Bcast other sizes, got coll %d msize %lld", g[0].coll,
              (long long)g[0].msize);
        CHECK(g[1].msize == 16 && g[1].calls == 10 && fabs(g[1].time_s - 0.002) < 1e-12,
              "second gap: Allreduce 16 bytes");
    }
    n = mg_rec_top_uncovered(&r, g, 1);
    CHECK(n == 1 && g[0].msize == -1, "top 1 keeps the largest");
    mg_record_free(&r);
}

int main(void) {
    round_trip();
    errors();
    buckets_and_coverage();
    return DONE();
}
