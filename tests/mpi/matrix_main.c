/* The correctness matrix: every non-default algorithm of the registry, through the public API
 * only, on its pairwise case list; each case runs the library's own collective and then the
 * algorithm on identical inputs and compares every buffer byte for byte (reductions may also
 * match the rank-order oracle of matrix_oracle.c where the MPI itself is wrong). Fails on a
 * mismatch, an error, an undocumented decline, any other fallback, or ranks disagreeing on what
 * ran. A case that does not finish within --case-timeout seconds (default 60) aborts the job
 * naming the case. Per algorithm, rank 0 prints the cases, how many the mock-up itself ran
 * (on every rank), declined, failed, where the library differed from the oracle, and skipped.
 *   matrix --np=N [--alg=NAME[,NAME...]|lib:COLL] [--case=K] [--list] [--verbose]
 *          [--case-timeout=S]
 * lib:COLL runs every library algorithm (the MPI's own, src/libalg/) of collective COLL (short
 * name) that this MPI has: they are discovered at run time, so the tests name the collective.
 * intercepted:COLL runs each case of COLL through the public MPI_* call, once more than COLL has
 * candidates: with MPIGUIDE_ONLINE=rotate each call on a communicator runs the next candidate
 * that supports it, so every candidate meets every case it supports (online mode's check). */
#include "matrix.h"
#include "catalog/catalog.h"
#include "mpitest.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#define MAX_PRINTED 3 /* failing cases printed in full per algorithm and rank */

static struct {
    const char *algs; /* comma-separated names, NULL: all */
    int only_case;    /* -1: all */
    int list, verbose;
    int case_timeout; /* seconds */
    int intercepted;  /* --alg=intercepted:COLL: that collective id, else -1 */
    const char *argv0;
} opt = {NULL, -1, 0, 0, 60, -1, "matrix"};

/* The case in progress, for the watchdog. */
static char current[512];

static void watchdog(int sig) {
    (void)sig;
    static const char head[] = "FATAL: case did not finish in time (deadlock?): ";
    ssize_t w = write(2, head, sizeof head - 1);
    w += write(2, current, strlen(current));
    w += write(2, "\n", 1);
    (void)w;
    _exit(3);
}

typedef struct stats {
    int cases, ran, declined, failed, libdiff, skipped;
    double seconds;
} stats;

static int usage(const char *bad) {
    if (mt_rank() == 0)
        fprintf(stderr,
                "matrix: error: %s: unknown or malformed option\n"
                "usage: matrix --np=N [--alg=NAME[,NAME...]|lib:COLL] [--case=K] [--list] "
                "[--verbose] [--case-timeout=S]\n",
                bad);
    return 0;
}

static int parse(int argc, char **argv) {
    opt.argv0 = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        char *end;
        if (!strncmp(s, "--np=", 5)) continue; /* mt_init's */
        if (!strncmp(s, "--alg=intercepted:", 18)) {
            opt.intercepted = mpiguide_collective_id(s + 18);
            if (opt.intercepted < 0) return usage(s);
        } else if (!strncmp(s, "--alg=", 6) && s[6]) {
            opt.algs = s + 6;
        } else if (!strncmp(s, "--case=", 7)) {
            opt.only_case = (int)strtol(s + 7, &end, 10);
            if (end == s + 7 || *end || opt.only_case < 0) return usage(s);
        } else if (!strncmp(s, "--case-timeout=", 15)) {
            opt.case_timeout = (int)strtol(s + 15, &end, 10);
            if (end == s + 15 || *end || opt.case_timeout < 0) return usage(s);
        } else if (!strcmp(s, "--list")) {
            opt.list = 1;
        } else if (!strcmp(s, "--verbose")) {
            opt.verbose = 1;
        } else {
            return usage(s);
        }
    }
    return 1;
}

