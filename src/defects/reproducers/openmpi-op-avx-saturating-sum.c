/* Reproducer of the known defect openmpi-op-avx-saturating-sum (src/defects/known.txt,
 * docs/defects.md): MPI_SUM on 8- and 16-bit unsigned integers saturates instead of wrapping
 * around when Open MPI's AVX op component reduces 16 bytes or more at once. Open MPI 4.1.4 on an
 * x86 CPU with SSE4.1 gives 255 for 200 + 200 in MPI_UNSIGNED_CHAR (C gives 144), 65535 for
 * 40000 + 40000 in MPI_UNSIGNED_SHORT (C gives 14464). OMPI_MCA_op=^avx makes it right.
 *
 *   mpicc repro.c -o repro && mpiexec -n 2 ./repro
 *
 * Prints "correct" and exits 0, or names the first wrong element and exits 1. Only MPI calls. */
#include <mpi.h>
#include <stdio.h>

#define N 64

int main(int argc, char **argv) {
    int rank, p, wrong = 0, all = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    unsigned char c[N], csum[N];
    unsigned short s[N], ssum[N];
    for (int i = 0; i < N; i++) c[i] = 200, s[i] = 40000;
    MPI_Allreduce(c, csum, N, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(s, ssum, N, MPI_UNSIGNED_SHORT, MPI_SUM, MPI_COMM_WORLD);
    unsigned char cwant = (unsigned char)(200 * p);
    unsigned short swant = (unsigned short)(40000 * p);
    for (int i = 0; i < N && !wrong; i++)
        if (csum[i] != cwant || ssum[i] != swant) {
            printf("rank %d: element %d: MPI_UNSIGNED_CHAR sum %u (expected %u), "
                   "MPI_UNSIGNED_SHORT sum %u (expected %u)\n",
                   rank, i, csum[i], cwant, ssum[i], swant);
            wrong = 1;
        }
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
