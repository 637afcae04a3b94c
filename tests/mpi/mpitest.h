/* Harness of the MPI tests: checks the launcher gave the requested number of ranks and the MPI
 * the tree was built for, and counts cases so a failing case is named and the run fails. */
#ifndef MG_MPITEST_H
#define MG_MPITEST_H

#include "mpiguide.h"
#include <mpi.h>

/* MPI_Init plus the launcher checks (--np=N on the command line). Aborts loudly on mismatch. */
void mt_init(int *argc, char ***argv);
/* Records one case; on failure rank-local message printed with the case description. */
void mt_check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Agrees over MPI_COMM_WORLD whether every rank passed; prints the summary on rank 0,
 * finalizes and returns the exit code. */
int mt_finish(void);
/* Records one case without printing (for failures already reported in full once). */
void mt_count(int ok);
int mt_rank(void);
int mt_size(void);

/* The library's own collective (PMPI_, no mpiguide code) on the arguments of an mpiguide call:
 * the reference the mock-ups are compared with. Both calls below complete a nonblocking
 * collective (on a request of their own) before they return. */
int mt_reference(int coll, const mpiguide_args *a);
/* The public MPI_* call of the collective (libmpiguide intercepts it, in whatever mode the
 * environment sets; MPI_Wait completes a nonblocking one). */
int mt_intercepted(int coll, const mpiguide_args *a);

#endif
