/* The linear cost model of Träff's paper (alpha + beta * bytes per message, one-ported,
 * bidirectional) applied to three Gatherv algorithms: TUW, the fixed binomial tree and direct
 * sends to the root. Pure; used by `mpiguide simulate`, the benchmark's predictions and tests. */
#ifndef MG_TUW_MODEL_H
#define MG_TUW_MODEL_H

#include "tree.h"

typedef struct mg_model_result {
    int build_rounds;   /* TUW construction rounds (ceil(log2 p)); 0 for the others */
    int rounds;         /* data rounds: tree depth (direct: messages into the root) */
    int64_t root_bytes; /* bytes received by the root */
    int64_t max_sent;   /* most bytes sent by one rank */
    int64_t messages;   /* non-empty data messages */
    double time;        /* modelled completion time at the root, seconds */
} mg_model_result;

/* Each call returns 0, or -1 when out of memory. bytes[i]: block of rank i (root's ignored). */

/* TUW: (2 ceil(log2 p) - 1) alpha of construction (an exchange and a note per round on the
 * fixed roots' chain; the first round needs no note), then the data phase on the tree; every
 * rank receives its children's messages one at a time in the order they become ready. lim
 * may be NULL (no degradation, unbounded buffers). */
int mg_model_tuw(int p, int root, const int64_t *bytes, const mg_tuw_limits *lim, double alpha,
                 double beta, mg_model_result *r);
/* Binomial tree on ranks relative to the root (MPICH/Open MPI style): relative rank v sends
 * its subtree [v, v + lowbit(v)) to v - lowbit(v). */
int mg_model_binomial(int p, int root, const int64_t *bytes, double alpha, double beta,
                      mg_model_result *r);
/* Every non-root with data sends straight to the root, which receives one after another. */
int mg_model_direct(int p, int root, const int64_t *bytes, double alpha, double beta,
                    mg_model_result *r);

/* Theorem 1: 3 ceil(log2 p) alpha + beta * sum_{i != r} m_i. */
double mg_model_theorem1(int p, int root, const int64_t *bytes, double alpha, double beta);
/* What the model guarantees TUW without degradation: Lemma 1's induction bounds a non-root
 * gather root by d alpha + beta * (its subtree's data), so the root waits for its slowest
 * child at most that long: (3 ceil(log2 p) - 1) alpha + beta * (sum_{i != r} m_i + the largest
 * message into the root). */
double mg_model_tuw_bound(int p, int root, const int64_t *bytes, double alpha, double beta);

/* The rank farthest from the root in the binomial tree (most hops), or -1 for p == 1; *hops
 * receives its distance. */
int mg_model_binomial_farthest(int p, int root, int *hops);

#endif
