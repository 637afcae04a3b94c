/* Whether this copy of libmpiguide's globals belongs to one rank. Every rank of a real MPI is a
 * process of its own; SMPI runs all ranks in one process and copies only the program per rank,
 * so a shared libmpiguide the program links would hold one state for all of them (ranks would
 * overwrite each other's settings, pools and caches) unless smpirun copies it too. */
#ifndef MG_SHARING_H
#define MG_SHARING_H

/* Collective over MPI_COMM_WORLD, once per rank in MPI_Init: the number of ranks whose globals
 * are these (1 when each rank has its own copy). sharing_none.c (real MPIs) answers 1 without
 * communicating; sharing_smpi.c counts the ranks in, then a barrier. */
int mg_globals_shared_by(void);

#endif
