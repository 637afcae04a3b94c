/* Profile parser and loader: every accepted form and every rejected one (with the line and
 * the words of the message), the original's example profile, the name tables against the
 * registry, and directory loading with duplicates and bad files. */
#include "check.h"
#include "dispatch/registry.h"
#include "catalog/catalog.h"
#include "profile/profile.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The example of the tuning-library paper / docs/dev/reference.md (MPI_Allgather, p = 4). */
static const char *example = "MPI_Allgather        # collective name\n"
                             "4                    # number of processes\n"
                             "3                    # number of mock-ups\n"
                             "1 allgather_as_allreduce\n"
                             "2 allgather_as_alltoall\n"
                             "3 allgather_as_gather_bcast\n"
                             "4                    # number of ranges\n"
                             "16 16 1              # byte_range_start byte_range_end alg_id\n"
                             "32 32 2\n"
                             "64 128 1\n"
                             "1024 2048 3\n";

typedef struct bad_case {
    const char *name, *text;
    int line;         /* expected line of the error */
    const char *word; /* expected in the message */
} bad_case;

#define HEAD "MPI_Allgather\n4\n1\n1 allgather_as_alltoall\n"

static const bad_case bad[] = {
    {"empty", "", 0, "empty profile"},
    {"measured descending", "#@measured=8,4\nMPI_Allgather\n4\n0\n0\n", 1, "#@measured: expected"},
    {"measured empty item", "#@measured=8,,16\nMPI_Allgather\n4\n0\n0\n", 1,
     "#@measured: expected"},
    {"measured trailing comma", "#@measured=8,\nMPI_Allgather\n4\n0\n0\n", 1,
     "#@measured: expected"},
    {"measured text", "#@measured=8,x\nMPI_Allgather\n4\n0\n0\n", 1, "#@measured: expected"},
    {"measured twice", "#@measured=8\n#@measured=16\nMPI_Allgather\n4\n0\n0\n", 2,
     "#@measured: repeated"},
    {"only comments", "# nothing\n\n   # here\n", 3, "empty profile"},
    {"unknown collective", "MPI_Allgatherx\n4\n0\n0\n", 1, "unknown collective"},
    {"barrier range", "MPI_Barrier\n4\n1\n0 default\n1\n0 0 0\n", 6, "its one range must be"},
    {"two names", "MPI_Allgather MPI_Bcast\n4\n0\n0\n", 1, "collective name"},
    {"p zero", "MPI_Allgather\n0\n0\n0\n", 2, "number of processes"},
    {"p negative", "MPI_Allgather\n-4\n0\n0\n", 2, "number of processes"},
    {"p text", "MPI_Allgather\nfour\n0\n0\n", 2, "number of processes"},
    {"p overflow", "MPI_Allgather\n99999999999\n0\n0\n", 2, "number of processes"},
    {"nalg text", "MPI_Allgather\n4\nx\n0\n", 3, "number of mock-ups"},
    {"nalg huge", "MPI_Allgather\n4\n5000\n", 3, "number of mock-ups"},
    {"unknown algorithm", "MPI_Allgather\n4\n1\n1 allgather_as_nothing\n1\n1 1 1\n", 4,
     "unknown algorithm"},
    {"algorithm of other collective", "MPI_Allgather\n4\n1\n1 allreduce_as_reduce_bcast\n0\n", 4,
     "unknown algorithm"},
    {"alg line one field", "MPI_Allgather\n4\n2\n1 allgather_as_alltoall\n2\n0\n", 5,
     "id algorithm"},
    {"alg id text", "MPI_Allgather\n4\n1\nx allgather_as_alltoall\n0\n", 4, "id algorithm"},
    {"duplicate id", "MPI_Allgather\n4\n2\n1 allgather_as_alltoall\n1 allgather_as_allreduce\n0\n",
     5, "declared twice"},
    {"truncated algs", "MPI_Allgather\n4\n3\n1 allgather_as_alltoall\n", 4, "1 of 3 mock-up"},
    {"truncated after p", "MPI_Allgather\n4\n", 2, "number of mock-ups is missing"},
    {"truncated after name", "MPI_Allgather\n", 1, "number of processes is missing"},
    {"nrange missing", HEAD, 4, "number of ranges is missing"},
    {"nrange text", HEAD "many\n", 5, "number of ranges"},
    {"truncated ranges", HEAD "3\n1 1 1\n2 2 1\n", 7, "2 of 3 range"},
    {"range two fields", HEAD "1\n1 1\n", 6, "start end id"},
    {"range four fields", HEAD "1\n1 1 1 1\n", 6, "start end id"},
    {"range negative", HEAD "1\n-1 5 1\n", 6, "byte counts"},
    {"range text", HEAD "1\n1 x 1\n", 6, "byte counts"},
    {"range overflow", HEAD "1\n1 9223372036854775808 1\n", 6, "byte counts"},
    {"start > end", HEAD "1\n9 3 1\n", 6, "start 9 > end 3"},
    {"undeclared id", HEAD "1\n1 1 2\n", 6, "undeclared algorithm id 2"},
    {"bad id", HEAD "1\n1 1 x\n", 6, "bad algorithm id"},
    {"overlap", HEAD "2\n10 20 1\n20 30 1\n", 7, "overlaps"},
    {"overlap unsorted", HEAD "2\n20 30 1\n1 25 1\n", 7, "overlaps"},
    {"contained", HEAD "3\n1 100 1\n200 300 1\n5 6 1\n", 8, "overlaps"},
    {"extra line", HEAD "1\n1 1 1\n2 2 1\n", 7, "after the 1 declared"},
    {"extra after zero ranges", HEAD "0\n1 1 1\n", 6, "after the 0 declared"},
    {"gatherv range", "MPI_Gatherv\n4\n1\n1 default\n1\n0 100 1\n", 6, "communicator size only"},
    {"gatherv two ranges", "MPI_Scatterv\n4\n1\n1 default\n2\n0 10 1\n11 9223372036854775807 1\n",
     6, "communicator size only"},
    {"nul byte", "MPI_Allgather\n4\0\n", 2, "NUL"},
    {"bad nodes", "#@nodes=two\n" HEAD "0\n", 1, "#@nodes"},
    {"validated short", "#@validated=32 allgather_as_alltoall speedup=1.2\n" HEAD "1\n32 32 1\n", 1,
     "#@validated: expected"},
    {"validated unknown key",
     "#@validated=32 allgather_as_alltoall speedup=1.2 min_speedup=1.1 launches=2 q=0.1\n" HEAD
     "1\n32 32 1\n",
     1, "unknown or repeated `q=0.1`"},
    {"validated repeated key",
     "#@validated=32 allgather_as_alltoall speedup=1.2 speedup=1.1 launches=2 p=0.1\n" HEAD
     "1\n32 32 1\n",
     1, "unknown or repeated"},
    {"validated bad p",
     "#@validated=32 allgather_as_alltoall speedup=1.2 min_speedup=1.1 launches=2 p=2\n" HEAD
     "1\n32 32 1\n",
     1, "bad value in `p=2`"},
    {"validated zero launches",
     "#@validated=32 allgather_as_alltoall speedup=1.2 min_speedup=1.1 launches=0 p=0.01\n" HEAD
     "1\n32 32 1\n",
     1, "bad value in `launches=0`"},
    {"validated negative size",
     "#@validated=-32 allgather_as_alltoall speedup=1.2 min_speedup=1.1 launches=2 p=0.01\n" HEAD
     "1\n32 32 1\n",
     1, "#@validated: expected"},
    {"validated unknown alg",
     "#@validated=32 allgather_as_nothing speedup=1.2 min_speedup=1.1 launches=2 p=0.01\n" HEAD
     "1\n32 32 1\n",
     1, "unknown algorithm `allgather_as_nothing`"},
    {"validated not selected",
     "#@validated=64 allgather_as_alltoall speedup=1.2 min_speedup=1.1 launches=2 p=0.01\n" HEAD
     "1\n32 32 1\n",
     1, "selects the default at 64, not allgather_as_alltoall"},
    {"validated other alg",
     "#@validated=32 allgather_as_allreduce speedup=1.2 min_speedup=1.1 launches=2 p=0.01\n" HEAD
     "1\n32 32 1\n",
     1, "selects allgather_as_alltoall at 32, not allgather_as_allreduce"},
    {"zero ppn", "#@ppn=0\n" HEAD "0\n", 1, "#@ppn"},
    {"online short", "#@online=32 allgather_as_alltoall calls=5\n" HEAD "1\n32 32 1\n", 1,
     "#@online: expected"},
    {"online winner without speed-up",
     "#@online=32 allgather_as_alltoall calls=5 explored=2 cost_s=0 candidates=3\n" HEAD
     "1\n32 32 1\n",
     1, "required for a winner"},
    {"online default with speed-up",
     "#@online=32 default calls=5 explored=2 cost_s=0 candidates=3 speedup=1.2 ci95=1..2\n"
     "MPI_Allgather\n4\n1\n1 default\n1\n32 32 1\n",
     1, "only for a winner"},
    {"online unknown key",
     "#@online=32 allgather_as_alltoall calls=5 explored=2 cost_s=0 candidates=3 gain=2 "
     "ci95=1..2\n" HEAD "1\n32 32 1\n",
     1, "unknown or repeated `gain=2`"},
    {"online bad interval",
     "#@online=32 allgather_as_alltoall calls=5 explored=2 cost_s=0 candidates=3 speedup=1.5 "
     "ci95=2..1\n" HEAD "1\n32 32 1\n",
     1, "bad value in `ci95=2..1`"},
    {"online zero calls",
     "#@online=32 default calls=0 explored=0 cost_s=0 candidates=3\n"
     "MPI_Allgather\n4\n1\n1 default\n1\n32 32 1\n",
     1, "bad value in `calls=0`"},
    {"online more explored than calls",
     "#@online=32 default calls=5 explored=6 cost_s=0 candidates=3\n"
     "MPI_Allgather\n4\n1\n1 default\n1\n32 32 1\n",
     1, "explored=6 exceeds calls=5"},
    {"online not selected",
     "#@online=64 allgather_as_alltoall calls=5 explored=2 cost_s=0 candidates=3 speedup=1.5 "
     "ci95=1.1..2\n" HEAD "1\n32 32 1\n",
     1, "selects nothing (the default) at 64, not allgather_as_alltoall"},
    {"online default not explicit",
     "#@online=64 default calls=5 explored=2 cost_s=0 candidates=3\n" HEAD "1\n32 32 1\n", 1,
     "selects nothing (the default) at 64, not default"},
};