static int selected(int alg) {
    if (!opt.algs) return 1;
    const char *name = mpiguide_algorithm_name(alg);
    /* lib:COLL: every library algorithm of that collective (discovered at run time) */
    if (!strncmp(opt.algs, "lib:", 4))
        return mpiguide_algorithm_kind(alg) == MPIGUIDE_KIND_LIBRARY &&
               !strcmp(mpiguide_collective_short(mpiguide_algorithm_collective(alg)), opt.algs + 4);
    size_t len = strlen(name);
    for (const char *s = opt.algs; *s;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (n == len && !strncmp(s, name, n)) return 1;
        s += n + (comma ? 1 : 0);
    }
    return 0;
}

/* The communicators of the comm dimension, all returning errors to the caller. */
static void make_comms(MPI_Comm comms[MX_NCOMMS]) {
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    comms[MX_COMM_WORLD] = MPI_COMM_WORLD;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comms[MX_COMM_DUP]);
    PMPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comms[MX_COMM_PARITY]);
    PMPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &comms[MX_COMM_REVERSED]);
    for (int i = 0; i < MX_NCOMMS; i++) PMPI_Comm_set_errhandler(comms[i], MPI_ERRORS_RETURN);
}

static void free_comms(MPI_Comm comms[MX_NCOMMS]) {
    for (int i = 1; i < MX_NCOMMS; i++) PMPI_Comm_free(&comms[i]);
}

static const char *outcome_name(int o) {
    static const char *names[] = {"RAN_DEFAULT", "RAN_MOCKUP", "FALLBACK_ARGS", "FALLBACK_MEMORY",
                                  "FALLBACK_OFF"};
    return o >= 0 && o <= 4 ? names[o] : "none";
}

/* Appends one reason to the case's failure text. */
static void note(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(char *why, size_t len, const char *fmt, ...) {
    size_t at = strlen(why);
    if (at + 3 >= len) return;
    if (at) strcat(why, "; "), at += 2;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + at, len - at, fmt, ap);
    va_end(ap);
}

/* The error class's text: MPICH 4.0.2 can write past MPI_MAX_ERROR_STRING for a code with a long
 * error stack (src/selftest/random_mpi.c). */
