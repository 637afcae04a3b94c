/* mpiguide public API: the algorithm registry, and calling any collective algorithm (a
 * guideline mock-up or the library's default) by name inside an MPI program. */
#ifndef MPIGUIDE_H
#define MPIGUIDE_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The project's one version number (X.Y.Z): CMake reads it for the library, the pkg-config
 * file, the CMake package and the .deb (cmake/version.cmake). */
#define MPIGUIDE_VERSION "0.1.0"

/* Collectives, in the order of src/catalog/collectives.def (checked at compile time). */
enum mpiguide_collective {
    MPIGUIDE_COLL_ALLGATHER,
    MPIGUIDE_COLL_ALLGATHERV,
    MPIGUIDE_COLL_ALLREDUCE,
    MPIGUIDE_COLL_ALLTOALL,
    MPIGUIDE_COLL_ALLTOALLV,
    MPIGUIDE_COLL_BARRIER,
    MPIGUIDE_COLL_BCAST,
    MPIGUIDE_COLL_EXSCAN,
    MPIGUIDE_COLL_GATHER,
    MPIGUIDE_COLL_GATHERV,
    MPIGUIDE_COLL_REDUCE,
    MPIGUIDE_COLL_REDUCE_SCATTER,
    MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK,
    MPIGUIDE_COLL_SCAN,
    MPIGUIDE_COLL_SCATTER,
    MPIGUIDE_COLL_SCATTERV,
    /* nonblocking: the call starts the collective, the caller's wait or test completes it */
    MPIGUIDE_COLL_IALLGATHER,
    MPIGUIDE_COLL_IALLREDUCE,
    MPIGUIDE_COLL_IALLTOALL,
    MPIGUIDE_COLL_IBARRIER,
    MPIGUIDE_COLL_IBCAST,
    MPIGUIDE_COLL_IREDUCE,
    /* appended later (the ids above are unchanged) */
    MPIGUIDE_COLL_IALLGATHERV,
    MPIGUIDE_COLL_IALLTOALLV,
    MPIGUIDE_COLL_IEXSCAN,
    MPIGUIDE_COLL_IGATHER,
    MPIGUIDE_COLL_IGATHERV,
    MPIGUIDE_COLL_IREDUCE_SCATTER,
    MPIGUIDE_COLL_IREDUCE_SCATTER_BLOCK,
    MPIGUIDE_COLL_ISCAN,
    MPIGUIDE_COLL_ISCATTER,
    MPIGUIDE_COLL_ISCATTERV,
    MPIGUIDE_COLL_COUNT
};

/* The arguments of any collective call. Unused fields are ignored. Reductions and
 * MPI_Bcast carry their count in recvcount (and sendcount) and their datatype in recvtype
 * (and sendtype); MPI_Bcast's buffer is recvbuf. request: where a nonblocking collective
 * (MPI_I*) puts its request (the caller completes it; NULL: MPI_ERR_REQUEST); ignored by
 * blocking ones. */
typedef struct mpiguide_args {
    const void *sendbuf;
    void *recvbuf;
    int sendcount, recvcount;
    const int *sendcounts, *sdispls, *recvcounts, *rdispls;
    MPI_Datatype sendtype, recvtype;
    MPI_Op op;
    int root;
    MPI_Comm comm;
    MPI_Request *request;
} mpiguide_args;

/* What happened in one call through mpiguide_run(). */
enum mpiguide_outcome {
    MPIGUIDE_RAN_DEFAULT = 0,     /* the algorithm was `default` */
    MPIGUIDE_RAN_MOCKUP = 1,      /* the named algorithm itself ran */
    MPIGUIDE_FALLBACK_ARGS = 2,   /* its predicate declined the arguments; default ran */
    MPIGUIDE_FALLBACK_MEMORY = 3, /* its scratch need exceeded the pools; default ran */
    MPIGUIDE_FALLBACK_OFF = 4,    /* mpiguide is not initialised or disabled; default ran */
    MPIGUIDE_FALLBACK_LIBRARY = 5 /* a library algorithm could not be set up on this
                                   * communicator (every rank agreed); default ran */
};

/* Why an algorithm declines arguments (bit values; an algorithm documents which it uses). */
enum mpiguide_decline {
    MPIGUIDE_DECLINE_INTERCOMM = 1u << 0, /* intercommunicators */
    MPIGUIDE_DECLINE_OVERFLOW = 1u << 1,  /* a count or byte size beyond int */
    MPIGUIDE_DECLINE_DATATYPE = 1u << 2,  /* datatype layout (negative or zero extent) */
    MPIGUIDE_DECLINE_OP = 1u << 3,        /* reduction op it cannot apply */
    MPIGUIDE_DECLINE_THREADS = 1u << 4,   /* no longer used: MPI_THREAD_MULTIPLE runs mock-ups */
    MPIGUIDE_DECLINE_LIBRARY = 1u << 5,   /* outside what the MPI's own algorithm supports
                                           * (communicator size, count, MPI_IN_PLACE) */
    MPIGUIDE_DECLINE_DEFECT = 1u << 6     /* an inner collective would run into a known defect
                                             of the running MPI library (docs/defects.md) */
};

