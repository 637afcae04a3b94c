/* Which launcher started this process (srun, Open MPI's mpirun, MPICH's mpiexec), told from the
 * environment it gives its tasks, and whether the MPI library joined that launcher's job. */
#ifndef MG_LAUNCHER_H
#define MG_LAUNCHER_H

/* The launcher's name for the raw header (`#@launcher=`): "srun", "mpirun" (Open MPI),
 * "mpiexec" (MPICH's Hydra), "smpirun" (SimGrid's SMPI), "pmi" (another PMI launcher) or
 * "none" (started directly). *ntasks
 * (may be NULL) receives the number of tasks it started, 0 when unknown. */
const char *mg_launcher(int *ntasks);

/* After MPI_Init, on every rank: 1 when the launcher started several tasks but MPI_COMM_WORLD
 * holds this process alone (each task became a singleton: srun without the MPI library's
 * --mpi plugin, or one MPI's program under the other MPI's launcher), after one error line
 * from the launcher's first task; 0 otherwise. A world of another size than the launcher's
 * task count only draws a warning on rank 0. */
int mg_launcher_check(void);

#endif
