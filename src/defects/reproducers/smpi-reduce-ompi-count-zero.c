/* Reproducer of the known defect smpi-reduce-ompi-count-zero (src/defects/known.txt,
 * docs/defects.md): MPI_Reduce of zero elements under SMPI's Open MPI algorithms. SimGrid 3.32
 * divides by a segment count of zero in the segmented tree reduction it took from Open MPI
 * (floating point exception, the whole simulation ends).
 *
 *   smpicc repro.c -o repro && smpirun -np 4 -platform P.xml -hostfile H \
 *       --cfg=smpi/coll-selector:ompi ./repro
 *
 * Prints "correct" and exits 0, or exits 1 with "WRONG". Only MPI calls. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, wrong = 0, in = 7, out = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(&in, &out, 0, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (out != -1) wrong = 1; /* zero elements: the receive buffer stays as it was */
    int all = 0;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
