/* Planning from a record (src/record/plan.c): which rows are planned for a share of the time,
 * the sizes (recorded, powers of two around them, whole buckets for unlisted sizes), the
 * conditions (datatype, op, roots, back-to-back), what is noted, and the refusals (another
 * MPI, a job too small). Every case names its record row and the line it expects. */
#include "record/plan.h"
#include "catalog/catalog.h"
#include "check.h"
#include <stdlib.h>
#include <string.h>

static mg_rec_row *row(mg_record *r, const char *coll, int p, const char *type, int esize,
                       const char *op, int64_t msize, uint64_t calls, double time) {
    mg_rec_row *w = mg_record_add_row(r);
    w->coll = mg_coll_lookup(coll);
    w->p = p, w->nodes = 1, w->ppn = p, w->esize = esize;
    snprintf(w->datatype, sizeof w->datatype, "%s", type);
    snprintf(w->op, sizeof w->op, "%s", op);
    mg_rec_bucket(msize, &w->lo, &w->hi);
    w->calls = calls, w->time_s = time, w->median_s = time / (double)calls;
    w->nsizes = 1;
    w->sizes[0] = (mg_rec_size){msize, calls, time, 0, 0};
    w->rooted = mg_coll_is_rooted(w->coll);
    w->line = r->nrows;
    return w;
}

static void base(mg_record *r) {
    memset(r, 0, sizeof *r);
    snprintf(r->mpi_library, sizeof r->mpi_library, "Open MPI v4.1.4");
    r->nprocs = 4, r->nodes = 1, r->ppn = 4;
}

static char *plan(const mg_record *r, double cover, int np, char *err) {
    mg_plan_opts o;
    mg_plan_defaults(&o);
    o.cover = cover;
    o.np = np;
    o.mpi = "openmpi";
    o.nrep = 50;
    o.time_ms = 200;
    char *text = NULL, warn[400];
    int rc = mg_plan_from_record(r, "rec", &o, &text, warn, sizeof warn, err, 600);
    if (!rc && warn[0]) snprintf(err, 600, "warning: %s", warn);
    return rc ? NULL : text;
}

