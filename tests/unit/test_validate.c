/* The pruning rule of the validation (src/analyze/validate.c) on synthetic raw data: an entry
 * is kept only when tuned is significantly faster than the default in every validation launch
 * (same test and correction as the check), at least min_gain / 2 faster in the slowest and
 * min_gain faster over the launches;
 * otherwise it leaves the profile, splitting a range, and the summary, tables and report say
 * "rejected by validation". Sizes without an entry are a no-regression check. */
#include "algid/algid.h"
#include "report/report.h"
#include "catalog/catalog.h"
#include "check.h"
#include "profile/profile.h"
#include "synth.h"

#define AR   "MPI_Allreduce"
#define MOCK "allreduce_as_reduce_bcast"

/* Three check launches in which MOCK is 40 % faster than the default at every size given. */
static void check_data(const char *dir, const long long *sizes, int n) {
    for (int i = 0; i < n; i++) {
        synth_series(dir, 3, AR, "default", sizes[i], 20e-6, 0.03, 60);
        synth_series(dir, 3, AR, MOCK, sizes[i], 12e-6, 0.03, 60);
    }
}

/* Validation launch k: default and tuned at msize with the given medians. */
static void val_rows(const char *dir, int k, long long msize, double def, double tuned, int n,
                     double noise, const char *extra) {
    FILE *f = synth_open_tuned(dir, k, AR, 4, extra);
    if (!f) return;
    synth_rows(f, AR, "default", msize, def, noise, n);
    synth_rows(f, AR, "tuned", msize, tuned, noise, n);
    fclose(f);
}

typedef struct run {
    mg_dataset ds;
    mg_analysis a;
} run;

/* Analyses dir (writing its outputs as `analyze` does) and keeps the model for inspection. */
static int analyse(const char *dir, run *r) {
    mg_analyze_opts o;
    mg_analyze_opts_init(&o);
    o.out = NULL;
    char *dirs[1] = {(char *)dir};
    int rc = mg_analyze_dirs(&o, dirs, 1);
    char err[600];
    mg_dataset_init(&r->ds);
    memset(&r->a, 0, sizeof r->a);
    if (mg_dataset_add_path(&r->ds, dir, err, sizeof err) < 0) return -1;
    if (mg_analysis_run(&r->a, &r->ds, &o)) return -1;
    return rc;
}

static void done(run *r, char *dir) {
    mg_analysis_free(&r->a);
    mg_dataset_free(&r->ds);
    synth_rmrf(dir);
}

static const mg_point *point(const run *r, const char *coll, long long msize) {
    for (int ci = 0; ci < r->a.ncolls; ci++) {
        if (strcmp(mg_name(&r->a, r->a.colls[ci].name), coll)) continue;
        for (int pi = 0; pi < r->a.colls[ci].npoints; pi++)
            if (r->a.colls[ci].points[pi].msize == msize) return &r->a.colls[ci].points[pi];
    }
    return NULL;
}

static char *read_out(const char *dir, const char *name) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return synth_slurp(path);
}

/* The profile of dir/profiles/<file>, parsed; 0 when it parses. */
static int load_profile(const char *dir, const char *file, mg_profile *p) {
    char *text = read_out(dir, file);
    mg_perr err;
    int rc = text ? mg_profile_parse(text, strlen(text), p, &err) : -1;
    if (text && rc) fprintf(stderr, "%s: %d: %s\n", file, err.line, err.what);
    free(text);
    return rc;
}

static const long long three[] = {64, 1024, 65536};