static const char *errstr(int rc) {
    static char s[MPI_MAX_ERROR_STRING];
    int len = 0, cls = rc;
    if (PMPI_Error_class(rc, &cls) != MPI_SUCCESS || PMPI_Error_string(cls, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "error %d", rc);
    return s;
}

typedef struct result {
    int fail, ran, declined, libdiff, skipped;
    int comm_rank;
} result;

/* Compares one buffer of the algorithm's run with the reference and, for reductions, with the
 * oracle: it passes when it equals either (the library's own collective may itself be wrong,
 * see matrix_oracle.c). A reference that differs from the oracle is noted in libnote. */
static int check_buffer(const mx_buf *ref, const mx_buf *got, const mx_buf *exp, const char *name,
                        char *why, size_t len, char *libnote, size_t notelen) {
    char msg[600], msg2[600];
    int bad = mx_buf_diff(ref, got, name, msg, sizeof msg);
    if (exp && exp->mem) {
        if (bad && !mx_buf_diff(exp, got, name, msg2, sizeof msg2))
            bad = 0;
        else if (bad)
            note(why, len, "against the rank-order oracle: %s", msg2);
        if (mx_buf_diff(exp, ref, name, msg2, sizeof msg2) && !libnote[0])
            snprintf(libnote, notelen, "%s", msg2);
    }
    if (bad) note(why, len, "against the library's own call: %s", msg);
    return bad;
}

/* intercepted:COLL: the case through the public MPI_* call, `rounds` times, each from the same
 * input, each result compared with the reference (and a reduction's with the oracle). */
static void intercepted_rounds(int coll, int rounds, const mx_setup *S, const mx_buf init[],
                               const mx_buf ref[], mx_buf got[], char *why, size_t len,
                               char *libnote, size_t notelen) {
    static const char *names[MX_NBUFS] = {"sendbuf", "recvbuf"};
    mx_buf exp[MX_NBUFS];
    memset(exp, 0, sizeof exp);
    int have_oracle = S->a.op != MPI_OP_NULL && !mx_oracle(S, init, exp);
    /* every rank makes every call, whatever it found: the calls are collective */
    for (int round = 0, nomem = 0; round < rounds; round++) {
        if (round) { /* the same input again */
            for (int b = 0; b < MX_NBUFS; b++) mx_buf_free(&got[b]);
            int mine = mx_bufs_clone(got, init, S) != 0;
            PMPI_Allreduce(&mine, &nomem, 1, MPI_INT, MPI_MAX, S->a.comm);
            if (nomem) {
                note(why, len, "out of memory");
                break;
            }
        }
        int shown = why[0] != 0; /* the first failing round is described */
        mpiguide_args a;
        mx_bind(S, got, &a);
        int rc = mt_intercepted(coll, &a);
        if (shown) continue;
        if (rc != MPI_SUCCESS) note(why, len, "round %d: the call returned %s", round, errstr(rc));
        if (mx_foreign_op_calls())
            note(why, len, "round %d: the user op was called with a datatype never passed", round);
        for (int b = 0; b < MX_NBUFS; b++)
            if (S->has[b])
                check_buffer(&ref[b], &got[b], have_oracle ? &exp[b] : NULL, names[b], why, len,
                             libnote, notelen);
        if (why[0]) note(why, len, "in round %d of %d", round, rounds);
    }
    for (int b = 0; b < MX_NBUFS; b++) mx_buf_free(&exp[b]);
}

/* One case on this rank: reference, algorithm, comparison; then the agreement over the
 * communicator on what ran. Failures are described in why, a library defect in libnote.
 * alg < 0: intercepted:COLL with -alg rounds (intercepted_rounds). */
static result run_case(int alg, int k, const mx_case *c, MPI_Comm comms[MX_NCOMMS], char *why,
                       size_t len, char *libnote, size_t notelen) {
    int coll = alg < 0 ? opt.intercepted : mpiguide_algorithm_collective(alg);
    MPI_Comm comm = comms[(int)c->v[MX_COMM]];
    result r = {0, 0, 0, 0, 0, 0};
    mx_setup S;
    mx_buf init[MX_NBUFS], ref[MX_NBUFS], got[MX_NBUFS], exp[MX_NBUFS];
    memset(init, 0, sizeof init);
    memset(ref, 0, sizeof ref);
    memset(got, 0, sizeof got);
    memset(exp, 0, sizeof exp);
    why[0] = libnote[0] = 0;
    /* a nonblocking collective takes the cases and arguments of the blocking one it starts */
    if (mx_setup_case(mg_coll_blocking(coll), c, comm, &S)) {
        note(why, len, "the matrix has no argument setup for %s", mpiguide_collective_name(coll));
        r.fail = 1;
        mx_setup_free(&S);
        return r;
    }
    r.comm_rank = S.rank;
    const char *defect = mx_reference_defect(&S);
    if (defect) { /* the same decision on every rank of the communicator */
        snprintf(libnote, notelen, "%s", defect);
        r.skipped = 1;
        mx_setup_free(&S);
        return r;
    }
    int wrank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (mx_bufs_alloc(init, &S)) {
        note(why, len, "out of memory");
        r.fail = 1;
    } else {
        for (int b = 0; b < MX_NBUFS; b++) {
            uint64_t seed =
                ((uint64_t)alg << 40) ^ ((uint64_t)k << 20) ^ ((uint64_t)wrank << 4) ^ (uint64_t)b;
            if (S.has[b]) mx_buf_fill(&init[b], seed, S.values);
        }
        if (mx_bufs_clone(ref, init, &S) || mx_bufs_clone(got, init, &S)) {
            note(why, len, "out of memory");
            r.fail = 1;
        }
    }
    /* every rank of the communicator must take part in the calls below */
    int nomem = r.fail, anynomem = 0;
    PMPI_Allreduce(&nomem, &anynomem, 1, MPI_INT, MPI_MAX, comm);
    if (anynomem) {
        r.fail = 1;
        goto out;
    }
    mpiguide_args aref, agot;
    mx_bind(&S, ref, &aref);
    mx_bind(&S, got, &agot);

    mx_reset_op_calls();
    int rc_ref = mt_reference(coll, &aref);
    long foreign_ref = mx_foreign_op_calls();
    mx_reset_op_calls();
    if (alg < 0) { /* intercepted:COLL, -alg rounds from the same input */
        intercepted_rounds(coll, -alg, &S, init, ref, got, why, len, libnote, notelen);
        if (rc_ref != MPI_SUCCESS)
            note(why, len, "the reference PMPI call failed: %s", errstr(rc_ref));
        r.ran = !why[0];
        r.libdiff = libnote[0] != 0;
        r.fail = why[0] != 0;
        goto out;
    }
    /* mpiguide_plan answers what mpiguide_run then does, for every kind of algorithm; only a
     * library algorithm's set-up (FALLBACK_LIBRARY) and its agreement on the datatypes (a
     * DATATYPE decline) are found while running */
    int planned = -1, outcome = -1;
    unsigned pdeclined = 0, declined = 0;
    MPI_Request q = MPI_REQUEST_NULL; /* a nonblocking algorithm's start, completed right here */
    agot.request = &q;
    int prc = mpiguide_plan(alg, &agot, &planned, &pdeclined);
    int rc = mpiguide_run(alg, &agot, &outcome, &declined);
    if (rc == MPI_SUCCESS && q != MPI_REQUEST_NULL) rc = PMPI_Wait(&q, MPI_STATUS_IGNORE);
    int at_run = mpiguide_algorithm_kind(alg) == MPIGUIDE_KIND_LIBRARY &&
                 planned == MPIGUIDE_RAN_MOCKUP &&
                 (outcome == MPIGUIDE_FALLBACK_LIBRARY ||
                  (outcome == MPIGUIDE_FALLBACK_ARGS && declined == MPIGUIDE_DECLINE_DATATYPE));
    if (prc != MPI_SUCCESS)
        note(why, len, "mpiguide_plan returned %s", errstr(prc));
    else if ((planned != outcome || pdeclined != declined) && !at_run)
        note(why, len, "mpiguide_plan said %s (decline 0x%x), mpiguide_run did %s (0x%x)",
             outcome_name(planned), pdeclined, outcome_name(outcome), declined);
    long foreign = mx_foreign_op_calls();
    int have_oracle = S.a.op != MPI_OP_NULL;
    if (have_oracle && mx_oracle(&S, init, exp)) {
        note(why, len, "the oracle failed (out of memory or an MPI error)");
        have_oracle = 0;
    }

    if (rc_ref != MPI_SUCCESS) note(why, len, "the reference PMPI call failed: %s", errstr(rc_ref));
    if (foreign_ref)
        note(why, len,
             "the library's own call invoked the user op with a foreign datatype %ld times",
             foreign_ref);
    if (rc != MPI_SUCCESS) note(why, len, "mpiguide_run returned %s", errstr(rc));
    if (foreign)
        note(why, len, "the user op was called %ld times with a datatype the program never passed",
             foreign);
    if (outcome == MPIGUIDE_FALLBACK_ARGS) {
        unsigned mask = mpiguide_algorithm_declines(alg);
        r.declined = 1;
        if (!declined || (declined & ~mask))
            note(why, len, "declined with reason 0x%x, not in its documented mask 0x%x", declined,
                 mask);
    } else if (outcome == MPIGUIDE_RAN_MOCKUP) {
        r.ran = 1;
    } else {
        note(why, len, "outcome %s (expected RAN_MOCKUP or a documented decline)",
             outcome_name(outcome));
    }
    static const char *names[MX_NBUFS] = {"sendbuf", "recvbuf"};
    for (int b = 0; b < MX_NBUFS; b++)
        if (S.has[b])
            check_buffer(&ref[b], &got[b], have_oracle ? &exp[b] : NULL, names[b], why, len,
                         libnote, notelen);
    r.libdiff = libnote[0] != 0;
    /* Every rank of the communicator must have made the same decision. */
    int mine[4] = {outcome, -outcome, (int)declined, -(int)declined}, all[4];
    PMPI_Allreduce(mine, all, 4, MPI_INT, MPI_MIN, comm);
    if (all[0] != -all[1] || all[2] != -all[3])
        note(why, len, "ranks disagree on the outcome (here %s) or the decline reason",
             outcome_name(outcome));
    r.fail = why[0] != 0;
out:
    for (int b = 0; b < MX_NBUFS; b++) {
        mx_buf_free(&init[b]);
        mx_buf_free(&ref[b]);
        mx_buf_free(&got[b]);
        mx_buf_free(&exp[b]);
    }
    mx_setup_free(&S);
    return r;
}

static void run_algorithm(int alg, stats *st) {
    int coll = alg < 0 ? opt.intercepted : mpiguide_algorithm_collective(alg);
    char iname[64];
    snprintf(iname, sizeof iname, "intercepted:%s", mpiguide_collective_short(coll));
    const char *name = alg < 0 ? iname : mpiguide_algorithm_name(alg);
    mx_case cases[MX_MAXCASES];
    int shape = mg_coll_blocking(coll); /* a nonblocking collective's cases are its blocking's */
    int n = mx_cases(shape, cases, MX_MAXCASES);
    memset(st, 0, sizeof *st);
    if (n < 0) {
        mt_check(0, "%s: the pairwise generator could not cover the tables", name);
        st->failed = 1;
        return;
    }
    char desc[256], why[4096], libnote[700];
    if (opt.list) {
        if (mt_rank() == 0)
            for (int k = 0; k < n; k++) {
                mx_describe(shape, &cases[k], desc, sizeof desc);
                printf("%s case %d: %s\n", name, k, desc);
            }
        st->cases = n;
        return;
    }
    MPI_Comm comms[MX_NCOMMS];
    make_comms(comms);
    double t0 = PMPI_Wtime();
    int printed = 0, printed0 = 0, noted = 0, skipnoted = 0;
    for (int k = 0; k < n; k++) {
        if (opt.only_case >= 0 && k != opt.only_case) continue;
        mx_describe(shape, &cases[k], desc, sizeof desc);
        if (opt.verbose && mt_rank() == 0) {
            printf("%s case %d: %s\n", name, k, desc);
            fflush(stdout);
        }
        snprintf(current, sizeof current, "rank %d: %s case %d [%s]", mt_rank(), name, k, desc);
        alarm((unsigned)opt.case_timeout);
        result r = run_case(alg, k, &cases[k], comms, why, sizeof why, libnote, sizeof libnote);
        alarm(0);
        if (opt.verbose && mt_rank() == 0) {
            printf("  -> %s%s\n",
                   r.ran        ? "ran"
                   : r.declined ? "declined"
                                : "default",
                   r.fail ? ", FAILED" : "");
            fflush(stdout);
        }
        if (r.skipped && r.comm_rank == 0 && !skipnoted++)
            printf("NOTE %s case %d [%s] skipped (and the like after it): %s\n", name, k, desc,
                   libnote);
        else if (r.libdiff && r.comm_rank == 0 && !noted++)
            printf("NOTE %s case %d [%s]: the library's own %s is wrong here (a defect of this "
                   "MPI; the mock-up matched the rank-order oracle or it): %s\n",
                   name, k, desc, mpiguide_collective_name(coll), libnote);
        if (r.skipped) {
            /* neither pass nor fail */
        } else if (r.fail && printed++ < MAX_PRINTED)
            mt_check(0, "%s case %d [%s]: %s", name, k, desc, why);
        else
            mt_count(!r.fail);
        /* agree over the whole job: failed anywhere, ran everywhere, declined anywhere */
        int mine[5] = {r.fail, !r.ran, r.declined, r.libdiff && !r.skipped, r.skipped}, all[5];
        PMPI_Allreduce(mine, all, 5, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        st->libdiff += all[3];
        st->skipped += all[4];
        st->cases++;
        st->ran += !all[1];
        st->declined += all[2];
        st->failed += all[0];
        if (all[0] && mt_rank() == 0 && printed0++ < MAX_PRINTED) {
            printf("FAILED %s case %d [%s]; rerun alone: mpiexec -n %d %s --np=%d --alg=%s "
                   "--case=%d\n",
                   name, k, desc, mt_size(), opt.argv0, mt_size(), name, k);
            fflush(stdout);
        }
    }
    st->seconds = PMPI_Wtime() - t0;
    free_comms(comms);
}

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    if (!parse(argc, argv)) {
        mt_check(0, "command line");
        return mt_finish();
    }
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = mpiguide_init();
    mt_check(rc == MPI_SUCCESS, "mpiguide_init returned %d", rc);
    mx_types_create();
    signal(SIGALRM, watchdog);
    int nalg = mpiguide_algorithm_count(), total = 0, nrun = 0;
    if (mt_rank() == 0 && !opt.list)
        printf("%-44s %-24s %5s %5s %8s %6s %7s %7s %8s\n", "algorithm", "collective", "cases",
               "ran", "declined", "failed", "libdiff", "skipped", "seconds");
    if (opt.intercepted >= 0) { /* rounds: one more than the collective has candidates */
        int rounds = 1;
        for (int alg = 0; alg < nalg; alg++)
            rounds += mpiguide_algorithm_collective(alg) == opt.intercepted &&
                      mpiguide_default_algorithm(opt.intercepted) != alg;
        stats st;
        run_algorithm(-rounds, &st);
        total += st.cases;
        nrun++;
        if (mt_rank() == 0 && !opt.list)
            printf("intercepted:%-32s %-24s %5d %5d %8d %6d %7d %7d %8.2f%s  (%d rounds each)\n",
                   mpiguide_collective_short(opt.intercepted),
                   mpiguide_collective_name(opt.intercepted), st.cases, st.ran, st.declined,
                   st.failed, st.libdiff, st.skipped, st.seconds, st.failed ? "  FAIL" : "",
                   rounds);
        nalg = 0; /* nothing else */
    }
    for (int alg = 0; alg < nalg; alg++) {
        int coll = mpiguide_algorithm_collective(alg);
        const char *g = mpiguide_algorithm_guideline(alg);
        if (mpiguide_default_algorithm(coll) == alg || !selected(alg)) continue;
        if (!opt.algs && g && !strncmp(g, "TEST ONLY", 9)) continue; /* deliberately wrong */
        stats st;
        run_algorithm(alg, &st);
        total += st.cases;
        nrun++;
        if (mt_rank() == 0 && !opt.list) {
            printf("%-44s %-24s %5d %5d %8d %6d %7d %7d %8.2f%s\n", mpiguide_algorithm_name(alg),
                   mpiguide_collective_name(coll), st.cases, st.ran, st.declined, st.failed,
                   st.libdiff, st.skipped, st.seconds, st.failed ? "  FAIL" : "");
            fflush(stdout);
        }
    }
    if (mt_rank() == 0) printf("%d algorithm(s), %d case(s) at np=%d\n", nrun, total, mt_size());
    mt_check(nrun > 0 || opt.list, "no algorithm matched --alg=%s", opt.algs ? opt.algs : "");
    mx_types_free();
    mpiguide_finalize();
    return mt_finish();
}
