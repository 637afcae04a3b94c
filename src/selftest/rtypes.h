/* The datatypes and ops of `mpiguide selftest --random`, described without MPI: every datatype
 * field by field (offset and basic kind) with the recipe MPI builds it from, every op with the
 * datatypes it applies to, the values each op is tested with, and the ops themselves applied to
 * described buffers (the sequential reference, and the user ops' bodies). MPI-free. */
#ifndef MG_SELFTEST_RTYPES_H
#define MG_SELFTEST_RTYPES_H

#include <stddef.h>
#include <stdint.h>

/* Basic element kinds (one field of a datatype). */
enum mg_rbasic {
    MG_RB_I8,
    MG_RB_U8,
    MG_RB_I16,
    MG_RB_U16,
    MG_RB_I32,
    MG_RB_U32,
    MG_RB_I64,
    MG_RB_U64,
    MG_RB_F32,
    MG_RB_F64,
    MG_RB_BYTE,
    MG_RB_COUNT
};

typedef struct mg_rbasic_desc {
    const char *c_type;   /* "int32_t" */
    const char *mpi_name; /* the predefined datatype of exactly this kind: "MPI_INT32_T" */
    int size, is_signed, is_float;
} mg_rbasic_desc;

extern const mg_rbasic_desc mg_rbasics[MG_RB_COUNT];

typedef struct mg_rfield {
    int32_t off; /* bytes from the element's origin */
    int basic;
} mg_rfield;

/* How MPI builds a derived datatype (each from predefined ones of its fields' kinds):
 * contiguous(n), vector(n, blocklen, stride), indexed(n, lens, displs in elements) or
 * struct(n, lens = 1, byte displs, basics), optionally resized to (lb, extent). */
enum { MG_RR_PREDEFINED, MG_RR_CONTIGUOUS, MG_RR_VECTOR, MG_RR_INDEXED, MG_RR_STRUCT };

#define MG_RFIELDS 4

typedef struct mg_rtype {
    const char *name;     /* "vector_int", "MPI_DOUBLE_INT" */
    const char *mpi_name; /* predefined (also the pair types): its MPI name; derived: NULL */
    int how, n, blocklen, stride;
    int lens[MG_RFIELDS];
    int64_t displs[MG_RFIELDS];
    int basics[MG_RFIELDS];
    int resized;
    int64_t rlb, rextent;
    /* the layout MPI must report (checked at start-up): */
    int64_t lb, extent, true_lb, true_extent, size;
    int nfields;
    mg_rfield f[MG_RFIELDS];
    int pair; /* a value-index pair type of MPI_MAXLOC / MPI_MINLOC */
} mg_rtype;

extern const mg_rtype mg_rtypes[];
extern const int mg_nrtypes;
/* 1 for the predefined datatypes (those predefined ops apply to; Open MPI refuses predefined ops
 * on derived datatypes). */
int mg_rtype_predefined(const mg_rtype *t);

/* Ops: the predefined reduction ops and two user ops, a commutative one (x + y + 1 per field,
 * wrapping; 0 is not its identity, so padding reduced into data shows) and a non-commutative
 * associative one (composition of affine maps packed into each field). */
/* The predefined ops are the rows of catalog/ops.def, MG_ROP_MPI_SUM, ...; the random test
 * draws those with RT 1, which come first there, and the user ops follow them (so the two user
 * ops share their values with the undrawn rows, which are never used). */
enum mg_rop {
#define MG_OPDEF(N, ...) MG_ROP_##N,
#include "catalog/ops.def"
#undef MG_OPDEF
    MG_ROP_USER_COMM = 0
#define MG_OPDEF(N, SHORT, CLASS, CATS, RT) +RT
#include "catalog/ops.def"
#undef MG_OPDEF
    ,
    MG_ROP_USER_NONCOMM,
    MG_ROP_COUNT
};

extern const char *const mg_rop_names[MG_ROP_COUNT]; /* "MPI_SUM", ..., "user_comm" */
int mg_rop_commutative(int op);
int mg_rop_predefined(int op);
/* 1 when MPI allows the op on the datatype (MPI-3.1 section 5.9.2 for predefined ops). */
int mg_rop_allowed(int op, const mg_rtype *t);

/* Values: the data-movement collectives take any bit pattern (floating-point fields finite and
 * integral), each op values whose reduction is exact and the same in any association: small
 * integers for sums and products, any bits for bitwise ops and comparisons, {0, 1, 2, -1} for
 * logical ops, few distinct values for MINLOC/MAXLOC (ties are broken by the index), packed affine
 * maps for the non-commutative op. op -1: data movement. Writes the field at `at`. */
void mg_rvalue(int op, int basic, int field, uint64_t h, void *at);

/* The value of a field of kind `basic` at `at`, as text. */
void mg_rvalue_text(int basic, const void *at, char *buf, size_t len);

/* inout[i] = in[i] op inout[i] for n elements of t (laid out by its extent, origins at in and
 * inout); holes untouched. */
void mg_rop_apply(int op, const mg_rtype *t, const void *in, void *inout, int64_t n);

#endif
