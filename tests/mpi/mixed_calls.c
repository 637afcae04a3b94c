/* One collective on a datatype of mixed basic types, with its result checked; knows nothing of
 * mpiguide (the tests preload it with a mock-up forced, whose inner MPI_Gather or MPI_Scatter
 * would meet MPICH's mixed-type defects, src/defects/known.txt, and must decline there).
 *   mixed_calls --call=allgather|reduce|reduce_scatter_block --type=long_int|struct
 *               [--count=N] [--inplace]
 * long_int: MPI_LONG_INT (named); struct: the same layout built with MPI_Type_create_struct, so
 * that the library has to decode a derived type. reduce and reduce_scatter_block use MPI_MAXLOC,
 * which needs long_int (count: the vector length; reduce_scatter_block: per block). Prints
 * "mixed_calls: correct" and exits 0, or names the first wrong element. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

typedef struct {
    long l;
    int i;
} li;

static const char *opt(int argc, char **argv, const char *name, const char *dflt) {
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], name, n) && (argv[i][n] == '=' || argv[i][n] == 0))
            return argv[i][n] ? argv[i] + n + 1 : "1";
    return dflt;
}

/* The input of rank r at element k: maxima are spread over the ranks (MAXLOC keeps the rank of
 * the largest value). */
static li input(int r, long k, int p) {
    return (li){(long)((k + r) % p) * 1000 + k, r};
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const char *call = opt(argc, argv, "--call", "allgather");
    int n = atoi(opt(argc, argv, "--count", "2000")),
        inplace = *opt(argc, argv, "--inplace", "0") == '1';
    MPI_Datatype t = MPI_LONG_INT;
    if (!strcmp(opt(argc, argv, "--type", "long_int"), "struct")) {
        int lens[2] = {1, 1};
        MPI_Aint d[2] = {offsetof(li, l), offsetof(li, i)};
        MPI_Datatype parts[2] = {MPI_LONG, MPI_INT}, s;
        MPI_Type_create_struct(2, lens, d, parts, &s);
        MPI_Type_create_resized(s, 0, sizeof(li), &t);
        MPI_Type_free(&s);
        MPI_Type_commit(&t);
    }
    long total = (long)n * p, bad = -1;
    li *in = calloc((size_t)total, sizeof *in), *out = calloc((size_t)total, sizeof *out);
    int rc;
    if (!strcmp(call, "allgather")) {
        for (long k = 0; k < n; k++) (inplace ? out + (long)rank * n : in)[k] = input(rank, k, p);
        rc = MPI_Allgather(inplace ? MPI_IN_PLACE : in, n, t, out, n, t, MPI_COMM_WORLD);
        for (long k = 0; rc == MPI_SUCCESS && bad < 0 && k < total; k++) {
            li want = input((int)(k / n), k % n, p);
            if (out[k].l != want.l || out[k].i != want.i) bad = k;
        }
    } else {
        int rsb = !strcmp(call, "reduce_scatter_block");
        long len = rsb ? total : n;
        for (long k = 0; k < len; k++) in[k] = input(rank, k, p);
        rc = rsb ? MPI_Reduce_scatter_block(in, out, n, t, MPI_MAXLOC, MPI_COMM_WORLD)
                 : MPI_Reduce(in, out, n, t, MPI_MAXLOC, 0, MPI_COMM_WORLD);
        long from = rsb ? (long)rank * n : 0, cnt = rsb || rank == 0 ? n : 0;
        for (long j = 0; rc == MPI_SUCCESS && bad < 0 && j < cnt; j++) {
            long k = from + j;
            int winner = (int)((p - 1 - k % p + p) % p); /* (k + r) % p is largest at this r */
            li want = input(winner, k, p);
            if (out[j].l != want.l || out[j].i != want.i) bad = j;
        }
    }
    int wrong = rc != MPI_SUCCESS || bad >= 0, any = 0;
    if (rc != MPI_SUCCESS)
        printf("mixed_calls: rank %d: %s returned an error\n", rank, call);
    else if (bad >= 0)
        printf("mixed_calls: rank %d: element %ld wrong\n", rank, bad);
    MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !any) printf("mixed_calls: correct\n");
    free(in);
    free(out);
    if (t != MPI_LONG_INT) MPI_Type_free(&t);
    MPI_Finalize();
    return any;
}
