/* The table of known MPI library defects (src/defects/known.txt, docs/dev/interfaces.md section
 * 12): parsing, the running library's name and version, and whether a call's facts meet an
 * entry's condition. MPI-free: the library (runtime/mpi_defects.c), the tests and `mpiguide
 * selftest` evaluate the same entries with the facts they know. */
#ifndef MG_DEFECTS_H
#define MG_DEFECTS_H

#include "util/diag.h"
#include <stddef.h>
#include <stdint.h>

/* MPI families a defect can name (the kinds of runtime/mpi_family.c). */
enum mg_mpi_family { MG_MPI_UNKNOWN, MG_MPI_OPENMPI, MG_MPI_MPICH, MG_MPI_SMPI };

/* The facts a condition can test, all integers (docs/dev/interfaces.md section 14): p, pow2 (p is
 * a power of two), root (0 when not rooted), count and bytes (the count and message size of
 * section 1), extent, true_lb, true_extent (of the reduction datatype, else 0), commutative and
 * predefined_op (reductions, else 1), inplace (MPI_IN_PLACE passed; for rooted collectives the
 * root's), regular (1 unless the recvcounts of a Reduce_scatter differ), op (a predefined op by
 * name, 0 for a user op), type (a predefined datatype by name, 0 for a derived one; reductions),
 * unsigned (the datatype is a predefined unsigned integer type), mixed (a datatype of the call
 * combines different basic types, like a struct {char, double}), types_differ (ranks or sides
 * describe the data with different datatypes of matching signatures), vector_bytes (the bytes a
 * reduction combines: p times bytes for Reduce_scatter_block, bytes otherwise), total_bytes (p
 * times bytes: the data of all ranks together), zero_counts (some recvcount of a Reduce_scatter is
 * 0; 0 for the other collectives). */
enum mg_fact {
    MG_FACT_P,
    MG_FACT_POW2,
    MG_FACT_ROOT,
    MG_FACT_COUNT,
    MG_FACT_BYTES,
    MG_FACT_EXTENT,
    MG_FACT_TRUE_LB,
    MG_FACT_TRUE_EXTENT,
    MG_FACT_COMMUTATIVE,
    MG_FACT_PREDEFINED_OP,
    MG_FACT_INPLACE,
    MG_FACT_REGULAR,
    MG_FACT_OP,
    MG_FACT_TYPE,
    MG_FACT_UNSIGNED,
    MG_FACT_MIXED,
    MG_FACT_TYPES_DIFFER,
    MG_FACT_VECTOR_BYTES,
    MG_FACT_TOTAL_BYTES,
    MG_FACT_ZERO_COUNTS,
    MG_NFACTS
};

const char *mg_fact_name(int fact);

/* The names the symbolic facts take: op (index + 1; 0 is a user op) and type (index + 1; 0 is a
 * derived datatype). */
extern const char *const mg_op_names[]; /* "sum", "prod", ..., "no_op" */
extern const int mg_nop_names;
extern const char *const mg_type_names[]; /* "MPI_CHAR", ... */
extern const int mg_ntype_names;
/* The fact value of an op or datatype name (0 when unknown: user op, derived type). */
int mg_op_code(const char *name);
int mg_type_code(const char *name);
/* 1 when the datatype code is one of the unsigned integer types. */
int mg_type_code_unsigned(int code);

/* The facts of one call. A fact set in `known` has its value; one set in `maybe` is unknown
 * here but could hold (a non-root cannot know whether the root passes MPI_IN_PLACE): a term on
 * it is undecided. A fact in neither cannot be known by this evaluator at all (the library
 * cannot know the other ranks' datatypes): a term on it does not hold, so the library never
 * acts on an entry it could not decide alike on every rank. */
typedef struct mg_facts {
    int coll;
    uint32_t known, maybe;
    int64_t v[MG_NFACTS];
} mg_facts;

static inline void mg_facts_set(mg_facts *f, int fact, int64_t v) {
    f->v[fact] = v;
    f->known |= 1u << fact;
}

/* The facts every evaluator knows, at once (inplace < 0: possible but unknown, `maybe`); op and
 * type are codes (mg_op_code, mg_type_code), and fix unsigned. mixed and types_differ stay
 * unset; so does zero_counts of a Reduce_scatter with unequal counts (who has the counts sets
 * it). */
