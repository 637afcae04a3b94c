/* The pure half of `selftest --random` (src/selftest/): cases are reproducible from seed and
 * number and valid MPI calls (op on its datatypes, root, MPI_IN_PLACE only where allowed, even
 * counts for two-element sides, v-blocks that do not overlap), every dimension's values occur;
 * the ops' reference implementations on hand-checked values (unsigned MIN/MAX, MINLOC ties,
 * logical ops, the user ops' commutativity and associativity); expected buffers against
 * results assembled independently; placement and the difference report. */
#include "check.h"
#include "catalog/catalog.h"
#include "selftest/rcase.h"
#include <stdlib.h>
#include <string.h>

static const int colls[] = {MG_CAT_ALLGATHER,
                            MG_CAT_ALLTOALL,
                            MG_CAT_BCAST,
                            MG_CAT_GATHER,
                            MG_CAT_SCATTER,
                            MG_CAT_GATHERV,
                            MG_CAT_SCATTERV,
                            MG_CAT_ALLREDUCE,
                            MG_CAT_REDUCE,
                            MG_CAT_SCAN,
                            MG_CAT_REDUCE_SCATTER_BLOCK,
                            MG_CAT_REDUCE_SCATTER};
#define NCOLLS (int)(sizeof colls / sizeof colls[0])

static int inplace_allowed(int coll) {
    return coll != MG_CAT_BCAST;
}

static void drawing(void) {
    int seen_op[MG_ROP_COUNT] = {0}, seen_comm[MG_RC_COUNT] = {0}, seen_place[MG_RP_COUNT] = {0};
    int seen_class[7] = {0}, seen_type[64] = {0}, seen_sides[MG_RS_COUNT] = {0}, seen_inplace = 0;
    static const int ps[] = {1, 2, 3, 4, 7};
    for (int ci = 0; ci < NCOLLS; ci++)
        for (int pi = 0; pi < 5; pi++)
            for (int64_t k = 0; k < 400; k++) {
                int coll = colls[ci], p = ps[pi];
                mg_rcase c, d;
                char desc[512];
                CHECK(mg_rcase_draw(7, coll, k, p, &c) == 0 &&
                          mg_rcase_draw(7, coll, k, p, &d) == 0,
                      "draw");
                mg_rcase_describe(&c, desc, sizeof desc);
                CHECK(c.comm == mg_rcase_comm(7, coll, k), "[%s] comm first", desc);
                CHECK(c.type == d.type && c.op == d.op && c.count == d.count && c.root == d.root &&
                          c.place == d.place && c.inplace == d.inplace,
                      "[%s] not reproducible", desc);
                CHECK(c.root >= 0 && c.root < p, "[%s] root", desc);
                const mg_rtype *T = &mg_rtypes[c.type];
                if (mg_coll_is_reduction(coll))
                    CHECK(c.op >= 0 && mg_rop_allowed(c.op, T), "[%s] op on its type", desc);
                else
                    CHECK(c.op == -1 && c.sides >= 0, "[%s] no op", desc);
                CHECK(!c.inplace || inplace_allowed(coll), "[%s] in place", desc);
                CHECK(c.sides == MG_RS_SAME || c.count % 2 == 0, "[%s] even for wide sides", desc);
                CHECK((c.count - 1) * T->extent * p <= (4 << 20), "[%s] size cap", desc);
                if (mg_coll_is_v(coll)) {
                    for (int i = 0; i < p; i++)
                        for (int j = 0; j < p; j++)
                            if (i != j && c.counts[i] && c.counts[j])
                                CHECK(c.displs[i] + c.counts[i] <= c.displs[j] ||
                                          c.displs[j] + c.counts[j] <= c.displs[i],
                                      "[%s] blocks %d and %d overlap", desc, i, j);
                }
                if (coll == MG_CAT_REDUCE_SCATTER) {
                    int64_t sum = 0;
                    for (int i = 0; i < p; i++) sum += c.counts[i];
                    CHECK(sum == c.count, "[%s] Reduce_scatter total", desc);
                }
                if (c.op >= 0) seen_op[c.op]++;
                seen_comm[c.comm]++, seen_place[c.place]++, seen_class[c.count_class]++;
                seen_type[c.type]++, seen_sides[c.sides]++, seen_inplace += c.inplace;
                mg_rcase_free(&c);
                mg_rcase_free(&d);
            }
    for (int i = 0; i < MG_ROP_COUNT; i++)
        CHECK(seen_op[i] > 0, "op %s never drawn", mg_rop_names[i]);
    for (int i = 0; i < MG_RC_COUNT; i++) CHECK(seen_comm[i] > 0, "comm %d never drawn", i);
    for (int i = 0; i < MG_RP_COUNT; i++) CHECK(seen_place[i] > 0, "place %d never drawn", i);
    for (int i = 0; i < 7; i++) CHECK(seen_class[i] > 0, "count class %d never drawn", i);
    for (int i = 0; i < MG_RS_COUNT; i++) CHECK(seen_sides[i] > 0, "sides %d never drawn", i);
    for (int i = 0; i < mg_nrtypes; i++)
        CHECK(seen_type[i] > 0, "type %s never drawn", mg_rtypes[i].name);
    CHECK(seen_inplace > 0, "MPI_IN_PLACE never drawn");
    /* another seed, another case */
    mg_rcase a, b;
    int differ = 0;
    for (int k = 0; k < 20; k++) {
        mg_rcase_draw(1, MG_CAT_ALLREDUCE, k, 4, &a);
        mg_rcase_draw(2, MG_CAT_ALLREDUCE, k, 4, &b);
        differ += a.type != b.type || a.count != b.count || a.op != b.op;
        mg_rcase_free(&a);
        mg_rcase_free(&b);
    }
    CHECK(differ > 10, "seeds 1 and 2 give the same cases (%d of 20 differ)", differ);
}

