/* NREP: the PGMPI stop rules on synthetic sequences whose stopping point is known, the HPC Asia
 * estimate, `mpiguide nrep` options, and the predicted-nrep file. */
#include "check.h"
#include "bench/nrep.h"
#include <math.h>
#include <string.h>

/* Feeds x(i) for i = 0, 1, ... until the rule stops; returns the count (or -1 past limit). */
static int64_t run(const mg_nrep_rule *r, double (*x)(int64_t), int64_t limit) {
    mg_nrep_state s;
    if (mg_nrep_begin(&s, r)) return -2;
    int64_t n = -1;
    for (int64_t i = 0; i < limit; i++)
        if (mg_nrep_add(&s, x(i))) {
            n = s.n;
            break;
        }
    mg_nrep_end(&s);
    return n;
}

static double constant(int64_t i) {
    (void)i;
    return 1e-6;
}
static double alternating(int64_t i) {
    return i % 2 ? 3.0 : 1.0;
}
static double noisy(int64_t i) {
    return (double)((i * 7919) % 1000) + (i % 3 == 0 ? 1e6 : 0.0);
}
static double outliers(int64_t i) {
    return i % 4 == 3 ? 1000.0 : 10.0; /* the median stays 10, the mean moves */
}
static double ramp(int64_t i) {
    return (double)(i + 1);
}

static mg_nrep_rule rule(unsigned methods, double thres, int win, int64_t min, int64_t max,
                         int64_t step) {
    mg_nrep_rule r;
    mg_nrep_rule_default(&r);
    r.methods = methods;
    for (int m = 0; m < MG_NREP_NMETHODS; m++) r.thres[m] = thres, r.win[m] = win;
    r.min = min, r.max = max, r.step = step;
    return r;
}

static void test_rules(void) {
    const unsigned RSE = 1u << MG_NREP_RSE, CMEAN = 1u << MG_NREP_COV_MEAN,
                   CMED = 1u << MG_NREP_COV_MEDIAN;
    static const struct {
        const char *what;
        unsigned methods;
        double thres;
        int win;
        int64_t min, max, step, want;
        double (*x)(int64_t);
    } cases[] = {
        /* constant: RSE 0 from n = 2, so the first evaluation point stops */
        {"rse constant", 1u << MG_NREP_RSE, 0.025, 20, 20, 1000, 10, 20, constant},
        /* 1,3,1,3: RSE = 1 / (2 sqrt(n - 1)) < 0.025 first at an evaluation point n = 410 */
        {"rse alternating", 1u << MG_NREP_RSE, 0.025, 20, 20, 1000, 10, 410, alternating},
        {"rse step 1", 1u << MG_NREP_RSE, 0.025, 20, 20, 1000, 1, 402, alternating},
        /* never stable: the maximum ends it */
        {"rse max", 1u << MG_NREP_RSE, 0.025, 20, 20, 100, 10, 100, noisy},
        /* COV of the last 5 running means needs 5 of them */
        {"cov_mean window", 1u << MG_NREP_COV_MEAN, 0.01, 5, 2, 1000, 1, 5, constant},
        /* running median of 10,10,10,1000,... stays 10: COV of medians 0 once the window fills */
        {"cov_median outliers", 1u << MG_NREP_COV_MEDIAN, 0.01, 8, 2, 1000, 1, 8, outliers},
        /* the running means of the same sequence keep moving at first */
        {"cov_mean outliers", 1u << MG_NREP_COV_MEAN, 0.01, 8, 2, 1000, 1, -2, outliers},
        /* all selected methods must pass: RSE alone would stop at 402 */
        {"rse+cov_mean", (1u << MG_NREP_RSE) | (1u << MG_NREP_COV_MEAN), 0.025, 20, 20, 1000, 1,
         402, alternating},
        /* a ramp's median never settles within 100 */
        {"cov_median ramp", 1u << MG_NREP_COV_MEDIAN, 0.001, 10, 2, 100, 1, 100, ramp},
        /* no method: stop at min */
        {"none", 0, 0.0, 2, 7, 100, 1, 7, noisy},
    };
    (void)RSE, (void)CMEAN, (void)CMED;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mg_nrep_rule r = rule(cases[i].methods, cases[i].thres, cases[i].win, cases[i].min,
                              cases[i].max, cases[i].step);
        int64_t n = run(&r, cases[i].x, 100000);
        if (cases[i].want == -2) {
            CHECK(n > 8, "%s: stopped at %lld, want later than the window", cases[i].what,
                  (long long)n);
        } else {
            CHECK(n == cases[i].want, "%s: stopped at %lld, want %lld", cases[i].what, (long long)n,
                  (long long)cases[i].want);
        }
    }
}

