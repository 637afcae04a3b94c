/* `mpirun -np P mpiguide selftest [COLLECTIVE...]`: runs every algorithm of the named
 * collectives (all by default) on a few argument sets next to the library's own collective
 * and prints whether each result matched. A quick check that mpiguide is correct on this MPI;
 * the full argument matrix lives in the test suite. With --random, the random differential
 * test of src/selftest/ (run.h). */
#include "bench/launcher.h"
#include "catalog/catalog.h"
#include "cli.h"
#include "defects/defects.h"
#include "selftest/random_mpi.h"
#include "util/diag.h"
#include "util/optval.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Buffers of one case: in (send side), out (receive side), counts/displs for v-collectives. */
typedef struct selfcase {
    int *in, *out;
    int *counts, *displs;
    int *sends, *sdispls; /* Alltoallv's send side */
    size_t in_n, out_n;
} selfcase;

static const int self_counts[] = {0, 1, 7, 1000};
#define NCOUNTS (int)(sizeof self_counts / sizeof self_counts[0])

/* Fills args for collective `coll` with per-rank block c, root `root`; returns 0 when the
 * collective has a plain MPI_INT form here. A nonblocking collective takes the arguments of the
 * blocking one it starts. */
static int setup(int coll, int c, int root, int p, int rank, selfcase *k, mpiguide_args *a) {
    size_t pc = (size_t)p * (size_t)c;
    *a = (mpiguide_args){0};
    a->comm = MPI_COMM_WORLD;
    a->sendtype = a->recvtype = MPI_INT;
    a->op = MPI_SUM;
    a->root = root;
    a->sendcount = a->recvcount = c;
    k->in_n = k->out_n = (size_t)c;
    for (int i = 0; i < p; i++) {
        k->counts[i] = c + i % 3;
        k->displs[i] = i == 0 ? 0 : k->displs[i - 1] + k->counts[i - 1] + 1;
    }
    size_t vtotal = (size_t)k->displs[p - 1] + (size_t)k->counts[p - 1];
    switch (mg_coll_blocking(coll)) {
    case MPIGUIDE_COLL_ALLGATHER:
    case MPIGUIDE_COLL_GATHER:
        k->out_n = pc;
        break;
    case MPIGUIDE_COLL_ALLTOALL:
        k->in_n = k->out_n = pc;
        break;
    case MPIGUIDE_COLL_SCATTER:
    case MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK:
        k->in_n = pc;
        break;
    case MPIGUIDE_COLL_REDUCE_SCATTER:
        for (int i = 0; i < p; i++) k->counts[i] = c + i % 2;
        a->recvcounts = k->counts;
        k->in_n = pc + (size_t)p / 2;
        k->out_n = (size_t)k->counts[rank];
        break;
    case MPIGUIDE_COLL_GATHERV: /* Allgatherv's arguments, the result at the root only */
    case MPIGUIDE_COLL_ALLGATHERV:
        a->sendcount = k->counts[rank];
        a->recvcounts = k->counts;
        a->rdispls = k->displs;
        k->in_n = (size_t)k->counts[rank];
        k->out_n = vtotal;
        break;
    case MPIGUIDE_COLL_SCATTERV:
        a->recvcount = k->counts[rank];
        a->sendcounts = k->counts;
        a->sdispls = k->displs;
        k->in_n = vtotal;
        k->out_n = (size_t)k->counts[rank];
        break;
    case MPIGUIDE_COLL_ALLTOALLV: /* rank r sends counts[r] elements to every rank */
        for (int i = 0; i < p; i++)
            k->sends[i] = k->counts[rank], k->sdispls[i] = i * k->counts[rank];
        a->sendcounts = k->sends, a->sdispls = k->sdispls;
        a->recvcounts = k->counts, a->rdispls = k->displs;
        k->in_n = (size_t)p * (size_t)k->counts[rank];
        k->out_n = vtotal;
        break;
    case MPIGUIDE_COLL_BARRIER:
        k->in_n = k->out_n = 0;
        break;
    case MPIGUIDE_COLL_BCAST:
    case MPIGUIDE_COLL_ALLREDUCE:
    case MPIGUIDE_COLL_REDUCE:
    case MPIGUIDE_COLL_SCAN:
    case MPIGUIDE_COLL_EXSCAN:
        break;
    default:
        return -1;
    }
    return 0;
}

