/* Which algorithm did the MPI library run? A reduction with an op that is declared commutative
 * but is neither commutative nor associative gives a result that depends on the order in which
 * the algorithm combines the ranks' values: a fingerprint of the algorithm. Built WITHOUT any
 * link to mpiguide (the tests of library algorithms, tests/mpi/libalg.cmake, run it plain, with
 * libmpiguide preloaded, and with an exported tuning file). Per collective and count it prints
 * `fp COLL COUNT HASH` (HASH over all ranks' results) and checks an MPI_SUM of integers against
 * the exact result (`correct`/`WRONG`). Also prints `dynamic_rules=V`, Open MPI's
 * coll_tuned_use_dynamic_rules as this process sees it (-1 where the MPI has no such variable).
 *   libalg_fp --colls=allreduce,reduce,... --counts=1,16,... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void mix(void *in, void *io, int *len, MPI_Datatype *t) {
    (void)t;
    unsigned *a = in, *b = io;
    for (int i = 0; i < *len; i++) b[i] = a[i] * 3u + b[i] * 7u + 1u;
}

static int dynamic_rules(void) {
    int idx, count, v[4] = {0};
    MPI_T_cvar_handle h;
    if (MPI_T_cvar_get_index("coll_tuned_use_dynamic_rules", &idx) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS)
        return -1;
    MPI_T_cvar_read(h, v);
    MPI_T_cvar_handle_free(&h);
    return v[0] != 0;
}

/* One call of collective `coll` with n elements per block of op on unsigned. */
static int call(const char *coll, const unsigned *s, unsigned *d, int n, MPI_Op op, int p,
                int *cnts) {
    if (!strcmp(coll, "allreduce")) return MPI_Allreduce(s, d, n, MPI_UNSIGNED, op, MPI_COMM_WORLD);
    if (!strcmp(coll, "reduce")) return MPI_Reduce(s, d, n, MPI_UNSIGNED, op, 0, MPI_COMM_WORLD);
    if (!strcmp(coll, "scan")) return MPI_Scan(s, d, n, MPI_UNSIGNED, op, MPI_COMM_WORLD);
    if (!strcmp(coll, "reduce_scatter_block"))
        return MPI_Reduce_scatter_block(s, d, n, MPI_UNSIGNED, op, MPI_COMM_WORLD);
    if (!strcmp(coll, "reduce_scatter")) {
        for (int i = 0; i < p; i++) cnts[i] = n;
        return MPI_Reduce_scatter(s, d, cnts, MPI_UNSIGNED, op, MPI_COMM_WORLD);
    }
    return MPI_ERR_ARG;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, p, prov, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);
    const char *colls = "allreduce,reduce,scan,reduce_scatter_block,reduce_scatter";
    const char *counts = "1,7,16,100,256,1024,1025";
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--colls=", 8)) colls = argv[i] + 8;
        if (!strncmp(argv[i], "--counts=", 9)) counts = argv[i] + 9;
    }
    if (!r) printf("dynamic_rules=%d\n", dynamic_rules());
    MPI_Op op;
    MPI_Op_create(mix, 1, &op);
    int *cnts = malloc(sizeof(int) * (size_t)p);
    char cbuf[512], nbuf[512];
    snprintf(cbuf, sizeof cbuf, "%s", colls);
    for (char *sv = NULL, *c = strtok_r(cbuf, ",", &sv); c; c = strtok_r(NULL, ",", &sv)) {
        snprintf(nbuf, sizeof nbuf, "%s", counts);
        for (char *sv2 = NULL, *k = strtok_r(nbuf, ",", &sv2); k; k = strtok_r(NULL, ",", &sv2)) {
            int n = atoi(k);
            size_t len = (size_t)n * (size_t)p + 1;
            unsigned *s = calloc(len, sizeof *s), *d = calloc(len, sizeof *d);
            for (size_t i = 0; i < len; i++) s[i] = (unsigned)(r * 1000 + (int)i + 1);
            int rc = call(c, s, d, n, op, p, cnts);
            unsigned h = 0;
            for (int i = 0; i < n; i++) h = h * 31u + d[i];
            h *= (unsigned)(2 * r + 1);
            unsigned all = 0;
            MPI_Reduce(&h, &all, 1, MPI_UNSIGNED, MPI_SUM, 0, MPI_COMM_WORLD);
            /* correctness: MPI_SUM of unsigned is exact in any order */
            memset(d, 0, len * sizeof *d);
            rc |= call(c, s, d, n, MPI_SUM, p, cnts);
            int wrong = rc != MPI_SUCCESS;
            int reduce_here = strcmp(c, "reduce") || r == 0;
            for (int i = 0; i < n && reduce_here; i++) {
                /* element i of this rank's result: block r for the scatters, prefix for scan */
                int elem = !strncmp(c, "reduce_scatter", 14) ? r * n + i : i;
                int upto = !strcmp(c, "scan") ? r + 1 : p;
                unsigned want = 0;
                for (int q = 0; q < upto; q++) want += (unsigned)(q * 1000 + elem + 1);
                wrong |= d[i] != want;
            }
            int any = 0;
            MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            bad |= any;
            if (!r) printf("fp %s %d %08x %s\n", c, n, all, any ? "WRONG" : "correct");
            free(s);
            free(d);
        }
    }
    free(cnts);
    MPI_Op_free(&op);
    MPI_T_finalize();
    MPI_Finalize();
    return bad;
}
