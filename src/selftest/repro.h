/* Reproducers of `mpiguide selftest --random --repro DIR`: one standalone C program per finding
 * that makes the failing call with only MPI calls, on the same communicator, datatype, op,
 * buffers and placement, and compares every rank's buffers with the expected bytes it carries.
 * MPI-free: every rank's buffers are computed from the case (rcase.h). */
#ifndef MG_SELFTEST_REPRO_H
#define MG_SELFTEST_REPRO_H

#include "rcase.h"
#include <stdio.h>

typedef struct mg_repro {
    const mg_rcase *c;
    int world;            /* MPI_COMM_WORLD size of the run */
    int group;            /* of a split communicator: the color of the group the case ran on */
    const char *alg;      /* NULL: the library's own collective is wrong; else the mock-up */
    const char *finding;  /* "library defect", "mock-up defect" */
    const char *detail;   /* the first difference seen */
    const char *found_by; /* the selftest command line */
    const char *library;  /* MPI_Get_library_version, first line */
    const char *mpi;      /* "openmpi" or "mpich": which launcher and compiler to name */
    const char *libpath;  /* libmpiguide to preload for a mock-up defect */
} mg_repro;

/* Writes the program to f. 0, or -1 when out of memory (nothing useful written). */
int mg_repro_write(FILE *f, const mg_repro *r);
/* The command that builds and runs it (for the header and the tool's message). */
void mg_repro_command(const mg_repro *r, const char *path, char *buf, size_t len);

#endif
