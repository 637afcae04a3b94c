/* The MPI side of library algorithms: discovery of the algorithm-selection control variables
 * through MPI_T, the agreement of all ranks, and running one library algorithm for one call
 * (Open MPI: a shadow communicator created while the variable is set; MPICH: set the variable,
 * call, restore). Every MPI call is PMPI_*. docs/library-algorithms.md. */
#ifndef MG_LIBALG_MPI_H
#define MG_LIBALG_MPI_H

#include "runtime/call.h"
#include "libalg.h"

/* In the MPI_Init wrappers, before PMPI_Init (`level`: the thread level the program asks for).
 * Open MPI only: it reads coll_tuned_<coll>_algorithm only when coll_tuned_use_dynamic_rules is
 * true at MPI_Init, so this sets OMPI_MCA_coll_tuned_use_dynamic_rules=1 unless the environment
 * already decides (the variable itself, MPIGUIDE_OFF=1, or coll_tuned variables that dynamic
 * rules would activate); and it starts MPI_T now, where it costs nothing extra (discover.c). */
void mg_libalg_preinit(int level);

/* Local discovery through MPI_T (no communication): fills the table of libalg.h with the
 * algorithms of every intercepted collective, ids from `first_id`. Needs no MPI_Init. Returns
 * the number found; when none can run, mg_libalg_off() says why. */
int mg_libalg_discover(int first_id);
/* Collective over MPI_COMM_WORLD after mg_libalg_discover on every rank: the ranks agree that
 * they found the same algorithms (names, values) and that each can run them; otherwise every
 * rank turns library algorithms off. Returns an MPI error code. */
int mg_libalg_agree(void);
/* Frees the shadow communicators and the MPI_T handles (before PMPI_Finalize). */
void mg_libalg_stop(void);

/* For the dispatcher (dispatch/dispatch.c), which does the checks every kind shares (shape, root,
 * intercommunicator): 1 when library algorithms can run in this process at all; the decline bit
 * of the algorithm's declared restrictions, MPI_THREAD_MULTIPLE or a known defect for a call, 0
 * when it may run (the same answer on every rank). */
int mg_libalg_ready(void);
unsigned mg_libalg_declines(int alg, const mg_args *a, const mg_shape *s);
/* Runs library algorithm `alg` on the call (collective for Open MPI's first use on a
 * communicator, and for MG_LR_SAME_TYPE). Returns 1 with the call's result in *rc; 0 when it
 * could not be set up on this communicator, 2 when the ranks' datatypes differ where it needs
 * them equal (every rank agrees in both cases; nothing ran, the caller runs the default). */
int mg_libalg_run(int alg, const mg_args *a, int *rc);

#endif
