/* Interception overhead at p = 2: alternating blocks of MPI_Allreduce(1 int), which the
 * LD_PRELOADed libmpiguide intercepts (tuned mode, a profile whose ranges never hold 4 bytes,
 * so the default runs), and direct PMPI_Allreduce calls. Prints the median time per call of
 * each kind on rank 0 and their ratio, in wall-clock time (MPI_Wtime) and in the CPU time of
 * rank 0 (which time slices given to other jobs on a shared machine do not inflate). Built
 * without any link to mpiguide (bench/overhead.sh). Usage: overhead [BLOCKS] [CALLS_PER_BLOCK] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int blocks = argc > 1 ? atoi(argv[1]) : 400, calls = argc > 2 ? atoi(argv[2]) : 2000;
    int rank, p, x = 1, y = 0, wrong = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    double *via = malloc(sizeof(double) * (size_t)blocks);
    double *direct = malloc(sizeof(double) * (size_t)blocks);
    double *via_cpu = malloc(sizeof(double) * (size_t)blocks);
    double *direct_cpu = malloc(sizeof(double) * (size_t)blocks);
    for (int i = 0; i < 2000; i++) { /* warm-up of both paths */
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        PMPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    for (int b = 0; b < 2 * blocks; b++) {
        int intercepted = (b % 2) ^ ((b / 2) % 2); /* ABBA order cancels drift */
        PMPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime(), c = cpu();
        if (intercepted)
            for (int i = 0; i < calls; i++)
                MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else
            for (int i = 0; i < calls; i++)
                PMPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        t = (MPI_Wtime() - t) / calls;
        c = (cpu() - c) / calls;
        wrong += y != p;
        (intercepted ? via : direct)[b / 2] = t;
        (intercepted ? via_cpu : direct_cpu)[b / 2] = c;
    }
    if (rank == 0) {
        double mv = median(via, blocks), md = median(direct, blocks);
        double cv = median(via_cpu, blocks), cd = median(direct_cpu, blocks);
        printf("blocks %d x %d calls per kind, p = %d, MPI_Allreduce of 1 MPI_INT\n", blocks, calls,
               p);
        printf("median via libmpiguide (MPI_Allreduce): %.1f ns per call (CPU time %.1f)\n",
               mv * 1e9, cv * 1e9);
        printf("median direct (PMPI_Allreduce):         %.1f ns per call (CPU time %.1f)\n",
               md * 1e9, cd * 1e9);
        printf("ratio: %.4f (CPU time: %.4f)%s\n", mv / md, cv / cd,
               wrong ? "  (WRONG RESULTS)" : "");
    }
    MPI_Finalize();
    return wrong != 0;
}
