/* Names of collectives and algorithms without MPI: the rows of collectives.def and
 * algorithms.def in registry order, so profiles and forced selections can be parsed and
 * checked (`mpiguide profile check`, unit tests, the fuzzer) without an MPI library. */
#ifndef MG_NAMES_H
#define MG_NAMES_H

/* Flag values of the two tables, token-identical to core/registry.h: a translation unit that
 * includes both (core/settings.c does) fails to compile if they ever differ. */
#define MG_CF_INTERCEPT 1u
#define MG_CF_ROOTED    2u
#define MG_CF_REDUCTION 4u
#define MG_CF_V         8u
#define MG_AF_DEFAULT   1u
#define MG_AF_REDUCTION 2u
#define MG_AF_TESTONLY  4u

int mg_names_ncolls(void);
/* "MPI_Allreduce" or "allreduce" (case-insensitive); -1 when unknown. */
int mg_names_coll(const char *name);
const char *mg_names_coll_name(int coll);  /* "MPI_Allreduce" */
const char *mg_names_coll_short(int coll); /* "allreduce" */
unsigned mg_names_coll_flags(int coll);    /* MG_CF_* */

int mg_names_nalgs(void);
/* Id of algorithm `name` of collective `coll` (the registry id; "default" gives the
 * collective's default); -1 when unknown. */
int mg_names_alg(int coll, const char *name);
const char *mg_names_alg_name(int alg);
int mg_names_alg_coll(int alg);
unsigned mg_names_alg_flags(int alg); /* MG_AF_* */

#endif