typedef struct good_case {
    const char *name, *text;
    int coll, p, nranges;
} good_case;

static const good_case good[] = {
    {"no ranges", "MPI_Bcast\n8\n0\n0\n", MPIGUIDE_COLL_BCAST, 8, 0},
    {"short name", "allreduce\n2\n1\n7 allreduce_as_reduce_bcast\n1\n0 100 7\n",
     MPIGUIDE_COLL_ALLREDUCE, 2, 1},
    {"crlf and tabs", "MPI_Scatter\r\n1024\r\n1\r\n2\tscatter_as_bcast\r\n1\r\n1\t1\t2\r\n",
     MPIGUIDE_COLL_SCATTER, 1024, 1},
    {"default listed", "MPI_Reduce\n3\n1\n1 default\n1\n0 10 1\n", MPIGUIDE_COLL_REDUCE, 3, 1},
    {"gatherv all sizes", "MPI_Gatherv\n16\n1\n1 default\n1\n0 9223372036854775807 1\n",
     MPIGUIDE_COLL_GATHERV, 16, 1},
    {"no final newline", "MPI_Alltoall\n2\n1\n1 alltoall_as_alltoallv\n1\n5 5 1",
     MPIGUIDE_COLL_ALLTOALL, 2, 1},
    {"max range", HEAD "1\n0 9223372036854775807 1\n", MPIGUIDE_COLL_ALLGATHER, 4, 1},
};

