/* An ordinary MPI program, built WITHOUT any link to mpiguide: the interception tests
 * LD_PRELOAD libmpiguide into it. It runs every intercepted collective on several counts
 * (in place where MPI allows it) and checks each result against values computed locally, so a
 * wrong mock-up or a deadlock shows whatever the selection was. Options:
 *   --init-null        MPI_Init(NULL, NULL)
 *   --optout           also run on a duplicate with info mpiguide_off=true (both ways of
 *                      setting it) and on a duplicate of that (MPI_Comm_dup keeps the hint)
 *   --subcomm          also run on the two halves of MPI_COMM_WORLD (rank 0's half holds
 *                      ranks 0 .. ceil(p/2) - 1)
 *   --userop           MPI_Allreduce with a user-defined op as well
 *   --large            the MPI-4 large-count calls as well (where the MPI has them)
 *   --skip-all         skip the set of every collective (with --large: only those)
 *   --sizes=B1,B2,...  additionally MPI_Allgather of B bytes (MPI_CHAR) per rank, repeated 3x
 *   --repeat=N         run the collective set N times (default 1) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, nfail, npass;

static void check(int ok, const char *what, MPI_Comm comm, int count, int i) {
    if (ok) {
        npass++;
        return;
    }
    int p;
    MPI_Comm_size(comm, &p);
    if (nfail++ < 20)
        fprintf(stderr, "FAIL rank %d: %s (p=%d count=%d) at element %d\n", rank, what, p, count,
                i);
}

static int *ibuf(size_t n) {
    int *b = malloc((n ? n : 1) * sizeof(int));
    for (size_t i = 0; i < n; i++) b[i] = -1;
    return b;
}

static int sum_ranks(int p) {
    return p * (p - 1) / 2;
}

static void my_sum(void *in, void *inout, int *len, MPI_Datatype *t) {
    (void)t;
    for (int i = 0; i < *len; i++) ((int *)inout)[i] += ((int *)in)[i];
}

/* Every intercepted collective once with count c. */
static void run_all(MPI_Comm comm, int c, int userop) {
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int *s = ibuf((size_t)p * (c + 4) + 8), *d = ibuf((size_t)p * (c + 4) + 8);
    int *cnt = ibuf((size_t)p), *dsp = ibuf((size_t)p);

    /* Allgather, normal and in place */
    for (int k = 0; k < c; k++) s[k] = r * 1000 + k;
    MPI_Allgather(s, c, MPI_INT, d, c, MPI_INT, comm);
    for (int i = 0; i < p * c; i++) check(d[i] == (i / c) * 1000 + i % c, "Allgather", comm, c, i);
    for (int i = 0; i < p * c; i++) d[i] = i / c == r ? r * 1000 + i % c : -1;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, c, MPI_INT, comm);
    for (int i = 0; i < p * c; i++)
        check(d[i] == (i / c) * 1000 + i % c, "Allgather in place", comm, c, i);

    /* Allreduce, normal and in place */
    MPI_Allreduce(s, d, c, MPI_INT, MPI_SUM, comm);
    for (int k = 0; k < c; k++) check(d[k] == 1000 * sum_ranks(p) + p * k, "Allreduce", comm, c, k);
    for (int k = 0; k < c; k++) d[k] = r * 1000 + k;
    MPI_Allreduce(MPI_IN_PLACE, d, c, MPI_INT, MPI_SUM, comm);
    for (int k = 0; k < c; k++)
        check(d[k] == 1000 * sum_ranks(p) + p * k, "Allreduce in place", comm, c, k);
    if (userop) {
        MPI_Op op;
        MPI_Op_create(my_sum, 1, &op);
        MPI_Allreduce(s, d, c, MPI_INT, op, comm);
        for (int k = 0; k < c; k++)
            check(d[k] == 1000 * sum_ranks(p) + p * k, "Allreduce user op", comm, c, k);
        MPI_Op_free(&op);
    }

    /* Alltoall */
    for (int j = 0; j < p; j++)
        for (int k = 0; k < c; k++) s[j * c + k] = r * 1000 + j * 100 + k;
    MPI_Alltoall(s, c, MPI_INT, d, c, MPI_INT, comm);
    for (int i = 0; i < p * c; i++)
        check(d[i] == (i / c) * 1000 + r * 100 + i % c, "Alltoall", comm, c, i);

    /* Bcast from the last rank */
    for (int k = 0; k < c; k++) d[k] = r == p - 1 ? 7 * k + p : -1;
    MPI_Bcast(d, c, MPI_INT, p - 1, comm);
    for (int k = 0; k < c; k++) check(d[k] == 7 * k + p, "Bcast", comm, c, k);

    /* Gather to p/2, normal and in place */
    int root = p / 2;
    for (int k = 0; k < c; k++) s[k] = r * 1000 + k;
    for (int i = 0; i < p * c; i++) d[i] = -1;
    MPI_Gather(s, c, MPI_INT, d, c, MPI_INT, root, comm);
    if (r == root)
        for (int i = 0; i < p * c; i++) check(d[i] == (i / c) * 1000 + i % c, "Gather", comm, c, i);
    for (int i = 0; i < p * c; i++) d[i] = i / c == r ? r * 1000 + i % c : -1;
    MPI_Gather(r == root ? MPI_IN_PLACE : s, c, MPI_INT, d, c, MPI_INT, root, comm);
    if (r == root)
        for (int i = 0; i < p * c; i++)
            check(d[i] == (i / c) * 1000 + i % c, "Gather in place", comm, c, i);

    /* Reduce to 0, normal and in place */
    MPI_Reduce(s, d, c, MPI_INT, MPI_SUM, 0, comm);
    if (r == 0)
        for (int k = 0; k < c; k++)
            check(d[k] == 1000 * sum_ranks(p) + p * k, "Reduce", comm, c, k);
    for (int k = 0; k < c; k++) d[k] = r * 1000 + k;
    MPI_Reduce(r == 0 ? MPI_IN_PLACE : d, r == 0 ? d : NULL, c, MPI_INT, MPI_SUM, 0, comm);
    if (r == 0)
        for (int k = 0; k < c; k++)
            check(d[k] == 1000 * sum_ranks(p) + p * k, "Reduce in place", comm, c, k);

    /* Reduce_scatter_block */
    for (int j = 0; j < p; j++)
        for (int k = 0; k < c; k++) s[j * c + k] = r * 1000 + j * 100 + k;
    MPI_Reduce_scatter_block(s, d, c, MPI_INT, MPI_SUM, comm);
    for (int k = 0; k < c; k++)
        check(d[k] == 1000 * sum_ranks(p) + p * (r * 100 + k), "Reduce_scatter_block", comm, c, k);

    /* Reduce_scatter with counts c + j % 2 */
    int off = 0;
    for (int j = 0; j < p; j++) {
        cnt[j] = c + j % 2;
        for (int k = 0; k < cnt[j]; k++) s[off + k] = r * 1000 + j * 100 + k;
        off += cnt[j];
    }
    MPI_Reduce_scatter(s, d, cnt, MPI_INT, MPI_SUM, comm);
    for (int k = 0; k < cnt[r]; k++)
        check(d[k] == 1000 * sum_ranks(p) + p * (r * 100 + k), "Reduce_scatter", comm, cnt[r], k);

    /* Scan */
    for (int k = 0; k < c; k++) s[k] = r * 1000 + k;
    MPI_Scan(s, d, c, MPI_INT, MPI_SUM, comm);
    for (int k = 0; k < c; k++)
        check(d[k] == 1000 * (r * (r + 1) / 2) + (r + 1) * k, "Scan", comm, c, k);

    /* Scatter from 0, normal and in place */
    for (int j = 0; j < p; j++)
        for (int k = 0; k < c; k++) s[j * c + k] = j * 100 + k;
    for (int k = 0; k < c; k++) d[k] = -1;
    MPI_Scatter(s, c, MPI_INT, d, c, MPI_INT, 0, comm);
    for (int k = 0; k < c; k++) check(d[k] == r * 100 + k, "Scatter", comm, c, k);
    MPI_Scatter(s, c, MPI_INT, r == 0 ? MPI_IN_PLACE : d, c, MPI_INT, 0, comm);
    for (int k = 0; k < c; k++)
        check((r == 0 ? s[k] : d[k]) == r * 100 + k, "Scatter in place", comm, c, k);

    /* Gatherv to 0: counts c + i % 3, one gap element between blocks */
    for (int i = 0; i < p; i++) {
        cnt[i] = c + i % 3;
        dsp[i] = i ? dsp[i - 1] + cnt[i - 1] + 1 : 0;
    }
    for (int k = 0; k < cnt[r]; k++) s[k] = r * 1000 + k;
    for (int i = 0; i < p * (c + 4) + 8; i++) d[i] = -1;
    MPI_Gatherv(s, cnt[r], MPI_INT, d, cnt, dsp, MPI_INT, 0, comm);
    if (r == 0)
        for (int i = 0; i < p; i++)
            for (int k = 0; k < cnt[i]; k++)
                check(d[dsp[i] + k] == i * 1000 + k, "Gatherv", comm, cnt[i], k);

    /* Scatterv from the last rank: counts c + j % 2 */
    for (int j = 0; j < p; j++) {
        cnt[j] = c + j % 2;
        dsp[j] = j ? dsp[j - 1] + cnt[j - 1] : 0;
        for (int k = 0; k < cnt[j]; k++) s[dsp[j] + k] = j * 100 + k;
    }
    for (int k = 0; k < c + 1; k++) d[k] = -1;
    MPI_Scatterv(s, cnt, dsp, MPI_INT, d, cnt[r], MPI_INT, p - 1, comm);
    for (int k = 0; k < cnt[r]; k++) check(d[k] == r * 100 + k, "Scatterv", comm, cnt[r], k);

    free(s);
    free(d);
    free(cnt);
    free(dsp);
}