/* What an algorithm is (mpiguide_algorithm_kind). */
enum mpiguide_algorithm_kind {
    MPIGUIDE_KIND_DEFAULT = 0, /* the library's own collective, as it chooses */
    MPIGUIDE_KIND_MOCKUP = 1,  /* a guideline mock-up of the registry */
    MPIGUIDE_KIND_LIBRARY = 2  /* one of the MPI library's own algorithms, forced */
};

/* Sets up the scratch pools (collective over MPI_COMM_WORLD; call after MPI_Init). Done
 * automatically when libmpiguide intercepts MPI_Init. Idempotent. */
int mpiguide_init(void);
/* Releases the pools; also done by the intercepted MPI_Finalize. */
void mpiguide_finalize(void);

int mpiguide_collective_id(const char *name);    /* "MPI_Allreduce" or "allreduce"; -1 */
const char *mpiguide_collective_name(int coll);  /* "MPI_Allreduce" */
const char *mpiguide_collective_short(int coll); /* "allreduce" */

/* Algorithm ids run from 0 to mpiguide_algorithm_count() - 1: the registry's rows, then the
 * library algorithms discovered at MPI_Init (none before it, or when they are off). */
int mpiguide_algorithm_count(void);
int mpiguide_algorithm_id(int coll, const char *name); /* -1 when unknown */
int mpiguide_algorithm_collective(int alg);
const char *mpiguide_algorithm_name(int alg);
const char *mpiguide_algorithm_guideline(int alg); /* "GL5: ..." or "library" */
int mpiguide_default_algorithm(int coll);
/* The decline reasons (mpiguide_decline bits) the algorithm documents; any other decline is a
 * bug. */
unsigned mpiguide_algorithm_declines(int alg);
/* 1 when the algorithm applies the call's reduction op (tuned mode limits these to
 * predefined ops unless tune_user_ops is set). */
int mpiguide_algorithm_is_reduction(int alg);
/* MPIGUIDE_KIND_*, or -1 for an unknown id. */
int mpiguide_algorithm_kind(int alg);

/* Library algorithms: the MPI's own algorithms of a collective, selected through its control
 * variables, named `<collective short name>_lib_<item>` (docs/library-algorithms.md). They are
 * discovered through MPI_T at MPI_Init. mpiguide_library_algorithm fills the MPI ("openmpi",
 * "mpich"), the variable and its value for a library algorithm id and returns 1; 0 for any
 * other id (pointers may be NULL). */
int mpiguide_library_algorithm(int alg, const char **mpi, const char **variable, int *value);
/* NULL when library algorithms can run in this process; otherwise why not (one line). */
const char *mpiguide_library_off(void);
/* Without MPI_Init (MPI_T only): lists the library algorithms of this MPI, so that names and
 * values can be shown and exported; they cannot run. Returns how many; after MPI_Init the
 * algorithms discovered there. */
int mpiguide_library_probe(void);

/* Message size of a call in bytes, per docs/dev/interfaces.md section 1 (type signature bytes, the
 * same on every rank; MPI_Allgatherv: the whole gathered vector; MPI_Barrier: 0); -1 for
 * MPI_Gatherv, MPI_Scatterv and MPI_Alltoallv, which select by communicator size only. */
long long mpiguide_msize(int coll, const mpiguide_args *args);

/* Runs algorithm `alg` (an id from above) on the arguments. When the algorithm declines
 * the arguments or its scratch does not fit, the library's default runs instead; the same
 * happens on every rank. Returns the MPI error code of the call; *outcome (may be NULL)
 * says what ran, *declined the decline reason bit when it fell back for the arguments. */
int mpiguide_run(int alg, const mpiguide_args *args, int *outcome, unsigned *declined);
/* What mpiguide_run(alg, args, ...) would do, without running anything: *outcome and *declined
 * as it would report them (a program can avoid a fallback to a default it knows to be broken).
 * Call it on every rank, like the collective: under MPI_THREAD_MULTIPLE it may reserve the
 * communicator's scratch, which takes an agreement over the communicator. */
int mpiguide_plan(int alg, const mpiguide_args *args, int *outcome, unsigned *declined);
/* The same by name: collective as for mpiguide_collective_id, algorithm a registry name. */
int mpiguide_run_named(const char *coll, const char *alg, const mpiguide_args *args);

#ifdef __cplusplus
}
#endif
#endif
