/* The catalog's tables, generated from collectives.def and algorithms.def (the same rows the
 * registry and the wrappers are generated from), and its lookups. */
#include "catalog.h"
#include "libalg/libalg.h"
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
#include "algorithms/algorithms.def"
#undef MG_ALG
};
const int mg_nalg_names = (int)(sizeof mg_alg_table / sizeof mg_alg_table[0]);

int mg_coll_lookup(const char *name) {
    for (int c = 0; name && c < mg_ncolls; c++)
        if (!strcasecmp(name, mg_coll_table[c].name) || !strcasecmp(name, mg_coll_table[c].sname))
            return c;
    return -1;
}

int mg_alg_lookup(int coll, const char *name) {
    for (int i = 0; name && i < mg_nalg_names; i++)
        if (mg_alg_table[i].coll == coll && !strcmp(mg_alg_table[i].name, name)) return i;
    return name ? mg_libalg_find(coll, name) : -1;
}

/* ---- datatypes and ops ---- */
/* Categories of MPI-3.1 section 5.9.2: 'i' C integer, 'f' floating point, 'b' byte, 'c' char
 * (MPI_CHAR is text: no reduction op applies). */
static const struct {
    const char *name;
    int size;
    char cat;
} types[] = {
    {"MPI_BYTE", 1, 'b'},
    {"MPI_CHAR", 1, 'c'},
    {"MPI_SIGNED_CHAR", 1, 'i'},
    {"MPI_UNSIGNED_CHAR", 1, 'i'},
    {"MPI_SHORT", (int)sizeof(short), 'i'},
    {"MPI_UNSIGNED_SHORT", (int)sizeof(unsigned short), 'i'},
    {"MPI_INT", (int)sizeof(int), 'i'},
    {"MPI_UNSIGNED", (int)sizeof(unsigned), 'i'},
    {"MPI_LONG", (int)sizeof(long), 'i'},
    {"MPI_UNSIGNED_LONG", (int)sizeof(unsigned long), 'i'},
    {"MPI_LONG_LONG", (int)sizeof(long long), 'i'},
    {"MPI_FLOAT", (int)sizeof(float), 'f'},
    {"MPI_DOUBLE", (int)sizeof(double), 'f'},
};

static const struct {
    const char *name;
    const char *cats; /* categories the op accepts */
} ops[] = {
    {"MPI_MAX", "if"}, {"MPI_MIN", "if"},  {"MPI_SUM", "if"}, {"MPI_PROD", "if"},
    {"MPI_LAND", "i"}, {"MPI_LOR", "i"},   {"MPI_LXOR", "i"}, {"MPI_BAND", "ib"},
    {"MPI_BOR", "ib"}, {"MPI_BXOR", "ib"},
};

#define NTYPES (sizeof types / sizeof types[0])
#define NOPS   (sizeof ops / sizeof ops[0])

int mg_dtype_size(const char *name) {
    for (size_t i = 0; name && i < NTYPES; i++)
        if (!strcmp(name, types[i].name)) return types[i].size;
    return 0;
}

static char type_cat(const char *name) {
    for (size_t i = 0; name && i < NTYPES; i++)
        if (!strcmp(name, types[i].name)) return types[i].cat;
    return 0;
}

static const char *op_cats(const char *name) {
    for (size_t i = 0; name && i < NOPS; i++)
        if (!strcmp(name, ops[i].name)) return ops[i].cats;
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
static const struct {
    const char *name;
    int opclass;
} op_class_table[] = {
    {"MPI_MAX", MG_OPC_MINMAX},      {"MPI_MIN", MG_OPC_MINMAX},    {"MPI_SUM", MG_OPC_ARITH},
    {"MPI_PROD", MG_OPC_ARITH},      {"MPI_LAND", MG_OPC_LOGIC},    {"MPI_LOR", MG_OPC_LOGIC},
    {"MPI_LXOR", MG_OPC_LOGIC},      {"MPI_BAND", MG_OPC_BIT},      {"MPI_BOR", MG_OPC_BIT},
    {"MPI_BXOR", MG_OPC_BIT},        {"MPI_MINLOC", MG_OPC_LOC},    {"MPI_MAXLOC", MG_OPC_LOC},
    {"MPI_REPLACE", MG_OPC_REPLACE}, {"MPI_NO_OP", MG_OPC_REPLACE},
};
#define NOPCLASS (sizeof op_class_table / sizeof op_class_table[0])

const char *const mg_op_names_all[MG_NOPS_ALL] = {
    "MPI_MAX",  "MPI_MIN", "MPI_SUM",  "MPI_PROD",   "MPI_LAND",   "MPI_LOR",     "MPI_LXOR",
    "MPI_BAND", "MPI_BOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};

int mg_op_class(const char *name) {
    if (name && !strcmp(name, "user")) return MG_OPC_USER;
    for (size_t i = 0; name && i < NOPCLASS; i++)
        if (!strcmp(name, op_class_table[i].name)) return op_class_table[i].opclass;
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
