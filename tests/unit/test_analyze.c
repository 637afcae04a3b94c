/* The checks on synthetic raw data with known answers: a planted violation is found, a
 * planted non-violation is not, a slower mock-up compared after a faster one is not flagged,
 * pure noise over hundreds of tests gives no more false violations than the correction
 * allows, a difference in one launch only is not a violation, monotony, split-robustness,
 * barrier warnings (brave/cautious) and the quality score. */
#include "analyze/model.h"
#include "check.h"
#include "synth.h"

static mg_dataset ds;
static mg_analysis an;

static int analyse(const char *dir, const mg_analyze_opts *o) {
    mg_analysis_free(&an);
    mg_dataset_free(&ds);
    mg_dataset_init(&ds);
    char err[512];
    if (mg_dataset_add_path(&ds, dir, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return mg_analysis_run(&an, &ds, o);
}

static const mg_point *point(const char *coll, long long msize) {
    for (int ci = 0; ci < an.ncolls; ci++)
        if (!strcmp(mg_name(&an, an.colls[ci].name), coll))
            for (int pi = 0; pi < an.colls[ci].npoints; pi++)
                if (an.colls[ci].points[pi].msize == msize) return &an.colls[ci].points[pi];
    return NULL;
}

static const mg_cell *cell(const char *coll, long long msize, const char *alg) {
    const mg_point *pt = point(coll, msize);
    for (int k = 0; pt && k < pt->ncells; k++)
        if (!strcmp(mg_name(&an, pt->cells[k].alg), alg)) return &pt->cells[k];
    return NULL;
}

static const mg_coll_result *coll(const char *name) {
    for (int ci = 0; ci < an.ncolls; ci++)
        if (!strcmp(mg_name(&an, an.colls[ci].name), name)) return &an.colls[ci];
    return NULL;
}

static const long long sizes[] = {8, 1024, 65536};

/* default 100 us; fast mock-up 25 % faster; slow mock-up 30 % slower; equal mock-up */
static void planted(void) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    for (int test = 0; test < MG_TEST_COUNT; test++) {
        char *dir = synth_tmpdir();
        synth_seed(1 + (uint64_t)test);
        for (int s = 0; s < 3; s++) {
            double base = 100e-6 * (double)(s + 1);
            synth_series(dir, 3, "MPI_Bcast", "default", sizes[s], base, 0.05, 150);
            synth_series(dir, 3, "MPI_Bcast", "bcast_fast", sizes[s], base * 0.75, 0.05, 150);
            synth_series(dir, 3, "MPI_Bcast", "bcast_same", sizes[s], base, 0.05, 150);
            synth_series(dir, 3, "MPI_Bcast", "zz_bcast_slow", sizes[s], base * 1.3, 0.05, 150);
        }
        o.test = test;
        CHECK(analyse(dir, &o) == 0, "test %d: analysis failed", test);
        for (int s = 0; s < 3; s++) {
            const mg_cell *f = cell("MPI_Bcast", sizes[s], "bcast_fast");
            const mg_cell *e = cell("MPI_Bcast", sizes[s], "bcast_same");
            const mg_cell *w = cell("MPI_Bcast", sizes[s], "zz_bcast_slow");
            CHECK(f && f->violation, "test %d size %lld: planted violation not found (p_adj %g)",
                  test, sizes[s], f ? f->p_adj : -1);
            CHECK(f && fabs(f->slowdown - 1 / 0.75) < 0.05, "test %d: slowdown %g, planted 1.333",
                  test, f ? f->slowdown : -1);
            CHECK(f && f->tested_launches == 3 && f->faster_launches == 3,
                  "test %d: launches tested %d faster %d", test, f ? f->tested_launches : -1,
                  f ? f->faster_launches : -1);
            CHECK(e && !e->violation, "test %d size %lld: equal mock-up flagged (p_adj %g)", test,
                  sizes[s], e ? e->p_adj : -1);
            /* the slower mock-up is compared after the faster one: no cached statistic */
            CHECK(w && !w->violation && w->p > 0.5,
                  "test %d size %lld: slower mock-up flagged or p %g too small", test, sizes[s],
                  w ? w->p : -1);
            const mg_point *pt = point("MPI_Bcast", sizes[s]);
            CHECK(pt && pt->best >= 0 &&
                      !strcmp(mg_name(&an, pt->cells[pt->best].alg), "bcast_fast"),
                  "test %d: fastest violating mock-up", test);
            CHECK(pt && pt->profile == pt->best, "test %d: profile choice", test);
        }
        CHECK(an.npattern_tests == 9, "test %d: %d pattern tests, expected 9", test,
              an.npattern_tests);
        CHECK(an.nviol_brave == 3 && an.nchecked == 3, "test %d: %d of %d combinations", test,
              an.nviol_brave, an.nchecked);
        /* quality: every size has best/default = 0.75 */
        CHECK(fabs(an.quality - 0.75) < 0.03, "test %d: quality %g, planted 0.75", test,
              an.quality);
        synth_rmrf(dir);
    }
}

/* The slower mock-up first in name order, and the faster second: order must not matter. */
static void order_independent(void) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    char *dir = synth_tmpdir();
    synth_seed(7);
    synth_series(dir, 1, "MPI_Reduce", "default", 4096, 50e-6, 0.05, 200);
    synth_series(dir, 1, "MPI_Reduce", "a_reduce_slow", 4096, 80e-6, 0.05, 200);
    synth_series(dir, 1, "MPI_Reduce", "b_reduce_fast", 4096, 30e-6, 0.05, 200);
    synth_series(dir, 1, "MPI_Reduce", "c_reduce_slow", 4096, 80e-6, 0.05, 200);
    for (int test = 0; test < MG_TEST_COUNT; test++) {
        o.test = test;
        CHECK(analyse(dir, &o) == 0, "analysis failed");
        CHECK(!cell("MPI_Reduce", 4096, "a_reduce_slow")->violation, "test %d: a_slow flagged",
              test);
        CHECK(cell("MPI_Reduce", 4096, "b_reduce_fast")->violation, "test %d: b_fast missed", test);
        CHECK(!cell("MPI_Reduce", 4096, "c_reduce_slow")->violation,
              "test %d: c_slow (after the fast one) flagged", test);
    }
    synth_rmrf(dir);
}