static void test_example(void) {
    mg_profile p;
    mg_perr err;
    int rc = mg_profile_parse(example, strlen(example), &p, &err);
    CHECK(rc == 0, "example profile: %d: %s", err.line, err.what);
    if (rc) return;
    CHECK(p.coll == MPIGUIDE_COLL_ALLGATHER && p.p == 4 && p.nranges == 4, "example header");
    int ar = mpiguide_algorithm_id(MPIGUIDE_COLL_ALLGATHER, "allgather_as_allreduce");
    int aa = mpiguide_algorithm_id(MPIGUIDE_COLL_ALLGATHER, "allgather_as_alltoall");
    int gb = mpiguide_algorithm_id(MPIGUIDE_COLL_ALLGATHER, "allgather_as_gather_bcast");
    struct {
        int64_t msize;
        int alg;
    } sel[] = {{0, -1},    {15, -1},   {16, ar},   {17, -1},   {32, aa},     {33, -1},
               {63, -1},   {64, ar},   {100, ar},  {128, ar},  {129, -1},    {1023, -1},
               {1024, gb}, {1500, gb}, {2048, gb}, {2049, -1}, {1 << 30, -1}};
    for (size_t i = 0; i < sizeof sel / sizeof sel[0]; i++)
        CHECK(mg_profile_select_linear(&p, sel[i].msize) == sel[i].alg,
              "example selects alg %d for msize %lld", sel[i].alg, (long long)sel[i].msize);
    mg_profile_free(&p);
}

