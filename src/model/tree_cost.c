/* Gather trees under the linear cost model: a rank receives its children's messages one at a
 * time, each as soon as it is ready (earliest-ready first, which minimises its completion),
 * then sends its own message; empty messages cost nothing. Pure. */
#include "tree_cost.h"
#include <stdlib.h>

typedef struct arrival {
    double t;
    int64_t bytes;
} arrival;

static int by_time(const void *a, const void *b) {
    double x = ((const arrival *)a)->t, y = ((const arrival *)b)->t;
    return (x > y) - (x < y);
}

/* The tree given by parent[] (-1 at the root), sent[] bytes per rank and order[] (children
 * before parents, root last): fills time, depth and the message statistics of r. */
static int simulate(int p, int root, const int *parent, const int64_t *sent, const int *order,
                    double t0, double alpha, double beta, mg_model_result *r) {
    int *start = calloc((size_t)p + 1, sizeof *start), *kids = malloc(sizeof *kids * (size_t)p);
    int *depth = malloc(sizeof *depth * (size_t)p);
    double *ready = malloc(sizeof *ready * (size_t)p);
    arrival *in = malloc(sizeof *in * (size_t)p);
    int rc = -1;
    if (!start || !kids || !depth || !ready || !in) goto out;
    for (int i = 0; i < p; i++)
        if (parent[i] >= 0) start[parent[i] + 1]++;
    for (int i = 0; i < p; i++) start[i + 1] += start[i];
    for (int i = 0; i < p; i++) depth[i] = start[i]; /* fill positions, reused below */
    for (int i = 0; i < p; i++)
        if (parent[i] >= 0) kids[depth[parent[i]]++] = i;
    r->root_bytes = r->max_sent = r->messages = 0;
    for (int k = 0; k < p; k++) {
        int v = order[k], n = 0;
        for (int j = start[v]; j < start[v + 1]; j++) {
            int c = kids[j];
            if (sent[c] > 0) in[n++] = (arrival){ready[c], sent[c]};
        }
        qsort(in, (size_t)n, sizeof *in, by_time);
        double t = t0;
        for (int j = 0; j < n; j++) {
            t = (in[j].t > t ? in[j].t : t) + alpha + beta * (double)in[j].bytes;
            if (v == root) r->root_bytes += in[j].bytes;
        }
        ready[v] = t;
        if (v != root && sent[v] > 0) {
            r->messages++;
            if (sent[v] > r->max_sent) r->max_sent = sent[v];
        }
    }
    int most = 0;
    depth[root] = 0;
    for (int k = p - 2; k >= 0; k--) { /* parents before children */
        int v = order[k];
        depth[v] = depth[parent[v]] + 1;
        if (depth[v] > most) most = depth[v];
    }
    r->rounds = most;
    r->time = ready[root];
    rc = 0;
out:
    free(start);
    free(kids);
    free(depth);
    free(ready);
    free(in);
    return rc;
}

int mg_model_tuw(int p, int root, const int64_t *bytes, const mg_tuw_limits *lim, double alpha,
                 double beta, mg_model_result *r) {
    mg_tuw_limits open = {0, INT64_MAX / 4};
    mg_tuw_node *node = malloc(sizeof *node * (size_t)p);
    mg_tuw_cube *work = malloc(sizeof *work * (size_t)p);
    int *parent = malloc(sizeof *parent * (size_t)p), *order = malloc(sizeof *order * (size_t)p);
    int64_t *sent = malloc(sizeof *sent * (size_t)p);
    int rc = -1;
    if (!node || !work || !parent || !order || !sent) goto out;
    mg_tuw_sizes sz = {NULL, bytes, 0};
    mg_tuw_stats st;
    mg_tuw_tree(p, root, &sz, lim ? lim : &open, node, work, &st);
    int n = 0;
    for (int lev = 0; lev < st.rounds; lev++) /* a parent loses later than its children */
        for (int i = 0; i < p; i++)
            if (node[i].level == lev) order[n++] = i;
    order[n++] = root;
    for (int i = 0; i < p; i++) parent[i] = node[i].parent, sent[i] = node[i].bytes;
    int levels = mg_tuw_levels(p);
    double t0 = levels ? (2.0 * levels - 1.0) * alpha : 0.0;
    rc = simulate(p, root, parent, sent, order, t0, alpha, beta, r);
    r->build_rounds = levels;
out:
    free(node);
    free(work);
    free(parent);
    free(order);
    free(sent);
    return rc;
}