static void test_values(void) {
    mg_nrep_rule r = rule(1u << MG_NREP_RSE, 0.0, 3, 1000, 1000, 1);
    mg_nrep_state s;
    CHECK(mg_nrep_begin(&s, &r) == 0, "begin");
    double v[] = {1, 2, 3, 4};
    for (int i = 0; i < 4; i++) mg_nrep_add(&s, v[i]);
    double sd = sqrt(5.0 / 3.0);
    CHECK(fabs(s.rse - sd / 2.0 / 2.5) < 1e-12, "rse %f", s.rse);
    CHECK(mg_nrep_median(&s) == 2.5, "median %f", mg_nrep_median(&s));
    /* running means 1.5, 2, 2.5 over the last 3 */
    double m[] = {1.5, 2.0, 2.5};
    CHECK(fabs(s.cov_mean - mg_nrep_cov_of(m, 3)) < 1e-12, "cov_mean %f", s.cov_mean);
    double med[] = {1.5, 2.0, 2.5};
    CHECK(fabs(s.cov_median - mg_nrep_cov_of(med, 3)) < 1e-12, "cov_median %f", s.cov_median);
    mg_nrep_end(&s);
    CHECK(fabs(mg_nrep_rse_of(v, 4) - sd / 2.0 / 2.5) < 1e-12, "rse_of");
    CHECK(mg_nrep_rse_of(v, 1) == INFINITY, "rse of one value");
    double z[] = {0, 0, 0};
    CHECK(mg_nrep_rse_of(z, 3) == 0.0 && mg_nrep_cov_of(z, 3) == 0.0, "zeros");
}

static void test_asia(void) {
    static const struct {
        double t1, l;
        int64_t k, max, want;
    } cases[] = {
        {0.01, 0.001, 5, 0, 10},     {0.01, 0.003, 5, 0, 5}, {0.01, 0.0025, 1, 0, 4},
        {1.0, 1e-6, 10, 1000, 1000}, {0.0, 1e-6, 10, 0, 10}, {1.0, 0.0, 10, 500, 500},
        {1.0, 0.0, 10, 0, 10},       {2.0, 0.5, 1, 3, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t n = mg_nrep_asia(cases[i].t1, cases[i].l, cases[i].k, cases[i].max);
        CHECK(n == cases[i].want, "t1=%g l=%g k=%lld max=%lld: %lld, want %lld", cases[i].t1,
              cases[i].l, (long long)cases[i].k, (long long)cases[i].max, (long long)n,
              (long long)cases[i].want);
    }
    double stable[] = {1, 1, 1, 1, 1}, shaky[] = {1, 2, 1, 2, 1};
    CHECK(!mg_nrep_asia_second_batch(stable, 5, 0.05), "stable batch: no second batch");
    CHECK(mg_nrep_asia_second_batch(shaky, 5, 0.05), "shaky batch (RSE 0.175): second batch");
}

static int parse(const char *line, mg_nrep_opts *o, char *err, size_t len) {
    char buf[1024], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " ")) argv[argc++] = t;
    return mg_nrep_parse(argc, argv, o, err, len);
}