/* The known defects of the running MPI (src/defects/known.txt): a case on which the library's
 * own collective, the reference, meets one is left out (a crash would end the job, a wrong
 * result is no reference). The cases use MPI_INT and MPI_SUM without MPI_IN_PLACE. */
static mg_defect_table known;
static unsigned char *known_on;

static void known_start(void) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    if (mg_defects_parse(mg_defects_known_text, "known.txt", &known, NULL, NULL) == 0 &&
        (known_on = calloc((size_t)known.n + 1, 1)))
        mg_defects_for_library(&known, version, known_on);
}

static const mg_defect *known_hit(int coll, int c, int root, int p, const selfcase *k) {
    if (!known_on) return NULL;
    int regular = 1;
    if (coll == MPIGUIDE_COLL_REDUCE_SCATTER)
        for (int i = 1; i < p; i++) regular &= k->counts[i] == k->counts[0];
    mg_facts f;
    mg_facts_fill(&f, coll, p, root, c, (int64_t)c * (int64_t)sizeof(int), sizeof(int), 0,
                  sizeof(int), 1, 1, 0, regular, mg_op_code("sum"), mg_type_code("MPI_INT"));
    if (coll == MPIGUIDE_COLL_REDUCE_SCATTER) {
        int zeros = 0;
        for (int i = 0; i < p; i++) zeros |= k->counts[i] == 0;
        mg_facts_set(&f, MG_FACT_ZERO_COUNTS, zeros);
    }
    return mg_defect_find(&known, known_on, &f, NULL);
}

/* Runs algorithm `alg` and the default on the same inputs; 1 when the results match. A
 * nonblocking start (the default's or the algorithm's) is completed by MPI_Wait before the
 * results are read. */
static int run_case(int alg, const mpiguide_args *a, const selfcase *k, int rank, int *ran,
                    int *err) {
    size_t out_bytes = (k->out_n + 1) * sizeof(int);
    int *ref = malloc(out_bytes), *got = malloc(out_bytes);
    int *in = malloc((k->in_n + 1) * sizeof(int));
    for (size_t i = 0; i < k->in_n; i++) in[i] = rank * 1000 + (int)i;
    int coll = mpiguide_algorithm_collective(alg);
    int outcome = 0, rc;
    int *outs[2] = {ref, got};
    int algs[2] = {mpiguide_default_algorithm(coll), alg};
    for (int v = 0; v < 2; v++) {
        mpiguide_args b = *a;
        for (size_t i = 0; i < k->out_n; i++) outs[v][i] = -1;
        b.sendbuf = in;
        b.recvbuf = outs[v];
        if (mg_coll_blocking(coll) == MPIGUIDE_COLL_BCAST) {
            for (size_t i = 0; i < k->out_n; i++) outs[v][i] = rank == a->root ? (int)i * 3 : -1;
        }
        MPI_Request q = MPI_REQUEST_NULL;
        b.request = &q;
        rc = mpiguide_run(algs[v], &b, &outcome, NULL);
        if (rc == MPI_SUCCESS && q != MPI_REQUEST_NULL) rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) *err = rc;
    }
    *ran = outcome == MPIGUIDE_RAN_MOCKUP;
    int same = memcmp(ref, got, k->out_n * sizeof(int)) == 0;
    free(ref);
    free(got);
    free(in);
    return same;
}

