/* Launcher detection from the environment launchers give their tasks, and the check that the MPI
 * library joined the launcher's job instead of starting every task as a singleton. */
#include "launcher.h"
#include "util/diag.h"
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* A positive integer from the environment, 0 when unset or not a number. */
static int env_count(const char *name) {
    const char *v = getenv(name);
    if (!v || !*v) return 0;
    char *end;
    long n = strtol(v, &end, 10);
    return *end || n < 1 || n > 1 << 30 ? 0 : (int)n;
}

/* Checked in this order because launchers nest: Open MPI's mpirun and MPICH's mpiexec inside a
 * Slurm job start their daemons with srun, so their tasks inherit srun's variables too. */
const char *mg_launcher(int *ntasks) {
    int n = 0;
    const char *name = "none";
    if ((n = env_count("OMPI_COMM_WORLD_SIZE"))) {
        name = "mpirun";
    } else if (getenv("MPI_LOCALNRANKS") && (n = env_count("PMI_SIZE"))) {
        name = "mpiexec"; /* Hydra sets MPI_LOCALNRANKS, srun's pmi2 plugin does not */
    } else if (getenv("SMPI_GLOBAL_SIZE")) {
        name = "smpirun"; /* SimGrid's: one process runs every simulated rank */
        n = env_count("SMPI_GLOBAL_SIZE");
    } else if (getenv("SLURM_STEP_ID") && (n = env_count("SLURM_STEP_NUM_TASKS"))) {
        name = "srun";
    } else if ((n = env_count("PMI_SIZE"))) {
        name = "pmi";
    }
    if (ntasks) *ntasks = n;
    return name;
}

/* The launcher's rank of this task (0 when unknown), so only its first task reports. */
static int launcher_rank(void) {
    const char *names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

int mg_launcher_check(void) {
    int ntasks, size, rank;
    const char *name = mg_launcher(&ntasks);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (ntasks == 0 || ntasks == size) return 0;
    if (size == 1) {
        if (launcher_rank() == 0)
            mg_error(NULL,
                     "%s started %d tasks, but each is alone in MPI_COMM_WORLD: the MPI library "
                     "did not join the launcher's job (%s)",
                     name, ntasks,
                     name[0] == 's' ? "give srun the MPI's plugin: --mpi=pmix for Open MPI, "
                                      "--mpi=pmi2 for MPICH; srun --mpi=list shows them"
                                    : "start the program with its own MPI's launcher");
        return 1;
    }
    if (rank == 0)
        mg_warning(NULL, "%s started %d tasks, but MPI_COMM_WORLD has %d processes", name, ntasks,
                   size);
    return 0;
}
