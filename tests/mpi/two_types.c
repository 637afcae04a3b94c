/* Two profiles of one (collective, communicator size), measured with other datatypes and ops
 * (src/profile/seltab.h chains): MPI_Allreduce of 8 bytes alternately as one MPI_DOUBLE with
 * MPI_SUM, two MPI_INT with MPI_MAX and two MPI_INT with MPI_SUM, in turn forwards and
 * backwards. Preloaded with libmpiguide in tuned mode (tests/mpi/intercept_plan_memo.cmake,
 * ic.two_types*): the MPI_DOUBLE/MPI_SUM profile names a mock-up for every size, the
 * MPI_INT/MPI_MAX one the default, and none is for MPI_INT/MPI_SUM (other_type). All three
 * calls have the same size, so a memo of the last size that did not tell the profiles apart
 * would run the mock-up for MPI_INT/MPI_MAX too. Every result is checked. */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 10

static int fails;

static void call(int which, int rank, int p, int round) {
    if (which == 0) {
        double in = rank + 0.5, out = 0;
        MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (out != p * (p - 1) / 2.0 + p * 0.5) fails++;
    } else {
        int in[2] = {rank + round, -rank}, out[2] = {0, 0};
        MPI_Allreduce(in, out, 2, MPI_INT, which == 1 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
        int want0 = which == 1 ? p - 1 + round : p * (p - 1) / 2 + p * round;
        int want1 = which == 1 ? 0 : -p * (p - 1) / 2;
        if (out[0] != want0 || out[1] != want1) fails++;
    }
}

int main(int argc, char **argv) {
    int rank, p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int round = 0; round < ROUNDS; round++)
        for (int k = 0; k < 3; k++) call(round % 2 ? 2 - k : k, rank, p, round);
    int all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all ? "two_types: wrong results: %d\n" : "two_types: all results correct\n", all);
    MPI_Finalize();
    return all != 0;
}
