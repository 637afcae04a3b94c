/* The datatypes, ops and values of the random differential test (rtypes.h), and the ops applied
 * to described buffers: the sequential reference of every reduction and the bodies of the user
 * ops. Pure C; the MPI side builds the datatypes from the recipes and checks their layout. */
#include "rtypes.h"
#include "catalog/catalog.h"
#include <stdio.h>
#include <string.h>

const mg_rbasic_desc mg_rbasics[MG_RB_COUNT] = {
    [MG_RB_I8] = {"int8_t", "MPI_SIGNED_CHAR", 1, 1, 0},
    [MG_RB_U8] = {"uint8_t", "MPI_UNSIGNED_CHAR", 1, 0, 0},
    [MG_RB_I16] = {"int16_t", "MPI_SHORT", 2, 1, 0},
    [MG_RB_U16] = {"uint16_t", "MPI_UNSIGNED_SHORT", 2, 0, 0},
    [MG_RB_I32] = {"int32_t", "MPI_INT", 4, 1, 0},
    [MG_RB_U32] = {"uint32_t", "MPI_UNSIGNED", 4, 0, 0},
    [MG_RB_I64] = {"int64_t", "MPI_LONG_LONG", 8, 1, 0},
    [MG_RB_U64] = {"uint64_t", "MPI_UNSIGNED_LONG_LONG", 8, 0, 0},
    [MG_RB_F32] = {"float", "MPI_FLOAT", 4, 1, 1},
    [MG_RB_F64] = {"double", "MPI_DOUBLE", 8, 1, 1},
    [MG_RB_BYTE] = {"uint8_t", "MPI_BYTE", 1, 0, 0},
};

#define I8   MG_RB_I8
#define U8   MG_RB_U8
#define I16  MG_RB_I16
#define U16  MG_RB_U16
#define I32  MG_RB_I32
#define U32  MG_RB_U32
#define I64  MG_RB_I64
#define U64  MG_RB_U64
#define F32  MG_RB_F32
#define F64  MG_RB_F64
#define BYTE MG_RB_BYTE
#define PRE  MG_RR_PREDEFINED

/* A predefined datatype of one field. */
#define PREDEF(NAME, B, SZ)                                                                        \
    { NAME, NAME, PRE, 0, 0, 0, {0}, {0}, {0}, 0, 0, 0, 0, SZ, 0, SZ, SZ, 1, {{0, B}}, 0 }
/* datatypes.def's RT column: the basic kind and its size, or not drawn */
#define RT_NONE(N)
#define RT_I8(N)   PREDEF(#N, I8, 1),
#define RT_U8(N)   PREDEF(#N, U8, 1),
#define RT_I16(N)  PREDEF(#N, I16, 2),
#define RT_U16(N)  PREDEF(#N, U16, 2),
#define RT_I32(N)  PREDEF(#N, I32, 4),
#define RT_U32(N)  PREDEF(#N, U32, 4),
#define RT_I64(N)  PREDEF(#N, I64, 8),
#define RT_U64(N)  PREDEF(#N, U64, 8),
#define RT_F32(N)  PREDEF(#N, F32, 4),
#define RT_F64(N)  PREDEF(#N, F64, 8),
#define RT_BYTE(N) PREDEF(#N, BYTE, 1),