/* Every entry holds in both launches: one range, a #@validated line per size. */
static void holds(void) {
    char *dir = synth_tmpdir();
    synth_seed(1);
    check_data(dir, three, 3);
    for (int k = 1; k <= 2; k++)
        for (int i = 0; i < 3; i++) val_rows(dir, k, three[i], 20e-6, 12.2e-6, 60, 0.03, NULL);
    run r;
    CHECK(analyse(dir, &r) == 0, "holds: analysis");
    for (int i = 0; i < 3; i++) {
        const mg_point *pt = point(&r, AR, three[i]);
        CHECK(pt && pt->val == MG_VAL_KEPT && pt->profile >= 0 && pt->val_launches == 2 &&
                  pt->val_speedup > 1.5 && pt->val_speedup < 1.8 && pt->val_p_adj < 0.05,
              "holds: %lld kept (val %d, speed-up %g, p_adj %g)", three[i], pt ? pt->val : -1,
              pt ? pt->val_speedup : 0, pt ? pt->val_p_adj : 1);
    }
    CHECK(r.a.nkept == 3 && r.a.nrejected == 0 && r.a.nval_tests == 3, "holds: counts %d %d %d",
          r.a.nkept, r.a.nrejected, r.a.nval_tests);
    mg_verdict vd;
    mg_verdict_of(&r.a, &vd);
    CHECK(!vd.drift[0], "holds: launches alike, no drift line: '%s'", vd.drift);
    mg_profile p;
    if (load_profile(dir, "profiles/MPI_Allreduce_p4.prf", &p) == 0) {
        CHECK(p.nranges == 1 && p.ranges[0].lo == 64 && p.ranges[0].hi == 65536,
              "holds: one range 64..65536 (%d ranges)", p.nranges);
        CHECK(p.nvalid == 3 && p.valid[0].launches == 2 && !strcmp(p.valid[0].alg, MOCK),
              "holds: #@validated lines %d", p.nvalid);
        mg_profile_free(&p);
    } else {
        CHECK(0, "holds: no valid profile");
    }
    done(&r, dir);
}

/* The middle size is slower in the second launch: rejected, and the range splits in two. */
static void one_launch_slower(void) {
    char *dir = synth_tmpdir();
    synth_seed(2);
    check_data(dir, three, 3);
    for (int k = 1; k <= 2; k++)
        for (int i = 0; i < 3; i++)
            val_rows(dir, k, three[i], 20e-6, (i == 1 && k == 2) ? 25e-6 : 12.2e-6, 60, 0.03, NULL);
    run r;
    CHECK(analyse(dir, &r) == 0, "slower: analysis");
    const mg_point *mid = point(&r, AR, 1024);
    char b[160];
    CHECK(
        mid && mid->val == MG_VAL_REJECTED && mid->profile < 0 && mid->candidate >= 0 &&
            mid->val_faster == 1 &&
            !strcmp(mg_val_verdict(&r.a, mid, b, sizeof b), "rejected: slower in 1 of 2 launches"),
        "slower: 1024 rejected: %s", mid ? mg_val_verdict(&r.a, mid, b, sizeof b) : "?");
    CHECK(r.a.nkept == 2 && r.a.nrejected == 1, "slower: counts %d %d", r.a.nkept, r.a.nrejected);
    mg_profile p;
    if (load_profile(dir, "profiles/MPI_Allreduce_p4.prf", &p) == 0) {
        /* the rejected size runs the default up to the log midpoints of its neighbours */
        int sel = mg_profile_select_linear(&p, 1024);
        CHECK(p.nranges == 3 && p.ranges[0].lo == 64 && p.ranges[0].hi == 256 &&
                  p.ranges[1].lo == 257 && p.ranges[1].hi == 8192 && p.ranges[2].hi == 65536 &&
                  sel >= 0 && !strcmp(mg_alg_name(sel), "default") &&
                  !strcmp(mg_alg_name(mg_profile_select_linear(&p, 65536)), MOCK) && p.nvalid == 2,
              "slower: the range splits around 1024 (%d ranges, %d validated)", p.nranges,
              p.nvalid);
        mg_profile_free(&p);
    } else {
        CHECK(0, "slower: no valid profile");
    }
    char *s = read_out(dir, "summary.txt"), *h = read_out(dir, "report.html");
    CHECK(s && strstr(s, "rejected  MPI_Allreduce 1 KiB -> " MOCK) &&
              strstr(s, "slower in 1 of 2 launches") && strstr(s, "kept 2, rejected 1"),
          "slower: summary lists the rejected entry:\n%s", s ? s : "");
    CHECK(h && strstr(h, "rejected by validation") && strstr(h, "id=\"verdict\"") &&
              strstr(h, "2 profile entries kept, 1 rejected by validation"),
          "slower: the report says so");
    CHECK(h && strstr(h, "id=\"verdict\"") < strstr(h, "<h2>Summary</h2>"),
          "slower: the verdict comes before the summary");
    free(s);
    free(h);
    done(&r, dir);
}

/* Faster, but three observations per launch cannot be significant (exact rank-sum: p >= 0.05
 * per launch); faster by only 3 %; faster by 8 % in every launch, significantly, which passes
 * the slowest-launch bar (1.053x) but not the check's --min-gain over the launches (1.111x); and
 * faster by 5.0 %, just under the slowest-launch bar, which the verdict must show with the
 * digits that tell the two apart: all rejected, each for its own reason. */
