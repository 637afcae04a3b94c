/* Problem types of Träff's section 5: exact definitions, determinism in the seed, the totals m
 * and m' of the paper's Tables 1-3 (p = 560), names, and the table layout. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "check.h"
#include "model/problems.h"
#include "model/problems_table.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int64_t c[70000], d[70000];

static void definitions(int p, int64_t b) {
    for (int t = 0; t < MG_PROBLEM_COUNT; t++) {
        mg_problem_counts(t, p, b, 5.0, 42, c);
        mg_problem_counts(t, p, b, 5.0, 42, d);
        CHECK(!memcmp(c, d, sizeof(int64_t) * (size_t)p), "%s p=%d: not deterministic",
              mg_problem_name(t), p);
        int ok = 1;
        for (int i = 0; i < p; i++) {
            int64_t m = c[i];
            switch (t) {
            case MG_PROBLEM_SAME:
                ok &= m == b;
                break;
            case MG_PROBLEM_RANDOM:
                ok &= m >= 1 && m <= 2 * b;
                break;
            case MG_PROBLEM_SPIKES:
                ok &= m == 5 * b || m == 1;
                break;
            case MG_PROBLEM_DECREASING:
                ok &= m == (2 * b * (p - i)) / p + 1;
                break;
            case MG_PROBLEM_ALTERNATING:
                ok &= m == (i % 2 ? b - b / 2 : b + b / 2);
                break;
            case MG_PROBLEM_TWOBLOCKS:
                ok &= m == (i == 0 || i == p - 1 ? b : 0);
                break;
            }
        }
        CHECK(ok, "%s p=%d b=%lld: a block outside the definition", mg_problem_name(t), p,
              (long long)b);
    }
}

/* Spike frequency 1/rho, random mean b + 1/2 (weak statistical checks on many ranks). */
static void statistics(void) {
    int p = 60000;
    mg_problem_counts(MG_PROBLEM_SPIKES, p, 10, 5.0, 7, c);
    int spikes = 0;
    for (int i = 0; i < p; i++) spikes += c[i] == 50;
    CHECK(spikes > p / 5 - 600 && spikes < p / 5 + 600, "spikes: %d of %d", spikes, p);
    mg_problem_counts(MG_PROBLEM_SPIKES, p, 10, 2.5, 7, c);
    spikes = 0;
    for (int i = 0; i < p; i++) spikes += c[i] == 25;
    CHECK(spikes > p * 2 / 5 - 700 && spikes < p * 2 / 5 + 700, "spikes rho=2.5: %d", spikes);
    mg_problem_counts(MG_PROBLEM_RANDOM, p, 100, 5.0, 7, c);
    double sum = 0;
    int lo = 0, hi = 0;
    for (int i = 0; i < p; i++) sum += (double)c[i], lo += c[i] == 1, hi += c[i] == 200;
    CHECK(sum / p > 99.0 && sum / p < 102.0, "random mean %.2f, expected 100.5", sum / p);
    CHECK(lo > 0 && hi > 0, "random never hits an end of [1, 2b]");
    mg_problem_counts(MG_PROBLEM_RANDOM, p, 100, 5.0, 8, d);
    CHECK(memcmp(c, d, sizeof(int64_t) * (size_t)p), "random: seed ignored");
}