static int lowbit_log(int v) {
    return __builtin_ctz((unsigned)v);
}

int mg_model_binomial(int p, int root, const int64_t *bytes, double alpha, double beta,
                      mg_model_result *r) {
    int *parent = malloc(sizeof *parent * (size_t)p), *order = malloc(sizeof *order * (size_t)p);
    int64_t *sent = malloc(sizeof *sent * (size_t)p),
            *prefix = malloc(sizeof *prefix * ((size_t)p + 1));
    int rc = -1;
    if (!parent || !order || !sent || !prefix) goto out;
    /* Relative rank v = (i - root) mod p; its subtree is [v, min(v + lowbit(v), p)). */
    prefix[0] = 0;
    for (int v = 0; v < p; v++) {
        int i = (v + root) % p;
        prefix[v + 1] = prefix[v] + (i == root ? 0 : bytes[i]);
    }
    int n = 0;
    for (int k = 0; k < 31; k++)
        for (int v = 1; v < p; v++)
            if (lowbit_log(v) == k) order[n++] = (v + root) % p;
    order[n++] = root;
    for (int v = 0; v < p; v++) {
        int i = (v + root) % p;
        if (v == 0) {
            parent[i] = -1, sent[i] = 0;
            continue;
        }
        int low = v & -v;
        int64_t end = (int64_t)v + low < p ? (int64_t)v + low : p;
        parent[i] = (v - low + root) % p;
        sent[i] = prefix[end] - prefix[v];
    }
    rc = simulate(p, root, parent, sent, order, 0.0, alpha, beta, r);
    r->build_rounds = 0;
out:
    free(parent);
    free(order);
    free(sent);
    free(prefix);
    return rc;
}

int mg_model_direct(int p, int root, const int64_t *bytes, double alpha, double beta,
                    mg_model_result *r) {
    int *parent = malloc(sizeof *parent * (size_t)p), *order = malloc(sizeof *order * (size_t)p);
    int64_t *sent = malloc(sizeof *sent * (size_t)p);
    int rc = -1;
    if (!parent || !order || !sent) goto out;
    int n = 0;
    for (int i = 0; i < p; i++) {
        parent[i] = i == root ? -1 : root;
        sent[i] = i == root ? 0 : bytes[i];
        if (i != root) order[n++] = i;
    }
    order[n++] = root;
    rc = simulate(p, root, parent, sent, order, 0.0, alpha, beta, r);
    r->build_rounds = 0;
    r->rounds = (int)r->messages; /* the root's receives are the rounds */
out:
    free(parent);
    free(order);
    free(sent);
    return rc;
}

double mg_model_theorem1(int p, int root, const int64_t *bytes, double alpha, double beta) {
    double sum = 0;
    for (int i = 0; i < p; i++)
        if (i != root) sum += (double)bytes[i];
    return 3.0 * mg_tuw_levels(p) * alpha + beta * sum;
}

double mg_model_tuw_bound(int p, int root, const int64_t *bytes, double alpha, double beta) {
    mg_tuw_limits open = {0, INT64_MAX / 4};
    mg_tuw_node *node = malloc(sizeof *node * (size_t)p);
    mg_tuw_cube *work = malloc(sizeof *work * (size_t)p);
    double bound = -1;
    if (node && work) {
        mg_tuw_sizes sz = {NULL, bytes, 0};
        mg_tuw_stats st;
        mg_tuw_tree(p, root, &sz, &open, node, work, &st);
        double sum = 0, most = 0;
        for (int i = 0; i < p; i++) {
            if (i == root) continue;
            sum += (double)bytes[i];
            if (node[i].parent == root && (double)node[i].bytes > most)
                most = (double)node[i].bytes;
        }
        int levels = mg_tuw_levels(p);
        bound = (levels ? 3.0 * levels - 1.0 : 0.0) * alpha + beta * (sum + most);
    }
    free(node);
    free(work);
    return bound;
}

int mg_model_binomial_farthest(int p, int root, int *hops) {
    int best = -1, most = -1;
    for (int v = 1; v < p; v++) {
        int h = __builtin_popcount((unsigned)v); /* hops: one per set bit, cleared lowest first */
        if (h > most) most = h, best = v;
    }
    *hops = most < 0 ? 0 : most;
    return best < 0 ? -1 : (best + root) % p;
}
