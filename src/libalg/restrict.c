/* The restrictions of library algorithms, declared like the mock-ups' declines: cases where the
 * library's own algorithm fails or gives a wrong result, so mpiguide runs the default instead.
 * Keyed by the MPI family and the enumeration item (names are stable across versions; an item
 * a version does not have is simply never discovered). Each row says why; the reproducers are in
 * docs/library-algorithms.md, and the correctness matrix runs every library algorithm so a
 * missing row shows as a failure. Pure. */
#include "libalg.h"
#include "catalog/catalog.h"
#include <string.h>

/* the why of the MPICH tsp_* rows found by the matrix (the comment above them) */
#define MPICH_RESIZED "true lower bound 0 only (crash otherwise)"
#define MPICH_INTERLEAVED                                                                          \
    "wrong results on an interleaved datatype, which a start cannot agree on: never runs"
#define MPICH_LAYOUT                                                                               \
    "crashes on a datatype whose true lower bound is not 0; the layout is one rank's, which a "    \
    "start cannot agree on: never runs"

static const struct {
    const char *mpi, *coll, *item;
    unsigned bits;
    const char *why;
} rows[] = {
    /* Open MPI coll/tuned: the two-process algorithms return MPI_ERR_UNSUPPORTED_OPERATION
     * on any other communicator size. */
    {"openmpi", "allgather", "two_proc", MG_LR_P2, "two processes only (error otherwise)"},
    {"openmpi", "alltoall", "two_proc", MG_LR_P2, "two processes only (error otherwise)"},
    {"openmpi", "barrier", "two_proc", MG_LR_P2, "two processes only (error otherwise)"},
    /* Combining in an order other than the ranks': wrong results (or a crash in the ring's
     * buffer handling) for non-commutative ops, which Open MPI's own decision never sends
     * there. */
    /* ... and the ring's temporary buffers ignore a non-zero true lower bound (heap overrun;
     * Open MPI's own decision sends such calls there only from a few KiB on). */
    {"openmpi", "allreduce", "ring", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with true lower bound 0 only (crash otherwise)"},
    {"openmpi", "allreduce", "segmented_ring", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with true lower bound 0 only (crash otherwise)"},
    {"openmpi", "reduce", "chain", MG_LR_COMMUTE, "commutative ops only (wrong order otherwise)"},
    {"openmpi", "reduce", "pipeline", MG_LR_COMMUTE,
     "commutative ops only (wrong order otherwise)"},
    {"openmpi", "reduce", "binary", MG_LR_COMMUTE, "commutative ops only (wrong order otherwise)"},
    {"openmpi", "reduce", "binomial", MG_LR_COMMUTE,
     "commutative ops only (wrong order otherwise)"},
    {"openmpi", "reduce_scatter", "recursive_halving", MG_LR_COMMUTE,
     "commutative ops only (wrong order otherwise)"},
    {"openmpi", "reduce_scatter", "ring", MG_LR_COMMUTE,
     "commutative ops only (wrong order otherwise)"},
    /* Segments counted in elements of each rank's own datatype: ranks that describe the same
     * bytes with different datatypes (valid MPI) cut different segments and hang. */
    {"openmpi", "bcast", "split_binary_tree", MG_LR_SAME_TYPE,
     "the same count and type size on every rank (hangs otherwise)"},
    {"openmpi", "bcast", "scatter_allgather", MG_LR_SAME_TYPE,
     "the same count and type size on every rank (hangs otherwise)"},
    {"openmpi", "bcast", "scatter_allgather_ring", MG_LR_SAME_TYPE,
     "the same count and type size on every rank (hangs otherwise)"},
    /* MPICH 4.0: the non-commutative Reduce_scatter(_block) algorithm asserts equal blocks and
     * a power-of-two size, and steps through blocks by true extent instead of extent (wrong
     * results, heap overruns). */
    {"mpich", "reduce_scatter", "noncommutative", MG_LR_REGULAR | MG_LR_POF2 | MG_LR_DENSE,
     "equal blocks, a power-of-two size and dense datatypes only (assertion or crash otherwise)"},
    {"mpich", "reduce_scatter_block", "noncommutative", MG_LR_POF2 | MG_LR_DENSE,
     "a power-of-two size and dense datatypes only (wrong results or crash otherwise)"},
    /* MPICH 4.0: the pairwise Reduce_scatter copies overlapping memory with MPI_IN_PLACE (and
     * is for commutative ops, below). */
    {"mpich", "reduce_scatter", "pairwise", MG_LR_NO_INPLACE | MG_LR_COMMUTE,
     "commutative ops, not with MPI_IN_PLACE (overlapping copy, abort otherwise)"},
    /* MPICH's own checks (MPIR_CVAR_COLLECTIVE_FALLBACK): outside these the library silently
     * runs its automatic selection instead, so a measurement would be the default's. */
    {"mpich", "allgather", "recursive_doubling", MG_LR_POF2, "power-of-two sizes only"},
    {"mpich", "allreduce", "reduce_scatter_allgather",
     MG_LR_COMMUTE | MG_LR_BUILTIN | MG_LR_COUNT_POF2,
     "predefined commutative ops and count >= the largest power of two <= p only"},
    {"mpich", "allreduce", "smp", MG_LR_MULTINODE | MG_LR_COMMUTE,
     "jobs on several nodes and commutative ops only"},
    /* MPICH 4.0: Bruck's Alltoall moves blocks as packed bytes, and its receive into a datatype
     * of mixed basic types (MPI_DOUBLE_INT, structs) returns "Message truncated" once a message
     * holds more than about 8 KiB (found by selftest --random; docs/library-algorithms.md). */
    {"mpich", "alltoall", "brucks", MG_LR_NO_INPLACE | MG_LR_UNMIXED,
     "not with MPI_IN_PLACE; no datatype of mixed basic types above 8160 bytes per message "
     "(\"Message truncated\" otherwise)"},
    {"mpich", "alltoall", "pairwise", MG_LR_NO_INPLACE, "not with MPI_IN_PLACE"},
    {"mpich", "alltoall", "scattered", MG_LR_NO_INPLACE, "not with MPI_IN_PLACE"},
    {"mpich", "alltoall", "pairwise_sendrecv_replace", MG_LR_INPLACE, "MPI_IN_PLACE only"},
    {"mpich", "bcast", "smp", MG_LR_MULTINODE, "jobs on several nodes only"},
    {"mpich", "reduce", "smp", MG_LR_MULTINODE | MG_LR_COMMUTE,
     "jobs on several nodes and commutative ops only"},
    {"mpich", "reduce", "reduce_scatter_gather", MG_LR_COMMUTE | MG_LR_BUILTIN | MG_LR_COUNT_POF2,
     "predefined commutative ops and count >= the largest power of two <= p only"},
    {"mpich", "reduce_scatter", "recursive_halving", MG_LR_COMMUTE, "commutative ops only"},
    {"mpich", "reduce_scatter_block", "pairwise", MG_LR_COMMUTE, "commutative ops only"},
    {"mpich", "reduce_scatter_block", "recursive_halving", MG_LR_COMMUTE, "commutative ops only"},
    {"mpich", "scan", "smp", MG_LR_MULTINODE, "jobs on several nodes only"},
    /* Open MPI libnbc (nonblocking): its own selection sends only commutative ops to these
     * orders of combination, and a chain broadcast cuts segments in elements of each rank's own
     * datatype (coll_libnbc_ibcast_skip_dt_decision's warning); that needs the agreement of
     * MG_LR_SAME_TYPE, which a nonblocking start cannot make, so it always declines. The ring
     * Iallreduce (with MPI_IN_PLACE) and the chain and Rabenseifner Ireduce (with MPI_IN_PLACE
     * at the root; chain at 3 processes without) overrun the heap on a datatype whose true lower
     * bound is not 0, as the blocking ring does (found by the correctness matrix, 4.1.4). */
    {"openmpi", "iallreduce", "ring", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with true lower bound 0 only (crash otherwise)"},
    {"openmpi", "iallreduce", "binomial", MG_LR_COMMUTE, "commutative ops only"},
    {"openmpi", "iallreduce", "rabenseifner", MG_LR_COMMUTE, "commutative ops only"},
    {"openmpi", "iallreduce", "recursive_doubling", MG_LR_COMMUTE, "commutative ops only"},
    {"openmpi", "ireduce", "chain", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with true lower bound 0 only (crash otherwise)"},
    {"openmpi", "ireduce", "binomial", MG_LR_COMMUTE, "commutative ops only"},
    {"openmpi", "ireduce", "rabenseifner", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with true lower bound 0 only (crash otherwise)"},
    {"openmpi", "ibcast", "chain", MG_LR_SAME_TYPE,
     "the same count and type size on every rank, which a start cannot check: never runs"},
    /* MPICH 4.0 nonblocking: the conditions of the blocking algorithms of the same design
     * (above), and commutative ops for the schedules that combine in another order than the
     * ranks' (MPICH's own selection sends non-commutative ops to none of them). */
    {"mpich", "iallgather", "sched_recursive_doubling", MG_LR_POF2, "power-of-two sizes only"},
    {"mpich", "iallreduce", "sched_smp", MG_LR_MULTINODE | MG_LR_COMMUTE,
     "jobs on several nodes and commutative ops only"},
    {"mpich", "iallreduce", "sched_reduce_scatter_allgather",
     MG_LR_COMMUTE | MG_LR_BUILTIN | MG_LR_COUNT_POF2,
     "predefined commutative ops and count >= the largest power of two <= p only"},
    {"mpich", "iallreduce", "tsp_recexch_single_buffer", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with " MPICH_RESIZED},
    {"mpich", "iallreduce", "tsp_recexch_multiple_buffer", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with " MPICH_RESIZED},
    {"mpich", "iallreduce", "tsp_tree", MG_LR_COMMUTE, "commutative ops only"},
    {"mpich", "iallreduce", "tsp_ring", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with " MPICH_RESIZED},
    {"mpich", "iallreduce", "tsp_recexch_reduce_scatter_recexch_allgatherv",
     MG_LR_COMMUTE | MG_LR_TRUE_LB0, "commutative ops and datatypes with " MPICH_RESIZED},
    {"mpich", "ibcast", "sched_smp", MG_LR_MULTINODE, "jobs on several nodes only"},
    /* Found by `mpiguide selftest` (MPI_INT, counts 0, 1, 7, 1000) on MPICH 4.0.2: wrong results
     * at p = 3 (right at 2 and 4). */
    {"mpich", "ibcast", "tsp_scatterv_recexch_allgatherv", MG_LR_POF2,
     "power-of-two sizes only (wrong results at p = 3)"},
    {"mpich", "ireduce", "sched_smp", MG_LR_MULTINODE | MG_LR_COMMUTE,
     "jobs on several nodes and commutative ops only"},
    {"mpich", "ireduce", "sched_reduce_scatter_gather",
     MG_LR_COMMUTE | MG_LR_BUILTIN | MG_LR_COUNT_POF2,
     "predefined commutative ops and count >= the largest power of two <= p only"},
    {"mpich", "ireduce", "tsp_tree", MG_LR_COMMUTE, "commutative ops only"},
    {"mpich", "ireduce", "tsp_ring", MG_LR_COMMUTE, "commutative ops only"},
    {"mpich", "ialltoall", "sched_inplace", MG_LR_INPLACE, "MPI_IN_PLACE only"},
    /* (and, found by selftest --random, the blocking Bruck's defect: MPI_SHORT_INT, 13918
     * elements per block at p = 2, wrong results) */
    {"mpich", "ialltoall", "sched_brucks", MG_LR_NO_INPLACE | MG_LR_UNMIXED,
     "not with MPI_IN_PLACE; no datatype of mixed basic types above 8160 bytes per message "
     "(wrong results otherwise)"},
    {"mpich", "ialltoall", "sched_pairwise", MG_LR_NO_INPLACE, "not with MPI_IN_PLACE"},
    {"mpich", "ialltoall", "sched_permuted_sendrecv", MG_LR_NO_INPLACE, "not with MPI_IN_PLACE"},
    /* The ten added later (MPICH 4.0): forced at p = 2 and 3 with MPIR_CVAR_COLLECTIVE_FALLBACK=
     * error (nb_app: irregular Ireduce_scatter counts, not in place), the in-place checks of
     * MPICH's own Ialltoallv selection, and the blocking rows of the same designs above. */
    /* (and, found by the matrix, a crash on the resized datatype not in place: below) */
    {"mpich", "igather", "tsp_tree", MG_LR_NEVER, "wrong result at p = 1; " MPICH_LAYOUT},
    {"mpich", "iallgatherv", "sched_recursive_doubling", MG_LR_POF2,
     "power-of-two sizes only (abort otherwise)"},
    /* wrong results on every `mpiguide selftest` case (counts c + i % 3 per rank, a gap of one
     * element after each block) at p = 2, 3 and 4, MPICH 4.0.2 */
    {"mpich", "iallgatherv", "tsp_brucks", MG_LR_NEVER, "wrong results: never runs"},
    {"mpich", "ialltoallv", "sched_inplace", MG_LR_INPLACE, "MPI_IN_PLACE only"},
    /* (and, found by the matrix, a crash on the resized datatype at p = 3 and 4, not at 2; a
     * heap overrun at 2 may go unseen, so no MG_LR_P2) */
    {"mpich", "ialltoallv", "tsp_inplace", MG_LR_NEVER, "MPI_IN_PLACE only; " MPICH_LAYOUT},
    /* wrong results on selftest --random's interleaved datatype (--seed 2026 --case 49, p = 2);
     * the layout is one rank's: never run */
    {"mpich", "ialltoallv", "tsp_scattered", MG_LR_NEVER, MPICH_INTERLEAVED},
    {"mpich", "ialltoallv", "tsp_blocked", MG_LR_NEVER, MPICH_INTERLEAVED},
    {"mpich", "ireduce_scatter", "sched_noncommutative", MG_LR_REGULAR | MG_LR_POF2 | MG_LR_DENSE,
     "equal blocks, a power-of-two size and dense datatypes only (assertion or abort otherwise)"},
    {"mpich", "ireduce_scatter", "sched_pairwise", MG_LR_NO_INPLACE | MG_LR_COMMUTE,
     "commutative ops, not with MPI_IN_PLACE"},
    {"mpich", "ireduce_scatter", "sched_recursive_halving", MG_LR_COMMUTE, "commutative ops only"},
    {"mpich", "ireduce_scatter", "tsp_recexch", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with " MPICH_RESIZED},
    {"mpich", "ireduce_scatter_block", "sched_noncommutative", MG_LR_POF2 | MG_LR_DENSE,
     "a power-of-two size and dense datatypes only (abort otherwise)"},
    {"mpich", "ireduce_scatter_block", "sched_pairwise", MG_LR_COMMUTE, "commutative ops only"},
    {"mpich", "ireduce_scatter_block", "sched_recursive_halving", MG_LR_COMMUTE,
     "commutative ops only"},
    {"mpich", "ireduce_scatter_block", "tsp_recexch", MG_LR_COMMUTE | MG_LR_TRUE_LB0,
     "commutative ops and datatypes with " MPICH_RESIZED},
    /* Found by the correctness matrix (MPICH 4.0.2, p = 2 and 3): these tsp_* algorithms
     * crash (glibc "double free or corruption", abort) on its resized datatype (lb -8, extent
     * 24, data at -4..12: true lower bound not 0), every such case, and on no other. A reduction's
     * datatype is the same on every rank, so its rows decline such a datatype (MG_LR_TRUE_LB0);
     * a data-movement collective's datatype layout is one rank's, which a start cannot agree on
     * (no communication before the start), so those never run. */
    {"mpich", "iallgather", "tsp_brucks", MG_LR_NEVER, MPICH_LAYOUT},
    {"mpich", "iallgather", "tsp_ring", MG_LR_NEVER, MPICH_LAYOUT},
    {"mpich", "iallgatherv", "tsp_ring", MG_LR_NEVER, MPICH_LAYOUT},
    {"mpich", "ialltoall", "tsp_brucks", MG_LR_NEVER, MPICH_LAYOUT},
    {"mpich", "ialltoall", "tsp_ring", MG_LR_NEVER, MPICH_LAYOUT},
    /* Found by selftest --random (--seed 2026, p = 2): wrong results on its interleaved
     * datatype (and tsp_scattered crashes in place on the matrix's resized one); the layout is
     * one rank's, so these never run */
    {"mpich", "ialltoall", "tsp_scattered", MG_LR_NEVER, MPICH_INTERLEAVED},
    {"mpich", "iallgather", "tsp_recexch_doubling", MG_LR_NEVER, MPICH_INTERLEAVED},
    {"mpich", "iallgather", "tsp_recexch_halving", MG_LR_NEVER, MPICH_INTERLEAVED},
    {"mpich", "iscatter", "tsp_tree", MG_LR_NEVER, MPICH_LAYOUT},
    /* (its crash happens at p = 1 too, where MG_LR_TRUE_LB0 lets every datatype through) */
    {"mpich", "iscan", "tsp_recursive_doubling", MG_LR_P_GT1 | MG_LR_TRUE_LB0,
     "p > 1 and datatypes with " MPICH_RESIZED},
};

#define NROWS (sizeof rows / sizeof rows[0])

unsigned mg_libalg_restrictions(const char *mpi, int coll, const char *item, const char **why) {
    const char *s = mg_coll_short(coll);
    if (why) *why = NULL;
    for (size_t i = 0; s && i < NROWS; i++)
        if (!strcmp(rows[i].mpi, mpi) && !strcmp(rows[i].coll, s) && !strcmp(rows[i].item, item)) {
            if (why) *why = rows[i].why;
            return rows[i].bits;
        }
    return 0;
}

static int is_pof2(int p) {
    return p > 0 && !(p & (p - 1));
}

static int64_t pof2_floor(int p) {
    int64_t q = 1;
    while (q * 2 <= p) q *= 2;
    return q;
}

unsigned mg_libalg_check(unsigned r, const mg_libalg_call *c) {
    if ((r & MG_LR_COMMUTE) && !c->commute) return MG_DECLINE_OP;
    if ((r & MG_LR_BUILTIN) && !c->predefined_op) return MG_DECLINE_OP;
    if (r & MG_LR_NEVER) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_P2) && c->p != 2) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_P_GT1) && c->p < 2) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_POF2) && !is_pof2(c->p)) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_COUNT_POF2) && c->count < pof2_floor(c->p)) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_NO_INPLACE) && c->inplace) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_INPLACE) && !c->inplace) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_MULTINODE) && !c->multinode) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_REGULAR) && !c->regular) return MG_DECLINE_LIBRARY;
    if ((r & MG_LR_TRUE_LB0) && c->true_lb != 0 && c->p > 1 && c->count > 0)
        return MG_DECLINE_DATATYPE;
    if ((r & MG_LR_DENSE) && c->extent != c->true_extent && c->p > 1) return MG_DECLINE_DATATYPE;
    if ((r & MG_LR_UNMIXED) && c->mixed == 1 && c->bytes * (c->p / 2) > 8160)
        return MG_DECLINE_DATATYPE;
    return 0;
}

unsigned mg_libalg_decline_mask(unsigned r) {
    unsigned m = 0;
    if (r & (MG_LR_COMMUTE | MG_LR_BUILTIN)) m |= MG_DECLINE_OP;
    if (r & (MG_LR_P2 | MG_LR_P_GT1 | MG_LR_POF2 | MG_LR_COUNT_POF2 | MG_LR_NO_INPLACE))
        m |= MG_DECLINE_LIBRARY;
    if (r & (MG_LR_SAME_TYPE | MG_LR_TRUE_LB0 | MG_LR_DENSE | MG_LR_UNMIXED))
        m |= MG_DECLINE_DATATYPE;
    if (r & (MG_LR_REGULAR | MG_LR_INPLACE | MG_LR_MULTINODE | MG_LR_NEVER))
        m |= MG_DECLINE_LIBRARY;
    return m;
}
