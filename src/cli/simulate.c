/* `mpiguide simulate` (no MPI): TUW, binomial-tree and direct-to-root Gatherv under the linear
 * cost model for one of the paper's problem types and any p up to 2^20 and beyond: rounds,
 * bytes at the root, most bytes sent by one rank, modelled time, and Theorem 1's bound for TUW.
 * docs/dev/interfaces.md section 9; docs/irregular.md explains the model. */
#include "model/tree_cost.h"
#include "cli.h"
#include "model/problems.h"
#include "util/diag.h"
#include "util/optval.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
    fprintf(f,
            "usage: mpiguide simulate --problem=TYPE --p=P [--b=B] [--rho=R] [--alpha=S] "
            "[--beta=S]\n"
            "                         [--root=R] [--seed=S] [--degrade=BYTES]\n"
            "Models MPI_Gatherv with TUW (Traff's linear-time tree), a binomial tree and direct\n"
            "sends to the root under the linear cost model alpha + beta * bytes (no MPI).\n"
            "  --problem    same, random, spikes, decreasing, alternating, twoblocks\n"
            "  --p          processes (1 .. 2^30)\n"
            "  --b          base block in MPI_INT elements (4 bytes), default 100\n"
            "  --rho        spike factor, default 5\n"
            "  --alpha      start-up latency in seconds, default 1e-6\n"
            "  --beta       seconds per byte, default 1e-9\n"
            "  --root       root, default floor(p/2)\n"
            "  --seed       seed of the random problems, default 1\n"
            "  --degrade    TUW graceful degradation threshold in bytes, default 0 (off)\n");
}

static int bad(const char *opt, const char *what) {
    mg_error(opt, "%s (mpiguide simulate --help)", what);
    return 2;
}

static void row(const char *name, const mg_model_result *r, const char *note) {
    char rounds[32];
    if (r->build_rounds)
        snprintf(rounds, sizeof rounds, "%d+%d", r->build_rounds, r->rounds);
    else
        snprintf(rounds, sizeof rounds, "%d", r->rounds);
    printf("%-15s %9s %14lld %14lld %10lld %14.3f%s\n", name, rounds, (long long)r->root_bytes,
           (long long)r->max_sent, (long long)r->messages, r->time * 1e6, note);
}

