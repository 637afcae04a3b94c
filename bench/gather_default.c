/* Does a profile that selects the default cost anything? At p ranks, per message size, ABBA
 * blocks of MPI_Gather (intercepted when libmpiguide is preloaded: with a profile whose one
 * range selects `default`, the call takes the tuned path and then runs the library's own
 * collective) and of PMPI_Gather (the library directly), in one run. Prints, per size, the
 * median time per call of each and their ratio (direct / intercepted: below 1 means the
 * intercepted call is slower, the convention of the 0.95). Built without any link to
 * mpiguide (bench/gather_default.sh). Usage: gather_default [BLOCKS] [CALLS] SIZE... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

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
    int blocks = argc > 1 ? atoi(argv[1]) : 40, calls = argc > 2 ? atoi(argv[2]) : 50;
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    double *via = malloc(sizeof(double) * (size_t)blocks);
    double *direct = malloc(sizeof(double) * (size_t)blocks);
    for (int a = 3; a < argc; a++) {
        int m = atoi(argv[a]);
        char *s = malloc((size_t)m), *r = malloc((size_t)m * (size_t)p);
        for (int i = 0; i < m; i++) s[i] = (char)(rank + i);
        for (int i = 0; i < 20; i++) { /* warm-up of both paths */
            MPI_Gather(s, m, MPI_BYTE, r, m, MPI_BYTE, 0, MPI_COMM_WORLD);
            PMPI_Gather(s, m, MPI_BYTE, r, m, MPI_BYTE, 0, MPI_COMM_WORLD);
        }
        for (int b = 0; b < 2 * blocks; b++) {
            int intercepted = (b % 2) ^ ((b / 2) % 2); /* ABBA order cancels drift */
            PMPI_Barrier(MPI_COMM_WORLD);
            double t = MPI_Wtime();
            for (int i = 0; i < calls; i++)
                if (intercepted)
                    MPI_Gather(s, m, MPI_BYTE, r, m, MPI_BYTE, 0, MPI_COMM_WORLD);
                else
                    PMPI_Gather(s, m, MPI_BYTE, r, m, MPI_BYTE, 0, MPI_COMM_WORLD);
            t = (MPI_Wtime() - t) / calls;
            PMPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); /* the root's time decides */
            (intercepted ? via : direct)[b / 2] = t;
        }
        if (rank == 0) {
            double mv = median(via, blocks), md = median(direct, blocks);
            printf("%d %.3f %.3f %.4f\n", m, md * 1e6, mv * 1e6, md / mv);
        }
        free(s);
        free(r);
    }
    MPI_Finalize();
    return 0;
}