static void weak(void) {
    char *dir = synth_tmpdir();
    synth_seed(3);
    const long long sizes[] = {64, 1024, 16384, 65536};
    check_data(dir, sizes, 4);
    for (int k = 1; k <= 2; k++) {
        val_rows(dir, k, 64, 20e-6, 10e-6, 3, 0.01, NULL);
        val_rows(dir, k, 1024, 20e-6, 19.4e-6, 300, 0.002, NULL);
        val_rows(dir, k, 16384, 20e-6, 20e-6 / 1.08, 300, 0.002, NULL);
        val_rows(dir, k, 65536, 20e-6, 20e-6 / 1.05, 300, 0.002, NULL);
    }
    run r;
    CHECK(analyse(dir, &r) == 0, "weak: analysis");
    const mg_point *a = point(&r, AR, 64), *b = point(&r, AR, 1024);
    char v[160];
    CHECK(a && a->val == MG_VAL_REJECTED &&
              strstr(mg_val_verdict(&r.a, a, v, sizeof v), "not significant"),
          "weak: 64 not significant: %s (p_adj %g)", a ? mg_val_verdict(&r.a, a, v, sizeof v) : "?",
          a ? a->val_p_adj : 0);
    CHECK(b && b->val == MG_VAL_REJECTED && b->val_p_adj < 0.05 &&
              strstr(mg_val_verdict(&r.a, b, v, sizeof v), "< 1.05x in a launch"),
          "weak: 1024 too small a gain: %s (speed-up %g)",
          b ? mg_val_verdict(&r.a, b, v, sizeof v) : "?", b ? b->val_speedup_min : 0);
    const mg_point *c = point(&r, AR, 16384);
    CHECK(c && c->val == MG_VAL_REJECTED && c->val_p_adj < 0.05 && c->val_speedup_min > 1.053 &&
              strstr(mg_val_verdict(&r.a, c, v, sizeof v), "< 1.11x (--min-gain)"),
          "weak: 16384 under the check's gain: %s (speed-up %g, slowest %g)",
          c ? mg_val_verdict(&r.a, c, v, sizeof v) : "?", c ? c->val_speedup : 0,
          c ? c->val_speedup_min : 0);
    const mg_point *d = point(&r, AR, 65536);
    CHECK(d && d->val == MG_VAL_REJECTED && d->val_p_adj < 0.05 &&
              strstr(mg_val_verdict(&r.a, d, v, sizeof v), "x < 1.053x in a launch") &&
              !strstr(v, "1.05x < 1.05x"),
          "weak: 65536 just under the slowest-launch bar: %s (slowest %.5f)",
          d ? mg_val_verdict(&r.a, d, v, sizeof v) : "?", d ? d->val_speedup_min : 0);
    mg_profile p;
    if (load_profile(dir, "profiles/MPI_Allreduce_p4.prf", &p) == 0) {
        int mock = 0;
        for (int i = 0; i < p.nranges; i++) mock += strcmp(mg_alg_name(p.ranges[i].alg), "default");
        CHECK(mock == 0 && p.nvalid == 0, "weak: no entry left (%d mock-up ranges)", mock);
        mg_profile_free(&p);
    } else {
        CHECK(0, "weak: no valid profile");
    }
    done(&r, dir);
}

/* A size absent from one validation launch cannot have held in every one. */
static void missing_launch(void) {
    char *dir = synth_tmpdir();
    synth_seed(4);
    const long long two[] = {64, 1024};
    check_data(dir, two, 2);
    val_rows(dir, 1, 64, 20e-6, 12e-6, 60, 0.03, NULL);
    val_rows(dir, 1, 1024, 20e-6, 12e-6, 60, 0.03, NULL);
    val_rows(dir, 2, 64, 20e-6, 12e-6, 60, 0.03, NULL);
    run r;
    CHECK(analyse(dir, &r) == 0, "missing: analysis");
    const mg_point *pt = point(&r, AR, 1024);
    char v[160];
    CHECK(pt && pt->val == MG_VAL_REJECTED && pt->val_expected == 2 && pt->val_launches == 1 &&
              strstr(mg_val_verdict(&r.a, pt, v, sizeof v), "not measured in every"),
          "missing: 1024 rejected: %s", pt ? mg_val_verdict(&r.a, pt, v, sizeof v) : "?");
    CHECK(point(&r, AR, 64)->val == MG_VAL_KEPT, "missing: 64 kept");
    done(&r, dir);
}