/* m and m' of the deterministic problems in Tables 1-3 (p = 35 x 16 = 560). */
static void paper_totals(void) {
    static const struct {
        int type;
        int64_t b, m, mpad;
    } rows[] = {
        {MG_PROBLEM_SAME, 1, 560, 560},
        {MG_PROBLEM_SAME, 10000, 5600000, 5600000},
        {MG_PROBLEM_DECREASING, 1, 842, 1680},
        {MG_PROBLEM_DECREASING, 10, 5900, 11760},
        {MG_PROBLEM_DECREASING, 100, 56400, 112560},
        {MG_PROBLEM_DECREASING, 1000, 561320, 1120560},
        {MG_PROBLEM_DECREASING, 10000, 5610320, 11200560},
        {MG_PROBLEM_ALTERNATING, 1, 560, 560},
        {MG_PROBLEM_ALTERNATING, 10, 5600, 8400},
        {MG_PROBLEM_ALTERNATING, 10000, 5600000, 8400000},
        {MG_PROBLEM_TWOBLOCKS, 1, 2, 560},
        {MG_PROBLEM_TWOBLOCKS, 10000, 20000, 5600000},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        int64_t m, mpad;
        mg_irr_totals(rows[k].type, 560, rows[k].b, 5.0, 1, &m, &mpad);
        CHECK(m == rows[k].m && mpad == rows[k].mpad, "%s b=%lld: m=%lld m'=%lld, paper %lld %lld",
              mg_problem_name(rows[k].type), (long long)rows[k].b, (long long)m, (long long)mpad,
              (long long)rows[k].m, (long long)rows[k].mpad);
    }
    /* Random and spikes depend on the generator; the paper's m is near pb and 1.8pb. */
    int64_t m, mpad;
    mg_irr_totals(MG_PROBLEM_RANDOM, 560, 1000, 5.0, 1, &m, &mpad);
    CHECK(m > 520000 && m < 600000 && mpad <= 1120000, "random b=1000: m=%lld", (long long)m);
    mg_irr_totals(MG_PROBLEM_SPIKES, 560, 1000, 5.0, 1, &m, &mpad);
    CHECK(m > 400000 && m < 750000 && mpad == 2800000, "spikes b=1000: m=%lld m'=%lld",
          (long long)m, (long long)mpad);
}

static void names(void) {
    for (int t = 0; t < MG_PROBLEM_COUNT; t++)
        CHECK(mg_problem_parse(mg_problem_name(t)) == t, "name round trip %d", t);
    CHECK(mg_problem_parse("Spikes") == MG_PROBLEM_SPIKES, "case-insensitive");
    CHECK(mg_problem_parse("two-blocks") == MG_PROBLEM_TWOBLOCKS, "two-blocks alias");
    CHECK(mg_problem_parse("bogus") == -1 && mg_problem_parse(NULL) == -1, "unknown names");
    CHECK(!strcmp(mg_problem_name(99), "unknown"), "out of range name");
}

static void table(void) {
    mg_irr_row rows[2] = {
        {MG_PROBLEM_SAME, 1, 8, 8, {30, 20}, {40, 25}, {50, 15}, {10, 5}},
        {MG_PROBLEM_SAME, 10, 80, 80, {30, 20}, {40, 25}, {-1, -1}, {60, 30}},
    };
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    mg_irr_table_print(f, 0, "Table: test", rows, 2);
    fclose(f);
    CHECK(strstr(out, "MPI_Gatherv") && strstr(out, "TUW_Gatherv") && strstr(out, "Same"),
          "header: %s", out);
    CHECK(strstr(out, "30.00*") != NULL, "guideline 1 mark (gather slower than TUW): %s", out);
    CHECK(strstr(out, "50.00*") != NULL, "guideline 2 mark (library slower than padding)");
    CHECK(strstr(out, "60.00*") != NULL, "guideline 2 mark on TUW");
    CHECK(strstr(out, "15.00*") == NULL, "no mark when faster");
    CHECK(strstr(out, "Same") == strrchr(out, 'S') ||
              strstr(strstr(out, "Same") + 1, "Same") == NULL,
          "problem name only on its first row");
    free(out);
}

/* Every type's own counts classify as that type (a spikes draw without a spike is `same`),
 * hand-made vectors too. */
