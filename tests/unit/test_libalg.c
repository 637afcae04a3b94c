/* The MPI-free part of library algorithms (src/libalg/): the naming rule, the declared
 * restrictions, the parser of MPICH's variable descriptions, the table and the resolution of
 * profiles that name library algorithms, the JSON scanner and the two export writers. */
#include "catalog/catalog.h"
#include "check.h"
#include "export/tuning_files.h"
#include "libalg/libalg.h"
#include "profile/profile.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void naming(void) {
    static const struct {
        int coll;
        const char *item, *name;
    } make[] = {
        {MG_CAT_ALLREDUCE, "ring", "allreduce_lib_ring"},
        {MG_CAT_REDUCE, "in-order_binary", "reduce_lib_in_order_binary"},
        {MG_CAT_BCAST, "Scatter.Allgather", "bcast_lib_scatter_allgather"},
        {MG_CAT_REDUCE_SCATTER_BLOCK, "recursive_doubling",
         "reduce_scatter_block_lib_recursive_doubling"},
    };
    for (size_t i = 0; i < sizeof make / sizeof make[0]; i++) {
        char out[MG_LIBALG_NAME];
        int rc = mg_libalg_make_name(make[i].coll, make[i].item, out, sizeof out);
        CHECK(rc == 0 && !strcmp(out, make[i].name), "make %s: %s", make[i].item, out);
        CHECK(mg_libalg_name_coll(out) == make[i].coll, "%s belongs to its collective", out);
    }
    char small[12];
    CHECK(mg_libalg_make_name(MG_CAT_ALLREDUCE, "ring", small, sizeof small) == -1,
          "a name that does not fit is refused");
    CHECK(mg_libalg_make_name(MG_CAT_ALLREDUCE, "", small, sizeof small) == -1, "empty item");
    static const struct {
        const char *name;
        int coll;
    } parse[] = {
        {"reduce_scatter_lib_ring", MG_CAT_REDUCE_SCATTER},
        {"reduce_scatter_block_lib_ring", MG_CAT_REDUCE_SCATTER_BLOCK},
        {"gatherv_lib_linear", MG_CAT_GATHERV},
        {"allreduce_lib_", -1},
        {"allreduce_lib_Ring", -1},
        {"allreduce_lib_ring-x", -1},
        {"allreducex_lib_ring", -1},
        {"allreduce_as_reduce_bcast", -1},
        {"_lib_ring", -1},
        {"default", -1},
    };
    for (size_t i = 0; i < sizeof parse / sizeof parse[0]; i++)
        CHECK(mg_libalg_name_coll(parse[i].name) == parse[i].coll, "name_coll(%s) = %d",
              parse[i].name, mg_libalg_name_coll(parse[i].name));
    CHECK(mg_libalg_item_is_default("auto") && mg_libalg_item_is_default("ignore") &&
              mg_libalg_item_is_default("sched_auto") && !mg_libalg_item_is_default("ring"),
          "auto and ignore are the default");
}

