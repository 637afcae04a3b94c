/* Library algorithms: the MPI library's own algorithms for a collective, selected through its
 * control variables (Open MPI's coll_tuned_<coll>_algorithm, MPICH's
 * MPIR_CVAR_<COLL>_INTRA_ALGORITHM), as run-time candidates beside the mock-ups. This header is
 * the MPI-free part: the naming rule, the table of the algorithms this process knows, the
 * restrictions the libraries declare, the parser of MPICH's variable descriptions, and the
 * resolution of profiles that name them; their names and ids are algid/algid.h's. The MPI side
 * (discovery through MPI_T, running one) is libalg_mpi.h. docs/library-algorithms.md. */
#ifndef MG_LIBALG_H
#define MG_LIBALG_H

#include "algid/algid.h"
#include "util/diag.h"
#include <stddef.h>
#include <stdint.h>

/* ---- declared restrictions: cases the library's algorithm cannot do (or does wrongly) ---- */

#define MG_LR_P2         1u  /* only on communicators of exactly two processes */
#define MG_LR_COMMUTE    2u  /* commutative ops only */
#define MG_LR_BUILTIN    4u  /* predefined ops only */
#define MG_LR_COUNT_POF2 8u  /* count >= the largest power of two <= p */
#define MG_LR_POF2       16u /* p a power of two */
#define MG_LR_P_GT1      32u /* p > 1 */
#define MG_LR_NO_INPLACE 64u /* not with MPI_IN_PLACE */
/* the same (count, type size) on every rank: checked by an agreement step at the call, since
 * one rank cannot know another's datatype (src/libalg/run.c) */
#define MG_LR_SAME_TYPE 128u
#define MG_LR_TRUE_LB0  256u  /* a datatype whose data starts at offset 0 (true lb 0) */
#define MG_LR_DENSE     512u  /* a datatype whose extent equals its true extent */
#define MG_LR_REGULAR   1024u /* Reduce_scatter: the same count for every rank */
#define MG_LR_INPLACE   2048u /* only with MPI_IN_PLACE */
#define MG_LR_MULTINODE 4096u /* only in a job that spans several nodes (node-aware "smp") */
/* no datatype of mixed basic types once a message of floor(p/2) blocks (Bruck's largest) holds
 * more than 8160 bytes: MPICH's receive of packed bytes into such a type fails */
#define MG_LR_UNMIXED 8192u
/* wrong results on calls that no value shared by the ranks tells apart: never runs */
#define MG_LR_NEVER 16384u

/* The shared values of a call a restriction may look at (the same on every rank). */
typedef struct mg_libalg_call {
    int p;
    int64_t count; /* elements behind the message size (reductions; 0 elsewhere) */
    int commute, predefined_op;
    int inplace;                          /* MPI_IN_PLACE (collectives where all ranks pass it) */
    int64_t extent, true_lb, true_extent; /* reductions: the datatype's layout */
    int regular;                          /* Reduce_scatter: all recvcounts equal */
    int multinode;                        /* MPI_COMM_WORLD spans more than one node */
    int mixed;     /* the datatype's signature has several basic types (MG_LR_UNMIXED only) */
    int64_t bytes; /* the message size of docs/dev/interfaces.md section 1 */
} mg_libalg_call;

/* Restriction bits the library (mpi: "openmpi", "mpich") declares for its algorithm `item` of
 * collective coll, with the documentation of why in *why (may be NULL); 0 when none. */
unsigned mg_libalg_restrictions(const char *mpi, int coll, const char *item, const char **why);
/* The decline bit (MG_DECLINE_* of catalog.h) a call gets from restriction bits, or 0
 * (MG_LR_SAME_TYPE is not checked here: it needs the other ranks' values). */
unsigned mg_libalg_check(unsigned restrict_bits, const mg_libalg_call *c);
/* The decline bits restriction bits can produce (the algorithm's documented mask). */
unsigned mg_libalg_decline_mask(unsigned restrict_bits);

/* ---- MPICH's variable descriptions ---- */

/* MPICH 4.0 exports MPIR_CVAR_<COLL>_INTRA_ALGORITHM as MPI_INT without an MPI_T enumeration;
 * the items are listed in the variable's description, in value order ("auto - ...", "binomial
 * - ...", with the lines joined without separator). mg_desc_vocab_add collects the words of the
 * items that can be told apart unambiguously from every description; mg_desc_items then splits
 * each description into its items (index = the variable's value). Returns the number of items,
 * or -1 when the text has no item list. */
typedef struct mg_desc_vocab {
    int n, nlead;
    char word[256][32];
    char lead[64][32]; /* first words of the unambiguous names ("sched", "tsp") */
} mg_desc_vocab;
void mg_desc_vocab_add(mg_desc_vocab *v, const char *desc);
int mg_desc_items(const char *desc, const mg_desc_vocab *v, char items[][MG_LIBALG_ITEM], int max);
/* The value of an item the caller knows by name (the index of the first item whose text ends
 * with it), -1 when absent: for variables whose other items need not be told apart. */
int mg_desc_index(const char *desc, const char *item);

/* ---- profiles naming library algorithms ---- */

struct mg_profile_set;
/* After the profiles are loaded: every range selecting a library algorithm this process cannot
 * run (not discovered, library algorithms off, or the profile was measured under another MPI
 * than `running_mpi`) gets the collective's default instead, with one warning per profile and
 * name listing the available ones. Returns the number of warnings. */
int mg_libalg_resolve_profiles(struct mg_profile_set *set, const char *running_mpi, mg_diag_fn diag,
                               void *ctx);
/* "openmpi", "mpich" or "" for a profile's #@mpi_library value. */
const char *mg_libalg_mpi_kind(const char *library);

#endif