const mg_rtype mg_rtypes[] = {
/* the predefined types of catalog/datatypes.def the random test draws (RT), in its order */
#define MG_DTYPE(N, SIZE, CAT, RT, STANDIN) RT_##RT(N)
#include "catalog/datatypes.def"
#undef MG_DTYPE
    /* the value-index pairs of MINLOC/MAXLOC: struct layouts with their padding as holes */
    {"MPI_FLOAT_INT",
     "MPI_FLOAT_INT",
     PRE,
     0,
     0,
     0,
     {0},
     {0},
     {0},
     0,
     0,
     0,
     0,
     8,
     0,
     8,
     8,
     2,
     {{0, F32}, {4, I32}},
     1},
    {"MPI_DOUBLE_INT",
     "MPI_DOUBLE_INT",
     PRE,
     0,
     0,
     0,
     {0},
     {0},
     {0},
     0,
     0,
     0,
     0,
     16,
     0,
     12,
     12,
     2,
     {{0, F64}, {8, I32}},
     1},
    {"MPI_LONG_INT",
     "MPI_LONG_INT",
     PRE,
     0,
     0,
     0,
     {0},
     {0},
     {0},
     0,
     0,
     0,
     0,
     16,
     0,
     12,
     12,
     2,
     {{0, I64}, {8, I32}},
     1},
    {"MPI_2INT", "MPI_2INT",           PRE, 0, 0, 0, {0}, {0}, {0}, 0, 0, 0, 0, 8, 0, 8, 8,
     2,          {{0, I32}, {4, I32}}, 1},
    {"MPI_SHORT_INT",
     "MPI_SHORT_INT",
     PRE,
     0,
     0,
     0,
     {0},
     {0},
     {0},
     0,
     0,
     0,
     0,
     8,
     0,
     8,
     6,
     2,
     {{0, I16}, {4, I32}},
     1},
    /* derived */
    {"contig3_int",
     NULL,
     MG_RR_CONTIGUOUS,
     3,
     0,
     0,
     {0},
     {0},
     {I32},
     0,
     0,
     0,
     0,
     12,
     0,
     12,
     12,
     3,
     {{0, I32}, {4, I32}, {8, I32}},
     0},
    {"vector_int",
     NULL,
     MG_RR_VECTOR,
     2,
     1,
     3,
     {0},
     {0},
     {I32},
     0,
     0,
     0,
     0,
     16,
     0,
     16,
     8,
     2,
     {{0, I32}, {12, I32}},
     0},
    {"vector_double",
     NULL,
     MG_RR_VECTOR,
     3,
     1,
     2,
     {0},
     {0},
     {F64},
     0,
     0,
     0,
     0,
     40,
     0,
     40,
     24,
     3,
     {{0, F64}, {16, F64}, {32, F64}},
     0},
    {"indexed_short",
     NULL,
     MG_RR_INDEXED,
     2,
     0,
     0,
     {1, 2},
     {0, 3},
     {I16},
     0,
     0,
     0,
     0,
     10,
     0,
     10,
     6,
     3,
     {{0, I16}, {6, I16}, {8, I16}},
     0},
    /* int, double, int with holes at 4..7, 16..19, 24..31 */
    {"struct_mixed",
     NULL,
     MG_RR_STRUCT,
     3,
     0,
     0,
     {1, 1, 1},
     {0, 8, 20},
     {I32, F64, I32},
     1,
     0,
     32,
     0,
     32,
     0,
     24,
     16,
     3,
     {{0, I32}, {8, F64}, {20, I32}},
     0},
    /* a byte and a 64-bit integer: the widest gap */
    {"struct_u8_u64",
     NULL,
     MG_RR_STRUCT,
     2,
     0,
     0,
     {1, 1},
     {0, 8},
     {U8, U64},
     0,
     0,
     0,
     0,
     16,
     0,
     16,
     9,
     2,
     {{0, U8}, {8, U64}},
     0},
    /* ints at -4 and 8 in an element [-8, 16): negative lower bound and true lower bound */
    {"resized_neg",
     NULL,
     MG_RR_STRUCT,
     2,
     0,
     0,
     {1, 1},
     {-4, 8},
     {I32, I32},
     1,
     -8,
     24,
     -8,
     24,
     -4,
     16,
     8,
     2,
     {{-4, I32}, {8, I32}},
     0},
    /* ints at 0 and 12, extent 8: consecutive elements interleave without overlapping */
    {"interleaved",
     NULL,
     MG_RR_STRUCT,
     2,
     0,
     0,
     {1, 1},
     {0, 12},
     {I32, I32},
     1,
     0,
     8,
     0,
     8,
     0,
     16,
     8,
     2,
     {{0, I32}, {12, I32}},
     0},
    /* an int and 4 bytes of gap: extent 8, true extent 4 */
    {"padded_int", NULL, MG_RR_STRUCT, 1, 0, 0, {1}, {0}, {I32}, 1, 0, 8, 0, 8, 0, 4, 4, 1,
     {{0, I32}},   0},
    /* an int at 4 of an element [0, 8): true lower bound 4 */
    {"shifted_int", NULL, MG_RR_STRUCT, 1, 0, 0, {1}, {4}, {I32}, 1, 0, 8, 0, 8, 4, 4, 4, 1,
     {{4, I32}},    0},
};
const int mg_nrtypes = (int)(sizeof mg_rtypes / sizeof mg_rtypes[0]);