/* Without validation data the candidates stand (a plain check), unvalidated. */
static void unvalidated(void) {
    char *dir = synth_tmpdir();
    synth_seed(5);
    check_data(dir, three, 3);
    run r;
    CHECK(analyse(dir, &r) == 0, "unvalidated: analysis");
    const mg_point *pt = point(&r, AR, 1024);
    CHECK(pt && pt->val == MG_VAL_NONE && pt->profile >= 0, "unvalidated: the entry stands");
    mg_profile p;
    if (load_profile(dir, "profiles/MPI_Allreduce_p4.prf", &p) == 0) {
        CHECK(p.nranges == 1 && p.nvalid == 0, "unvalidated: no #@validated lines");
        mg_profile_free(&p);
    } else {
        CHECK(0, "unvalidated: no profile");
    }
    mg_verdict v;
    mg_verdict_of(&r.a, &v);
    CHECK(strstr(v.entries, "3 profile entries, not validated") && !v.machine[0],
          "unvalidated: verdict '%s'", v.entries);
    done(&r, dir);
}

/* Rows without an entry: tuned is the library's own collective. Equal: no regression; 30 %
 * slower in an oversubscribed launch: reported as slower, with the machine named as the cause. */
static void no_entry(void) {
    char *dir = synth_tmpdir();
    synth_seed(6);
    const long long two[] = {64, 1024};
    for (int i = 0; i < 2; i++) {
        synth_series(dir, 3, AR, "default", two[i], 20e-6, 0.03, 60);
        synth_series(dir, 3, AR, MOCK, two[i], 30e-6, 0.03, 60);
    }
    const char *over = "#@oversubscribed=1\n#@node_ranks=4\n#@node_cores=2\n#@busy_poll=1\n";
    for (int k = 1; k <= 2; k++) {
        val_rows(dir, k, 64, 20e-6, 20e-6, 60, 0.03, over);
        val_rows(dir, k, 1024, 20e-6, 28e-6, 60, 0.03, NULL);
    }
    run r;
    CHECK(analyse(dir, &r) == 0, "no entry: analysis");
    const mg_point *eq = point(&r, AR, 64), *slow = point(&r, AR, 1024);
    char v[160];
    CHECK(eq && eq->val == MG_VAL_NOENTRY &&
              !strcmp(mg_val_verdict(&r.a, eq, v, sizeof v), "no entry: no regression"),
          "no entry: 64: %s", eq ? mg_val_verdict(&r.a, eq, v, sizeof v) : "?");
    CHECK(slow && slow->val == MG_VAL_NOENTRY &&
              strstr(mg_val_verdict(&r.a, slow, v, sizeof v), "slower (oversubscribed: noise)"),
          "no entry: 1024: %s", slow ? mg_val_verdict(&r.a, slow, v, sizeof v) : "?");
    CHECK(r.a.nnoentry == 2 && r.a.nnoentry_slow == 1 && r.a.oversub && r.a.busy_poll &&
              r.a.oversub_ranks == 4 && r.a.oversub_cores == 2,
          "no entry: counts %d %d, machine %d %d/%d", r.a.nnoentry, r.a.nnoentry_slow, r.a.oversub,
          r.a.oversub_ranks, r.a.oversub_cores);
    mg_verdict vd;
    mg_verdict_of(&r.a, &vd);
    CHECK(strstr(vd.machine, "timings are not trustworthy: 4 ranks on 2 cores (MPICH busy-polls"),
          "no entry: machine line '%s'", vd.machine);
    char *s = read_out(dir, "summary.txt"), *h = read_out(dir, "report.html");
    CHECK(s && strstr(s, "machine:     timings are not trustworthy: 4 ranks on 2 cores") &&
              strstr(s, "1 slower than 0.95x (the machine is oversubscribed: noise)"),
          "no entry: summary:\n%s", s ? s : "");
    CHECK(h && strstr(h, "<li class=\"warn\">timings are not trustworthy: 4 ranks on 2 cores"),
          "no entry: the report warns at the top");
    free(s);
    free(h);
    done(&r, dir);
}

/* Issue 26: a check launch whose raw file ends with the bench's `#@busy` lines (other
 * processes shared the cores) makes the summary, the verdict and the report say the timings are
 * not trustworthy, with the worst launch's numbers, and names the machine as the noise of a
 * slower size; without them nothing is said. */