static void classify(void) {
    static const int ps[] = {3, 4, 7, 16, 64, 256};
    int ci[256];
    for (int t = 0; t < MG_PROBLEM_COUNT; t++)
        for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
            int p = ps[k];
            if (t == MG_PROBLEM_RANDOM && p < 16) continue; /* few draws may look like another */
            mg_problem_counts(t, p, 100, 5.0, 42, c);
            int same = 1;
            for (int i = 0; i < p; i++) ci[i] = (int)c[i], same &= c[i] == c[0];
            int want = same ? MG_PROBLEM_SAME : t, got = mg_problem_classify(ci, p);
            CHECK(got == want, "%s p=%d: classified as %s", mg_problem_name(t), p,
                  mg_problem_name(got));
        }
    static const struct {
        int p, c[8], want;
    } hand[] = {
        {1, {5}, MG_PROBLEM_SAME},
        {4, {0, 0, 0, 0}, MG_PROBLEM_SAME},
        {4, {7, 0, 0, 7}, MG_PROBLEM_TWOBLOCKS},
        {4, {7, 0, 0, 6}, MG_PROBLEM_SPIKES},
        {4, {7, 6, 6, 0}, MG_PROBLEM_DECREASING},
        {5, {3, 1, 3, 1, 3}, MG_PROBLEM_ALTERNATING},
        {5, {9, 8, 8, 2, 0}, MG_PROBLEM_DECREASING},
        {6, {1, 1, 50, 1, 1, 1}, MG_PROBLEM_SPIKES},
        {6, {1, 40, 50, 1, 30, 1}, MG_PROBLEM_SPIKES},
        {6, {20, 40, 50, 10, 30, 15}, MG_PROBLEM_RANDOM},
        {6, {10, 20, 15, 12, 18, 11}, MG_PROBLEM_RANDOM},
    };
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
        int got = mg_problem_classify(hand[i].c, hand[i].p);
        CHECK(got == hand[i].want, "hand case %zu: %s, expected %s", i, mg_problem_name(got),
              mg_problem_name(hand[i].want));
    }
}

/* mg_problem_base finds a b whose total is the given one (or closest); counts_total hits the
 * total exactly and keeps the type's shape. */
static void base_and_total(void) {
    static const int ps[] = {2, 5, 16, 100};
    static const int64_t bs[] = {1, 10, 100, 5000};
    int ci[100];
    for (int t = 0; t < MG_PROBLEM_COUNT; t++)
        for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
            for (size_t m = 0; m < sizeof bs / sizeof bs[0]; m++) {
                int p = ps[k];
                int64_t total = 0, got = 0;
                mg_problem_counts(t, p, bs[m], 5.0, 9, c);
                for (int i = 0; i < p; i++) total += c[i];
                int64_t b = mg_problem_base(t, p, total, 5.0, 9);
                mg_problem_counts(t, p, b, 5.0, 9, d);
                for (int i = 0; i < p; i++) got += d[i];
                int64_t expect = llround((double)total / p - 0.5); /* random: its expectation */
                CHECK(t == MG_PROBLEM_RANDOM ? b == (expect > 1 ? expect : 1) : got == total,
                      "%s p=%d b=%lld: base %lld gives %lld of %lld", mg_problem_name(t), p,
                      (long long)bs[m], (long long)b, (long long)got, (long long)total);
                for (int64_t want = total; want <= total + 7; want += 7) {
                    int64_t sum = 0;
                    mg_problem_counts_total(t, p, want, 5.0, 9, d);
                    int same = 1;
                    for (int i = 0; i < p; i++)
                        sum += d[i], ci[i] = (int)d[i], same &= d[i] == d[0];
                    CHECK(sum == want, "%s p=%d: counts_total %lld of %lld", mg_problem_name(t), p,
                          (long long)sum, (long long)want);
                    int cls = mg_problem_classify(ci, p);
                    /* an attainable total keeps the type's own counts */
                    if (want == total && p >= 16 && t != MG_PROBLEM_RANDOM)
                        CHECK(cls == (same ? MG_PROBLEM_SAME : t),
                              "%s p=%d b=%lld: counts_total classifies as %s", mg_problem_name(t),
                              p, (long long)bs[m], mg_problem_name(cls));
                }
            }
}

int main(void) {
    for (int p = 1; p <= 40; p++) definitions(p, 7);
    definitions(560, 1);
    definitions(560, 1000);
    definitions(65536, 10);
    statistics();
    paper_totals();
    names();
    table();
    classify();
    base_and_total();
    return DONE();
}