static void test_options(void) {
    static const struct {
        const char *line, *err_prefix;
    } bad[] = {
        {"--pred-method=rsee", "--pred-method: unknown method 'rsee'"},
        {"--pred-method=hpcasia,rse", "--pred-method: hpcasia cannot be combined"},
        {"--pred-method=rse,cov_mean --var-thres=0.1,0.2,0.3", "--var-thres: give one threshold"},
        {"--var-thres=abc", "--var-thres: 'abc' is not a number"},
        {"--var-win=5", "--var-win: only the cov_mean and cov_median methods"},
        {"--pred-method=cov_mean --var-win=1", "--var-win: 1 is out of range"},
        {"--rep-prediction=min=50,max=10", "--rep-prediction: min 50 > max 10"},
        {"--rep-prediction=mni=5", "--rep-prediction: unknown key 'mni'"},
        {"--predictions=0", "--predictions: 0 is out of range"},
        {"--t1-thres=2", "--t1-thres: '2' is out of range"},
        {"--b1=1", "--b1: 1 is out of range"},
        {"--nrep=5", "--nrep: is an option of bench, not of nrep"},
        {"--rt-bench-time-ms=0", "--rt-bench-time-ms: '0' is out of range"},
        {"--interleave=5", "--interleave: is an option of bench"},
        {"--bogus", "--bogus: unknown option"},
        {"--proc-sync=window", "--proc-sync: window needs fixed"},
        {"--calls-list=MPI_Foo", "--calls-list: unknown collective"},
        {"--pred-method=hpcasia --var-thres=0.1", "--var-thres: not used by hpcasia"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mg_nrep_opts o;
        char err[600];
        int rc = parse(bad[i].line, &o, err, sizeof err);
        CHECK(rc == 2 && !strncmp(err, bad[i].err_prefix, strlen(bad[i].err_prefix)),
              "line '%s': rc %d '%s', want '%s'", bad[i].line, rc, err, bad[i].err_prefix);
        mg_nrep_opts_free(&o);
    }
    mg_nrep_opts o;
    char err[600];
    int rc = parse("--pred-method=cov_median,rse --var-thres=0.02,0.03 --var-win=15 "
                   "--rep-prediction=min=30,max=500,step=5 --predictions=3 "
                   "--calls-list=MPI_Bcast --msizes-list=1,8 --proc-sync roundtime",
                   &o, err, sizeof err);
    CHECK(rc == 0, "PGMPI line: %s", err);
    CHECK(o.rule.methods == ((1u << MG_NREP_COV_MEDIAN) | (1u << MG_NREP_RSE)), "methods");
    CHECK(o.rule.thres[MG_NREP_COV_MEDIAN] == 0.02 && o.rule.thres[MG_NREP_RSE] == 0.03,
          "thresholds follow the method order");
    CHECK(o.rule.win[MG_NREP_COV_MEDIAN] == 15, "window");
    CHECK(o.rule.min == 30 && o.rule.max == 500 && o.rule.step == 5 && o.predictions == 3,
          "bounds");
    CHECK(o.bench.ncalls == 1 && o.bench.nmsizes == 2 && o.bench.sync == MG_SYNC_ROUNDTIME,
          "bench options pass through");
    mg_nrep_opts_free(&o);
    rc = parse("--pred-method=hpcasia --t1-thres=0.02 --batch-thres=0.1 --b1=4 --b2=0 --k=3", &o,
               err, sizeof err);
    CHECK(rc == 0 && o.hpcasia && o.t1_thres == 0.02 && o.batch_thres == 0.1 && o.b1 == 4 &&
              o.b2 == 0 && o.k == 3 && o.rule.max == 100000,
          "hpcasia line: %s", err);
    mg_nrep_opts_free(&o);
    rc = parse("", &o, err, sizeof err);
    CHECK(rc == 0 && o.rule.methods == (1u << MG_NREP_RSE) && o.rule.thres[MG_NREP_RSE] == 0.025 &&
              o.rule.min == 20 && o.rule.max == 1000 && o.rule.step == 10 && !o.hpcasia &&
              o.bench.time_ms == MG_NREP_DEFAULT_BUDGET_MS,
          "defaults (budget %g ms)", o.bench.time_ms);
    mg_nrep_opts_free(&o);
    rc = parse("--rt-bench-time-ms=250", &o, err, sizeof err);
    CHECK(rc == 0 && o.bench.time_ms == 250, "a budget per prediction: %s", err);
    mg_nrep_opts_free(&o);
}

static void test_file(void) {
    mg_nrep_table t;
    char err[600];
    const char *text = "#@method=rse\n# comment\n\nMPI_Bcast 1 120\nMPI_Bcast 8 80\n"
                       "  MPI_Allreduce 8 33  \nMPI_Bcast 1 150\nbcast 64 5";
    CHECK(mg_nrep_table_parse(text, "n.txt", &t, err, sizeof err) == 0, "parse: %s", err);
    int bc = mg_coll_lookup("MPI_Bcast"), ar = mg_coll_lookup("MPI_Allreduce");
    CHECK(t.n == 4, "entries %d", t.n);
    CHECK(mg_nrep_table_get(&t, bc, 1) == 150, "a repeated row keeps the larger nrep");
    CHECK(mg_nrep_table_get(&t, bc, 8) == 80 && mg_nrep_table_get(&t, ar, 8) == 33, "rows");
    CHECK(mg_nrep_table_get(&t, bc, 64) == 5, "short name, no final newline");
    CHECK(mg_nrep_table_get(&t, ar, 1) == -1, "absent");
    mg_nrep_table_free(&t);
    static const struct {
        const char *text, *err;
    } bad[] = {
        {"MPI_Bcast 1\n", "n.txt:1: expected `test msize nrep`"},
        {"# ok\nMPI_Bcast 1 0\n", "n.txt:2: expected `test msize nrep` (nrep >= 1)"},
        {"MPI_Bcast 1 5 extra\n", "n.txt:1: expected"},
        {"MPI_Bcast x 5\n", "n.txt:1: expected"},
        {"MPI_Foo 1 5\n", "n.txt:1: unknown collective 'MPI_Foo'"},
        {"MPI_Bcast -1 5\n", "n.txt:1: expected"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = mg_nrep_table_parse(bad[i].text, "n.txt", &t, err, sizeof err);
        CHECK(rc == 2 && !strncmp(err, bad[i].err, strlen(bad[i].err)), "'%s': rc %d '%s'",
              bad[i].text, rc, err);
    }
}

int main(void) {
    test_rules();
    test_values();
    test_asia();
    test_options();
    test_file();
    return DONE();
}