static void busy_machine(void) {
    for (int busy = 0; busy < 2; busy++) {
        char *dir = synth_tmpdir();
        synth_seed(16);
        synth_series(dir, 2, AR, "default", 64, 20e-6, 0.03, 60);
        synth_series(dir, 2, AR, MOCK, 64, 30e-6, 0.03, 60);
        for (int l = 0; busy && l < 2; l++) { /* the trailer, after the rows */
            FILE *f = synth_open(dir, l, AR, 4);
            if (f)
                fprintf(f, "#@busy=1\n#@busy_switches_per_s=%d\n#@busy_cpu_share=%s\n",
                        l ? 120 : 40, l ? "0.45" : "0.80");
            if (f) fclose(f);
        }
        for (int k = 1; k <= 2; k++) val_rows(dir, k, 64, 20e-6, 28e-6, 60, 0.03, NULL);
        run r;
        CHECK(analyse(dir, &r) == 0, "busy %d: analysis", busy);
        mg_verdict vd;
        mg_verdict_of(&r.a, &vd);
        const char *want = "timings are not trustworthy: other processes shared the cores (a "
                           "rank was switched out of its core 120 times a second and got 45% of "
                           "one)";
        CHECK(busy ? r.a.busy && !strcmp(vd.machine, want) : !r.a.busy && !vd.machine[0],
              "busy %d: machine line '%s'", busy, vd.machine);
        char *s = read_out(dir, "summary.txt"), *h = read_out(dir, "report.html");
        CHECK(!busy || (s && strstr(s, want) &&
                        strstr(s, "1 slower than 0.95x (other processes shared the cores: noise)")),
              "busy: summary:\n%s", s ? s : "");
        CHECK(!busy || (h && strstr(h, "<li class=\"warn\">timings are not trustworthy: other")),
              "busy: the report warns at the top");
        free(s);
        free(h);
        done(&r, dir);
    }
}

/* A v-collective's profile is one range for all sizes: one rejected size removes it. */
static void vcollective(void) {
    char *dir = synth_tmpdir();
    synth_seed(7);
    const char *gv = "MPI_Gatherv", *mock = "gatherv_as_tuw";
    for (int i = 0; i < 2; i++) {
        synth_series(dir, 3, gv, "default", i ? 1024 : 64, 20e-6, 0.03, 60);
        synth_series(dir, 3, gv, mock, i ? 1024 : 64, 12e-6, 0.03, 60);
    }
    for (int k = 1; k <= 2; k++) {
        FILE *f = synth_open_tuned(dir, k, gv, 4, NULL);
        synth_rows(f, gv, "default", 64, 20e-6, 0.03, 60);
        synth_rows(f, gv, "tuned", 64, 12e-6, 0.03, 60);
        synth_rows(f, gv, "default", 1024, 20e-6, 0.03, 60);
        synth_rows(f, gv, "tuned", 1024, 21e-6, 0.03, 60);
        fclose(f);
    }
    run r;
    CHECK(analyse(dir, &r) == 0, "gatherv: analysis");
    const mg_point *a = point(&r, gv, 64), *b = point(&r, gv, 1024);
    CHECK(a && b && a->candidate >= 0 && b->val == MG_VAL_REJECTED && a->val == MG_VAL_REJECTED,
          "gatherv: both sizes rejected with the profile (%d %d)", a ? a->val : -1,
          b ? b->val : -1);
    mg_profile p;
    if (load_profile(dir, "profiles/MPI_Gatherv_p4.prf", &p) == 0) {
        CHECK(p.nranges == 1 && !strcmp(mg_alg_name(p.ranges[0].alg), "default") && p.nvalid == 0,
              "gatherv: the one range runs the default (%d ranges)", p.nranges);
        mg_profile_free(&p);
    } else {
        CHECK(0, "gatherv: no valid profile");
    }
    done(&r, dir);
}

/* A disturbed launch (every algorithm 40x slower, no difference between them) is set aside at
 * that size, in the check and in the validation, and said so; the rest decides. Four check
 * launches, the fourth disturbed at 1 KiB: the mock-up is a candidate there all the same. Three
 * validation launches with one disturbed: kept on the other two. Two with one disturbed: one
 * is left, fewer than the two an entry needs: rejected, saying why. */
