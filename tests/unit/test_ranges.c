/* The range rule (docs/check.md "Profiles", issue 27): a size an application's record lists and
 * the check did not measure is never inside a profile range. The pure rule (mg_ranges_cut) on
 * the issue's case and on random ranges; then the whole path: `analyze` of an OUTDIR with a
 * record.txt (as `tune --for` leaves it) writes profiles whose ranges stop short of those
 * sizes, and the library's parser selects nothing there. */
#include "algid/algid.h"
#include "catalog/catalog.h"
#include "check.h"
#include "profile/profile.h"
#include "record/record.h"
#include "report/report.h"
#include "synth.h"

static int inside(const mg_wrange *r, int n, long long x) {
    for (int i = 0; i < n; i++)
        if (x >= r[i].lo && x <= r[i].hi) return i;
    return -1;
}

/* The issue's case: MPI_Allreduce measured at 32, 256, 512 B; one range 32-5792 chose an
 * algorithm; 128 B was recorded and never measured. */
static void issue_case(void) {
    mg_wrange r[8] = {{32, 5792, 3, 0, 2, -1, -1}};
    long long rec[] = {32, 128, 4096}, meas[] = {32, 256, 512};
    int n = mg_ranges_cut(r, 1, rec, 3, meas, 3);
    CHECK(n == 2, "two pieces, got %d", n);
    CHECK(n >= 1 && r[0].lo == 32 && r[0].hi == 127 && r[0].cut_above == 128 && r[0].win == 3,
          "first piece 32-127 up to the recorded 128: %lld-%lld", r[0].lo, r[0].hi);
    /* 4096 is recorded and not measured: the piece above 128 stops below it; nothing measured
     * lies above 4096, so no piece is left there */
    CHECK(n >= 2 && r[1].lo == 129 && r[1].hi == 4095 && r[1].cut_below == 128 &&
              r[1].cut_above == 4096,
          "second piece 129-4095: %lld-%lld", r[1].lo, r[1].hi);
    CHECK(inside(r, n, 128) < 0 && inside(r, n, 4096) < 0 && inside(r, n, 256) >= 0,
          "recorded sizes out, measured in");

    /* without a record nothing changes; a recorded size that was measured cuts nothing */
    mg_wrange q[4] = {{8, 64, -1, 0, 0, -1, -1}, {65, 128, 1, 1, 1, -1, -1}};
    long long m2[] = {8, 64, 128};
    CHECK(mg_ranges_cut(q, 2, NULL, 0, m2, 3) == 2 && q[0].hi == 64 && q[1].lo == 65,
          "no record: ranges unchanged");
    CHECK(mg_ranges_cut(q, 2, m2, 3, m2, 3) == 2 && q[0].lo == 8 && q[1].hi == 128,
          "recorded and measured: unchanged");
    /* the largest representable size recorded at a range's end */
    mg_wrange e[4] = {{8, INT64_MAX, 1, 0, 0, -1, -1}};
    long long big[] = {INT64_MAX}, m8[] = {8};
    int ne = mg_ranges_cut(e, 1, big, 1, m8, 1);
    CHECK(ne == 1 && e[0].lo == 8 && e[0].hi == INT64_MAX - 1, "cut at INT64_MAX: %d", ne);
}

static uint64_t rnd_state = 12345;
static long long rnd(long long n) {
    rnd_state ^= rnd_state << 13, rnd_state ^= rnd_state >> 7, rnd_state ^= rnd_state << 17;
    return (long long)(rnd_state % (uint64_t)n);
}

static int has(const long long *v, int n, long long x) {
    for (int i = 0; i < n; i++)
        if (v[i] == x) return 1;
    return 0;
}