int mg_rtype_predefined(const mg_rtype *t) {
    return t->how == MG_RR_PREDEFINED;
}

#define ROP_NAME_1(N) #N,
#define ROP_NAME_0(N)
const char *const mg_rop_names[MG_ROP_COUNT] = {
#define MG_OPDEF(N, SHORT, CLASS, CATS, RT) ROP_NAME_##RT(N)
#include "catalog/ops.def"
#undef MG_OPDEF
    "user_comm", "user_noncomm"};

int mg_rop_commutative(int op) {
    return op != MG_ROP_USER_NONCOMM;
}

int mg_rop_predefined(int op) {
    return op < MG_ROP_USER_COMM;
}

int mg_rop_allowed(int op, const mg_rtype *t) {
    if (!mg_rop_predefined(op)) return 1;
    if (op == MG_ROP_MPI_MAXLOC || op == MG_ROP_MPI_MINLOC) return t->pair;
    /* predefined ops on predefined one-field types, as the catalog's table of MPI-3.1 5.9.2 */
    return mg_rtype_predefined(t) && !t->pair && mg_op_allowed(mg_rop_names[op], t->mpi_name);
}

/* ---- values ---- */

/* Writes v (an integer, or a float given as double) as a field of kind b. */
static void put(int b, int64_t iv, double fv, void *at) {
    switch (b) {
    case I8:
    case U8:
    case BYTE: {
        uint8_t x = (uint8_t)iv;
        memcpy(at, &x, 1);
        break;
    }
    case I16:
    case U16: {
        uint16_t x = (uint16_t)iv;
        memcpy(at, &x, 2);
        break;
    }
    case I32:
    case U32: {
        uint32_t x = (uint32_t)iv;
        memcpy(at, &x, 4);
        break;
    }
    case I64:
    case U64: {
        uint64_t x = (uint64_t)iv;
        memcpy(at, &x, 8);
        break;
    }
    case F32: {
        float x = (float)fv;
        memcpy(at, &x, 4);
        break;
    }
    default: {
        double x = fv;
        memcpy(at, &x, 8);
    }
    }
}

/* A signed integer in [-m, m] from h. */
static int64_t within(uint64_t h, int64_t m) {
    return (int64_t)(h % (uint64_t)(2 * m + 1)) - m;
}