static void test_provenance(void) {
    const char *t = "#@mpi_library=Open MPI v4.1.4\n#@nodes=2\n#@ppn=16\n#@datatype=MPI_CHAR\n"
                    "#@operation=MPI_BOR\n#@date=2024-01-01\n#@future_key=ignored\n" HEAD "0\n";
    mg_profile p;
    mg_perr err;
    CHECK(mg_profile_parse(t, strlen(t), &p, &err) == 0, "provenance: %s", err.what);
    CHECK(!strcmp(p.mpi_library, "Open MPI v4.1.4") && p.nodes == 2 && p.ppn == 16,
          "provenance values: %s %d %d", p.mpi_library, p.nodes, p.ppn);
    CHECK(!strcmp(p.datatype, "MPI_CHAR") && !strcmp(p.operation, "MPI_BOR") &&
              !strcmp(p.date, "2024-01-01"),
          "provenance strings");
    mg_profile_free(&p);
}

/* `#@validated=` lines are kept, in file order, with every value. */
static void test_validated(void) {
    const char *t = "#@validated=32 allgather_as_alltoall speedup=1.25 min_speedup=1.2 launches=2 "
                    "p=0.0031\n" HEAD "2\n32 64 1\n1024 1024 1\n"
                    "#@validated=1024 allgather_as_alltoall p=1e-05 launches=3 speedup=2 "
                    "min_speedup=1.5\n";
    mg_profile p;
    mg_perr err;
    CHECK(mg_profile_parse(t, strlen(t), &p, &err) == 0, "validated: %d: %s", err.line, err.what);
    CHECK(p.nvalid == 2, "validated lines: %d", p.nvalid);
    if (p.nvalid == 2) {
        CHECK(p.valid[0].msize == 32 && !strcmp(p.valid[0].alg, "allgather_as_alltoall") &&
                  p.valid[0].speedup == 1.25 && p.valid[0].min_speedup == 1.2 &&
                  p.valid[0].launches == 2 && p.valid[0].p == 0.0031 && p.valid[0].line == 1,
              "first validated line");
        CHECK(p.valid[1].msize == 1024 && p.valid[1].speedup == 2 && p.valid[1].launches == 3 &&
                  p.valid[1].p == 1e-5 && p.valid[1].line == 9,
              "second validated line (keys in another order)");
    }
    mg_profile_free(&p);
}

/* #@measured: the sizes the check measured (profile check --record reads them). */
static void test_measured(void) {
    const char *t = "#@measured=16,32,4096\n" HEAD "1\n16 64 1\n";
    mg_profile p;
    mg_perr err;
    CHECK(mg_profile_parse(t, strlen(t), &p, &err) == 0, "measured: %d: %s", err.line, err.what);
    CHECK(p.nmeasured == 3 && p.measured[0] == 16 && p.measured[2] == 4096, "measured sizes: %d",
          p.nmeasured);
    mg_profile_free(&p);
}

/* `#@online=` lines are kept, in file order, with every value (NaN speed-up for the default). */
static void test_online_lines(void) {
    const char *t = "#@online=32 allgather_as_alltoall calls=5000 explored=300 cost_s=-0.002 "
                    "candidates=9 speedup=1.5 ci95=1.25..1.75\n"
                    "MPI_Allgather\n4\n2\n1 allgather_as_alltoall\n2 default\n2\n32 63 1\n"
                    "64 127 2\n"
                    "#@online=100 default candidates=9 cost_s=1e-05 explored=40 calls=800\n";
    mg_profile p;
    mg_perr err;
    CHECK(mg_profile_parse(t, strlen(t), &p, &err) == 0, "online: %d: %s", err.line, err.what);
    CHECK(p.nonline == 2, "online lines: %d", p.nonline);
    if (p.nonline == 2) {
        const mg_ponline *a = &p.online[0], *b = &p.online[1];
        CHECK(a->msize == 32 && !strcmp(a->alg, "allgather_as_alltoall") && a->calls == 5000 &&
                  a->explored == 300 && a->cost_s == -0.002 && a->candidates == 9 &&
                  a->speedup == 1.5 && a->ci_lo == 1.25 && a->ci_hi == 1.75 && a->line == 1,
              "first online line");
        CHECK(b->msize == 100 && !strcmp(b->alg, "default") && b->calls == 800 &&
                  b->explored == 40 && isnan(b->speedup) && b->line == 10,
              "second online line (keys in another order)");
    }
    mg_profile_free(&p);
}