static int cmp(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static int sorted_unique(long long *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    int u = 0;
    for (int i = 0; i < n; i++)
        if (!u || v[u - 1] != v[i]) v[u++] = v[i];
    return u;
}

/* Random measured sizes, ranges built over them as the analysis does (contiguous, winners
 * changing), random recorded sizes (some measured); the rule's properties on each. */
static void random_cases(void) {
    int bad = 0;
    for (int t = 0; t < 2000 && !bad; t++) {
        long long meas[16], rec[24];
        int nm = 1 + (int)rnd(12), nrec = (int)rnd(20);
        for (int i = 0; i < nm; i++) meas[i] = 1 + rnd(4000);
        nm = sorted_unique(meas, nm);
        for (int i = 0; i < nrec; i++) rec[i] = rnd(3) ? 1 + rnd(4200) : meas[rnd(nm)];
        nrec = sorted_unique(rec, nrec);
        mg_wrange in[16], r[64];
        int n = 0;
        for (int i = 0; i < nm; i++) {
            int w = (int)rnd(3) - 1;
            if (n && in[n - 1].win == w) {
                in[n - 1].hi = meas[i];
            } else {
                if (n) in[n - 1].hi = mg_log_midpoint(meas[i - 1], meas[i]);
                long long lo = n ? in[n - 1].hi + 1 : meas[i];
                in[n++] = (mg_wrange){lo, meas[i], w, 0, 0, -1, -1};
            }
        }
        memcpy(r, in, sizeof in[0] * (size_t)n);
        int nr = mg_ranges_cut(r, n, rec, nrec, meas, nm);
        for (int i = 0; i < nrec; i++) /* the rule itself */
            if (!has(meas, nm, rec[i]) && inside(r, nr, rec[i]) >= 0) bad = 1;
        for (int i = 0; i < nr; i++) { /* pieces: ordered, inside an input range, same winner */
            int k = inside(in, n, r[i].lo);
            if (r[i].lo > r[i].hi || (i && r[i].lo <= r[i - 1].hi) || k < 0 || r[i].hi > in[k].hi ||
                r[i].win != in[k].win)
                bad = 2;
            int any = 0; /* each holds a measured size */
            for (int j = 0; j < nm; j++) any |= meas[j] >= r[i].lo && meas[j] <= r[i].hi;
            if (!any) bad = 3;
        }
        for (int j = 0; j < nm; j++) { /* a measured size keeps its decision */
            int k = inside(r, nr, meas[j]), k0 = inside(in, n, meas[j]);
            if (k < 0 || r[k].win != in[k0].win) bad = 4;
        }
        CHECK(!bad, "case %d violates property %d", t, bad);
    }
}

/* The whole path. The profiles test of test_analyze_output (Allgather 8..256: A 8-22, B 23-45,
 * default 46-90, A 91-181, default 182-256), with a record listing 20, 32, 100, 200 and 300:
 * 20, 100 and 200 were not measured, so their ranges stop short of them. */
static void through_analyze(void) {
    char *dir = synth_tmpdir();
    synth_seed(51);
    long long m[] = {8, 16, 32, 64, 128, 256};
    double a[] = {0.7, 0.7, 0.95, 1.2, 0.6, 0.95};
    double b[] = {0.9, 1.1, 0.6, 1.2, 1.3, 1.2};
    for (int i = 0; i < 6; i++) {
        synth_series(dir, 2, "MPI_Allgather", "default", m[i], 10e-6, 0.01, 200);
        synth_series(dir, 2, "MPI_Allgather", "allgather_as_alltoall", m[i], 10e-6 * a[i], 0.01,
                     200);
        synth_series(dir, 2, "MPI_Allgather", "allgather_as_allreduce", m[i], 10e-6 * b[i], 0.01,
                     200);
    }
    mg_record rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.mpi_library, sizeof rec.mpi_library, "Synthetic MPI 1.0");
    snprintf(rec.hostname, sizeof rec.hostname, "node1");
    snprintf(rec.date, sizeof rec.date, "2024-06-01T00:00:00Z");
    snprintf(rec.mpiguide_version, sizeof rec.mpiguide_version, "0.1.0");
    snprintf(rec.command, sizeof rec.command, "./app");
    snprintf(rec.mode, sizeof rec.mode, "untuned");
    snprintf(rec.match, sizeof rec.match, "exact");
    rec.nprocs = 4, rec.nodes = 1, rec.ppn = 4, rec.wall_s = 1;
    long long sizes[] = {20, 32, 100, 200, 300};
    for (int i = 0; i < 5; i++) {
        mg_rec_row *w = mg_record_add_row(&rec);
        w->coll = mg_coll_lookup("MPI_Allgather");
        w->p = 4, w->nodes = 1, w->ppn = 4, w->esize = 4;
        snprintf(w->datatype, sizeof w->datatype, "MPI_INT");
        snprintf(w->op, sizeof w->op, "-");
        mg_rec_bucket(sizes[i], &w->lo, &w->hi);
        w->calls = 10, w->time_s = 1e-4, w->median_s = 1e-5;
        w->nsizes = 1, w->sizes[0] = (mg_rec_size){sizes[i], 10, 1e-4, 0, 0};
    }
    char *text = mg_record_render(&rec), path[600];
    snprintf(path, sizeof path, "%s/record.txt", dir);
    FILE *f = fopen(path, "w");
    CHECK(text && f && fputs(text, f) >= 0, "record written");
    if (f) fclose(f);
    free(text);
    mg_record_free(&rec);

    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    o.out = NULL, o.merge = 1, o.test = MG_TEST_RANKSUM;
    char *dirs[1] = {dir};
    CHECK(mg_analyze_dirs(&o, dirs, 1) == 0, "analyze failed");
    snprintf(path, sizeof path, "%s/profiles/MPI_Allgather_p4.prf", dir);
    char *p = synth_slurp(path);
    CHECK(p != NULL, "profile written");
    if (p) {
        const char *body = strstr(p, "\nMPI_Allgather\n");
        const char *want = "\nMPI_Allgather\n4\n3\n1 allgather_as_alltoall\n2 "
                           "allgather_as_allreduce\n3 default\n5\n8 19 1\n23 45 2\n46 90 3\n101 "
                           "181 1\n201 256 3\n";
        CHECK(body && !strcmp(body, want), "profile body:\n%s", p);
        CHECK(strstr(p, "#@range=101-181 allgather_as_alltoall: measured 128 (") &&
                  strstr(p, "starts above 100, recorded and not measured (the default runs "
                            "there); ends at the log midpoint of 128 and 256 (default)") &&
                  strstr(p, "#@range=8-19 allgather_as_alltoall: measured 8 (") &&
                  strstr(p, "ends below 20, recorded and not measured"),
              "justification:\n%s", p);
        mg_profile prof;
        mg_perr err;
        CHECK(mg_profile_parse(p, strlen(p), &prof, &err) == 0, "parses: line %d %s", err.line,
              err.what);
        CHECK(prof.nmeasured == 6 && strstr(p, "#@measured=8,16,32,64,128,256\n"),
              "#@measured lists the checked sizes: %d", prof.nmeasured);
        long long none[] = {20, 100, 200, 300}, some[] = {8, 16, 32, 128, 256};
        for (int i = 0; i < 4; i++)
            CHECK(mg_profile_select_linear(&prof, none[i]) < 0,
                  "recorded, not measured %lld: nothing selected", none[i]);
        for (int i = 0; i < 5; i++)
            CHECK(mg_profile_select_linear(&prof, some[i]) >= 0, "measured %lld selected", some[i]);
        mg_profile_free(&prof);
        free(p);
    }
    /* a record that does not parse is an error, not silently ignored */
    snprintf(path, sizeof path, "%s/record.txt", dir);
    f = fopen(path, "w");
    if (f) fputs("not a record\n", f), fclose(f);
    CHECK(mg_analyze_dirs(&o, dirs, 1) != 0, "a broken record.txt fails the analysis");
    synth_rmrf(dir);
}

int main(void) {
    issue_case();
    random_cases();
    through_analyze();
    return DONE();
}
