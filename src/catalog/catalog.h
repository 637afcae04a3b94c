/* The catalog: every collective mpiguide knows (collectives.def), every algorithm name
 * (algorithms.def), their kinds, the message-size rule that follows from the kind, and the
 * datatypes and ops the tools accept by name. MPI-free, so parsers, the analysis, the unit tests
 * and the fuzzers share it with the library; the registry (dispatch/registry.h) adds the
 * implementations to the same rows. Collective ids are the MPIGUIDE_COLL_* of mpiguide.h
 * (dispatch/registry.c checks that the orders agree); algorithm ids are the registry's: the default
 * of collective c has id c, the mock-ups follow in algorithms.def order. */
#ifndef MG_CATALOG_H
#define MG_CATALOG_H

#include <stdint.h>

/* Collective kinds (collectives.def). */
#define MG_CF_INTERCEPT 1u /* wrapped by libmpiguide */
#define MG_CF_ROOTED    2u
#define MG_CF_REDUCTION 4u
#define MG_CF_V         8u  /* counts per rank */
#define MG_CF_NOSIZE    16u /* no message size every rank knows: selected by communicator size */
#define MG_CF_NB        32u /* nonblocking: the call starts it, a request completes it */

/* Algorithm kinds (algorithms.def). */
#define MG_AF_DEFAULT   1u /* the library's own collective */
#define MG_AF_REDUCTION 2u /* applies the user's op (tuned mode: predefined ops only) */
#define MG_AF_TESTONLY  4u /* registered only in test builds */
#define MG_AF_LIBRARY   8u /* the MPI library's own algorithm (src/libalg/), not a table row */

/* Collective ids in table order: the same numbers as mpiguide.h's MPIGUIDE_COLL_* (which the
 * catalog cannot include: it includes mpi.h); dispatch/registry.c checks that they agree. */
enum mg_cat_coll {
#define MG_COLL(ID, ...) MG_CAT_##ID,
#include "collectives.def"
#undef MG_COLL
    MG_CAT_NCOLLS
};

/* Decline reasons of algorithms.def rows: the values of mpiguide.h's MPIGUIDE_DECLINE_*
 * (dispatch/registry.c checks that they agree). */
#define MG_DECLINE_INTERCOMM 1u
#define MG_DECLINE_OVERFLOW  2u
#define MG_DECLINE_DATATYPE  4u
#define MG_DECLINE_OP        8u
#define MG_DECLINE_THREADS   16u
#define MG_DECLINE_LIBRARY   32u
#define MG_DECLINE_DEFECT    64u

typedef struct mg_coll_desc {
    const char *name;  /* "MPI_Allreduce" */
    const char *sname; /* "allreduce" */
    unsigned flags;    /* MG_CF_* */
} mg_coll_desc;

typedef struct mg_alg_desc {
    int coll;
    const char *name;      /* "allreduce_as_reduce_bcast", "default" */
    const char *guideline; /* "GL5: ...", "library" */
    unsigned declines;     /* documented decline reasons (mpiguide_decline bits) */
    unsigned flags;        /* MG_AF_* */
} mg_alg_desc;

extern const mg_coll_desc mg_coll_table[MG_CAT_NCOLLS];
#define mg_ncolls ((int)MG_CAT_NCOLLS)
extern const mg_alg_desc mg_alg_table[];
extern const int mg_nalg_names;

/* ---- collectives ---- */
/* "MPI_Allreduce" or "allreduce", case-insensitive; -1 when unknown. */
int mg_coll_lookup(const char *name);
static inline int mg_coll_valid(int coll) {
    return coll >= 0 && coll < mg_ncolls;
}
static inline const char *mg_coll_name(int coll) {
    return mg_coll_valid(coll) ? mg_coll_table[coll].name : (const char *)0;
}
static inline const char *mg_coll_short(int coll) {
    return mg_coll_valid(coll) ? mg_coll_table[coll].sname : (const char *)0;
}
/* A switch, not a table load, so a constant collective (the generated wrappers) folds. */
static inline unsigned mg_coll_flags(int coll) {
    switch (coll) {
#define MG_COLL(ID, Name, sname, flags, ...)                                                       \
    case MG_CAT_##ID:                                                                              \
        return flags;
#include "collectives.def"
#undef MG_COLL
    default:
        return 0u;
    }
}
/* The v-collectives have counts per rank. */
static inline int mg_coll_is_v(int coll) {
    return (mg_coll_flags(coll) & MG_CF_V) != 0;
}
/* No message size that every rank of the call knows (Barrier; Gatherv and Scatterv, whose
 * total only the root knows; Alltoallv, whose total no rank knows): selected by communicator
 * size only, their profiles have the one range 0..INT64_MAX. */
static inline int mg_coll_sizeless(int coll) {
    return (mg_coll_flags(coll) & MG_CF_NOSIZE) != 0;
}
static inline int mg_coll_is_nb(int coll) {
    return (mg_coll_flags(coll) & MG_CF_NB) != 0;
}
/* The blocking collective of a call: itself, or the one a nonblocking collective starts
 * (collectives.def's MG_NB_OF lines). */