static const char usage_text[] =
    "usage: mpirun -np P mpiguide selftest [COLLECTIVE...]\n"
    "       mpirun -np P mpiguide selftest --random N [--seed S] [--case K] [--alg NAMES]\n"
    "                                      [--repro DIR] [--timeout SEC] [--time-limit SEC]\n"
    "                                      [--intercepted] [--verbose] [COLLECTIVE...]\n"
    "Without --random: runs every algorithm of the collectives (all by default), the mock-ups\n"
    "and the MPI library's own algorithms (*_lib_*), on counts 0, 1, 7 and 1000 and two roots,\n"
    "next to the library's own collective, and prints whether each result matched (`ran in\n"
    "N`: cases the algorithm itself ran; the others it declined as documented; `left out`:\n"
    "cases on which the library's own collective meets a known defect, docs/defects.md).\n"
    "Exit 1 when any case mismatched.\n"
    "\n"
    "--random N: the random differential test. Draws N valid calls per collective (derived,\n"
    "gapped, resized and struct datatypes; counts 0, 1, < P, large; every predefined op and two\n"
    "user ops; every root; MPI_IN_PLACE; adjacent, shared and misaligned buffers; duplicated,\n"
    "reversed and split communicators), runs the library's collective and every algorithm of\n"
    "it on each, and compares every rank's buffers with a reference computed sequentially.\n"
    "Prints per algorithm: cases, ran, declined (the default: calls not run because a known\n"
    "defect would crash them) and mismatch, then the summary line `library defects: N new, M\n"
    "known; mock-up defects: X; unexplained mismatches: Y; errors: Z`. A wrong default where a\n"
    "mock-up is right is a library defect (known ones, listed in docs/defects.md, are counted,\n"
    "shown with --verbose); a wrong mock-up where the default is right a mock-up defect.\n"
    "Nonblocking collectives (MPI_Iallreduce, ...) only when named: each is drawn the cases of\n"
    "its blocking collective, started on them and completed by MPI_Wait.\n"
    "  --seed S        seed of the draw (default 1)\n"
    "  --case K        run only case K: the same call for the same seed, K and P (every finding\n"
    "                  prints this rerun command)\n"
    "  --alg NAMES     only these algorithms (comma-separated; test-only ones only when named)\n"
    "  --intercepted   also run each case through the public MPI_* call, which libmpiguide\n"
    "                  intercepts as configured (forced, tuned, MPIGUIDE_ONLINE: with\n"
    "                  MPIGUIDE_ONLINE=rotate every call of a collective on a communicator runs\n"
    "                  the next candidate that supports it), counted as `intercepted`\n"
    "  --repro DIR     write a standalone C program (MPI calls only) for each new finding, and\n"
    "                  with --case for a known defect too, and print how to build and run it\n"
    "  --timeout SEC   abort the run naming the case when one case takes longer (default 120)\n"
    "  --time-limit SEC  start no case after SEC seconds: the cases run in rounds (case k of\n"
    "                  every collective, then k + 1), the run ends cleanly between two and\n"
    "                  says how many ran (`ran K of N cases per collective`); default: no limit\n"
    "  --verbose       describe every case, show known defects\n"
    "Exit 0; 1 on a mock-up defect, a new library defect, an unexplained mismatch or an error;\n"
    "2 on a usage error. MPICH with more ranks than cores busy-polls: keep N small there.\n";