static const mg_rtype *type_named(const char *name) {
    for (int i = 0; i < mg_nrtypes; i++)
        if (!strcmp(mg_rtypes[i].name, name)) return &mg_rtypes[i];
    return NULL;
}

static void types(void) {
    for (int i = 0; i < mg_nrtypes; i++) {
        const mg_rtype *t = &mg_rtypes[i];
        int64_t size = 0, lo = INT64_MAX, hi = INT64_MIN;
        for (int f = 0; f < t->nfields; f++) {
            int sz = mg_rbasics[t->f[f].basic].size;
            size += sz;
            if (t->f[f].off < lo) lo = t->f[f].off;
            if (t->f[f].off + sz > hi) hi = t->f[f].off + sz;
        }
        CHECK(size == t->size && lo == t->true_lb && hi - lo == t->true_extent &&
                  t->lb <= t->true_lb && t->extent > 0,
              "%s: fields disagree with size %lld, true lb %lld, true extent %lld", t->name,
              (long long)t->size, (long long)t->true_lb, (long long)t->true_extent);
        /* no two elements' fields overlap (interleaved included) */
        for (int f = 0; f < t->nfields; f++)
            for (int e = 1; e < 4; e++)
                for (int g = 0; g < t->nfields; g++) {
                    int64_t a = t->f[f].off, b = e * t->extent + t->f[g].off;
                    CHECK(a + mg_rbasics[t->f[f].basic].size <= b ||
                              b + mg_rbasics[t->f[g].basic].size <= a,
                          "%s: field %d overlaps field %d of element %d", t->name, f, g, e);
                }
    }
    CHECK(mg_rop_allowed(MG_ROP_MPI_MAXLOC, type_named("MPI_DOUBLE_INT")) &&
              !mg_rop_allowed(MG_ROP_MPI_MAXLOC, type_named("MPI_INT")) &&
              !mg_rop_allowed(MG_ROP_MPI_SUM, type_named("MPI_DOUBLE_INT")) &&
              !mg_rop_allowed(MG_ROP_MPI_SUM, type_named("contig3_int")) &&
              mg_rop_allowed(MG_ROP_USER_NONCOMM, type_named("struct_mixed")) &&
              mg_rop_allowed(MG_ROP_MPI_BAND, type_named("MPI_BYTE")) &&
              !mg_rop_allowed(MG_ROP_MPI_SUM, type_named("MPI_BYTE")) &&
              !mg_rop_allowed(MG_ROP_MPI_LAND, type_named("MPI_DOUBLE")),
          "op/type rules");
}