/* 10 collectives x 10 sizes x 3 mock-ups = 300 tests of identical distributions. One launch,
 * so every test is a plain one-sided test at its level: uncorrected, about 5 % would come out
 * significant; after Holm the chance of any is <= 5 %, after BH (all nulls true) too. */
static void pure_noise(void) {
    static const char *colls[] = {"MPI_Allgather",     "MPI_Allreduce", "MPI_Alltoall",
                                  "MPI_Bcast",         "MPI_Gather",    "MPI_Reduce",
                                  "MPI_Scan",          "MPI_Scatter",   "MPI_Reduce_scatter_block",
                                  "MPI_Reduce_scatter"};
    int replicates = 8, any_holm = 0, any_bh = 0, total_none = 0, tests = 0;
    for (int r = 0; r < replicates; r++) {
        char *dir = synth_tmpdir();
        synth_seed(1000 + (uint64_t)r);
        for (int c = 0; c < 10; c++) {
            FILE *f = synth_open(dir, 0, colls[c], 4);
            for (int s = 0; s < 10; s++) {
                long long m = 1LL << s;
                synth_rows(f, colls[c], "default", m, 20e-6, 0.1, 60);
                synth_rows(f, colls[c], "mock_a", m, 20e-6, 0.1, 60);
                synth_rows(f, colls[c], "mock_b", m, 20e-6, 0.1, 60);
                synth_rows(f, colls[c], "mock_c", m, 20e-6, 0.1, 60);
            }
            fclose(f);
        }
        mg_analyze_opts o;
        mg_analyze_opts_init(&o);
        o.correction = MG_CORR_NONE;
        CHECK(analyse(dir, &o) == 0, "analysis failed");
        tests += an.npattern_tests;
        total_none += an.ncell_viol_brave;
        o.correction = MG_CORR_HOLM;
        analyse(dir, &o);
        any_holm += an.ncell_viol_brave > 0;
        CHECK(an.ncell_viol_brave == 0, "replicate %d: %d false violations after Holm", r,
              an.ncell_viol_brave);
        o.correction = MG_CORR_BH;
        analyse(dir, &o);
        any_bh += an.ncell_viol_brave > 0;
        CHECK(an.ncell_viol_brave <= 1, "replicate %d: %d false violations after BH", r,
              an.ncell_viol_brave);
        synth_rmrf(dir);
    }
    CHECK(tests == replicates * 300, "%d tests", tests);
    /* uncorrected: about alpha of the one-sided tests */
    double rate = (double)total_none / tests;
    CHECK(rate > 0.03 && rate < 0.07, "uncorrected false-positive rate %g out of range", rate);
    CHECK(any_holm <= 1 && any_bh <= 2, "replicates with a false violation: Holm %d, BH %d",
          any_holm, any_bh);
    printf("pure noise: %d tests, uncorrected %d false (%.1f %%), replicates with any: Holm %d, "
           "BH %d of %d\n",
           tests, total_none, 100 * rate, any_holm, any_bh, replicates);
}

/* Faster in one launch, slower in the other two: launch-to-launch noise, not a violation.
 * The same data as a single launch would be flagged. */