static void run_large(MPI_Comm comm, int c) {
#if MPI_VERSION >= 4
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int *s = ibuf((size_t)p * c), *d = ibuf((size_t)p * c);
    for (int k = 0; k < c; k++) s[k] = r * 1000 + k;
    MPI_Allreduce_c(s, d, (MPI_Count)c, MPI_INT, MPI_SUM, comm);
    for (int k = 0; k < c; k++)
        check(d[k] == 1000 * sum_ranks(p) + p * k, "Allreduce_c", comm, c, k);
    MPI_Allgather_c(s, (MPI_Count)c, MPI_INT, d, (MPI_Count)c, MPI_INT, comm);
    for (int i = 0; i < p * c; i++)
        check(d[i] == (i / c) * 1000 + i % c, "Allgather_c", comm, c, i);
    for (int k = 0; k < c; k++) d[k] = r == 0 ? 5 * k : -1;
    MPI_Bcast_c(d, (MPI_Count)c, MPI_INT, 0, comm);
    for (int k = 0; k < c; k++) check(d[k] == 5 * k, "Bcast_c", comm, c, k);
    free(s);
    free(d);
#else
    (void)comm, (void)c;
#endif
}

static void run_sizes(MPI_Comm comm, const char *list) {
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    for (const char *q = list; q && *q;) {
        int b = atoi(q);
        char *s = malloc((size_t)b + 1), *d = malloc((size_t)b * p + 1);
        for (int k = 0; k < b; k++) s[k] = (char)(r * 31 + k);
        for (int rep = 0; rep < 3; rep++) {
            memset(d, 0x55, (size_t)b * p);
            MPI_Allgather(s, b, MPI_CHAR, d, b, MPI_CHAR, comm);
            for (int i = 0; i < b * p; i++)
                check(d[i] == (char)((i / b) * 31 + i % b), "Allgather bytes", comm, b, i);
        }
        free(s);
        free(d);
        q = strchr(q, ',');
        if (q) q++;
    }
}