static void planning(void) {
    mg_record r;
    base(&r);
    row(&r, "MPI_Allreduce", 4, "MPI_DOUBLE", 8, "MPI_SUM", 24, 100, 0.5);
    mg_rec_row *w =
        row(&r, "MPI_Allreduce", 4, "MPI_DOUBLE_PRECISION", 8, "MPI_PROD", 3000, 10, 0.2);
    w->b2b = 0;
    w = row(&r, "MPI_Allreduce", 2, "MPI_DOUBLE", 8, "MPI_SUM", 204800, 5, 0.15);
    w->b2b = 5; /* back to back */
    w = row(&r, "MPI_Reduce", 4, "MPI_INT", 4, "MPI_MAX", 64, 40, 0.08);
    w->nroots = 4, w->rotations = 39;
    for (int k = 0; k < 4; k++) w->roots[k] = (mg_rec_root){k, 10};
    w->sizes_other = 5; /* the whole bucket 64..127 */
    w = row(&r, "MPI_Bcast", 4, "MPI_BYTE", 1, "-", 100, 10, 0.04);
    w->nroots = 1, w->roots[0] = (mg_rec_root){3, 10};
    /* beyond a 0.99 share of the time and of the calls, and under 1 % of either */
    w = row(&r, "MPI_Bcast", 2, "MPI_BYTE", 1, "-", 8, 1, 0.005);
    w->nroots = 1, w->roots[0] = (mg_rec_root){0, 1};
    /* Gatherv: decreasing counts of b = 100 on 4 ranks are 201+151+101+51 = 504 MPI_INTs */
    w = row(&r, "MPI_Gatherv", 4, "MPI_INT", 4, "-", 2016, 2, 0.019);
    w->lo = w->hi = 0, w->vrow = 1, w->block = 804, w->spread[MG_PROBLEM_DECREASING] = 2;
    w->nroots = 1, w->roots[0] = (mg_rec_root){0, 2};
    char err[600] = "";
    char *t = plan(&r, 0.99, 0, err);
    CHECK(t != NULL, "plan: %s", err);
    if (!t) return;
    struct {
        const char *what, *line;
        int present;
    } want[] = {
        {"sizes, pow2 around, same class merged",
         "\nMPI_Allreduce --comm-sizes=4 --datatype=MPI_DOUBLE --op=MPI_SUM "
         "--msizes-list=16,24,32,2048,3000,4096 --nrep=50 --rt-bench-time-ms=200\n",
         1},
        {"sub-communicator, back to back",
         "\nMPI_Allreduce --comm-sizes=2 --datatype=MPI_DOUBLE --op=MPI_SUM "
         "--msizes-list=131072,204800,262144 --back-to-back=8 --nrep=50",
         1},
        {"rotating roots, unlisted sizes: the bucket",
         "\nMPI_Reduce --comm-sizes=4 --datatype=MPI_INT --op=MPI_MAX --msizes-list=64,128 "
         "--roots=rotate --nrep=50",
         1},
        {"fixed root",
         "\nMPI_Bcast --comm-sizes=4 --datatype=MPI_BYTE --msizes-list=64,100,128 "
         "--root=3 --nrep",
         1},
        {"the last 1 % left out", "MPI_Bcast --comm-sizes=2", 0},
        {"Gatherv with the recorded problem type, its b and root 0",
         "\nMPI_Gatherv --comm-sizes=4 --irregular=decreasing --msizes-list=400 --root=0 "
         "--nrep=50",
         1},
        {"Gatherv's shapes said", "2 calls; counts shaped decreasing (2 calls), largest block 804",
         1},
        {"share", "# these lines cover 99.5 % of the recorded collective time", 1},
        {"share of the calls", "and 99.4 % of the calls (--cover 0.99)", 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK((strstr(t, want[i].line) != NULL) == want[i].present, "%s: %s `%s` in\n%s",
              want[i].what, want[i].present ? "missing" : "unexpected", want[i].line, t);
    free(t);
    /* a row of another op class on the same (collective, p) gets a line of its own (its own
     * profile), the MPI_SUM line stays as it was */
    row(&r, "MPI_Allreduce", 4, "MPI_INT", 4, "MPI_BAND", 8, 10, 0.3);
    t = plan(&r, 1, 0, err);
    CHECK(t &&
              strstr(t, "\nMPI_Allreduce --comm-sizes=4 --datatype=MPI_INT --op=MPI_BAND "
                        "--msizes-list=8 ") &&
              strstr(t, "\nMPI_Allreduce --comm-sizes=4 --datatype=MPI_DOUBLE --op=MPI_SUM "
                        "--msizes-list=16,24,32,2048,3000,4096 ") &&
              !strstr(t, "other_type"),
          "other class planned:\n%s", t ? t : err);
    free(t);
    /* three groups of one (collective, p), one line each: three MPI_MAX rows of 0.25 s each
     * beside the MPI_SUM rows (0.7 s) and the MPI_BAND row */
    for (int k = 0; k < 3; k++)
        row(&r, "MPI_Allreduce", 4, "MPI_DOUBLE", 8, "MPI_MAX", 64 << k, 10, 0.25);
    t = plan(&r, 1, 0, err);
    CHECK(t &&
              strstr(t, "\nMPI_Allreduce --comm-sizes=4 --datatype=MPI_DOUBLE --op=MPI_MAX "
                        "--msizes-list=64,128,256 ") &&
              strstr(t, "\nMPI_Allreduce --comm-sizes=4 --datatype=MPI_DOUBLE --op=MPI_SUM ") &&
              strstr(t, "\nMPI_Allreduce --comm-sizes=4 --datatype=MPI_INT --op=MPI_BAND "),
          "every group:\n%s", t ? t : err);
    free(t);
    mg_record_free(&r);

    /* beyond --cover 0.95 of the time: a Barrier with most of the calls but 0.5 % of the time
     * (planned for the share of the calls: it may take far more once the rest is faster) and a
     * Bcast of 1 call with 2 % of the time (a notable share); an Allgather with neither is not */
    base(&r);
    row(&r, "MPI_Allreduce", 4, "MPI_DOUBLE", 8, "MPI_SUM", 24, 100, 0.96);
    w = row(&r, "MPI_Barrier", 4, "-", 0, "-", 0, 1000, 0.005);
    snprintf(w->datatype, sizeof w->datatype, "-");
    w = row(&r, "MPI_Bcast", 4, "MPI_BYTE", 1, "-", 64, 1, 0.02);
    w->nroots = 1, w->roots[0] = (mg_rec_root){0, 1};
    row(&r, "MPI_Allgather", 4, "MPI_BYTE", 1, "-", 64, 5, 0.004);
    /* a group of rows none of which is notable, together 1.2 % of the time: planned whole */
    for (int k = 0; k < 3; k++)
        row(&r, "MPI_Allreduce", 4, "MPI_INT", 4, "MPI_MAX", 64 << k, 1, 0.004);
    t = plan(&r, 0.95, 0, err);
    CHECK(t && strstr(t, "\nMPI_Barrier --comm-sizes=4 ") &&
              strstr(t, "\nMPI_Bcast --comm-sizes=4 ") && !strstr(t, "MPI_Allgather --comm") &&
              strstr(t, "\nMPI_Allreduce --comm-sizes=4 --datatype=MPI_INT --op=MPI_MAX "
                        "--msizes-list=64,128,256 ") &&
              strstr(t, "and 99.5 % of the calls (--cover"),
          "calls and notable shares planned:\n%s", t ? t : err);
    free(t);
    mg_record_free(&r);

    /* a type the benchmark lacks: one of the same size and class, else a note */
    base(&r);
    row(&r, "MPI_Allreduce", 4, "MPI_DOUBLE_INT", 16, "MPI_MINLOC", 32, 10, 1);
    t = plan(&r, 1, 0, err);
    CHECK(t && strstr(t, "recorded with MPI_DOUBLE_INT (16 bytes) MPI_MINLOC, measured with "
                         "MPI_SIGNED_CHAR MPI_MAX; the profile applies to those calls only with "
                         "MPIGUIDE_MATCH=size"),
          "no such type:\n%s", t ? t : err);
    free(t);
    mg_record_free(&r);
}

static void bench_types(void) {
    struct {
        const char *type, *op;
        int esize, red;
        const char *want_type, *want_op;
        int exact;
    } c[] = {
        {"MPI_DOUBLE", "MPI_SUM", 8, 1, "MPI_DOUBLE", "MPI_SUM", 1},
        {"MPI_REAL8", "MPI_MAX", 8, 1, "MPI_DOUBLE", "MPI_MAX", 1},
        {"MPI_INTEGER", "MPI_SUM", 4, 1, "MPI_INT", "MPI_SUM", 1},
        {"MPI_UINT64_T", "MPI_BOR", 8, 1, "MPI_UNSIGNED_LONG", "MPI_BOR", 1},
        {"derived", "user", 24, 1, "MPI_SIGNED_CHAR", "MPI_SUM", 0},
        {"derived", "-", 12, 0, "MPI_BYTE", NULL, 0},
        {"MPI_C_DOUBLE_COMPLEX", "MPI_SUM", 16, 1, "MPI_SIGNED_CHAR", "MPI_SUM", 0},
        {"MPI_LONG_DOUBLE", "-", 16, 0, "MPI_BYTE", NULL, 0},
        {"MPI_FLOAT", "-", 4, 0, "MPI_FLOAT", NULL, 1},
        {"MPI_DOUBLE", "MPI_BXOR", 8, 1, "MPI_LONG_LONG", "MPI_BXOR", 1},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const char *t, *o;
        int exact = mg_plan_bench_type(c[i].type, c[i].esize, c[i].op, c[i].red, &t, &o);
        CHECK(!strcmp(t, c[i].want_type) &&
                  (o ? c[i].want_op && !strcmp(o, c[i].want_op) : !c[i].want_op) &&
                  exact == c[i].exact,
              "%s %s: %s %s exact %d, want %s %s %d", c[i].type, c[i].op, t, o ? o : "-", exact,
              c[i].want_type, c[i].want_op ? c[i].want_op : "-", c[i].exact);
    }
}

static void refusals(void) {
    mg_record r;
    base(&r);
    row(&r, "MPI_Allreduce", 4, "MPI_DOUBLE", 8, "MPI_SUM", 24, 100, 0.5);
    char err[600] = "";
    char *t = plan(&r, 0.95, 2, err);
    CHECK(!t && strstr(err, "rec: the application ran MPI_Allreduce on 4 processes (a 4-process "
                            "job); a check on 2 processes cannot measure it"),
          "job too small: %s", err);
    free(t);
    t = plan(&r, 0.95, 8, err);
    CHECK(t && strstr(err, "warning: the record is of a 4-process job, the plan is for 8"),
          "larger job: a warning, got `%s`", err);
    free(t);
    snprintf(r.mpi_library, sizeof r.mpi_library, "MPICH Version: 4.0.2");
    t = plan(&r, 0.95, 0, err);
    CHECK(!t && strstr(err, "rec: recorded under mpich (MPICH Version: 4.0.2); this mpiguide is "
                            "built for openmpi"),
          "other MPI: %s", err);
    free(t);
    mg_record_free(&r);
    base(&r);
    t = plan(&r, 0.95, 0, err);
    CHECK(!t && strstr(err, "rec: no collective calls recorded"), "empty record: %s", err);
    free(t);
}

/* Allgatherv (selected by its total: a regular line, --irregular when its counts were not
 * regular), Alltoallv (by communicator size: problem type and b from the per-rank volume),
 * Barrier (no sizes), and a Gatherv whose root saw no counts (b from the largest block). */
static void v_and_barrier(void) {
    mg_record r;
    base(&r);
    mg_rec_row *w = row(&r, "MPI_Allgatherv", 4, "MPI_DOUBLE", 8, "-", 8000, 10, 0.4);
    w->vrow = 1, w->block = 2000, w->spread[MG_PROBLEM_SAME] = 10;
    w = row(&r, "MPI_Allgatherv", 2, "MPI_DOUBLE", 8, "-", 800, 10, 0.1);
    w->vrow = 1, w->block = 640, w->spread[MG_PROBLEM_SPIKES] = 9, w->spread[MG_PROBLEM_SAME] = 1;
    w = row(&r, "MPI_Alltoallv", 4, "MPI_INT", 4, "-", 40000, 10, 0.3);
    w->lo = w->hi = 0, w->vrow = 1, w->block = 19000, w->spread[MG_PROBLEM_RANDOM] = 10;
    w = row(&r, "MPI_Barrier", 4, "-", 0, "-", 0, 100, 0.1);
    w = row(&r, "MPI_Scatterv", 2, "MPI_BYTE", 1, "-", 0, 10, 0.1);
    w->lo = w->hi = 0, w->vrow = 1, w->block = 400, w->nsizes = 0;
    w->nroots = 1, w->roots[0] = (mg_rec_root){1, 10};
    char err[600] = "";
    char *t = plan(&r, 1, 0, err);
    CHECK(t != NULL, "plan: %s", err);
    if (!t) return;
    static const char *want[] = {
        "\nMPI_Allgatherv --comm-sizes=4 --datatype=MPI_DOUBLE --msizes-list=4096,8000,8192 "
        "--nrep=50",
        "\nMPI_Allgatherv --comm-sizes=2 --datatype=MPI_DOUBLE --irregular=spikes "
        "--msizes-list=512,800,1024 --nrep=50",
        "\nMPI_Alltoallv --comm-sizes=4 --irregular=random --msizes-list=10000 --nrep=50",
        "\nMPI_Barrier --comm-sizes=4 --nrep=50",
        "\nMPI_Scatterv --comm-sizes=2 --irregular=same --msizes-list=400 --root=1 --nrep=50",
        "MPI_Scatterv on 2 processes: 10.0 % of the time, 10 calls; no rank saw every count, "
        "largest block 400 bytes",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK(strstr(t, want[i]) != NULL, "missing `%s` in\n%s", want[i], t);
    free(t);
    mg_record_free(&r);
}

int main(void) {
    planning();
    v_and_barrier();
    bench_types();
    refusals();
    return DONE();
}