static void launch_noise(void) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    char *dir = synth_tmpdir();
    synth_seed(11);
    double mock[3] = {60e-6, 104e-6, 110e-6};
    for (int l = 0; l < 3; l++) {
        FILE *f = synth_open(dir, l, "MPI_Reduce", 2);
        synth_rows(f, "MPI_Reduce", "default", 1 << 20, 100e-6, 0.05, 200);
        synth_rows(f, "MPI_Reduce", "reduce_as_allreduce", 1 << 20, mock[l], 0.05, 200);
        fclose(f);
    }
    CHECK(analyse(dir, &o) == 0, "analysis failed");
    const mg_cell *m = cell("MPI_Reduce", 1 << 20, "reduce_as_allreduce");
    CHECK(m && !m->violation && m->faster_launches == 1,
          "one launch of three faster must not be a violation (p %g, faster %d)", m ? m->p : -1,
          m ? m->faster_launches : -1);
    /* launch 0 alone is a clear violation */
    char one[600];
    snprintf(one, sizeof one, "%s/raw/launch-0", dir);
    CHECK(analyse(one, &o) == 0, "analysis of one launch failed");
    m = cell("MPI_Reduce", 1 << 20, "reduce_as_allreduce");
    CHECK(m && m->violation, "launch 0 alone shows the violation");
    synth_rmrf(dir);
}

/* Monotony: 2 KiB planted faster than 1 KiB; split-robustness: T(4 KiB) > 1.05 * 2 T(2 KiB). */
static void guidelines(void) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    char *dir = synth_tmpdir();
    synth_seed(21);
    /* medians: 512 -> 10, 1024 -> 30, 2048 -> 20 (monotony violated 1024 -> 2048),
     * 4096 -> 50 (split: 2 * 20 * 1.05 = 42 < 50, violated with m_i = 2048), 8192 -> 60 */
    long long m[] = {512, 1024, 2048, 4096, 8192};
    double med[] = {10e-6, 30e-6, 20e-6, 50e-6, 60e-6};
    for (int i = 0; i < 5; i++)
        synth_series(dir, 2, "MPI_Allreduce", "default", m[i], med[i], 0.03, 100);
    CHECK(analyse(dir, &o) == 0, "analysis failed");
    const mg_coll_result *c = coll("MPI_Allreduce");
    CHECK(c && c->nmono == 4, "adjacent pairs: %d", c ? c->nmono : -1);
    int viol = 0;
    for (int i = 0; c && i < c->nmono; i++) {
        viol += c->mono[i].violation;
        if (c->mono[i].violation)
            CHECK(c->mono[i].m_lo == 1024 && c->mono[i].m_hi == 2048,
                  "monotony violation at %lld -> %lld", c->mono[i].m_lo, c->mono[i].m_hi);
    }
    CHECK(viol == 1 && an.nmono_viol == 1, "monotony violations %d", viol);
    /* split: at 1024 (k=2 from 512: 20*1.05=21 < 30: violated, m_i = 512);
     * at 4096 from 2048 (k=2: 42 < 50): violated, the largest m_i is 2048;
     * at 8192 from 4096 (k=2: 105 > 60) no; from 2048 (k=4: 84 > 60) no; 1024 (k=8) no;
     * 512 (k=16: 168) no */
    CHECK(c && c->nsplit == 2, "split violations %d", c ? c->nsplit : -1);
    if (c && c->nsplit == 2) {
        CHECK(c->split[0].m_j == 1024 && c->split[0].m_i == 512 && c->split[0].k == 2,
              "first split violation %lld/%lld k %lld", c->split[0].m_j, c->split[0].m_i,
              c->split[0].k);
        CHECK(c->split[1].m_j == 4096 && c->split[1].m_i == 2048 && c->split[1].k == 2,
              "second split violation %lld/%lld k %lld", c->split[1].m_j, c->split[1].m_i,
              c->split[1].k);
    }
    synth_rmrf(dir);

    /* k = min{l : l m_i >= m_j} also for sizes that are not multiples: 1000 and 2500 */
    dir = synth_tmpdir();
    synth_series(dir, 1, "MPI_Bcast", "default", 1000, 10e-6, 0.02, 50);
    synth_series(dir, 1, "MPI_Bcast", "default", 2500, 40e-6, 0.02, 50); /* 3 * 10 * 1.05 < 40 */
    CHECK(analyse(dir, &o) == 0, "analysis failed");
    c = coll("MPI_Bcast");
    CHECK(c && c->nsplit == 1 && c->split[0].k == 3, "k for 2500 over 1000: %lld",
          c && c->nsplit ? c->split[0].k : -1);
    synth_rmrf(dir);
}

/* Barrier warning: the difference (10 us) is below one barrier (15 us) at the small size,
 * above it at the large one. Brave counts both, cautious only the large one. */
