/* The defect table: the built-in table parses without a problem and every entry is complete
 * (known family, version range, reproducer file present, repair algorithms of its collectives);
 * the parser rejects each kind of bad input naming its line; version strings of both MPIs;
 * condition matching with known, unknown and compared facts, case by case. */
#include "algid/algid.h"
#include "check.h"
#include "catalog/catalog.h"
#include "defects/defects.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The first diagnostic since ndiag was reset. */
static char first_where[256], first_what[512];
static int ndiag;

static void diag(void *ctx, int error, const char *where, const char *what) {
    (void)ctx, (void)error;
    if (!ndiag++) {
        snprintf(first_where, sizeof first_where, "%s", where);
        snprintf(first_what, sizeof first_what, "%s", what);
    }
}

/* The entry of table t named name; NULL when there is none. */
static const mg_defect *entry(const mg_defect_table *t, const char *name) {
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].name, name)) return &t->v[i];
    return NULL;
}

static void builtin(void) {
    mg_defect_table t;
    ndiag = 0;
    int bad = mg_defects_parse(mg_defects_known_text, "known.txt", &t, diag, NULL);
    CHECK(bad == 0, "built-in table: %d problem(s), first %s: %s", bad, first_where, first_what);
    CHECK(t.n >= 3, "built-in table has %d entries", t.n);
    for (int i = 0; i < t.n; i++) {
        const mg_defect *d = &t.v[i];
        char path[512];
        snprintf(path, sizeof path, "%s/%s", MG_SOURCE_DIR, d->reproducer);
        CHECK(access(path, R_OK) == 0, "%s: reproducer %s missing", d->name, path);
        CHECK(d->family != MG_MPI_UNKNOWN && d->colls && d->summary[0] && d->seen[0],
              "%s: incomplete entry", d->name);
        for (int k = 0; k < d->nrepair; k++)
            CHECK(d->colls >> mg_alg_coll(d->repair[k]) & 1u, "%s: repair %s", d->name,
                  mg_alg_name(d->repair[k]));
    }
    mg_defects_free(&t);
}