void mg_facts_fill(mg_facts *f, int coll, int p, int root, int64_t count, int64_t bytes,
                   int64_t extent, int64_t true_lb, int64_t true_extent, int commutative,
                   int predefined_op, int inplace, int regular, int op, int type);

enum mg_cmp { MG_CMP_EQ, MG_CMP_NE, MG_CMP_LT, MG_CMP_LE, MG_CMP_GT, MG_CMP_GE };

/* FACT CMP (number | FACT), or for op and type FACT=NAME[|NAME...] and FACT!=NAME[|NAME...] */
#define MG_DTERM_VALUES 12
typedef struct mg_dterm {
    int fact, cmp, rhs_fact; /* rhs_fact -1: compare with rhs (or with vals) */
    int64_t rhs;
    int nvals; /* > 0: one of vals (=), none of them (!=) */
    int64_t vals[MG_DTERM_VALUES];
} mg_dterm;

/* What running into the defect does: `crash` may crash or corrupt memory (never run it
 * knowingly), `wrong` returns a wrong result, `error` returns an error. */
enum mg_effect { MG_EFFECT_CRASH, MG_EFFECT_WRONG, MG_EFFECT_ERROR };

#define MG_DEFECT_TERMS   16
#define MG_DEFECT_REPAIRS 8
#define MG_VERSION_OPEN   -1        /* a range without that end */
#define MG_VERSION_ANY    (1 << 30) /* a part a last version leaves out ("4.1" = 4.1.any) */

typedef struct mg_defect {
    char name[64];
    int line; /* where the entry starts in its text */
    int family;
    int first[3], last[3]; /* inclusive range; [0] MG_VERSION_OPEN: that end is open */
    uint32_t colls;        /* bit per collective id */
    int nterms;
    mg_dterm terms[MG_DEFECT_TERMS];
    int effect;
    int nrepair;
    int repair[MG_DEFECT_REPAIRS]; /* algorithm ids (catalog) */
    char summary[400], reproducer[160], reference[80], seen[80];
} mg_defect;

typedef struct mg_defect_table {
    int n;
    mg_defect *v;
} mg_defect_table;

/* Parses a table. Every problem is reported through diag (may be NULL) as "WHERE:LINE" and the
 * entry holding it is left out. Returns the number of problems; t holds the good entries
 * (release with mg_defects_free). */
int mg_defects_parse(const char *text, const char *where, mg_defect_table *t, mg_diag_fn diag,
                     void *ctx);
void mg_defects_free(mg_defect_table *t);

/* The text of src/defects/known.txt as built into this binary. */
extern const char mg_defects_known_text[];

/* The family and version of an MPI_Get_library_version string ("MPICH Version: 4.0.2 ...",
 * "Open MPI v4.1.4, ...", "SMPI Version 3.32. ..."); missing version parts are 0. Returns 0, or -1
 * when either is not recognised. */
int mg_mpi_version_parse(const char *s, int *family, int version[3]);
const char *mg_mpi_family_name(int family);
/* 1 when the entry names this family and the version lies in its range. */
int mg_defect_applies(const mg_defect *d, int family, const int version[3]);
/* applies[i] = whether entry i concerns the library of this MPI_Get_library_version string;
 * returns the number that do. */
int mg_defects_for_library(const mg_defect_table *t, const char *version_string,
                           unsigned char *applies);

/* Whether the facts meet the entry's condition: 0 no, 1 yes, 2 maybe (no term is false, but
 * some test an unknown fact). The collective must be one of the entry's. */
enum { MG_MATCH_NO, MG_MATCH_YES, MG_MATCH_MAYBE };
int mg_defect_match(const mg_defect *d, const mg_facts *f);
/* The first entry of t (among those with applies[i] set, or all when applies is NULL) that the
 * facts meet or may meet; NULL when none. */
const mg_defect *mg_defect_find(const mg_defect_table *t, const unsigned char *applies,
                                const mg_facts *f, int *match);
/* The condition as text ("commutative=0 extent!=true_extent ..."). */
void mg_defect_condition(const mg_defect *d, char *buf, size_t len);

#endif