static void barrier(void) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    char *dir = synth_tmpdir();
    synth_seed(31);
    synth_series(dir, 2, "MPI_Barrier", "default", 0, 15e-6, 0.05, 100);
    synth_series(dir, 2, "MPI_Gather", "default", 8, 40e-6, 0.03, 200);
    synth_series(dir, 2, "MPI_Gather", "gather_as_gatherv", 8, 30e-6, 0.03, 200);
    synth_series(dir, 2, "MPI_Gather", "default", 1 << 20, 900e-6, 0.03, 200);
    synth_series(dir, 2, "MPI_Gather", "gather_as_gatherv", 1 << 20, 600e-6, 0.03, 200);
    CHECK(analyse(dir, &o) == 0, "analysis failed");
    CHECK(fabs(an.barrier - 15e-6) < 1e-6, "barrier median %g", an.barrier);
    const mg_cell *s = cell("MPI_Gather", 8, "gather_as_gatherv");
    const mg_cell *l = cell("MPI_Gather", 1 << 20, "gather_as_gatherv");
    CHECK(s && s->violation && s->barrier_warning, "small size: violation with barrier warning");
    CHECK(l && l->violation && !l->barrier_warning, "large size: violation without warning");
    CHECK(an.nviol_brave == 2 && an.nviol_cautious == 1, "brave %d cautious %d", an.nviol_brave,
          an.nviol_cautious);
    CHECK(coll("MPI_Barrier") == NULL, "MPI_Barrier is not a checked collective");
    /* quality: sqrt(30/40 * 600/900) */
    CHECK(fabs(an.quality - sqrt(0.75 * 600.0 / 900)) < 0.02, "quality %g", an.quality);
    synth_rmrf(dir);
}

/* The family of a check spans all collectives: the same small effect is significant alone
 * but not among many tests (Holm), and --alpha moves the line. */
static void correction_family(void) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    char *dir = synth_tmpdir();
    synth_seed(41);
    synth_series(dir, 1, "MPI_Scan", "default", 64, 10e-6, 0.1, 40);
    synth_series(dir, 1, "MPI_Scan", "scan_as_exscan_reducelocal", 64, 9.2e-6, 0.1, 40);
    CHECK(analyse(dir, &o) == 0, "analysis failed");
    const mg_cell *m = cell("MPI_Scan", 64, "scan_as_exscan_reducelocal");
    double p_alone = m ? m->p : NAN;
    CHECK(m && m->p == m->p_adj, "a single test is not adjusted");
    for (int s = 0; s < 40; s++) {
        FILE *f = synth_open(dir, 0, "MPI_Exscan", 4);
        synth_rows(f, "MPI_Exscan", "default", 1LL << s, 10e-6, 0.1, 40);
        synth_rows(f, "MPI_Exscan", "exscan_x", 1LL << s, 10e-6, 0.1, 40);
        fclose(f);
    }
    CHECK(analyse(dir, &o) == 0, "analysis failed");
    m = cell("MPI_Scan", 64, "scan_as_exscan_reducelocal");
    CHECK(m && m->p == p_alone && m->p_adj >= m->p && an.npattern_tests == 41,
          "adjusted over 41 tests: p %g p_adj %g", m ? m->p : -1, m ? m->p_adj : -1);
    synth_rmrf(dir);
}

/* Constant timings (four identical observations per series): the t-test is undefined there,
 * as in R, so -t 0 takes the rank-sum test for the launch instead of claiming p = 0. */
static void constant_timings(void) {
    char *dir = synth_tmpdir();
    for (int l = 0; l < 2; l++) {
        FILE *f = synth_open(dir, l, "MPI_Bcast", 4);
        if (!f) break;
        for (int i = 0; i < 4; i++) {
            fprintf(f, "MPI_Bcast default %d 8 1.0000000000e-04\n", i);
            fprintf(f, "MPI_Bcast bcast_fast %d 8 7.5000000000e-05\n", i);
        }
        fclose(f);
    }
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    double p[2] = {-1, -1};
    int tests[2] = {MG_TEST_T, MG_TEST_RANKSUM};
    for (int k = 0; k < 2; k++) {
        o.test = tests[k];
        CHECK(analyse(dir, &o) == 0, "constant timings, test %d: analysis failed", tests[k]);
        const mg_cell *c = cell("MPI_Bcast", 8, "bcast_fast");
        CHECK(c && c->tested_launches == 2, "test %d: both launches tested", tests[k]);
        p[k] = c ? c->p : -1;
    }
    CHECK(p[0] > 0 && p[0] == p[1], "-t 0 on constant samples: p %g, the rank-sum test gives %g",
          p[0], p[1]);
    synth_rmrf(dir);
}

int main(void) {
    mg_dataset_init(&ds);
    constant_timings();
    planted();
    order_independent();
    pure_noise();
    launch_noise();
    guidelines();
    barrier();
    correction_family();
    mg_analysis_free(&an);
    mg_dataset_free(&ds);
    return DONE();
}
