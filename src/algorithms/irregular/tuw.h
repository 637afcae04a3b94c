/* MPI side of the linear-time Gatherv/Scatterv (TUW): the private communicator, the distributed
 * tree construction and the root's transfers. The tree itself is pure (tree.h). */
#ifndef MG_TUW_H
#define MG_TUW_H

#include "algorithms/algutil.h"
#include "model/tree.h"

/* Tags on the private communicator: exchange between fixed roots and note to a gather root
 * (plus the round, so every (source, tag) occurs once per call), and data. */
#define MG_TUW_TAG_EXCHANGE 100
#define MG_TUW_TAG_NOTE     200
#define MG_TUW_TAG_DATA     300

/* Limits every rank computes alike from p: tuw_degrade_bytes and the message pool less the
 * root's replay of the tree (so the gather root can stage one buffered message next to it). */
void mg_tuw_limits_of(mg_tuw_limits *lim, int p);
/* Scratch a TUW call declares: the whole message pool, but at least the root's replay of the
 * tree for p ranks (so the memory decision depends on p alone). */
size_t mg_tuw_need(int p);

/* The communicator TUW talks on: a duplicate of comm (same group, new context), created at the
 * first call on comm and cached as an attribute until comm is freed. Collective on first use. */
int mg_tuw_comm(MPI_Comm comm, MPI_Comm *priv);

/* Distributed construction (Lemma 3): in ceil(log2 p) rounds, fixed roots exchange (data
 * size, gather root, degraded count) with their partner and tell their gather root the
 * outcome; constant-size messages, at most two per rank and round. my_bytes is this rank's
 * block (ignored at the root). The role equals mg_tuw_role_of() on the pure tree. */
int mg_tuw_construct(MPI_Comm priv, int root, int64_t my_bytes, const mg_tuw_limits *lim,
                     mg_tuw_role *role);

/* The root's side of the data phase: every message between the root and a subtree, moved
 * straight from/to the root's user buffer (contiguous rank-ordered blocks: one typed transfer;
 * otherwise an indexed datatype over the root's counts and displacements). gather = 1 receives,
 * 0 sends. counts/displs/type/buf are the root's arguments. */
typedef struct mg_tuw_root_io {
    int gather;
    void *buf;
    const int *counts, *displs;
    MPI_Datatype type;
    MPI_Aint extent;
    MPI_Comm priv;
    /* gather only: receive buffered (MPI_PACKED) messages into scratch and unpack them, rather
     * than straight into type (NULL: straight). MPICH 4.0.2 fails a receive of more than about
     * 8 KiB of MPI_PACKED data into a datatype with gaps and mixed basic types ("Message
     * truncated"; src/defects/reproducers/mpich-packed-into-mixed-type.c). */
    int stage;
} mg_tuw_root_io;

/* PMPI_Waitall on n requests with real status storage: GCC's access checks reject MPICH's
 * MPI_STATUSES_IGNORE (a pointer constant) as a zero-sized status array. */
int mg_tuw_wait(int n, MPI_Request *req);

/* Runs all root transfers for the role (replaying the tree from counts when subtrees were
 * degraded, to know which blocks each message holds) and waits for them. */
int mg_tuw_root_transfers(const mg_tuw_root_io *io, int p, int root, const mg_tuw_role *role,
                          const mg_tuw_limits *lim, int64_t unit, void *scratch);

#endif