static void disturbed(void) {
    for (int nval = 3; nval >= 2; nval--) {
        char *dir = synth_tmpdir();
        synth_seed(10 + (uint64_t)nval);
        for (int l = 0; l < 4; l++) {
            FILE *f = synth_open(dir, l, AR, 4);
            if (!f) continue;
            int bad = l == 3;
            synth_rows(f, AR, "default", 1024, bad ? 800e-6 : 20e-6, 0.03, 60);
            synth_rows(f, AR, MOCK, 1024, bad ? 800e-6 : 12e-6, 0.03, 60);
            fclose(f);
        }
        for (int k = 1; k <= nval; k++)
            val_rows(dir, k, 1024, k == 2 ? 800e-6 : 20e-6, k == 2 ? 800e-6 : 12.2e-6, 60, 0.03,
                     NULL);
        run r;
        CHECK(analyse(dir, &r) == 0, "disturbed %d: analysis", nval);
        const mg_point *pt = point(&r, AR, 1024);
        char b[160];
        const char *v = pt ? mg_val_verdict(&r.a, pt, b, sizeof b) : "?";
        CHECK(pt && pt->set_aside == 1 && pt->aside == 1ULL << 3 && pt->candidate >= 0 &&
                  pt->val_set_aside == 1,
              "disturbed %d: launch 4 and validation launch 2 set aside, the mock-up a candidate "
              "(set aside %d, candidate %d, validation set aside %d)",
              nval, pt ? pt->set_aside : -1, pt ? pt->candidate : -1, pt ? pt->val_set_aside : -1);
        if (nval == 3)
            CHECK(pt && pt->val == MG_VAL_KEPT && pt->val_launches == 2,
                  "disturbed 3: kept on two launches: %s", v);
        else
            CHECK(
                pt && pt->val == MG_VAL_REJECTED &&
                    !strcmp(v, "rejected: 1 validation launch left after 1 set aside as disturbed"),
                "disturbed 2: rejected: %s", v);
        char *s = read_out(dir, "summary.txt");
        CHECK(s && strstr(s, "Disturbed launches set aside (2;") &&
                  strstr(s, "raw/launch-3 set aside") && strstr(s, "tuned/launch-2 set aside") &&
                  !strstr(s, "missing in"),
              "disturbed %d: the summary lists both, and nothing as missing:\n%s", nval,
              s ? s : "");
        free(s);
        done(&r, dir);
    }
}

/* n observations of alg at msize on a machine that runs at half speed from observation nfast
 * on (a speed step, as on a virtual machine): base, then 2 * base. */
static void stepped_rows(FILE *f, const char *alg, long long msize, double base, int nfast, int n) {
    for (int i = 0; i < n; i++)
        fprintf(f, "%s %s %d %lld %.9e\n", AR, alg, i, msize,
                base * (i < nfast ? 1 : 2) * exp(0.01 * synth_normal()));
}

/* The validation file of launch k with its own header (synth_open_tuned says interleave=10). */
static FILE *tuned_file(const char *outdir, int k, const char *header) {
    char d[512], path[600];
    snprintf(d, sizeof d, "%s/tuned/launch-%d", outdir, k);
    synth_mkdirs(d);
    snprintf(path, sizeof path, "%s/%s.dat", d, AR);
    FILE *f = fopen(path, "w");
    if (f) fprintf(f, "#@nprocs=4\n%s", header);
    return f;
}

/* The speed step falls between the batches of one round (interleave=10): the default saw it at
 * observation 210, the tuned library at 190, so the default's median lies in the fast step and
 * the tuned library's in the slow one. Per round the two ran alike (64 B, no entry) or tuned
 * 1.6x faster (1 KiB, an entry). The ratio of the two medians reads 0.5x and 0.8x, a
 * regression and a rejected entry; the paired rounds read 1x and 1.6x. Without rounds to pair
 * (no #@interleave, or a value bench would not write) the launch's speed-up is the ratio of
 * the medians. */