int mg_cmd_selftest(int argc, char **argv) {
    int wanted[MPIGUIDE_COLL_COUNT] = {0}, any = 0, random = 0;
    mg_random_opts ro = {1, 0, -1, {0}, 0, NULL, NULL, 0, 120, 0.0, "mpiguide", 0};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int64_t x;
        if (!strcmp(argv[i], "--help")) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (!strncmp(argv[i], "--random", 8)) {
            if (mg_opt_i64_say("--random", mg_opt_value(argc, argv, &i, "--random"), 1, INT64_MAX,
                               &ro.cases))
                return 2;
            random = 1;
        } else if (!strncmp(argv[i], "--seed", 6)) {
            if (mg_opt_i64_say("--seed", mg_opt_value(argc, argv, &i, "--seed"), 0, INT64_MAX, &x))
                return 2;
            ro.seed = (uint64_t)x;
        } else if (!strncmp(argv[i], "--case", 6)) {
            if (mg_opt_i64_say("--case", mg_opt_value(argc, argv, &i, "--case"), 0, INT64_MAX,
                               &ro.only))
                return 2;
        } else if (!strncmp(argv[i], "--time-limit", 12)) {
            if (mg_opt_i64_say("--time-limit", mg_opt_value(argc, argv, &i, "--time-limit"), 1,
                               INT64_MAX, &x))
                return 2;
            ro.time_limit = (double)(x > 86400 * 365 ? 86400 * 365 : x);
        } else if (!strncmp(argv[i], "--timeout", 9)) {
            if (mg_opt_i64_say("--timeout", mg_opt_value(argc, argv, &i, "--timeout"), 1, INT64_MAX,
                               &x))
                return 2;
            ro.timeout = x > 86400 ? 86400 : (int)x;
        } else if (!strncmp(argv[i], "--alg", 5)) {
            if (!(v = mg_opt_value(argc, argv, &i, "--alg")) || !*v) {
                mg_error("--alg", "expected algorithm names");
                return 2;
            }
            ro.algs = v;
        } else if (!strncmp(argv[i], "--repro", 7)) {
            if (!(v = mg_opt_value(argc, argv, &i, "--repro")) || !*v) {
                mg_error("--repro", "expected a directory");
                return 2;
            }
            ro.repro_dir = v;
        } else if (!strcmp(argv[i], "--verbose")) {
            ro.verbose = 1;
        } else if (!strcmp(argv[i], "--intercepted")) {
            ro.intercepted = 1;
        } else if (argv[i][0] == '-') {
            mg_error(argv[i], "unknown option (mpiguide selftest --help)");
            return 2;
        } else {
            int c = mpiguide_collective_id(argv[i]);
            if (c < 0) {
                mg_error(argv[i], "unknown collective");
                return 2;
            }
            wanted[c] = any = 1;
            ro.colls[c] = 1;
            ro.any_coll = 1;
        }
    }
    if (!random && (ro.only >= 0 || ro.algs || ro.repro_dir || ro.verbose || ro.time_limit ||
                    ro.intercepted)) {
        mg_error("selftest",
                 "--case, --alg, --repro, --time-limit, --intercepted and --verbose need --random");
        return 2;
    }
    if (ro.only >= ro.cases && random) ro.cases = ro.only + 1;
    if (ro.algs) { /* every name must be an algorithm */
        char *copy = strdup(ro.algs), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int found = 0;
            for (int a = 0; a < mpiguide_algorithm_count() && !found; a++)
                found = !strcmp(mpiguide_algorithm_name(a), t);
            if (!found) {
                mg_error("--alg", "unknown algorithm `%s`", t);
                free(copy);
                return 2;
            }
        }
        free(copy);
    }
    if (random) {
        ro.argv0 = argv[-1] ? argv[-1] : "mpiguide"; /* main passes argv + 1 */
        MPI_Init(&argc, &argv);
        mpiguide_init();
        int rc = mg_selftest_random(&ro);
        MPI_Finalize();
        return rc;
    }
    MPI_Init(&argc, &argv);
    if (mg_launcher_check()) {
        MPI_Finalize();
        return 1;
    }
    mpiguide_init();
    known_start();
    int rank, p, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    selfcase k = {0};
    k.counts = malloc((size_t)p * sizeof(int));
    k.displs = malloc((size_t)p * sizeof(int));
    k.sends = malloc((size_t)p * sizeof(int));
    k.sdispls = malloc((size_t)p * sizeof(int));
    if (rank == 0) printf("mpiguide selftest on %d ranks\n", p);
    for (int alg = 0; alg < mpiguide_algorithm_count(); alg++) {
        int coll = mpiguide_algorithm_collective(alg);
        if ((any && !wanted[coll]) || alg == mpiguide_default_algorithm(coll)) continue;
        int cases = 0, matched = 0, ran = 0, left = 0, err = MPI_SUCCESS;
        const mg_defect *hit = NULL;
        for (int ci = 0; ci < NCOUNTS; ci++) {
            for (int root = 0; root<p; root += p> 1 ? p - 1 : 1) {
                mpiguide_args a;
                if (setup(coll, self_counts[ci], root, p, rank, &k, &a)) break;
                const mg_defect *d = known_hit(coll, self_counts[ci], root, p, &k);
                if (d) { /* the same facts, so the same answer, on every rank */
                    left++, hit = d;
                    continue;
                }
                int r = 0, ok = run_case(alg, &a, &k, rank, &r, &err), all_ok;
                MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
                cases++, matched += all_ok, ran += r;
            }
        }
        if (cases == 0 && !left) continue;
        bad |= matched != cases || err != MPI_SUCCESS;
        if (rank == 0) {
            printf("%-24s %-42s %s %d/%d cases (%s ran in %d", mpiguide_collective_name(coll),
                   mpiguide_algorithm_name(alg),
                   matched == cases && err == MPI_SUCCESS ? "MATCH   " : "MISMATCH", matched, cases,
                   mpiguide_algorithm_kind(alg) == MPIGUIDE_KIND_LIBRARY ? "it" : "mock-up", ran);
            if (left)
                printf("; %d left out: the library's own %s meets known defect %s", left,
                       mpiguide_collective_name(coll), hit->name);
            printf(")\n");
        }
    }
    free(k.counts);
    free(k.displs);
    free(k.sends);
    free(k.sdispls);
    mg_defects_free(&known);
    free(known_on);
    int all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_bad ? 1 : 0;
}
