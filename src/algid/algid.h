/* Algorithm ids of every kind: the rows of catalog/algorithms.def (the defaults first, then the
 * mock-ups) and, after them, the MPI library's own algorithms, whose names follow one rule and
 * whose table is filled at run time (by discovery in the library, by the names inputs give in
 * the tool). One module answers name -> id and id -> name, collective, kind for all of them, so
 * parsers, the analysis and the library agree. MPI-free. docs/library-algorithms.md "Names". */
#ifndef MG_ALGID_H
#define MG_ALGID_H

#include "catalog/catalog.h"
#include <stddef.h>
#include <stdint.h>

#define MG_LIBALG_MAX  192 /* library algorithms one process knows (all collectives) */
#define MG_LIBALG_NAME 80  /* "reduce_scatter_block_lib_recursive_doubling" and room */
#define MG_LIBALG_ITEM 64  /* the enumeration item as the library spells it */

/* ---- any algorithm ---- */
/* Id of algorithm `name` of collective `coll` ("default" gives the collective's default, a
 * library algorithm name its id in src/libalg/'s table); -1 when unknown. */
int mg_alg_lookup(int coll, const char *name);
/* Library algorithms (ids after the registry's, src/algid/algid.c); NULL / -1 otherwise. */
const char *mg_lib_alg_name(int alg);
int mg_lib_alg_coll(int alg);
static inline const char *mg_alg_name(int alg) {
    return mg_alg_valid(alg) ? mg_alg_table[alg].name : mg_lib_alg_name(alg);
}
static inline int mg_alg_coll(int alg) {
    return mg_alg_valid(alg) ? mg_alg_table[alg].coll : mg_lib_alg_coll(alg);
}
static inline unsigned mg_alg_flags(int alg) {
    if (mg_alg_valid(alg)) return mg_alg_table[alg].flags;
    int c = mg_lib_alg_coll(alg);
    if (c < 0) return 0u;
    return MG_AF_LIBRARY | ((mg_coll_flags(c) & MG_CF_REDUCTION) ? MG_AF_REDUCTION : 0u);
}

/* ---- the naming rule (docs/library-algorithms.md, "Names") ---- */

/* "<collective short name>_lib_<item>", the item lower-cased with every character other than a
 * letter, digit or `_` replaced by `_` ("in-order_binary" -> "in_order_binary"). Returns 0, or
 * -1 when the item is empty or the name does not fit. */
int mg_libalg_make_name(int coll, const char *item, char *out, size_t len);
/* The collective a name of that form belongs to (the short name before the first `_lib_`, and
 * a non-empty item of letters, digits and `_` after it); -1 for any other name. */
int mg_libalg_name_coll(const char *name);
/* 1 for the items that mean "the library decides" (auto, ignore): never candidates. */
int mg_libalg_item_is_default(const char *item);

/* ---- the table of library algorithms this process knows ---- */

typedef struct mg_libalg {
    int id;                    /* algorithm id: after the registry's (mg_libalg_reset) */
    int coll;                  /* collective id */
    char name[MG_LIBALG_NAME]; /* "allreduce_lib_ring" */
    char item[MG_LIBALG_ITEM]; /* "ring" as the library spells it */
    char mpi[16];              /* "openmpi", "mpich"; "" for a name only seen in a profile */
    char var[96];              /* the control variable */
    int value;                 /* the variable's value that selects it */
    unsigned restrict_bits;    /* MG_LR_* */
    int runnable;              /* discovered in this process (0: only named by some input) */
    char guideline[200];       /* what `info` shows: "library: VAR=VALUE (item, mpi)" */
} mg_libalg;

/* Empties the table; ids will start at `base` (the registry's size). */
void mg_libalg_reset(int base);
/* Adds a discovered algorithm (e->id is assigned); its id, or -1 when the table is full or the
 * name is already there. */
int mg_libalg_add(const mg_libalg *e);
/* The id of `name` of collective coll, runnable or named; -1 when unknown. */
int mg_libalg_find(int coll, const char *name);
/* mg_libalg_find, or a new named-only entry (an input names an algorithm this process did not
 * discover: resolved later, see mg_libalg_resolve_profiles); -1 when the table is full or
 * `name` is not a library algorithm name of coll. */
int mg_libalg_intern(int coll, const char *name);
const mg_libalg *mg_libalg_by_id(int id); /* NULL for any other id */
int mg_libalg_count(void);                /* entries, runnable or not */
const mg_libalg *mg_libalg_at(int i);     /* entry i, 0 <= i < mg_libalg_count() */
int mg_libalg_first_id(void);             /* the base of mg_libalg_reset */
/* 1 when id is a runnable library algorithm. */
int mg_libalg_runnable(int id);
/* Runnable entries (they come first: named-only ones are added after discovery). */
int mg_libalg_nrunnable(void);
/* "allreduce_lib_basic_linear, allreduce_lib_ring, ..." (runnable ones of coll) into buf;
 * "none" when there are none. */
const char *mg_libalg_list(int coll, char *buf, size_t len);

/* Why library algorithms are off in this process (NULL: on). Set by discovery. */
void mg_libalg_set_off(const char *why);
const char *mg_libalg_off(void);
/* The MPI whose algorithms the table holds ("openmpi", "mpich"; "" before discovery). */
void mg_libalg_set_mpi(const char *mpi);
const char *mg_libalg_mpi(void);

#endif