/* One bad table per row: the problem's line and the text it must mention. */
static void bad_input(void) {
    static const struct {
        const char *text;
        int line;
        const char *what;
    } cases[] = {
        {"mpi mpich 4 -\n", 1, "outside an entry"},
        {"defect a\nmpi mpich 4 -\n", 1, "no `collective` line"},
        {"defect a\nmpi lam 4 -\n", 2, "unknown family `lam`"},
        {"defect a\nmpi mpich 4.x -\n", 2, "versions are"},
        {"defect a\nmpi mpich 4\n", 2, "expected `FAMILY FIRST LAST`"},
        {"defect a\ncollective MPI_Allreducex\n", 2, "unknown collective `MPI_Allreducex`"},
        {"defect a\nwhen p>>2\n", 2, "`p>>2` is not"},
        {"defect a\nwhen size>2\n", 2, "`size>2` is not"},
        {"defect a\nwhen p>q\n", 2, "`p>q` is not"},
        {"defect a\neffect slow\n", 2, "expected `crash`, `wrong` or `error`"},
        {"defect a\nwhen op=summ\n", 2, "`op=summ` is not"},
        {"defect a\nwhen op<sum\n", 2, "`op<sum` is not"},
        {"defect a\nwhen type=MPI_INTEGERX\n", 2, "`type=MPI_INTEGERX` is not"},
        {"defect a\nrepair allreduce_as_magic\n", 2, "unknown algorithm `allreduce_as_magic`"},
        {"defect a\nsummary x\nsummary y\n", 3, "`summary` given twice"},
        {"defect a\ncolor red\n", 2, "unknown key `color`"},
        {"defect a\nsummary\n", 2, "`summary` without a value"},
        {"defect a b\n", 1, "expected one name"},
        {"defect a\nmpi mpich 4 -\ncollective MPI_Reduce\neffect crash\nsummary s\n"
         "reproducer r.c\nrepair allreduce_as_reduce_bcast\n",
         1, "repair allreduce_as_reduce_bcast is not an algorithm of its collectives"},
        {"defect a\nmpi mpich 4 -\ncollective MPI_Reduce\neffect crash\nsummary s\n"
         "reproducer r.c\ndefect a\nmpi mpich 4 -\ncollective MPI_Reduce\neffect crash\n"
         "summary s\nreproducer r.c\n",
         7, "listed twice (first at line 1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mg_defect_table t;
        char want[64];
        ndiag = 0;
        int bad = mg_defects_parse(cases[i].text, "t", &t, diag, NULL);
        snprintf(want, sizeof want, "t:%d", cases[i].line);
        int kept = strstr(cases[i].what, "listed twice") != NULL; /* the first one stays */
        CHECK(bad >= 1 && ndiag == bad && t.n == kept, "case %zu: %d problems, %d entries kept", i,
              bad, t.n);
        CHECK(strstr(first_what, cases[i].what) && !strcmp(first_where, want),
              "case %zu [%s]: got %s: %s, expected %s: %s", i, cases[i].text, first_where,
              first_what, want, cases[i].what);
        mg_defects_free(&t);
    }
}

static void versions(void) {
    static const struct {
        const char *s;
        int family, v[3];
    } cases[] = {
        {"MPICH Version:\t4.0.2\nMPICH Release date: ...", MG_MPI_MPICH, {4, 0, 2}},
        {"MPICH Version:      4.1\n", MG_MPI_MPICH, {4, 1, 0}},
        {"Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4",
         MG_MPI_OPENMPI,
         {4, 1, 4}},
        {"Open MPI v5.0.0rc12, package: ...", MG_MPI_OPENMPI, {5, 0, 0}},
        {"SMPI Version 3.32. Copyright The SimGrid Team 2007-2022", MG_MPI_SMPI, {3, 32, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int f, v[3];
        CHECK(mg_mpi_version_parse(cases[i].s, &f, v) == 0 && f == cases[i].family &&
                  v[0] == cases[i].v[0] && v[1] == cases[i].v[1] && v[2] == cases[i].v[2],
              "version %zu: family %d %d.%d.%d", i, f, v[0], v[1], v[2]);
    }
    int f, v[3];
    CHECK(mg_mpi_version_parse("Intel(R) MPI Library 2021", &f, v) == -1 && f == MG_MPI_UNKNOWN,
          "unknown library");
    /* ranges: 4.0 - 4.1.1, 4.1 (every 4.1.x) and open ends */
    mg_defect_table t;
    mg_defects_parse("defect a\nmpi mpich 4.0 4.1.1\ncollective MPI_Reduce\neffect crash\n"
                     "summary s\nreproducer r.c\n"
                     "defect b\nmpi openmpi - 4.1\ncollective MPI_Reduce\neffect wrong\n"
                     "summary s\nreproducer r.c\n",
                     "t", &t, diag, NULL);
    CHECK(t.n == 2, "two entries");
    static const struct {
        int entry, family, v[3], applies;
    } r[] = {
        {0, MG_MPI_MPICH, {4, 0, 0}, 1},   {0, MG_MPI_MPICH, {4, 0, 2}, 1},
        {0, MG_MPI_MPICH, {4, 1, 1}, 1},   {0, MG_MPI_MPICH, {4, 1, 2}, 0},
        {0, MG_MPI_MPICH, {3, 4, 3}, 0},   {0, MG_MPI_OPENMPI, {4, 0, 2}, 0},
        {1, MG_MPI_OPENMPI, {1, 0, 0}, 1}, {1, MG_MPI_OPENMPI, {4, 1, 99}, 1},
        {1, MG_MPI_OPENMPI, {4, 2, 0}, 0},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0] && t.n == 2; i++)
        CHECK(mg_defect_applies(&t.v[r[i].entry], r[i].family, r[i].v) == r[i].applies,
              "range case %zu", i);
    mg_defects_free(&t);
}

static void matching(void) {
    mg_defect_table t;
    int bad = mg_defects_parse("defect a\nmpi mpich 4 -\ncollective MPI_Reduce MPI_Allreduce\n"
                               "when inplace=1 root!=0 bytes>2048 extent!=true_extent\n"
                               "effect crash\nsummary s\nreproducer r.c\n",
                               "t", &t, diag, NULL);
    CHECK(bad == 0 && t.n == 1, "matching table");
    if (t.n != 1) return;
    char cond[256];
    mg_defect_condition(&t.v[0], cond, sizeof cond);
    CHECK(!strcmp(cond, "inplace=1 root!=0 bytes>2048 extent!=true_extent"), "condition %s", cond);
    mg_facts f = {MG_CAT_REDUCE, 0, 0, {0}};
    mg_facts_set(&f, MG_FACT_ROOT, 1);
    mg_facts_set(&f, MG_FACT_BYTES, 2052);
    mg_facts_set(&f, MG_FACT_EXTENT, 4);
    mg_facts_set(&f, MG_FACT_TRUE_EXTENT, 8);
    CHECK(mg_defect_match(&t.v[0], &f) == MG_MATCH_NO, "inplace unknowable: no");
    f.maybe = 1u << MG_FACT_INPLACE;
    CHECK(mg_defect_match(&t.v[0], &f) == MG_MATCH_MAYBE, "inplace possible: maybe");
    mg_facts_set(&f, MG_FACT_INPLACE, 1);
    CHECK(mg_defect_match(&t.v[0], &f) == MG_MATCH_YES, "all met: yes");
    int m;
    CHECK(mg_defect_find(&t, NULL, &f, &m) == &t.v[0] && m == MG_MATCH_YES, "find");
    unsigned char off = 0;
    CHECK(mg_defect_find(&t, &off, &f, &m) == NULL && m == MG_MATCH_NO, "entry not applying");
    mg_facts_set(&f, MG_FACT_BYTES, 2048);
    CHECK(mg_defect_match(&t.v[0], &f) == MG_MATCH_NO, "2048 bytes: no");
    mg_facts_set(&f, MG_FACT_BYTES, 4096);
    mg_facts_set(&f, MG_FACT_INPLACE, 0);
    CHECK(mg_defect_match(&t.v[0], &f) == MG_MATCH_NO, "not in place: no");
    mg_facts_set(&f, MG_FACT_INPLACE, 1);
    mg_facts_set(&f, MG_FACT_TRUE_EXTENT, 4);
    CHECK(mg_defect_match(&t.v[0], &f) == MG_MATCH_NO, "extent = true extent: no");
    f.known &= ~(1u << MG_FACT_TRUE_EXTENT); /* a right-hand fact unknown here but possible */
    f.maybe |= 1u << MG_FACT_TRUE_EXTENT;
    CHECK(mg_defect_match(&t.v[0], &f) == MG_MATCH_MAYBE, "possible rhs fact: maybe");
    f.coll = MG_CAT_SCAN;
    CHECK(mg_defect_match(&t.v[0], &f) == MG_MATCH_NO, "other collective: no");
    mg_defects_free(&t);
    /* negative numbers and every comparison */
    bad = mg_defects_parse("defect a\nmpi mpich 4 -\ncollective MPI_Scan\n"
                           "when true_lb<0 true_lb>=-8 p<=4 p>1 count=3 root<1\n"
                           "effect wrong\nsummary s\nreproducer r.c\n",
                           "t", &t, diag, NULL);
    CHECK(bad == 0 && t.n == 1, "comparison table");
    if (t.n != 1) return;
    mg_facts g = {MG_CAT_SCAN, 0, 0, {0}};
    int64_t vals[][4] = {{-4, 3, 3, 1}, {-8, 4, 3, 1}, {-9, 3, 3, 0}, {0, 3, 3, 0},
                         {-4, 5, 3, 0}, {-4, 1, 3, 0}, {-4, 2, 2, 0}};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        mg_facts_set(&g, MG_FACT_TRUE_LB, vals[i][0]);
        mg_facts_set(&g, MG_FACT_P, vals[i][1]);
        mg_facts_set(&g, MG_FACT_COUNT, vals[i][2]);
        mg_facts_set(&g, MG_FACT_ROOT, 0);
        CHECK(mg_defect_match(&t.v[0], &g) == (vals[i][3] ? MG_MATCH_YES : MG_MATCH_NO),
              "comparison case %zu", i);
    }
    mg_defects_free(&t);
    /* symbolic facts: op and type names with alternatives, unsigned from the type */
    bad = mg_defects_parse("defect a\nmpi mpich 4 -\ncollective MPI_Allreduce\n"
                           "when op=min|max unsigned=1\neffect wrong\nsummary s\nreproducer r.c\n"
                           "defect b\nmpi mpich 4 -\ncollective MPI_Allreduce\n"
                           "when op!=user type=MPI_UNSIGNED_LONG|MPI_UINT8_T\neffect wrong\n"
                           "summary s\nreproducer r.c\n",
                           "t", &t, diag, NULL);
    CHECK(bad == 0 && t.n == 2, "symbolic table: %s", first_what);
    if (t.n != 2) return;
    mg_defect_condition(&t.v[1], cond, sizeof cond);
    CHECK(!strcmp(cond, "op!=user type=MPI_UNSIGNED_LONG|MPI_UINT8_T"), "condition %s", cond);
    static const struct {
        const char *op, *type;
        int a, b;
    } sym[] = {
        {"min", "MPI_UNSIGNED", 1, 0},
        {"max", "MPI_UNSIGNED_LONG", 1, 1},
        {"sum", "MPI_UNSIGNED_LONG", 0, 1},
        {"min", "MPI_INT", 0, 0},
        {"user", "MPI_UNSIGNED_LONG", 0, 0},
        {"max", "MPI_UINT8_T", 1, 1},
        {"max", "derived", 0, 0},
    };
    for (size_t i = 0; i < sizeof sym / sizeof sym[0]; i++) {
        mg_facts h;
        mg_facts_fill(&h, MG_CAT_ALLREDUCE, 4, 0, 10, 80, 8, 0, 8, 1, 1, 0, 1,
                      mg_op_code(sym[i].op), mg_type_code(sym[i].type));
        CHECK(mg_defect_match(&t.v[0], &h) == (sym[i].a ? MG_MATCH_YES : MG_MATCH_NO) &&
                  mg_defect_match(&t.v[1], &h) == (sym[i].b ? MG_MATCH_YES : MG_MATCH_NO),
              "symbolic case %zu (%s %s)", i, sym[i].op, sym[i].type);
    }
    CHECK(mg_type_code_unsigned(mg_type_code("MPI_UNSIGNED_CHAR")) &&
              mg_type_code_unsigned(mg_type_code("MPI_UINT64_T")) &&
              !mg_type_code_unsigned(mg_type_code("MPI_INT64_T")) && !mg_type_code_unsigned(0),
          "unsigned types");
    mg_defects_free(&t);
    /* vector_bytes: Reduce_scatter_block's count is one block of the p blocks it reduces, so
     * the built-in op/avx entry (vectors of 16 bytes or more) meets 4 blocks of 4 bytes but
     * not one Allreduce of 4 bytes */
    CHECK(mg_defects_parse(mg_defects_known_text, "known.txt", &t, diag, NULL) == 0, "built in");
    const mg_defect *avx = entry(&t, "openmpi-op-avx-saturating-sum");
    CHECK(avx != NULL, "op/avx entry");
    if (avx) {
        static const struct {
            int coll, p;
            int64_t bytes;
            int yes;
        } vb[] = {{MG_CAT_REDUCE_SCATTER_BLOCK, 4, 4, 1}, {MG_CAT_REDUCE_SCATTER_BLOCK, 3, 4, 0},
                  {MG_CAT_REDUCE_SCATTER_BLOCK, 2, 8, 1}, {MG_CAT_ALLREDUCE, 4, 4, 0},
                  {MG_CAT_ALLREDUCE, 2, 16, 1},           {MG_CAT_SCAN, 8, 15, 0}};
        for (size_t i = 0; i < sizeof vb / sizeof vb[0]; i++) {
            mg_facts h;
            mg_facts_fill(&h, vb[i].coll, vb[i].p, 0, vb[i].bytes, vb[i].bytes, 1, 0, 1, 1, 1, 0, 1,
                          mg_op_code("sum"), mg_type_code("MPI_UNSIGNED_CHAR"));
            CHECK(mg_defect_match(avx, &h) == (vb[i].yes ? MG_MATCH_YES : MG_MATCH_NO),
                  "vector_bytes case %zu", i);
        }
    }
    /* total_bytes and mixed: the built-in MPICH Gather entry (p >= 4, p * bytes > 16320, a
     * datatype of mixed basic types); mixed unknown never matches (the library did not decode) */
    const mg_defect *gather = entry(&t, "mpich-gather-mixed-type");
    CHECK(gather != NULL, "MPICH Gather entry");
    if (gather) {
        static const struct {
            int p, mixed; /* mixed -1: not known */
            int64_t bytes;
            int yes;
        } tb[] = {{4, 1, 4128, 1},  {4, 1, 4080, 0},  {8, 1, 2064, 1},  {8, 1, 2040, 0},
                  {3, 1, 60000, 0}, {4, 0, 60000, 0}, {4, -1, 60000, 0}};
        for (size_t i = 0; i < sizeof tb / sizeof tb[0]; i++) {
            mg_facts h;
            mg_facts_fill(&h, MG_CAT_GATHER, tb[i].p, 0, tb[i].bytes / 12, tb[i].bytes, 16, 0, 12,
                          1, 1, 0, 1, 0, 0);
            if (tb[i].mixed >= 0) mg_facts_set(&h, MG_FACT_MIXED, tb[i].mixed);
            CHECK(mg_defect_match(gather, &h) == (tb[i].yes ? MG_MATCH_YES : MG_MATCH_NO),
                  "total_bytes/mixed case %zu", i);
        }
    }
    /* zero_counts: the built-in SMPI Reduce_scatter entry (some count 0, commutative, p >= 4,
     * count >= 1). Only a Reduce_scatter with unequal counts leaves it to whoever has the counts;
     * unknown, a term on it never holds. */
    const mg_defect *zc = entry(&t, "smpi-reduce-scatter-ompi-zero-counts");
    CHECK(zc != NULL, "SMPI Reduce_scatter entry");
    if (zc) {
        static const struct {
            int coll, p, regular, zeros; /* zeros -1: not set */
            int64_t count;
            int yes;
        } zb[] = {
            {MG_CAT_REDUCE_SCATTER, 4, 0, 1, 7, 1},    {MG_CAT_REDUCE_SCATTER, 4, 0, 0, 7, 0},
            {MG_CAT_REDUCE_SCATTER, 4, 0, -1, 7, 0},   {MG_CAT_REDUCE_SCATTER, 3, 0, 1, 7, 0},
            {MG_CAT_REDUCE_SCATTER, 4, 1, -1, 8, 0},   {MG_CAT_REDUCE_SCATTER, 4, 1, -1, 0, 0},
            {MG_CAT_REDUCE_SCATTER, 64, 0, 1, 1000, 1}};
        for (size_t i = 0; i < sizeof zb / sizeof zb[0]; i++) {
            mg_facts h;
            mg_facts_fill(&h, zb[i].coll, zb[i].p, 0, zb[i].count, 4 * zb[i].count, 4, 0, 4, 1, 1,
                          0, zb[i].regular, mg_op_code("sum"), mg_type_code("MPI_INT"));
            if (zb[i].zeros >= 0) mg_facts_set(&h, MG_FACT_ZERO_COUNTS, zb[i].zeros);
            CHECK(mg_defect_match(zc, &h) == (zb[i].yes ? MG_MATCH_YES : MG_MATCH_NO),
                  "zero_counts case %zu", i);
        }
        /* equal counts: zero_counts is known, all zero or none */
        mg_facts h;
        mg_facts_fill(&h, MG_CAT_REDUCE_SCATTER, 4, 0, 0, 0, 4, 0, 4, 1, 1, 0, 1, 1, 1);
        CHECK((h.known >> MG_FACT_ZERO_COUNTS & 1) && h.v[MG_FACT_ZERO_COUNTS] == 1,
              "equal counts of nothing: zero_counts 1");
        mg_facts_fill(&h, MG_CAT_ALLREDUCE, 4, 0, 0, 0, 4, 0, 4, 1, 1, 0, 1, 1, 1);
        CHECK((h.known >> MG_FACT_ZERO_COUNTS & 1) && h.v[MG_FACT_ZERO_COUNTS] == 0,
              "other collectives: zero_counts 0");
    }
    mg_defects_free(&t);
}

int main(void) {
    builtin();
    bad_input();
    versions();
    matching();
    return DONE();
}
