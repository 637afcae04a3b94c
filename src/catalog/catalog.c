/* The name tables, generated from the same .def rows as the registry (core/registry.c): the
 * default of collective c has id c, the mock-ups follow in algorithms.def order. */
#include "catalog.h"
#include <string.h>
#include <strings.h>

typedef struct {
    const char *name, *sname;
    unsigned flags;
} coll_row;

typedef struct {
    int coll;
    const char *name;
    unsigned flags;
} alg_row;

enum names_coll {
#define MG_COLL(ID, ...) NAMES_##ID,
#include "collectives.def"
#undef MG_COLL
    NAMES_COLL_COUNT
};

static const coll_row colls[] = {
#define MG_COLL(ID, Name, sname, flags, P, A, F, D) {"MPI_" #Name, #sname, flags},
#include "collectives.def"
#undef MG_COLL
};

static const alg_row algs[] = {
#define MG_COLL(ID, ...) {NAMES_##ID, "default", MG_AF_DEFAULT},
#include "collectives.def"
#undef MG_COLL
#define MG_ALG(ID, name, guideline, declines, flags) {NAMES_##ID, #name, flags},
#include "algorithms/algorithms.def"
#undef MG_ALG
};

#define NCOLLS (int)(sizeof colls / sizeof colls[0])
#define NALGS  (int)(sizeof algs / sizeof algs[0])

int mg_names_ncolls(void) {
    return NCOLLS;
}

int mg_names_coll(const char *name) {
    if (!name) return -1;
    for (int c = 0; c < NCOLLS; c++)
        if (!strcasecmp(name, colls[c].name) || !strcasecmp(name, colls[c].sname)) return c;
    return -1;
}

const char *mg_names_coll_name(int coll) {
    return coll >= 0 && coll < NCOLLS ? colls[coll].name : NULL;
}

const char *mg_names_coll_short(int coll) {
    return coll >= 0 && coll < NCOLLS ? colls[coll].sname : NULL;
}

unsigned mg_names_coll_flags(int coll) {
    return coll >= 0 && coll < NCOLLS ? colls[coll].flags : 0;
}

int mg_names_nalgs(void) {
    return NALGS;
}

int mg_names_alg(int coll, const char *name) {
    if (!name) return -1;
    for (int i = 0; i < NALGS; i++)
        if (algs[i].coll == coll && !strcmp(algs[i].name, name)) return i;
    return -1;
}

const char *mg_names_alg_name(int alg) {
    return alg >= 0 && alg < NALGS ? algs[alg].name : NULL;
}

int mg_names_alg_coll(int alg) {
    return alg >= 0 && alg < NALGS ? algs[alg].coll : -1;
}

unsigned mg_names_alg_flags(int alg) {
    return alg >= 0 && alg < NALGS ? algs[alg].flags : 0;
}