int mg_cmd_simulate(int argc, char **argv) {
    int64_t p = -1, b = 100, root = -1, seed = 1, degrade = 0;
    double rho = 5.0, alpha = 1e-6, beta = 1e-9;
    int type = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '=');
        const char *v = eq ? eq + 1 : "";
        size_t n = eq ? (size_t)(eq - a) : strlen(a);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!eq) return bad(a, "expected --option=value");
        if (!strncmp(a, "--problem", n) && n == 9) {
            if ((type = mg_problem_parse(v)) < 0) return bad(a, "unknown problem type");
        } else if (!strncmp(a, "--p", n) && n == 3) {
            if (mg_opt_i64_say("--p", v, 1, 1 << 30, &p)) return 2;
        } else if (!strncmp(a, "--b", n) && n == 3) {
            if (mg_opt_i64_say("--b", v, 0, 1LL << 40, &b)) return 2;
        } else if (!strncmp(a, "--rho", n) && n == 5) {
            if (mg_opt_double_say("--rho", v, 1.0, 1e300, &rho)) return 2;
            if (rho <= 1.0) return bad(a, "expected a factor > 1");
        } else if (!strncmp(a, "--alpha", n) && n == 7) {
            if (mg_opt_double_say("--alpha", v, 0.0, 1e300, &alpha)) return 2;
        } else if (!strncmp(a, "--beta", n) && n == 6) {
            if (mg_opt_double_say("--beta", v, 0.0, 1e300, &beta)) return 2;
        } else if (!strncmp(a, "--root", n) && n == 6) {
            if (mg_opt_i64_say("--root", v, 0, (1LL << 30) - 1, &root)) return 2;
        } else if (!strncmp(a, "--seed", n) && n == 6) {
            if (mg_opt_i64_say("--seed", v, 0, INT64_MAX, &seed)) return 2;
        } else if (!strncmp(a, "--degrade", n) && n == 9) {
            if (mg_opt_i64_say("--degrade", v, 0, INT64_MAX / 2, &degrade)) return 2;
        } else {
            return bad(a, "unknown option of simulate");
        }
    }
    if (type < 0) return bad("--problem", "required");
    if (p < 0) return bad("--p", "required");
    if (root < 0) root = p / 2;
    if (root >= p) return bad("--root", "must be below --p");
    int P = (int)p, R = (int)root;
    int64_t *m = malloc(sizeof *m * (size_t)P), *worst = calloc((size_t)P, sizeof *worst);
    if (!m || !worst) {
        mg_error("simulate", "out of memory for p=%d", P);
        free(m);
        free(worst);
        return 1;
    }
    mg_problem_counts(type, P, b, rho, (uint64_t)seed, m);
    int64_t sum = 0, largest = 0, zeros = 0;
    for (int i = 0; i < P; i++) {
        m[i] *= 4; /* MPI_INT elements to bytes */
        if (i == R) continue;
        sum += m[i];
        if (m[i] > largest) largest = m[i];
        zeros += m[i] == 0;
    }
    printf("mpiguide simulate: problem=%s p=%d root=%d b=%lld rho=%g seed=%lld alpha=%g s "
           "beta=%g s/byte degrade=%lld\n",
           mg_problem_name(type), P, R, (long long)b, rho, (long long)seed, alpha, beta,
           (long long)degrade);
    printf("blocks (4 bytes per MPI_INT): sum over non-roots %lld bytes, largest %lld, "
           "empty %lld\n",
           (long long)sum, (long long)largest, (long long)zeros);
    printf("%-15s %9s %14s %14s %10s %14s\n", "algorithm", "rounds", "root_bytes", "max_sent_bytes",
           "messages", "time_us");
    mg_tuw_limits lim = {degrade, INT64_MAX / 4};
    mg_model_result tuw, bin, dir, bw, tw;
    int rc = 1;
    if (mg_model_tuw(P, R, m, &lim, alpha, beta, &tuw) ||
        mg_model_binomial(P, R, m, alpha, beta, &bin) ||
        mg_model_direct(P, R, m, alpha, beta, &dir))
        goto oom;
    row("tuw", &tuw, "");
    row("binomial", &bin, "");
    row("direct", &dir, "");
    /* The paper's worst case for a fixed tree: all data at the rank farthest from the root. */
    int hops = 0, far = mg_model_binomial_farthest(P, R, &hops);
    if (far >= 0) {
        worst[far] = sum;
        if (mg_model_binomial(P, R, worst, alpha, beta, &bw) ||
            mg_model_tuw(P, R, worst, &lim, alpha, beta, &tw))
            goto oom;
        char note[96];
        snprintf(note, sizeof note, "  all %lld bytes at rank %d, %d hops", (long long)sum, far,
                 hops);
        row("binomial-worst", &bw, note);
        row("tuw-on-worst", &tw, "");
    }
    double bound = mg_model_theorem1(P, R, m, alpha, beta);
    int holds = tuw.time <= bound * (1 + 1e-12) + 1e-18;
    printf("theorem 1: 3*ceil(log2 p)*alpha + beta*sum = %.3f us; tuw %.3f us: %s", bound * 1e6,
           tuw.time * 1e6, holds ? "holds" : "VIOLATED");
    if (!holds) printf(" (by %.3f us)", (tuw.time - bound) * 1e6);
    if (degrade) printf(" (with degradation the bound does not apply)");
    printf("\n");
    if (!degrade) {
        double seq = mg_model_tuw_bound(P, R, m, alpha, beta);
        printf("model bound: (3*ceil(log2 p)-1)*alpha + beta*(sum + largest message into the "
               "root) = %.3f us: %s\n",
               seq * 1e6, tuw.time <= seq * (1 + 1e-12) + 1e-18 ? "holds" : "VIOLATED");
    }
    rc = 0;
    goto out;
oom:
    mg_error("simulate", "out of memory for p=%d", P);
out:
    free(m);
    free(worst);
    return rc;
}
