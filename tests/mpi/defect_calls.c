/* One reduction on the datatypes and ops of the known MPI defects (src/defects/known.txt), with
 * its result checked; knows nothing of mpiguide (the tests preload it with a mock-up forced or
 * a profile, so that a mock-up whose inner call would meet a defect must decline).
 *   defect_calls --call=allreduce|reduce|reduce_scatter|reduce_scatter_block
 *                --type=padded|true_lb --op=comm|noncomm [--count=N] [--root=R]
 * padded: one int, extent 8 (true extent 4); true_lb: ints at -4 and 8, lb -8, extent 24.
 * comm adds the fields; noncomm keeps its left operand (so a rank-order reduction yields rank
 * 0's input). Prints "defect_calls: correct" and exits 0, or names the first wrong element. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int extent, nfields, offs[2];

static int *field(void *buf, long i, int k) {
    return (int *)((char *)buf + (long)extent * i + offs[k]);
}

static void add(void *in, void *inout, int *len, MPI_Datatype *t) {
    (void)t;
    for (int i = 0; i < *len; i++)
        for (int k = 0; k < nfields; k++) *field(inout, i, k) += *field(in, i, k);
}

static void keep_left(void *in, void *inout, int *len, MPI_Datatype *t) {
    (void)t;
    for (int i = 0; i < *len; i++)
        for (int k = 0; k < nfields; k++) *field(inout, i, k) = *field(in, i, k);
}

static const char *opt(int argc, char **argv, const char *name, const char *dflt) {
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], name, n) && argv[i][n] == '=') return argv[i] + n + 1;
    return dflt;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const char *call = opt(argc, argv, "--call", "allreduce");
    int lb, padded = !strcmp(opt(argc, argv, "--type", "padded"), "padded");
    int comm = !strcmp(opt(argc, argv, "--op", "comm"), "comm");
    int n = atoi(opt(argc, argv, "--count", "8")), root = atoi(opt(argc, argv, "--root", "0"));
    MPI_Datatype t, inner;
    if (padded) {
        extent = 8, nfields = 1, offs[0] = 0, lb = 0;
        MPI_Type_create_resized(MPI_INT, 0, 8, &t);
    } else {
        int lens[2] = {1, 1};
        MPI_Aint d[2] = {-4, 8};
        MPI_Datatype ints[2] = {MPI_INT, MPI_INT};
        extent = 24, nfields = 2, offs[0] = -4, offs[1] = 8, lb = -8;
        MPI_Type_create_struct(2, lens, d, ints, &inner);
        MPI_Type_create_resized(inner, -8, 24, &t);
        MPI_Type_free(&inner);
    }
    MPI_Type_commit(&t);
    MPI_Op op;
    MPI_Op_create(comm ? add : keep_left, comm, &op);
    int scatter = !strncmp(call, "reduce_scatter", 14);
    long total = scatter ? (long)n * p : n, mine = scatter ? n : total,
         from = scatter ? (long)rank * n : 0;
    char *in0 = calloc((size_t)(extent * total), 1), *out0 = calloc((size_t)(extent * total), 1);
    void *in = in0 - lb, *out = out0 - lb;
    for (long i = 0; i < total; i++)
        for (int k = 0; k < nfields; k++) *field(in, i, k) = 1000 * rank + (int)i + k;
    int *counts = malloc(sizeof(int) * (size_t)p);
    for (int i = 0; i < p; i++) counts[i] = n;
    if (!strcmp(call, "allreduce"))
        MPI_Allreduce(in, out, n, t, op, MPI_COMM_WORLD);
    else if (!strcmp(call, "reduce"))
        MPI_Reduce(in, out, n, t, op, root, MPI_COMM_WORLD);
    else if (!strcmp(call, "reduce_scatter"))
        MPI_Reduce_scatter(in, out, counts, t, op, MPI_COMM_WORLD);
    else
        MPI_Reduce_scatter_block(in, out, n, t, op, MPI_COMM_WORLD);
    int wrong = 0, check = strcmp(call, "reduce") || rank == root;
    for (long i = 0; check && i < mine; i++)
        for (int k = 0; k < nfields; k++) {
            int x = (int)(from + i) + k;
            int want = comm ? 1000 * p * (p - 1) / 2 + p * x : x;
            if (*field(out, i, k) != want && !wrong++)
                printf("defect_calls: rank %d: %s element %ld field %d is %d, expected %d\n", rank,
                       call, i, k, *field(out, i, k), want);
        }
    int all = 0;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("defect_calls: %s (%d wrong)\n", all ? "WRONG" : "correct", all);
    MPI_Op_free(&op);
    MPI_Type_free(&t);
    free(in0);
    free(out0);
    free(counts);
    MPI_Finalize();
    return all ? 1 : 0;
}