void mg_rvalue(int op, int basic, int field, uint64_t h, void *at) {
    const mg_rbasic_desc *b = &mg_rbasics[basic];
    int f32 = basic == F32, flt = b->is_float;
    int64_t bits = (int64_t)h;
    /* integral floating-point values, exact in any sum of a few of them */
    double any_float = f32 ? (double)(int16_t)h : (double)(int32_t)h;
    switch (op) {
    case MG_ROP_MPI_SUM:
    case MG_ROP_USER_COMM: {
        static const int64_t range[MG_RB_COUNT] = {
            [I8] = 7, [I16] = 1000, [I32] = 1000000, [I64] = 1000000000000ll};
        if (flt)
            put(basic, 0, (double)within(h, f32 ? 1000 : (1 << 20)), at);
        else if (b->is_signed && op == MG_ROP_MPI_SUM)
            put(basic, within(h, range[basic]), 0, at);
        else /* unsigned sums and the user op wrap: any bits */
            put(basic, bits, 0, at);
        return;
    }
    case MG_ROP_MPI_PROD: {
        static const int64_t factors[8] = {-2, -1, 1, 2, 1, -1, 2, 0};
        int64_t v = factors[h % 8];
        if (!flt && b->is_signed && b->size <= 2) v = h % 2 ? 1 : -1; /* 2^p overflows */
        if (!flt && !b->is_signed) v = bits;                          /* wraps */
        put(basic, v, (double)v, at);
        return;
    }
    case MG_ROP_MPI_LAND:
    case MG_ROP_MPI_LOR:
    case MG_ROP_MPI_LXOR: {
        static const int64_t logical[4] = {0, 1, 2, -1};
        put(basic, logical[h % 4], 0, at);
        return;
    }
    case MG_ROP_MPI_MAXLOC:
    case MG_ROP_MPI_MINLOC: /* few values, so ties show the index rule */
        if (field == 0)
            put(basic, (int64_t)(h % 4), (double)(h % 4), at);
        else
            put(basic, (int64_t)(h % 50), 0, at);
        return;
    case MG_ROP_USER_NONCOMM: { /* an affine map t -> a t + b mod 2^half, packed a << half | b */
        int half = flt ? (f32 ? 8 : 16) : b->size * 4;
        uint64_t mask = (1ull << half) - 1, a = h & mask, c = (h >> 32) & mask;
        uint64_t packed = a << half | c;
        put(basic, (int64_t)packed, (double)packed, at);
        return;
    }
    default: /* data movement, MAX, MIN and bitwise ops: any bits (floats finite, integral) */
        put(basic, bits, any_float, at);
    }
}

/* ---- applying ops ---- */

typedef union num {
    int64_t i;
    uint64_t u;
    double f;
} num;

/* A field's value: signed kinds sign-extended into i, unsigned into u, floats into f. */
static num get(int b, const void *at) {
    num v = {0};
    switch (b) {
    case I8: {
        int8_t x;
        memcpy(&x, at, 1);
        v.i = x;
        break;
    }
    case U8:
    case BYTE: {
        uint8_t x;
        memcpy(&x, at, 1);
        v.u = x;
        break;
    }
    case I16: {
        int16_t x;
        memcpy(&x, at, 2);
        v.i = x;
        break;
    }
    case U16: {
        uint16_t x;
        memcpy(&x, at, 2);
        v.u = x;
        break;
    }
    case I32: {
        int32_t x;
        memcpy(&x, at, 4);
        v.i = x;
        break;
    }
    case U32: {
        uint32_t x;
        memcpy(&x, at, 4);
        v.u = x;
        break;
    }
    case I64:
        memcpy(&v.i, at, 8);
        break;
    case U64:
        memcpy(&v.u, at, 8);
        break;
    case F32: {
        float x;
        memcpy(&x, at, 4);
        v.f = x;
        break;
    }
    default:
        memcpy(&v.f, at, 8);
    }
    return v;
}

void mg_rvalue_text(int basic, const void *at, char *buf, size_t len) {
    num v = get(basic, at);
    if (mg_rbasics[basic].is_float)
        snprintf(buf, len, "%.17g", v.f);
    else if (mg_rbasics[basic].is_signed)
        snprintf(buf, len, "%lld", (long long)v.i);
    else
        snprintf(buf, len, "%llu (0x%llx)", (unsigned long long)v.u, (unsigned long long)v.u);
}

static void set(int b, num v, void *at) {
    if (mg_rbasics[b].is_float)
        put(b, 0, v.f, at);
    else
        put(b, mg_rbasics[b].is_signed ? v.i : (int64_t)v.u, 0, at);
}

/* x op y for one field; integers wrap (computed unsigned), as C does for MPI's unsigned types and
 * as the chosen values keep signed ones from overflowing. */