/* One element of t with the given field values (as integers or doubles). */
static void element(const mg_rtype *t, char *origin, const double *v) {
    for (int f = 0; f < t->nfields; f++) {
        char *at = origin + t->f[f].off;
        int b = t->f[f].basic;
        switch (mg_rbasics[b].size) {
        case 1: {
            uint8_t x = (uint8_t)(int64_t)v[f];
            memcpy(at, &x, 1);
            break;
        }
        case 2: {
            int16_t x = (int16_t)v[f];
            memcpy(at, &x, 2);
            break;
        }
        case 4:
            if (b == MG_RB_F32) {
                float x = (float)v[f];
                memcpy(at, &x, 4);
            } else {
                uint32_t x = (uint32_t)(int64_t)v[f];
                memcpy(at, &x, 4);
            }
            break;
        default:
            if (b == MG_RB_F64) {
                memcpy(at, &v[f], 8);
            } else {
                int64_t x = (int64_t)v[f];
                memcpy(at, &x, 8);
            }
        }
    }
}

static double field_value(const mg_rtype *t, const char *origin, int f) {
    char text[64];
    mg_rvalue_text(t->f[f].basic, origin + t->f[f].off, text, sizeof text);
    return strtod(text, NULL);
}

static void ops(void) {
    static const struct {
        const char *type;
        int op;
        double in[2], inout[2], want[2];
    } cases[] = {
        {"MPI_INT", MG_ROP_MPI_SUM, {5}, {-7}, {-2}},
        {"MPI_UNSIGNED",
         MG_ROP_MPI_MAX,
         {4294967295.0},
         {1},
         {4294967295.0}}, /* unsigned compare */
        {"MPI_UNSIGNED", MG_ROP_MPI_MIN, {4294967295.0}, {1}, {1}},
        {"MPI_INT", MG_ROP_MPI_MAX, {-1}, {1}, {1}},
        {"MPI_SHORT", MG_ROP_MPI_PROD, {-1}, {1}, {-1}},
        {"MPI_INT", MG_ROP_MPI_LAND, {2}, {-1}, {1}},
        {"MPI_INT", MG_ROP_MPI_LXOR, {2}, {-1}, {0}},
        {"MPI_INT", MG_ROP_MPI_LOR, {0}, {0}, {0}},
        {"MPI_UNSIGNED_CHAR", MG_ROP_MPI_BXOR, {0xF0}, {0xFF}, {0x0F}},
        {"MPI_DOUBLE", MG_ROP_MPI_MIN, {-3}, {2}, {-3}},
        {"MPI_DOUBLE_INT", MG_ROP_MPI_MAXLOC, {3, 9}, {3, 4}, {3, 4}}, /* tie: smaller index */
        {"MPI_DOUBLE_INT", MG_ROP_MPI_MAXLOC, {3, 9}, {2, 4}, {3, 9}},
        {"MPI_2INT", MG_ROP_MPI_MINLOC, {1, 9}, {1, 12}, {1, 9}},
        {"MPI_SHORT_INT", MG_ROP_MPI_MINLOC, {0, 30}, {1, 2}, {0, 30}},
        {"MPI_INT", MG_ROP_USER_COMM, {5}, {7}, {13}},
        /* affine maps packed a << 16 | b: in = 3t + 1, inout = 2t + 5 -> 2(3t + 1) + 5 = 6t + 7 */
        {"MPI_INT", MG_ROP_USER_NONCOMM, {3 * 65536 + 1}, {2 * 65536 + 5}, {6 * 65536 + 7}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mg_rtype *t = type_named(cases[i].type);
        char in[64] = {0}, io[64] = {0};
        element(t, in, cases[i].in);
        element(t, io, cases[i].inout);
        mg_rop_apply(cases[i].op, t, in, io, 1);
        for (int f = 0; f < t->nfields; f++)
            CHECK(field_value(t, io, f) == cases[i].want[f], "case %zu (%s %s) field %d: %g", i,
                  mg_rop_names[cases[i].op], cases[i].type, f, field_value(t, io, f));
    }
    /* the user ops on every field kind: commutative, resp. associative and not commutative */
    int noncomm_seen = 0;
    for (int ti = 0; ti < mg_nrtypes; ti++) {
        const mg_rtype *t = &mg_rtypes[ti];
        for (uint64_t h = 1; h < 40; h++) {
            char x[64], y[64], z[64], xy[64], yx[64], l[64], r[64];
            for (int f = 0; f < t->nfields; f++) {
                mg_rvalue(MG_ROP_USER_NONCOMM, t->f[f].basic, f, h * 0x9E3779B97F4A7C15ull,
                          x + t->f[f].off + 16);
                mg_rvalue(MG_ROP_USER_NONCOMM, t->f[f].basic, f, h * 0xC2B2AE3D27D4EB4Full,
                          y + t->f[f].off + 16);
                mg_rvalue(MG_ROP_USER_NONCOMM, t->f[f].basic, f, h * 0x165667B19E3779F9ull,
                          z + t->f[f].off + 16);
            }
            /* (x y) z against x (y z), with in op inout = apply in, then inout */
            memcpy(xy, y, 64);
            mg_rop_apply(MG_ROP_USER_NONCOMM, t, x + 16, xy + 16, 1); /* xy = x op y */
            memcpy(l, z, 64);
            mg_rop_apply(MG_ROP_USER_NONCOMM, t, xy + 16, l + 16, 1); /* (x op y) op z */
            memcpy(r, z, 64);
            mg_rop_apply(MG_ROP_USER_NONCOMM, t, y + 16, r + 16, 1); /* y op z */
            mg_rop_apply(MG_ROP_USER_NONCOMM, t, x + 16, r + 16, 1); /* x op (y op z) */
            for (int f = 0; f < t->nfields; f++)
                CHECK(!memcmp(l + 16 + t->f[f].off, r + 16 + t->f[f].off,
                              (size_t)mg_rbasics[t->f[f].basic].size),
                      "%s: user_noncomm not associative (field %d, h %llu)", t->name, f,
                      (unsigned long long)h);
            memcpy(yx, x, 64);
            mg_rop_apply(MG_ROP_USER_NONCOMM, t, y + 16, yx + 16, 1);
            noncomm_seen += memcmp(xy + 16 + t->f[0].off, yx + 16 + t->f[0].off,
                                   (size_t)mg_rbasics[t->f[0].basic].size) != 0;
            memcpy(xy, y, 64);
            mg_rop_apply(MG_ROP_USER_COMM, t, x + 16, xy + 16, 1);
            memcpy(yx, x, 64);
            mg_rop_apply(MG_ROP_USER_COMM, t, y + 16, yx + 16, 1);
            for (int f = 0; f < t->nfields; f++)
                CHECK(!memcmp(xy + 16 + t->f[f].off, yx + 16 + t->f[f].off,
                              (size_t)mg_rbasics[t->f[f].basic].size),
                      "%s: user_comm not commutative", t->name);
        }
    }
    CHECK(noncomm_seen > 100, "user_noncomm is hardly ever non-commutative (%d)", noncomm_seen);
}

/* Rank `rank`'s buffer `which` of case c: bytes filled, in its own allocation. */
static unsigned char *filled(const mg_rcase *c, int rank, int which, mg_rargs *a, mg_rmem *m) {
    mg_rgeom g[MG_RB_NBUFS];
    size_t size[2];
    mg_rcase_args(c, rank, a);
    mg_rgeometry(c, a, g, size);
    unsigned char *mem = calloc(1, g[which].bytes + 1);
    *m = (mg_rmem){mem, g[which].bytes, g[which].origin, NULL};
    mg_rfill(c, rank, which, a, m);
    return mem;
}

/* Expected results against ones assembled here from the other ranks' filled buffers. */
static void reference(void) {
    mg_rcase c;
    int p = 3;
    for (int64_t k = 0; k < 300; k++) {
        int coll = k % 2 ? MG_CAT_ALLGATHER : MG_CAT_ALLREDUCE;
        mg_rcase_draw(11, coll, k, p, &c);
        const mg_rtype *T = &mg_rtypes[c.type];
        char desc[512];
        mg_rcase_describe(&c, desc, sizeof desc);
        for (int rank = 0; rank < p; rank++) {
            mg_rargs a, ai;
            mg_rmem exp, in;
            filled(&c, rank, MG_RB_RECV, &a, &exp);
            CHECK(mg_rexpect(&c, rank, MG_RB_RECV, &a, &exp) == 0, "expect");
            int64_t e = c.count;
            if (coll == MG_CAT_ALLGATHER) { /* block i of the result is rank i's input */
                for (int i = 0; i < p; i++) {
                    int w = c.inplace ? MG_RB_RECV : MG_RB_SEND;
                    unsigned char *mem = filled(&c, i, w, &ai, &in);
                    int64_t from = c.inplace ? i * e : 0;
                    for (int64_t x = 0; x < e; x++)
                        for (int f = 0; f < T->nfields; f++)
                            CHECK(!memcmp(exp.mem + exp.origin + (i * e + x) * T->extent +
                                              T->f[f].off,
                                          in.mem + in.origin + (from + x) * T->extent + T->f[f].off,
                                          (size_t)mg_rbasics[T->f[f].basic].size),
                                  "[%s] rank %d block %d element %lld", desc, rank, i,
                                  (long long)x);
                    free(mem);
                }
            } else if (e > 0) { /* fold by hand: x0 op (x1 op x2) */
                unsigned char *mem[3];
                mg_rmem m[3];
                for (int i = 0; i < p; i++)
                    mem[i] = filled(&c, i, c.inplace ? MG_RB_RECV : MG_RB_SEND, &ai, &m[i]);
                mg_rop_apply(c.op, T, m[1].mem + m[1].origin, m[2].mem + m[2].origin, e);
                mg_rop_apply(c.op, T, m[0].mem + m[0].origin, m[2].mem + m[2].origin, e);
                for (int64_t x = 0; x < e; x++)
                    for (int f = 0; f < T->nfields; f++)
                        CHECK(!memcmp(exp.mem + exp.origin + x * T->extent + T->f[f].off,
                                      m[2].mem + m[2].origin + x * T->extent + T->f[f].off,
                                      (size_t)mg_rbasics[T->f[f].basic].size),
                              "[%s] rank %d element %lld field %d", desc, rank, (long long)x, f);
                for (int i = 0; i < p; i++) free(mem[i]);
            }
            /* a planted difference in a data field is found and named; one in a hole too */
            if (c.count > 0 && T->nfields) {
                unsigned char *got = malloc(exp.bytes);
                memcpy(got, exp.mem, exp.bytes);
                got[exp.origin + T->f[0].off] ^= 1;
                char msg[512];
                int64_t at = mg_rdiff(&c, &a, MG_RB_RECV, &exp, got, msg, sizeof msg);
                CHECK(at == (int64_t)(exp.origin + T->f[0].off) && strstr(msg, "element 0 of") &&
                          strstr(msg, "field 0"),
                      "[%s] diff: %lld %s", desc, (long long)at, msg);
                memcpy(got, exp.mem, exp.bytes);
                /* a guard: the lower one, or the upper one of a buffer that follows the
                 * other (no guard between adjacent buffers) */
                got[exp.origin >= MG_RGUARD ? 0 : exp.bytes - 1] ^= 0x40;
                CHECK(mg_rdiff(&c, &a, MG_RB_RECV, &exp, got, msg, sizeof msg) >= 0 &&
                          strstr(msg, "outside every data field"),
                      "[%s] guard: %s", desc, msg);
                memcpy(got, exp.mem, exp.bytes);
                CHECK(mg_rdiff(&c, &a, MG_RB_RECV, &exp, got, msg, sizeof msg) == -1, "equal");
                free(got);
            }
            free(exp.mem);
            free(exp.care);
        }
        mg_rcase_free(&c);
    }
}

static void placement(void) {
    mg_rcase c;
    int checked = 0;
    for (int64_t k = 0; k < 200; k++) {
        mg_rcase_draw(5, MG_CAT_ALLREDUCE, k, 4, &c);
        mg_rargs a;
        mg_rcase_args(&c, 1, &a);
        mg_rgeom g[MG_RB_NBUFS];
        size_t size[2];
        mg_rgeometry(&c, &a, g, size);
        if (a.has[MG_RB_SEND] && a.has[MG_RB_RECV]) {
            checked++;
            if (c.place == MG_RP_SEND_RECV)
                CHECK(g[MG_RB_RECV].block == 0 && g[MG_RB_RECV].at == g[MG_RB_SEND].bytes &&
                          size[1] == 0,
                      "send-recv: the receive buffer follows the send buffer");
            else if (c.place == MG_RP_RECV_SEND)
                CHECK(g[MG_RB_SEND].at == g[MG_RB_RECV].bytes, "recv-send");
            else
                CHECK(g[MG_RB_RECV].block == 1 && g[MG_RB_SEND].at == (c.place == MG_RP_MISALIGNED),
                      "apart / misaligned");
        }
        mg_rcase_free(&c);
    }
    CHECK(checked > 50, "placements checked: %d", checked);
}

int main(void) {
    types();
    ops();
    drawing();
    reference();
    placement();
    return DONE();
}