/* What online mode learned, rendered and parsed back: the buckets less the ranges kept from the
 * profile the run started from, one `#@online=` line per bucket whose size a range holds. */
static void test_learned(void) {
    const mg_profile_kv prov[] = {
        {"mpi_library", "MPICH 4.0"}, {"datatype", "MPI_DOUBLE"}, {"operation", "MPI_SUM"}};
    const mg_profile_wrange kept[] = {{8, 15, "allreduce_as_reduce_bcast"},
                                      {1100, 1200, "default"}};
    const mg_learned l[] = {
        {1024, 2047, 1024, "allreduce_as_reducescatter_allgatherv", 9000, 320, 0.0012, 10, 1.8, 1.6,
         2.0},
        {16, 31, 16, "default", 4000, 200, 0.0004, 10, NAN, NAN, NAN},
        {1100, 1100, 1100, "allreduce_as_reduce_bcast", 50, 20, 0, 10, 2, 1.5, 3}, /* kept's */
    };
    char *text = mg_profile_learned("MPI_Allreduce", 4, prov, 3, kept, 2, l, 3);
    CHECK(text != NULL, "learned profile not rendered");
    if (!text) return;
    mg_profile p;
    mg_perr err;
    int rc = mg_profile_parse(text, strlen(text), &p, &err);
    CHECK(rc == 0, "learned profile does not parse: line %d: %s\n%s", err.line, err.what, text);
    if (rc == 0) {
        static const struct {
            int64_t lo, hi;
            const char *alg;
        } want[] = {{8, 15, "allreduce_as_reduce_bcast"},
                    {16, 31, "default"},
                    {1024, 1099, "allreduce_as_reducescatter_allgatherv"},
                    {1100, 1200, "default"},
                    {1201, 2047, "allreduce_as_reducescatter_allgatherv"}};
        CHECK(p.nranges == 5, "ranges: %d\n%s", p.nranges, text);
        for (int i = 0; i < 5 && i < p.nranges; i++)
            CHECK(p.ranges[i].lo == want[i].lo && p.ranges[i].hi == want[i].hi &&
                      !strcmp(mg_alg_name(p.ranges[i].alg), want[i].alg),
                  "range %d: %lld-%lld %s", i, (long long)p.ranges[i].lo, (long long)p.ranges[i].hi,
                  mg_alg_name(p.ranges[i].alg));
        CHECK(p.nonline == 2 && p.online[0].msize == 1024 && p.online[0].speedup == 1.8 &&
                  p.online[0].calls == 9000 && p.online[1].msize == 16 &&
                  isnan(p.online[1].speedup),
              "online lines back: %d\n%s", p.nonline, text);
        CHECK(!strcmp(p.datatype, "MPI_DOUBLE") && !strcmp(p.operation, "MPI_SUM"),
              "provenance %s %s", p.datatype, p.operation);
        mg_profile_free(&p);
    }
    free(text);
}

/* The pure tables must be the registry's rows in the registry's order. */
static void test_names(void) {
    CHECK(mg_ncolls == MPIGUIDE_COLL_COUNT, "collective count");
    CHECK(mg_nalg_names <= mpiguide_algorithm_count(), "algorithm count %d vs %d", mg_nalg_names,
          mpiguide_algorithm_count());
    for (int i = mg_nalg_names; i < mpiguide_algorithm_count(); i++)
        CHECK(mg_algs[i].flags & MG_AF_TESTONLY, "registry row %d beyond the names is test-only",
              i);
    for (int i = 0; i < mpiguide_algorithm_count() && i < mg_nalg_names; i++) {
        CHECK(!strcmp(mg_alg_name(i), mpiguide_algorithm_name(i)) &&
                  mg_alg_coll(i) == mpiguide_algorithm_collective(i),
              "algorithm %d: %s vs %s", i, mg_alg_name(i), mpiguide_algorithm_name(i));
        CHECK(!!(mg_alg_flags(i) & MG_AF_REDUCTION) == mpiguide_algorithm_is_reduction(i),
              "reduction flag of %s", mg_alg_name(i));
    }
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        CHECK(!strcmp(mg_coll_name(c), mpiguide_collective_name(c)), "collective %d", c);
        CHECK(mg_coll_flags(c) == mg_coll_flags(c), "flags of %s", mg_coll_name(c));
    }
    CHECK(mg_coll_lookup("mpi_allreduce") == MPIGUIDE_COLL_ALLREDUCE, "case-insensitive");
    CHECK(mg_alg_lookup(MPIGUIDE_COLL_BCAST, "default") == MPIGUIDE_COLL_BCAST, "default id");
}