int main(int argc, char **argv) {
    int init_null = 0, optout = 0, subcomm = 0, userop = 0, large = 0, repeat = 1, skip = 0;
    const char *sizes = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--init-null")) init_null = 1;
        if (!strcmp(argv[i], "--optout")) optout = 1;
        if (!strcmp(argv[i], "--subcomm")) subcomm = 1;
        if (!strcmp(argv[i], "--userop")) userop = 1;
        if (!strcmp(argv[i], "--large")) large = 1;
        if (!strcmp(argv[i], "--skip-all")) skip = 1;
        if (!strncmp(argv[i], "--sizes=", 8)) sizes = argv[i] + 8;
        if (!strncmp(argv[i], "--repeat=", 9)) repeat = atoi(argv[i] + 9);
    }
    if (init_null)
        MPI_Init(NULL, NULL);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    static const int counts[] = {0, 1, 5, 37};
    for (int rep = 0; rep < repeat && !skip; rep++)
        for (int i = 0; i < 4; i++) run_all(MPI_COMM_WORLD, counts[i], userop);
    if (sizes) run_sizes(MPI_COMM_WORLD, sizes);
    if (large)
        for (int i = 0; i < 4; i++) run_large(MPI_COMM_WORLD, counts[i]);
    if (subcomm) {
        MPI_Comm half;
        int p;
        MPI_Comm_size(MPI_COMM_WORLD, &p);
        MPI_Comm_split(MPI_COMM_WORLD, rank < (p + 1) / 2, rank, &half);
        for (int i = 0; i < 4; i++) run_all(half, counts[i], userop);
        MPI_Comm_free(&half);
    }
    if (optout) {
        MPI_Info info;
        MPI_Comm off1, off2, off3;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpiguide_off", "true");
        MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &off1);
        MPI_Comm_dup(MPI_COMM_WORLD, &off2);
        MPI_Comm_set_info(off2, info);
        MPI_Comm_dup(off1, &off3);
        for (int i = 0; i < 4; i++) {
            run_all(off1, counts[i], 0);
            run_all(off2, counts[i], 0);
            run_all(off3, counts[i], 0);
        }
        MPI_Comm_free(&off1);
        MPI_Comm_free(&off2);
        MPI_Comm_free(&off3);
        MPI_Info_free(&info);
    }
    int local[2] = {npass, nfail}, total[2];
    PMPI_Allreduce(local, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("intercept_app: %d passed, %d failed\n", total[0], total[1]);
    MPI_Finalize();
    return total[1] ? 1 : 0;
}
