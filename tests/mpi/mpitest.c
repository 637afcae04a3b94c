/* Test harness for MPI tests (see mpitest.h). */
#include "mpitest.h"
#include "catalog/catalog.h"
#include "runtime/mpi_family.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long passed, failed;

/* The MPI a version string names (as mg_library_kind, which libmpiguide.so keeps hidden: tests
 * linked against the shared library see the public API only). */
static const char *library_kind(const char *version) {
    if (strstr(version, "Open MPI")) return "openmpi";
    if (strstr(version, "MPICH")) return "mpich";
    return "unknown";
}
static int rank, size;

void mt_init(int *argc, char ***argv) {
    MPI_Init(argc, argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    int want = -1;
    for (int i = 1; i < *argc; i++)
        if (!strncmp((*argv)[i], "--np=", 5)) want = atoi((*argv)[i] + 5);
    if (want != size) {
        fprintf(stderr,
                "FATAL: launcher started %d rank(s) in this job, test asked for %d "
                "(wrong mpiexec for this MPI?)\n",
                size, want);
        PMPI_Abort(MPI_COMM_WORLD, 99);
    }
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    PMPI_Get_library_version(version, &len);
    const char *expect = getenv("MG_EXPECT_MPI");
    const char *kind = library_kind(version);
    if (strcmp(kind, MG_BUILT_FOR) || (expect && strcmp(kind, expect))) {
        fprintf(stderr, "FATAL: running under %s, test built for %s\n", kind, MG_BUILT_FOR);
        PMPI_Abort(MPI_COMM_WORLD, 99);
    }
}

int mt_rank(void) {
    return rank;
}

int mt_size(void) {
    return size;
}

void mt_check(int ok, const char *fmt, ...) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "FAIL [rank %d/%d]: %s\n", rank, size, msg);
}

void mt_count(int ok) {
    if (ok)
        passed++;
    else
        failed++;
}

/* The collective through PMPI_ (pmpi) or MPI_, from the catalog's table; a nonblocking one is
 * started on a request of its own and completed here, so that every caller compares finished
 * results. */
static int call(int coll, const mpiguide_args *args, int pmpi) {
    MPI_Request q = MPI_REQUEST_NULL;
    mpiguide_args b = *args, *a = &b;
    b.request = &q;
    int rc;
    switch (coll) {
#define MG_COLL(ID, Name, s, f, P, A, F, D)                                                        \
    case MPIGUIDE_COLL_##ID:                                                                       \
        rc = pmpi ? PMPI_##Name D : MPI_##Name D;                                                  \
        break;
#include "catalog/collectives.def"
#undef MG_COLL
    default:
        return MPI_ERR_ARG;
    }
    if (!mg_coll_is_nb(coll) || rc != MPI_SUCCESS) return rc;
    return PMPI_Wait(&q, MPI_STATUS_IGNORE);
}

int mt_reference(int coll, const mpiguide_args *a) {
    return call(coll, a, 1);
}

int mt_finish(void) {
    long counts[2] = {passed, failed}, total[2];
    PMPI_Allreduce(counts, total, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%ld passed, %ld failed\n", total[0], total[1]);
    MPI_Finalize();
    return total[1] ? 1 : 0;
}

int mt_intercepted(int coll, const mpiguide_args *a) {
    return call(coll, a, 0);
}