static void stepped(const char *header, int paired) {
    char *dir = synth_tmpdir();
    synth_seed(20);
    synth_series(dir, 3, AR, "default", 64, 20e-6, 0.03, 60);
    synth_series(dir, 3, AR, MOCK, 64, 30e-6, 0.03, 60);
    synth_series(dir, 3, AR, "default", 1024, 20e-6, 0.03, 60);
    synth_series(dir, 3, AR, MOCK, 1024, 12e-6, 0.03, 60);
    for (int k = 1; k <= 2; k++) {
        FILE *f = tuned_file(dir, k, header);
        if (!f) continue;
        stepped_rows(f, "default", 64, 20e-6, 210, 400);
        stepped_rows(f, "tuned", 64, 20e-6, 190, 400);
        stepped_rows(f, "default", 1024, 20e-6, 210, 400);
        stepped_rows(f, "tuned", 1024, 12.5e-6, 190, 400);
        fclose(f);
    }
    run r;
    CHECK(analyse(dir, &r) == 0, "stepped %s: analysis", header);
    const mg_point *eq = point(&r, AR, 64), *fast = point(&r, AR, 1024);
    char v[160];
    double want_eq = paired ? 1 : 0.5, want_fast = paired ? 1.6 : 0.8;
    CHECK(eq && eq->val == MG_VAL_NOENTRY && fabs(eq->val_speedup - want_eq) < 0.05,
          "stepped %s: 64 at %gx: %s (speed-up %g)", header, want_eq,
          eq ? mg_val_verdict(&r.a, eq, v, sizeof v) : "?", eq ? eq->val_speedup : 0);
    CHECK(fast && fast->val == (paired ? MG_VAL_KEPT : MG_VAL_REJECTED) &&
              fabs(fast->val_speedup - want_fast) < 0.1 &&
              fabs(fast->val_speedup_min - want_fast) < 0.1,
          "stepped %s: 1024 at %gx: %s (speed-up %g, slowest %g)", header, want_fast,
          fast ? mg_val_verdict(&r.a, fast, v, sizeof v) : "?", fast ? fast->val_speedup : 0,
          fast ? fast->val_speedup_min : 0);
    CHECK(r.a.nnoentry_slow == !paired, "stepped %s: %d slower rows", header, r.a.nnoentry_slow);
    if (paired)
        CHECK(eq && !strcmp(mg_val_verdict(&r.a, eq, v, sizeof v), "no entry: no regression"),
              "stepped %s: 64: %s", header, eq ? mg_val_verdict(&r.a, eq, v, sizeof v) : "?");
    done(&r, dir);
}

/* The machine ran each check launch at another speed (the default's median 20, 32 and 24 us at
 * every size): the verdict, the summary and the report say the timings drift, 1.6x. */
static void drift(void) {
    char *dir = synth_tmpdir();
    synth_seed(30);
    static const double speed[3] = {1.0, 1.6, 1.2};
    for (int l = 0; l < 3; l++) {
        FILE *f = synth_open(dir, l, AR, 4);
        if (!f) continue;
        for (int i = 0; i < 3; i++) {
            synth_rows(f, AR, "default", three[i], 20e-6 * speed[l], 0.01, 60);
            synth_rows(f, AR, MOCK, three[i], 12e-6 * speed[l], 0.01, 60);
        }
        fclose(f);
    }
    run r;
    CHECK(analyse(dir, &r) == 0, "drift: analysis");
    double med, max;
    int n = mg_an_drift(&r.a, &med, &max);
    CHECK(n == 3 && fabs(med - 1.6) < 0.03 && fabs(max - 1.6) < 0.05,
          "drift: 3 sizes at 1.6x (%d, %g, %g)", n, med, max);
    mg_verdict vd;
    mg_verdict_of(&r.a, &vd);
    CHECK(strstr(vd.drift, "timings drift between launches: the default's median moved by 1.6") &&
              strstr(vd.drift, "over 3 sizes"),
          "drift: verdict '%s'", vd.drift);
    char *s = read_out(dir, "summary.txt"), *h = read_out(dir, "report.html");
    CHECK(s && strstr(s, "  drift:       the default's median moved by 1.6") &&
              strstr(s, "may not repeat"),
          "drift: summary:\n%s", s ? s : "");
    CHECK(h && strstr(h, "<li class=\"warn\">timings drift between launches"),
          "drift: the report warns at the top");
    free(s);
    free(h);
    done(&r, dir);
}

int main(void) {
    drift();
    stepped("#@interleave=10\n", 1);
    stepped("", 0);
    stepped("#@interleave=2305843009213693952\n", 0);
    stepped("#@interleave=10x\n", 0);
    holds();
    one_launch_slower();
    weak();
    missing_launch();
    unvalidated();
    no_entry();
    busy_machine();
    vcollective();
    disturbed();
    return DONE();
}