static num combine(int op, int b, num x, num y) {
    const mg_rbasic_desc *d = &mg_rbasics[b];
    num r = y;
    if (d->is_float) {
        switch (op) {
        case MG_ROP_MPI_SUM:
            r.f = x.f + y.f;
            break;
        case MG_ROP_MPI_PROD:
            r.f = x.f * y.f;
            break;
        case MG_ROP_MPI_MAX:
            r.f = x.f > y.f ? x.f : y.f;
            break;
        case MG_ROP_MPI_MIN:
            r.f = x.f < y.f ? x.f : y.f;
            break;
        case MG_ROP_USER_COMM:
            r.f = x.f + y.f + 1;
            break;
        case MG_ROP_USER_NONCOMM: {
            int half = b == F32 ? 8 : 16;
            uint64_t m = (1ull << half) - 1, in = (uint64_t)x.f, io = (uint64_t)y.f;
            uint64_t ai = in >> half, bi = in & m, ao = io >> half, bo = io & m;
            r.f = (double)(((ao * ai) & m) << half | ((ao * bi + bo) & m));
            break;
        }
        }
        return r;
    }
    int sgn = d->is_signed;
    uint64_t ux = sgn ? (uint64_t)x.i : x.u, uy = sgn ? (uint64_t)y.i : y.u, ur = uy;
    switch (op) {
    case MG_ROP_MPI_SUM:
        ur = ux + uy;
        break;
    case MG_ROP_MPI_PROD:
        ur = ux * uy;
        break;
    case MG_ROP_MPI_MAX:
        ur = (sgn ? x.i > y.i : x.u > y.u) ? ux : uy;
        break;
    case MG_ROP_MPI_MIN:
        ur = (sgn ? x.i < y.i : x.u < y.u) ? ux : uy;
        break;
    case MG_ROP_MPI_LAND:
        ur = ux && uy;
        break;
    case MG_ROP_MPI_LOR:
        ur = ux || uy;
        break;
    case MG_ROP_MPI_LXOR:
        ur = !ux != !uy;
        break;
    case MG_ROP_MPI_BAND:
        ur = ux & uy;
        break;
    case MG_ROP_MPI_BOR:
        ur = ux | uy;
        break;
    case MG_ROP_MPI_BXOR:
        ur = ux ^ uy;
        break;
    case MG_ROP_USER_COMM:
        ur = ux + uy + 1;
        break;
    case MG_ROP_USER_NONCOMM: {
        int half = d->size * 4; /* at most 32 */
        uint64_t m = (1ull << half) - 1;
        uint64_t ai = (ux >> half) & m, bi = ux & m, ao = (uy >> half) & m, bo = uy & m;
        ur = ((ao * ai) & m) << half | ((ao * bi + bo) & m);
        break;
    }
    }
    if (sgn)
        r.i = (int64_t)ur; /* narrowed again by set() */
    else
        r.u = ur;
    return r;
}

/* MINLOC / MAXLOC on one pair: the better value, the smaller index on a tie. */
static void loc(int op, const mg_rtype *t, const char *in, char *io) {
    num vi = get(t->f[0].basic, in + t->f[0].off), vo = get(t->f[0].basic, io + t->f[0].off);
    num ii = get(t->f[1].basic, in + t->f[1].off), io_ = get(t->f[1].basic, io + t->f[1].off);
    int flt = mg_rbasics[t->f[0].basic].is_float;
    int less = flt ? vi.f < vo.f : vi.i < vo.i, more = flt ? vi.f > vo.f : vi.i > vo.i;
    int in_better = op == MG_ROP_MPI_MINLOC ? less : more;
    if (in_better) {
        set(t->f[0].basic, vi, io + t->f[0].off);
        set(t->f[1].basic, ii, io + t->f[1].off);
    } else if (!less && !more && ii.i < io_.i) {
        set(t->f[1].basic, ii, io + t->f[1].off);
    }
}

void mg_rop_apply(int op, const mg_rtype *t, const void *in, void *inout, int64_t n) {
    for (int64_t e = 0; e < n; e++) {
        const char *x = (const char *)in + e * t->extent;
        char *y = (char *)inout + e * t->extent;
        if (op == MG_ROP_MPI_MAXLOC || op == MG_ROP_MPI_MINLOC) {
            loc(op, t, x, y);
            continue;
        }
        for (int k = 0; k < t->nfields; k++) {
            int b = t->f[k].basic;
            set(b, combine(op, b, get(b, x + t->f[k].off), get(b, y + t->f[k].off)),
                y + t->f[k].off);
        }
    }
}
