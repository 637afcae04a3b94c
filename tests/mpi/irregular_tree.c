/* The distributed TUW construction (constant-size messages between fixed and gather roots)
 * gives every rank exactly the role the pure tree function computes from all sizes: parent,
 * level, degradation, bytes, children in level order and, at the root, the degraded count. */
#include "algorithms/irregular/tuw.h"
#include "mpitest.h"
#include "model/problems.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compare(const mg_tuw_role *got, const mg_tuw_role *want, const char *desc) {
    int same = got->parent == want->parent && got->level == want->level &&
               got->direct == want->direct && got->bytes == want->bytes &&
               got->nchild == want->nchild && got->ndirect == want->ndirect;
    for (int k = 0; same && k < got->nchild; k++)
        same = got->child[k].rank == want->child[k].rank &&
               got->child[k].level == want->child[k].level &&
               got->child[k].bytes == want->child[k].bytes;
    mt_check(same,
             "%s: distributed role (parent %d level %d direct %d bytes %lld children %d "
             "ndirect %lld) differs from the pure tree (parent %d level %d direct %d bytes %lld "
             "children %d ndirect %lld)",
             desc, got->parent, got->level, got->direct, (long long)got->bytes, got->nchild,
             (long long)got->ndirect, want->parent, want->level, want->direct,
             (long long)want->bytes, want->nchild, (long long)want->ndirect);
}

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    int p = mt_size(), me = mt_rank();
    MPI_Comm priv;
    PMPI_Comm_dup(MPI_COMM_WORLD, &priv);
    int64_t *size = malloc(sizeof(int64_t) * (size_t)p);
    mg_tuw_node *node = malloc(mg_tuw_tree_bytes(p));
    mg_tuw_cube *work = malloc(sizeof(mg_tuw_cube) * (size_t)p);
    mg_tuw_limits lims[4] = {{0, INT64_MAX / 2}, {40, INT64_MAX / 2}, {0, 100}, {8, 64}};
    char desc[200];
    long cases = 0;
    for (int kind = 0; kind < MG_PROBLEM_COUNT + 1; kind++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            if (kind < MG_PROBLEM_COUNT) {
                mg_problem_counts(kind, p, 5, 5.0, seed, size);
                for (int i = 0; i < p; i++) size[i] *= 4;
            } else {
                uint64_t x = seed * 7919;
                for (int i = 0; i < p; i++) {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    size[i] = x % 2 ? 0 : (int64_t)(x % 97);
                }
            }
            for (int root = 0; root < p; root++) {
                for (int li = 0; li < 4; li++) {
                    snprintf(desc, sizeof desc, "p=%d rank=%d root=%d sizes=%d/%llu limits=%d", p,
                             me, root, kind, (unsigned long long)seed, li);
                    mg_tuw_role got, want;
                    int rc = mg_tuw_construct(priv, root, size[me], &lims[li], &got);
                    mt_check(rc == MPI_SUCCESS, "%s: rc %d", desc, rc);
                    mg_tuw_sizes sz = {NULL, size, 0};
                    mg_tuw_stats st;
                    mg_tuw_tree(p, root, &sz, &lims[li], node, work, &st);
                    mg_tuw_role_of(p, root, node, me, &want);
                    compare(&got, &want, desc);
                    cases++;
                }
            }
        }
    }
    if (me == 0) printf("%ld constructions compared per rank\n", cases);
    free(size);
    free(node);
    free(work);
    PMPI_Comm_free(&priv);
    return mt_finish();
}
