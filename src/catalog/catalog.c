/* The catalog's tables, generated from collectives.def and algorithms.def (the same rows the
 * registry and the wrappers are generated from), and its lookups. */
#include "catalog.h"
#include <string.h>
#include <strings.h>

const mg_coll_desc mg_coll_table[MG_CAT_NCOLLS] = {
#define MG_COLL(ID, Name, sname, flags, P, A, F, D) [MG_CAT_##ID] = {"MPI_" #Name, #sname, flags},
#include "collectives.def"
#undef MG_COLL
};

const mg_alg_desc mg_alg_table[] = {
#define MG_COLL(ID, ...) {MG_CAT_##ID, "default", "library", 0, MG_AF_DEFAULT},
#include "collectives.def"
#undef MG_COLL
#define MG_ALG(ID, name, guideline, declines, flags)                                               \
    {MG_CAT_##ID, #name, guideline, declines, flags},
#include "algorithms.def"
#undef MG_ALG
};
const int mg_nalg_names = (int)(sizeof mg_alg_table / sizeof mg_alg_table[0]);

int mg_coll_lookup(const char *name) {
    for (int c = 0; name && c < mg_ncolls; c++)
        if (!strcasecmp(name, mg_coll_table[c].name) || !strcasecmp(name, mg_coll_table[c].sname))
            return c;
    return -1;
}

/* ---- datatypes and ops: the rows of datatypes.def and ops.def ---- */
static const struct {
    const char *name;
    int size; /* 0: the tools do not measure with it */
    char cat; /* datatypes.def CAT */
} types[] = {
#define MG_DTYPE(N, SIZE, CAT, RT, STANDIN) {#N, SIZE, #CAT[0]},
#include "datatypes.def"
#undef MG_DTYPE
};

static const struct {
    const char *name;
    const char *cats; /* datatype categories the op accepts; "" where the tools do not take it */
    int opclass;
} ops[] = {
#define MG_OPDEF(N, SHORT, CLASS, CATS, RT) {#N, CATS, MG_OPC_##CLASS},
#include "ops.def"
#undef MG_OPDEF
};
_Static_assert(sizeof ops / sizeof ops[0] == MG_NOPS_ALL, "ops.def and MG_NOPS_ALL");

#define NTYPES (sizeof types / sizeof types[0])
#define NOPS   (sizeof ops / sizeof ops[0])

const char *const mg_op_names_all[MG_NOPS_ALL] = {
#define MG_OPDEF(N, ...) #N,
#include "ops.def"
#undef MG_OPDEF
};

int mg_dtype_size(const char *name) {
    for (size_t i = 0; name && i < NTYPES; i++)
        if (!strcmp(name, types[i].name)) return types[i].size;
    return 0;
}

/* The category of a type the tools measure with, 0 for any other name. */
static char type_cat(const char *name) {
    for (size_t i = 0; name && i < NTYPES; i++)
        if (!strcmp(name, types[i].name)) return types[i].size ? types[i].cat : 0;
    return 0;
}

static const char *op_cats(const char *name) {
    for (size_t i = 0; name && i < NOPS; i++)
        if (!strcmp(name, ops[i].name)) return *ops[i].cats ? ops[i].cats : NULL;
    return NULL;
}

int mg_op_known(const char *name) {
    return op_cats(name) != NULL;
}

int mg_op_allowed(const char *op, const char *type) {
    const char *cats = op_cats(op);
    char c = type_cat(type);
    return cats && c && strchr(cats, c) != NULL;
}

/* ---- op classes ---- */
int mg_op_class(const char *name) {
    if (name && !strcmp(name, "user")) return MG_OPC_USER;
    for (size_t i = 0; name && i < NOPS; i++)
        if (!strcmp(name, ops[i].name)) return ops[i].opclass;
    return MG_OPC_NONE;
}

const char *mg_opclass_name(int opclass) {
    static const char *const names[MG_OPC_COUNT] = {"none", "arith", "minmax",  "logic",
                                                    "bit",  "loc",   "replace", "user"};
    return opclass >= 0 && opclass < MG_OPC_COUNT ? names[opclass] : "none";
}

const char *mg_library_kind(const char *version) {
    if (strstr(version, "Open MPI")) return "openmpi";
    if (strstr(version, "MPICH")) return "mpich";
    if (!strncmp(version, "SMPI", 4)) return "smpi"; /* "SMPI Version 3.32. Copyright ..." */
    return "unknown";
}