static inline int mg_coll_blocking(int coll) {
    switch (coll) {
#define MG_COLL(...)
#define MG_NB_OF(ID, B)                                                                            \
    case MG_CAT_##ID:                                                                              \
        return MG_CAT_##B;
#include "collectives.def"
#undef MG_NB_OF
#undef MG_COLL
    default:
        return coll;
    }
}
static inline int mg_coll_is_reduction(int coll) {
    return (mg_coll_flags(coll) & MG_CF_REDUCTION) != 0;
}
static inline int mg_coll_is_rooted(int coll) {
    return (mg_coll_flags(coll) & MG_CF_ROOTED) != 0;
}

/* ---- the message-size rule (docs/dev/interfaces.md section 1) ----
 * Which arguments define a call's message size on a rank: the receive side (count and
 * datatype); the send side on non-roots of Gather and at the root of Scatter; the sum of
 * recvcounts with the receive datatype for Reduce_scatter and Allgatherv (the whole vector,
 * which every rank knows); none for the collectives without a shared size (mg_coll_sizeless). */
enum mg_size_source { MG_SIZE_RECV, MG_SIZE_SEND, MG_SIZE_RECVCOUNTS, MG_SIZE_NONE };

static inline enum mg_size_source mg_size_source_of(int coll, int is_root) {
    if (mg_coll_sizeless(coll)) return MG_SIZE_NONE;
    coll = mg_coll_blocking(coll);
    if (coll == MG_CAT_ALLGATHERV) return MG_SIZE_RECVCOUNTS;
    if (coll == MG_CAT_GATHER) return is_root ? MG_SIZE_RECV : MG_SIZE_SEND;
    if (coll == MG_CAT_SCATTER) return is_root ? MG_SIZE_SEND : MG_SIZE_RECV;
    if (coll == MG_CAT_REDUCE_SCATTER) return MG_SIZE_RECVCOUNTS;
    return MG_SIZE_RECV;
}
/* 1 when every rank takes the size from (recvcount, recvtype): a repeat of both is a repeat of
 * the size. */
static inline int mg_size_from_recv_everywhere(int coll) {
    return mg_size_source_of(coll, 0) == MG_SIZE_RECV && mg_size_source_of(coll, 1) == MG_SIZE_RECV;
}

/* ---- algorithm rows (every id of every kind: algid/algid.h) ---- */
/* 1 for a row of algorithms.def (or a default); library algorithms are not rows. */
static inline int mg_alg_valid(int alg) {
    return alg >= 0 && alg < mg_nalg_names;
}
/* ---- datatypes and ops by name (the benchmark's --datatype and --op) ---- */
/* Size in bytes of a predefined datatype named as in MPI ("MPI_INT"); 0 when unknown. */
int mg_dtype_size(const char *name);
/* 1 when `name` is a predefined reduction op the tools accept ("MPI_SUM"). */
int mg_op_known(const char *name);
/* 1 when MPI allows op on the datatype (MPI-3.1 section 5.9.2). */
int mg_op_allowed(const char *op, const char *type);

/* Classifies a MPI_Get_library_version string: "openmpi", "mpich", "smpi" or "unknown" (the
 * library's check of the running MPI, and `plan --from` with a record of another MPI). */
const char *mg_library_kind(const char *version);

/* ---- op classes: what a measurement with one op says about calls with another ----
 * Reductions whose ops do the same kind of work per element cost alike; tuned mode applies a
 * profile to a reduction only when the op class of the call is the one the profile was
 * measured with (MPIGUIDE_MATCH, docs/interception.md). 0 is "no op" (not a reduction). */
enum mg_opclass {
    MG_OPC_NONE,
    MG_OPC_ARITH,   /* MPI_SUM, MPI_PROD */
    MG_OPC_MINMAX,  /* MPI_MIN, MPI_MAX */
    MG_OPC_LOGIC,   /* MPI_LAND, MPI_LOR, MPI_LXOR */
    MG_OPC_BIT,     /* MPI_BAND, MPI_BOR, MPI_BXOR */
    MG_OPC_LOC,     /* MPI_MINLOC, MPI_MAXLOC */
    MG_OPC_REPLACE, /* MPI_REPLACE, MPI_NO_OP */
    MG_OPC_USER,    /* a user-defined op */
    MG_OPC_COUNT
};
/* Class of an op named as in MPI ("MPI_SUM") or "user"; MG_OPC_NONE when unknown. */
int mg_op_class(const char *name);
const char *mg_opclass_name(int opclass); /* "arith", ...; "none" */
/* The predefined ops by index: the rows of catalog/ops.def, which every table keyed by an op's
 * handle expands in the same order. */
#define MG_NOPS_ALL 14
extern const char *const mg_op_names_all[MG_NOPS_ALL];

#endif