/* Rendering is the inverse of parsing: ranges, names in order of first use, provenance. */
static void test_render(void) {
    const mg_profile_kv prov[] = {
        {"mpi_library", "Open MPI v4.1.4"},
        {"nodes", "2"},
        {"ppn", ""},
        {"datatype", "MPI_DOUBLE"},
        {"validated",
         "16 allreduce_as_reducescatter_allgatherv speedup=1.5 min_speedup=1.4 launches=2 p=0.001"},
        {"validated",
         "8 allreduce_as_reduce_bcast speedup=1.1 min_speedup=1.06 launches=2 p=0.02"}};
    const mg_profile_wrange r[] = {{8, 8, "allreduce_as_reduce_bcast"},
                                   {16, 1024, "allreduce_as_reducescatter_allgatherv"},
                                   {4096, INT64_MAX, "allreduce_as_reduce_bcast"}};
    char *text =
        mg_profile_render("MPI_Allreduce", 6, prov, 6, "# two lines\n# of comment\n", r, 3);
    CHECK(text != NULL, "render failed");
    if (!text) return;
    mg_profile p;
    mg_perr err;
    int rc = mg_profile_parse(text, strlen(text), &p, &err);
    CHECK(rc == 0, "rendered profile does not parse: line %d: %s\n%s", err.line, err.what, text);
    if (rc == 0) {
        CHECK(p.coll == mg_coll_lookup("MPI_Allreduce") && p.p == 6 && p.nranges == 3,
              "coll %d p %d ranges %d", p.coll, p.p, p.nranges);
        for (int i = 0; i < 3 && i < p.nranges; i++)
            CHECK(p.ranges[i].lo == r[i].lo && p.ranges[i].hi == r[i].hi &&
                      !strcmp(mg_alg_name(p.ranges[i].alg), r[i].alg),
                  "range %d: %lld-%lld %s", i, (long long)p.ranges[i].lo, (long long)p.ranges[i].hi,
                  mg_alg_name(p.ranges[i].alg));
        CHECK(!strcmp(p.mpi_library, "Open MPI v4.1.4") && p.nodes == 2 && p.ppn == 0 &&
                  !strcmp(p.datatype, "MPI_DOUBLE"),
              "provenance %s %d %d %s", p.mpi_library, p.nodes, p.ppn, p.datatype);
        CHECK(p.nvalid == 2 && p.valid[0].msize == 16 && p.valid[0].speedup == 1.5 &&
                  p.valid[1].msize == 8 && p.valid[1].min_speedup == 1.06,
              "validated lines back: %d", p.nvalid);
        mg_profile_free(&p);
    }
    CHECK(
        strstr(text, "\n2\n1 allreduce_as_reduce_bcast\n2 allreduce_as_reducescatter_allgatherv\n"),
        "names not numbered in order of first use:\n%s", text);
    CHECK(!strstr(text, "#@ppn"), "empty provenance value written:\n%s", text);
    free(text);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

typedef struct diag_log {
    int errors, warnings;
    char last[1024];
} diag_log;

static void collect(void *ctx, int error, const char *where, const char *what) {
    diag_log *d = ctx;
    error ? d->errors++ : d->warnings++;
    snprintf(d->last, sizeof d->last, "%s: %s", where, what);
}

static void test_dir(void) {
    char dir[] = "/tmp/mg_test_profile_XXXXXX";
    if (!mkdtemp(dir)) return;
    char path[256];
    snprintf(path, sizeof path, "%s/a_allgather.prf", dir);
    write_file(path, example);
    snprintf(path, sizeof path, "%s/b_bcast.prf", dir);
    write_file(path, "MPI_Bcast\n2\n1\n1 bcast_as_allgatherv\n1\n0 100 1\n");
    /* the same (collective, size) measured with another datatype applies beside it; with the
     * same element size again (MPI_SUM makes no op class for a non-reduction) it is one too many */
    snprintf(path, sizeof path, "%s/ba_typed.prf", dir);
    write_file(path, "#@datatype=MPI_INT\nMPI_Allgather\n4\n0\n0\n");
    snprintf(path, sizeof path, "%s/bb_typed_again.prf", dir);
    write_file(path, "#@datatype=MPI_FLOAT\n#@operation=MPI_SUM\nMPI_Allgather\n4\n0\n0\n");
    snprintf(path, sizeof path, "%s/c_duplicate.prf", dir);
    write_file(path, "MPI_Allgather\n4\n0\n0\n");
    snprintf(path, sizeof path, "%s/d_broken.prf", dir);
    write_file(path, "MPI_Bcast\n2\n1\n1 bcast_as_nothing\n0\n");
    snprintf(path, sizeof path, "%s/.hidden", dir);
    write_file(path, "garbage");
    snprintf(path, sizeof path, "%s/subdir", dir);
    mkdir(path, 0700);
    mg_profile_set set = {0};
    diag_log d = {0};
    int errors = mg_profiles_load(dir, &set, collect, &d);
    CHECK(errors == 3 && d.errors == 3, "dir: 3 errors (2 duplicates, broken), got %d", errors);
    CHECK(set.n == 3 && set.n > 2 && !strcmp(set.v[2].datatype, "MPI_INT"),
          "dir: 3 profiles loaded (two of MPI_Allgather at p = 4), got %d", set.n);
    CHECK(strstr(d.last, "d_broken.prf:4") && strstr(d.last, "unknown algorithm"),
          "dir: last message names file and line: %s", d.last);
    mg_profile_set_free(&set);

    d = (diag_log){0};
    errors = mg_profiles_load("/nonexistent/mpiguide", &set, collect, &d);
    CHECK(errors == 1 && strstr(d.last, "/nonexistent/mpiguide"), "missing dir: %s", d.last);
    mg_profile_set_free(&set);

    snprintf(path, sizeof path, "%s/b_bcast.prf", dir);
    d = (diag_log){0};
    errors = mg_profiles_load(path, &set, collect, &d);
    CHECK(errors == 0 && set.n == 1, "single file loads");
    mg_profile_set_free(&set);

    char empty[] = "/tmp/mg_test_profile_empty_XXXXXX";
    if (mkdtemp(empty)) {
        d = (diag_log){0};
        errors = mg_profiles_load(empty, &set, collect, &d);
        CHECK(errors == 0 && d.warnings == 1, "empty dir warns");
        rmdir(empty);
    }
    const char *names[] = {"a_allgather.prf", "b_bcast.prf",  "ba_typed.prf", "bb_typed_again.prf",
                           "c_duplicate.prf", "d_broken.prf", ".hidden"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/subdir", dir);
    rmdir(path);
    rmdir(dir);
}

int main(void) {
    test_render();
    test_validated();
    test_measured();
    test_online_lines();
    test_learned();
    test_example();
    test_provenance();
    test_names();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mg_profile p;
        mg_perr err;
        size_t len = strlen(bad[i].text);
        if (!strcmp(bad[i].name, "nul byte")) len = 16;
        int rc = mg_profile_parse(bad[i].text, len, &p, &err);
        CHECK(rc == -1, "bad case `%s` accepted", bad[i].name);
        if (rc != -1) {
            mg_profile_free(&p);
            continue;
        }
        CHECK(err.line == bad[i].line && strstr(err.what, bad[i].word),
              "bad case `%s`: want line %d with `%s`, got line %d: %s", bad[i].name, bad[i].line,
              bad[i].word, err.line, err.what);
        CHECK(p.ranges == NULL && p.nranges == 0, "bad case `%s` leaves no ranges", bad[i].name);
    }
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        mg_profile p;
        mg_perr err;
        int rc = mg_profile_parse(good[i].text, strlen(good[i].text), &p, &err);
        CHECK(rc == 0, "good case `%s` rejected: line %d: %s", good[i].name, err.line, err.what);
        if (rc) continue;
        CHECK(p.coll == good[i].coll && p.p == good[i].p && p.nranges == good[i].nranges,
              "good case `%s`: coll %d p %d ranges %d", good[i].name, p.coll, p.p, p.nranges);
        mg_profile_free(&p);
    }
    test_dir();
    return DONE();
}
