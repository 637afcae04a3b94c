/* Which MPI this build is for, and the check that the running MPI is the same one. */
#ifndef MG_LIBRARY_H
#define MG_LIBRARY_H

#include "catalog/catalog.h"
#include <mpi.h>

#if defined(OPEN_MPI)
#define MG_BUILT_FOR "openmpi"
#elif defined(MPICH)
#define MG_BUILT_FOR "mpich"
#elif defined(SMPI_SAMPLE_LOCAL) /* SimGrid's SMPI: its mpi.h defines its sampling macros */
#define MG_BUILT_FOR     "smpi"
#define MG_SIMULATED_MPI 1 /* times are simulated: no other process can disturb them */
#else
#define MG_BUILT_FOR "unknown"
#endif
#ifndef MG_SIMULATED_MPI
#define MG_SIMULATED_MPI 0
#endif

/* 1 when the running MPI is the one this build is for; otherwise prints an error. */
int mg_library_matches(void);
/* The running library's version string, first line only. */
const char *mg_library_version(void);

#endif
