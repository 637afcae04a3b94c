/* The baseline of bench/scale.sh's launch cost: what any MPI program that duplicates
 * MPI_COMM_WORLD once pays under SMPI at p ranks (MPI_Init, one MPI_Comm_dup, one
 * MPI_Allreduce on it, MPI_Finalize). SMPI sets up every communicator, MPI_COMM_WORLD included,
 * with a ring allgather over its ranks (p(p-1) simulated messages) when it is created or first
 * used by a collective: a cost of the simulator that grows as p squared whatever the program
 * does. bench/scale.sh subtracts this program's CPU time from the benchmark launch's, so that
 * the tool's own growth shows. usage: comm_dup_baseline */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