static void restrictions(void) {
    const char *why = NULL;
    CHECK(mg_libalg_restrictions("openmpi", MG_CAT_ALLGATHER, "two_proc", &why) == MG_LR_P2 && why,
          "Open MPI's two-process Allgather is declared");
    CHECK(mg_libalg_restrictions("mpich", MG_CAT_ALLGATHER, "two_proc", &why) == 0 && !why,
          "rows are per MPI");
    CHECK(mg_libalg_restrictions("openmpi", MG_CAT_ALLREDUCE, "basic_linear", NULL) == 0,
          "no row, no restriction");
    /* MPICH 4.0.2's nonblocking tsp_* crashes on a true lower bound not 0 (the matrix's
     * resized datatype): a reduction declines that layout, Iscan's at p = 1 as well (it crashes
     * there too); a data-movement collective cannot see the others' layout, so never runs */
    unsigned iscan = mg_libalg_restrictions("mpich", MG_CAT_ISCAN, "tsp_recursive_doubling", NULL);
    mg_libalg_call one = {1, 7, 1, 0, 0, 24, -4, 16, 1, 0, 0, 56};
    mg_libalg_call three = {3, 7, 1, 0, 0, 24, -4, 16, 1, 0, 0, 56};
    mg_libalg_call lb0 = {3, 7, 1, 0, 0, 24, 0, 16, 1, 0, 0, 56};
    CHECK(mg_libalg_check(iscan, &one) && mg_libalg_check(iscan, &three) &&
              !mg_libalg_check(iscan, &lb0),
          "MPICH's tsp_recursive_doubling Iscan: declined at p = 1 and on true lb -4 only");
    CHECK(mg_libalg_restrictions("mpich", MG_CAT_IALLGATHER, "tsp_ring", NULL) == MG_LR_NEVER,
          "MPICH's tsp_ring Iallgather never runs");
    static const struct {
        unsigned bits;
        mg_libalg_call c;
        unsigned expect;
    } cases[] = {
        /* p, count, commute, predefined, inplace, extent, true_lb, true_extent, regular, multi,
         * mixed, bytes */
        {MG_LR_P2, {2, 0, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, 0},
        {MG_LR_P2, {3, 0, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, MG_DECLINE_LIBRARY},
        {MG_LR_COMMUTE, {4, 8, 0, 0, 0, 4, 0, 4, 1, 0, 0, 0}, MG_DECLINE_OP},
        {MG_LR_BUILTIN, {4, 8, 1, 0, 0, 4, 0, 4, 1, 0, 0, 0}, MG_DECLINE_OP},
        {MG_LR_COUNT_POF2, {6, 3, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, MG_DECLINE_LIBRARY},
        {MG_LR_COUNT_POF2, {6, 4, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, 0},
        {MG_LR_POF2, {6, 4, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, MG_DECLINE_LIBRARY},
        {MG_LR_POF2, {8, 4, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, 0},
        {MG_LR_NO_INPLACE, {4, 4, 1, 1, 1, 4, 0, 4, 1, 0, 0, 0}, MG_DECLINE_LIBRARY},
        {MG_LR_INPLACE, {4, 4, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, MG_DECLINE_LIBRARY},
        {MG_LR_INPLACE, {4, 4, 1, 1, 1, 4, 0, 4, 1, 0, 0, 0}, 0},
        {MG_LR_TRUE_LB0, {4, 4, 1, 1, 0, 8, 4, 4, 1, 0, 0, 0}, MG_DECLINE_DATATYPE},
        {MG_LR_TRUE_LB0, {4, 0, 1, 1, 0, 8, 4, 4, 1, 0, 0, 0}, 0},
        {MG_LR_DENSE, {4, 4, 1, 1, 0, 8, 0, 4, 1, 0, 0, 0}, MG_DECLINE_DATATYPE},
        {MG_LR_DENSE, {1, 4, 1, 1, 0, 8, 0, 4, 1, 0, 0, 0}, 0},
        {MG_LR_REGULAR, {4, 4, 1, 1, 0, 4, 0, 4, 0, 0, 0, 0}, MG_DECLINE_LIBRARY},
        {MG_LR_MULTINODE, {4, 4, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, MG_DECLINE_LIBRARY},
        {MG_LR_MULTINODE, {4, 4, 1, 1, 0, 4, 0, 4, 1, 1, 0, 0}, 0},
        {MG_LR_SAME_TYPE, {4, 4, 1, 1, 0, 4, 0, 4, 1, 0, 0, 0}, 0}, /* checked at the call */
        {MG_LR_NEVER, {2, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0}, MG_DECLINE_LIBRARY},
        /* ..., mixed, bytes: Bruck's messages hold floor(p/2) blocks */
        {MG_LR_UNMIXED, {2, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 8160}, 0},
        {MG_LR_UNMIXED, {2, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 8161}, MG_DECLINE_DATATYPE},
        {MG_LR_UNMIXED, {2, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 80000}, 0},
        {MG_LR_UNMIXED, {3, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 8160}, 0},
        {MG_LR_UNMIXED, {4, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 4080}, 0},
        {MG_LR_UNMIXED, {4, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 4081}, MG_DECLINE_DATATYPE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned got = mg_libalg_check(cases[i].bits, &cases[i].c);
        CHECK(got == cases[i].expect, "case %zu: bits 0x%x p %d count %lld -> 0x%x, expected 0x%x",
              i, cases[i].bits, cases[i].c.p, (long long)cases[i].c.count, got, cases[i].expect);
        CHECK(!got || (got & mg_libalg_decline_mask(cases[i].bits)),
              "case %zu: the decline is in the documented mask", i);
    }
}

/* Descriptions in the form MPICH 4.0 exports: the item lines joined without separator. */
static void descriptions(void) {
    const char *d1 = "Variable to select bcast algorithmauto    - Internal algorithm selection "
                     "(can be overridden with X)binomial    - Force Binomial Treenb   - Force "
                     "nonblocking algorithmsmp  - Force smp algorithmscatter_ring_allgather - "
                     "Force Scatter Ring Allgatherscatter_recursive_doubling_allgather - Force "
                     "the other";
    const char *d2 =
        "Variable to select allgather algorithmauto - Internal algorithm selection "
        "(x)ring               - Force ring algorithmrecursive_doubling - Force recursive "
        "doubling algorithmnb - Force nonblocking algorithm";
    const char *d3 = "Variable to select gather algorithm\nauto - Internal algorithm selection\n"
                     "binomial - Force binomial algorithm\nlinear_sync - Force the other\n";
    mg_desc_vocab v;
    memset(&v, 0, sizeof v);
    mg_desc_vocab_add(&v, d1);
    mg_desc_vocab_add(&v, d2);
    mg_desc_vocab_add(&v, d3);
    char items[16][MG_LIBALG_ITEM];
    static const char *want1[] = {"auto",
                                  "binomial",
                                  "nb",
                                  "smp",
                                  "scatter_ring_allgather",
                                  "scatter_recursive_doubling_allgather"};
    int n = mg_desc_items(d1, &v, items, 16);
    CHECK(n == 6, "glued description: %d items", n);
    for (int i = 0; i < n && i < 6; i++)
        CHECK(!strcmp(items[i], want1[i]), "item %d: %s, expected %s", i, items[i], want1[i]);
    n = mg_desc_items(d3, &v, items, 16);
    CHECK(n == 3 && !strcmp(items[2], "linear_sync"), "line breaks kept: %d items", n);
    CHECK(mg_desc_items("no items here", &v, items, 16) == -1, "no list: -1");
    /* MPICH 4.0's nonblocking descriptions: an explanation ending in "algorithms" before a name
     * whose first word starts other names, and a name glued to "receives" */
    const char *d4 = "Variable to select iallreduce algorithmauto - Internal algorithm selection "
                     "(x)sched_auto - Internal selection for sched-based algorithmssched_naive  "
                     "- Force naive algorithmsched_smp  - Force smp algorithmtsp_tree - Force "
                     "tree with single buffer for receivestsp_recexch_multiple_buffer  - Force "
                     "the last";
    mg_desc_vocab_add(&v, d4);
    static const char *want4[] = {"auto",      "sched_auto", "sched_naive",
                                  "sched_smp", "tsp_tree",   "tsp_recexch_multiple_buffer"};
    n = mg_desc_items(d4, &v, items, 16);
    CHECK(n == 6, "nonblocking description: %d items", n);
    for (int i = 0; i < n && i < 6; i++)
        CHECK(!strcmp(items[i], want4[i]), "item %d: %s, expected %s", i, items[i], want4[i]);
    n = mg_desc_items(d1, &v, items, 16); /* the blocking names stay as they were */
    for (int i = 0; i < n && i < 6; i++)
        CHECK(!strcmp(items[i], want1[i]), "after d4: item %d: %s, expected %s", i, items[i],
              want1[i]);
    CHECK(mg_desc_index("Select.all     - Always the devicenone    - Never the devicepercoll - "
                        "Per collective",
                        "none") == 1,
          "a known item's value");
}

static int warnings;
static void count_diag(void *ctx, int error, const char *where, const char *what) {
    (void)ctx, (void)error, (void)where, (void)what;
    warnings++;
}

static void table_and_profiles(void) {
    mg_libalg_reset(100);
    mg_libalg e = {0};
    e.coll = MG_CAT_ALLREDUCE;
    snprintf(e.name, sizeof e.name, "allreduce_lib_ring");
    snprintf(e.item, sizeof e.item, "ring");
    snprintf(e.mpi, sizeof e.mpi, "openmpi");
    snprintf(e.var, sizeof e.var, "coll_tuned_allreduce_algorithm");
    e.value = 4;
    e.runnable = 1;
    CHECK(mg_libalg_add(&e) == 100, "first id is the base");
    CHECK(mg_libalg_add(&e) == -1, "a name once");
    CHECK(mg_libalg_find(MG_CAT_ALLREDUCE, "allreduce_lib_ring") == 100 &&
              mg_alg_lookup(MG_CAT_ALLREDUCE, "allreduce_lib_ring") == 100 &&
              !strcmp(mg_alg_name(100), "allreduce_lib_ring") &&
              mg_alg_coll(100) == MG_CAT_ALLREDUCE &&
              (mg_alg_flags(100) & (MG_AF_LIBRARY | MG_AF_REDUCTION)) ==
                  (MG_AF_LIBRARY | MG_AF_REDUCTION),
          "the catalog knows it");
    CHECK(mg_libalg_intern(MG_CAT_ALLREDUCE, "allreduce_lib_magic") == 101 &&
              !mg_libalg_runnable(101) && mg_libalg_nrunnable() == 1,
          "a named-only entry");
    CHECK(mg_libalg_intern(MG_CAT_BCAST, "allreduce_lib_magic") == -1, "wrong collective");
    char list[200];
    CHECK(!strcmp(mg_libalg_list(MG_CAT_ALLREDUCE, list, sizeof list), "allreduce_lib_ring") &&
              !strcmp(mg_libalg_list(MG_CAT_BCAST, list, sizeof list), "none"),
          "available names: %s", list);

    const char *text = "MPI_Allreduce\n4\n3\n1 allreduce_lib_ring\n2 allreduce_lib_nothing\n"
                       "3 allreduce_as_reduce_bcast\n3\n0 10 1\n20 30 2\n40 50 3\n";
    mg_profile p;
    mg_perr err;
    CHECK(mg_profile_parse(text, strlen(text), &p, &err) == 0, "parses: %s", err.what);
    mg_profile_set set = {1, 1, &p, (char *[]){"x.prf"}};
    warnings = 0;
    int w = mg_libalg_resolve_profiles(&set, "openmpi", count_diag, NULL);
    CHECK(w == 1 && warnings == 1, "one warning for the unknown name (%d)", w);
    CHECK(p.ranges[0].alg == 100 && p.ranges[1].alg == MG_CAT_ALLREDUCE &&
              p.ranges[2].alg == mg_alg_lookup(MG_CAT_ALLREDUCE, "allreduce_as_reduce_bcast"),
          "known kept, unknown -> default, mock-up untouched");
    mg_profile_free(&p);
    /* measured under the other MPI: its library algorithms are not applied */
    const char *other = "#@mpi_library=MPICH Version: 4.0.2\nMPI_Allreduce\n4\n1\n1 "
                        "allreduce_lib_ring\n1\n0 10 1\n";
    CHECK(mg_profile_parse(other, strlen(other), &p, &err) == 0, "parses: %s", err.what);
    warnings = 0;
    mg_libalg_resolve_profiles(&set, "openmpi", count_diag, NULL);
    CHECK(warnings == 1 && p.ranges[0].alg == MG_CAT_ALLREDUCE, "other MPI -> default");
    mg_profile_free(&p);
    CHECK(!strcmp(mg_libalg_mpi_kind("Open MPI v4.1.4, package ..."), "openmpi") &&
              !strcmp(mg_libalg_mpi_kind("MPICH Version: 4.0.2"), "mpich") &&
              !strcmp(mg_libalg_mpi_kind("Synthetic"), ""),
          "MPI kinds");
}

static void json(void) {
    static const struct {
        const char *t;
        int ok;
    } cases[] = {
        {"{}", 1},
        {" {\"a\":{\"b\":[1,2.5e3,-3,true,null,\"x\\\"y\\u00e9\"]}} \n", 1},
        {"{\"a\":}", 0},
        {"{\"a\":1,}", 0},
        {"{\"a\" 1}", 0},
        {"[1]", 0},
        {"{\"a\":\"\\q\"}", 0},
        {"{\"a\":1}x", 0},
        {"{\"a\":-}", 0},
        {"{\"a\":\"\x01\"}", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(mg_json_valid(cases[i].t, strlen(cases[i].t)) == cases[i].ok, "json %zu: %s", i,
              cases[i].t);
    static const char nul_escape[] = "{\"a\":\"\\\0\"}"; /* a backslash before a NUL */
    CHECK(!mg_json_valid(nul_escape, sizeof nul_escape - 1), "escaped NUL refused (fuzz find)");
    char deep[1000];
    memset(deep, '[', sizeof deep);
    memcpy(deep, "{\"a\":", 5);
    CHECK(!mg_json_valid(deep, sizeof deep), "deep nesting refused");
    const char *t = "{\"k1\": {\"x\":1}, \"k2\" : [2], \"k3\":\"s\"}";
    mg_json_member m[4];
    int n = mg_json_members(t, (mg_json_span){0, strlen(t)}, m, 4);
    CHECK(n == 3 && mg_json_key_is(t, m[1].key, "k2") && m[1].val.len == 3 &&
              !strncmp(t + m[0].val.off, "{\"x\":1}", m[0].val.len),
          "members: %d", n);
}

static void export_ompi(void) {
    mg_xrange r1[] = {{1024, 4096, 4, 4, 0, ""}, {4097, 8192, 6, 4, 0, ""}};
    mg_xrange r2[] = {{0, 100, 1, 4, 0, ""}};
    mg_xrange r3[] = {{16, 16, 2, 4, 0, ""}};
    mg_xentry e[] = {{MG_CAT_ALLREDUCE, 4, 2, r1},
                     {MG_CAT_ALLGATHER, 4, 1, r2},
                     {MG_CAT_ALLGATHER, 5, 1, r3},
                     {MG_CAT_GATHERV, 4, 1, r2}};
    char why[100];
    char *t = mg_export_ompi_rules(e, 4, "dir", why, sizeof why);
    CHECK(t != NULL, "written");
    if (!t) return;
    /* no digit in a comment: Open MPI would read it as a number */
    int digit_in_comment = 0;
    for (const char *c = t; (c = strchr(c, '#')); c++)
        for (const char *q = c; *q && *q != '\n'; q++) digit_in_comment |= *q >= '0' && *q <= '9';
    CHECK(!digit_in_comment, "comments without digits");
    /* the numbers alone, in order */
    char nums[2000] = "";
    for (const char *c = t; *c;) {
        if (*c == '#') {
            while (*c && *c != '\n') c++;
            continue;
        }
        if (*c >= '0' && *c <= '9') {
            size_t at = strlen(nums);
            while (*c >= '0' && *c <= '9') nums[at++] = *c++;
            nums[at++] = ' ';
            nums[at] = 0;
            continue;
        }
        c++;
    }
    /* allgather (0): p = 4 (sizes x 4) rules from 0, guard 0-size at ... p = 5 adjacent, then
     * p = 6 guard; allreduce (2): leading 0, adjacent ranges, end at 8193; Gatherv not in
     * Open MPI's rules */
    const char *want = "2 0 3 4 2 0 1 4 0 404 0 0 0 5 3 0 0 0 0 80 2 4 0 85 0 0 0 6 0 2 2 4 4 "
                       "0 0 0 0 1024 4 4 0 4097 6 4 0 8193 0 0 0 5 0 ";
    CHECK(!strcmp(nums, want), "numbers:\n%s\nexpected\n%s\n%s", nums, want, t);
    free(t);
    CHECK(mg_export_ompi_has(MG_CAT_SCATTER) && !mg_export_ompi_has(MG_CAT_SCATTERV),
          "collectives of the rules");
}

static void export_mpich(void) {
    const char *base =
        "{\"collective=bcast\":{\"comm_type=intra\":{\"algorithm=MPIR_Bcast_intra_binomial\":{}},"
        "\"comm_type=inter\":{\"algorithm=MPIR_Bcast_inter_x\":{}}},"
        "\"collective=allgather\":{\"comm_type=intra\":{\"algorithm=MPIR_Allgather_intra_ring\":{}"
        "}},\"collective=gatherv\":{\"algorithm=MPIR_Gatherv_allcomm_linear\":{}}}";
    mg_xrange rb[] = {{0, 64, 0, 0, 0, "MPIR_Bcast_intra_scatter_ring_allgather"},
                      {1024, 2048, 0, 0, 0, "MPIR_Bcast_intra_binomial"}};
    mg_xrange ra[] = {{10, 10, 0, 0, 0, "MPIR_Allgather_intra_brucks"}};
    mg_xentry e[] = {{MG_CAT_BCAST, 4, 2, rb}, {MG_CAT_ALLGATHER, 3, 1, ra}};
    char why[200];
    char *t = mg_export_mpich_json(e, 2, base, strlen(base), why, sizeof why);
    CHECK(t && mg_json_valid(t, strlen(t)), "valid JSON: %s", t ? t : why);
    if (t) {
        CHECK(strstr(t, "\"comm_size<=3\":{\"algorithm=MPIR_Bcast_intra_binomial\":{}},"
                        "\"comm_size<=4\":{\"avg_msg_size<=64\":{\"algorithm=MPIR_Bcast_intra_"
                        "scatter_ring_allgather\":{}},\"avg_msg_size<1024\":{\"algorithm=MPIR_"
                        "Bcast_intra_binomial\":{}},\"avg_msg_size<=2048\""),
              "Bcast: exact sizes, base elsewhere:\n%s", t);
        CHECK(strstr(t, "\"comm_type=inter\":{\"algorithm=MPIR_Bcast_inter_x\":{}}"),
              "intercommunicators keep the base");
        CHECK(strstr(t, "\"total_msg_size<30\"") && strstr(t, "\"total_msg_size<=30\""),
              "Allgather: total size = block x p:\n%s", t);
        CHECK(strstr(t, "\"collective=gatherv\":{\"algorithm=MPIR_Gatherv_allcomm_linear\":{}}"),
              "other collectives copied verbatim");
        free(t);
    }
    mg_xentry bad[] = {{MG_CAT_REDUCE, 4, 1, ra}};
    CHECK(!mg_export_mpich_json(bad, 1, base, strlen(base), why, sizeof why) &&
              strstr(why, "collective=reduce"),
          "a collective missing from the base: %s", why);
    CHECK(!mg_export_mpich_json(e, 2, "{x", 2, why, sizeof why), "bad base refused");

    /* the built-in selection inside a library file: NUL-separated strings */
    char bytes[600];
    size_t n = 0;
    const char *parts[] = {"junk{\"collective=", "{\"collective=bcast\":{\"composition=x\":{}}}",
                           "MPIR_Allgather_intra_ring", "MPIR_Bcast_allcomm_nb", base};
    for (size_t i = 0; i < 5; i++) {
        memcpy(bytes + n, parts[i], strlen(parts[i]) + 1);
        n += strlen(parts[i]) + 1;
    }
    size_t off = 0, len = 0;
    CHECK(mg_export_mpich_find_base(bytes, n, &off, &len) == 0 && len == strlen(base) &&
              !memcmp(bytes + off, base, len),
          "the MPIR selection is found");
    char c[160];
    mg_export_mpich_container(MG_CAT_BCAST, "nb", bytes, n, c, sizeof c);
    CHECK(!strcmp(c, "MPIR_Bcast_allcomm_nb"), "allcomm container: %s", c);
    mg_export_mpich_container(MG_CAT_ALLGATHER, "ring", bytes, n, c, sizeof c);
    CHECK(!strcmp(c, "MPIR_Allgather_intra_ring"), "intra container: %s", c);
    mg_export_mpich_container(MG_CAT_GATHERV, "linear", NULL, 0, c, sizeof c);
    CHECK(!strcmp(c, "MPIR_Gatherv_allcomm_linear"), "without the library: %s", c);
    int times = 0;
    CHECK(
        !strcmp(mg_export_mpich_size_key(MG_CAT_REDUCE_SCATTER_BLOCK, &times), "total_msg_size") &&
            times == 1 && !mg_export_mpich_size_key(MG_CAT_SCAN, NULL),
        "size conditions");
}

int main(void) {
    naming();
    restrictions();
    descriptions();
    table_and_profiles();
    json();
    export_ompi();
    export_mpich();
    return DONE();
}
