/* The matrix's datatypes (predefined, contiguous, strided vector, struct with gaps, resized with
 * a negative lower bound), each described field by field so buffers can be filled and compared,
 * and its ops: MPI_SUM, MPI_MAX, a commutative user op and a non-commutative associative one.
 * The user ops check that they are called with a datatype the program passed. */
#include "matrix.h"
#include <string.h>

static mx_type types[MX_NDTYPES];
static MPI_Op user_comm, user_noncomm;
static long foreign_calls;

static void describe(mx_type *T, const char *name, MPI_Datatype t, int nfields, const mx_field *f) {
    T->name = name;
    T->t = t;
    PMPI_Type_get_extent(t, &T->lb, &T->extent);
    PMPI_Type_get_true_extent(t, &T->true_lb, &T->true_extent);
    T->nfields = nfields;
    memcpy(T->f, f, sizeof(mx_field) * (size_t)nfields);
    PMPI_Type_contiguous(2, t, &T->wide);
    PMPI_Type_commit(&T->wide);
}

static const mx_type *lookup(MPI_Datatype t) {
    for (int i = 0; i < MX_NDTYPES; i++)
        if (types[i].t == t) return &types[i];
    return NULL;
}

/* The commutative op: x + y + 1 per field (integers wrap as unsigned; doubles hold small
 * integers, so every order of evaluation gives the same bits). 0 is not its identity, so a
 * mock-up that reduces padding or scratch into real data shows. */
static uint32_t comm_u(uint32_t x, uint32_t y) {
    return x + y + 1u;
}

/* The non-commutative op: each field is an affine map t -> a t + b (mod 2^16) packed as
 * a << 16 | b; in op inout is (apply in first, then inout), which is associative. */
static uint32_t compose_u(uint32_t in, uint32_t inout) {
    uint32_t ai = in >> 16, bi = in & 0xffffu, ao = inout >> 16, bo = inout & 0xffffu;
    return ((ao * ai) & 0xffffu) << 16 | ((ao * bi + bo) & 0xffffu);
}

static void apply(void *in, void *inout, const int *len, const MPI_Datatype *dt, int noncomm) {
    const mx_type *T = lookup(*dt);
    if (!T) {
        foreign_calls++;
        return;
    }
    for (int i = 0; i < *len; i++)
        for (int k = 0; k < T->nfields; k++) {
            char *x = (char *)in + (MPI_Aint)i * T->extent + T->f[k].off;
            char *y = (char *)inout + (MPI_Aint)i * T->extent + T->f[k].off;
            if (T->f[k].dbl) {
                double a, b;
                memcpy(&a, x, sizeof a);
                memcpy(&b, y, sizeof b);
                b = noncomm ? (double)compose_u((uint32_t)a, (uint32_t)b) : a + b + 1.0;
                memcpy(y, &b, sizeof b);
            } else {
                uint32_t a, b;
                memcpy(&a, x, sizeof a);
                memcpy(&b, y, sizeof b);
                b = noncomm ? compose_u(a, b) : comm_u(a, b);
                memcpy(y, &b, sizeof b);
            }
        }
}

static void op_comm(void *in, void *inout, int *len, MPI_Datatype *dt) {
    apply(in, inout, len, dt, 0);
}

static void op_noncomm(void *in, void *inout, int *len, MPI_Datatype *dt) {
    apply(in, inout, len, dt, 1);
}

void mx_types_create(void) {
    MPI_Datatype t, inner;
    describe(&types[MX_DT_INT], "int", MPI_INT, 1, (mx_field[]){{0, 0}});
    describe(&types[MX_DT_DOUBLE], "double", MPI_DOUBLE, 1, (mx_field[]){{0, 1}});

    PMPI_Type_contiguous(3, MPI_INT, &t);
    PMPI_Type_commit(&t);
    describe(&types[MX_DT_CONTIG], "contig", t, 3, (mx_field[]){{0, 0}, {4, 0}, {8, 0}});

    /* ints at 0 and 12, extent 16: holes at 4..11 */
    PMPI_Type_vector(2, 1, 3, MPI_INT, &t);
    PMPI_Type_commit(&t);
    describe(&types[MX_DT_VECTOR], "vector", t, 2, (mx_field[]){{0, 0}, {12, 0}});

    /* int at 0, double at 8, int at 20, extent 32: holes at 4..7, 16..19, 24..31 */
    int lens[3] = {1, 1, 1};
    MPI_Aint disp[3] = {0, 8, 20};
    MPI_Datatype parts[3] = {MPI_INT, MPI_DOUBLE, MPI_INT};
    PMPI_Type_create_struct(3, lens, disp, parts, &inner);
    PMPI_Type_create_resized(inner, 0, 32, &t);
    PMPI_Type_free(&inner);
    PMPI_Type_commit(&t);
    describe(&types[MX_DT_STRUCT], "struct", t, 3, (mx_field[]){{0, 0}, {8, 1}, {20, 0}});

    /* ints at -4 and 8 in an element [-8, 16): lb -8, true lb -4, holes at -8..-5, 0..7,
     * 12..15 */
    MPI_Aint disp2[2] = {-4, 8};
    MPI_Datatype parts2[2] = {MPI_INT, MPI_INT};
    PMPI_Type_create_struct(2, lens, disp2, parts2, &inner);
    PMPI_Type_create_resized(inner, -8, 24, &t);
    PMPI_Type_free(&inner);
    PMPI_Type_commit(&t);
    describe(&types[MX_DT_RESIZED], "resized", t, 2, (mx_field[]){{-4, 0}, {8, 0}});

    PMPI_Op_create(op_comm, 1, &user_comm);
    PMPI_Op_create(op_noncomm, 0, &user_noncomm);
}

void mx_types_free(void) {
    for (int i = 0; i < MX_NDTYPES; i++) {
        PMPI_Type_free(&types[i].wide);
        if (i != MX_DT_INT && i != MX_DT_DOUBLE) PMPI_Type_free(&types[i].t);
    }
    PMPI_Op_free(&user_comm);
    PMPI_Op_free(&user_noncomm);
}

const mx_type *mx_type_of(int dtype) {
    return &types[dtype];
}

MPI_Op mx_op_of(int op) {
    switch (op) {
    case MX_OP_SUM:
        return MPI_SUM;
    case MX_OP_MAX:
        return MPI_MAX;
    case MX_OP_USER_COMM:
        return user_comm;
    default:
        return user_noncomm;
    }
}

long mx_foreign_op_calls(void) {
    return foreign_calls;
}

void mx_reset_op_calls(void) {
    foreign_calls = 0;
}
