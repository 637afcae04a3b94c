/* The random differential test under MPI (run.h): the communicators, datatypes and user ops of
 * the cases, each case run through the library's own collective and every algorithm of the
 * collective (mpiguide_run), each result compared with the sequential reference, the findings
 * classified (library defect, known or new; mock-up defect; unexplained) and counted per
 * algorithm, and reproducers written for new findings. Plumbing uses PMPI_ only. */
#define _GNU_SOURCE /* dladdr: where libmpiguide was loaded from, for reproducers */
#include "random_mpi.h"
#include "catalog/catalog.h"
#include "defects/defects.h"
#include "repro.h"
#include "util/diag.h"
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SHOWN 3 /* findings printed in full per algorithm */

static int wrank, wsize;
static MPI_Comm comms[MG_RC_COUNT];
static int colors[MG_RC_COUNT]; /* this rank's group of each communicator kind */
static MPI_Datatype *types, *wides;
static MPI_Op user_ops[2];
static long foreign_calls; /* user op called with a datatype the test never passed */
static mg_defect_table defects;
static unsigned char *defect_on;
static char current[700]; /* the case in progress, for the watchdog and the crash handler */
/* --intercepted: the case through the public MPI_* call as well, whatever the library's mode
 * (forced, tuned, online) runs there; counted under the id nreg + collective */
static int nreg;

static int is_intercepted(int alg) {
    return alg >= nreg;
}

static const char *alg_name(int alg) {
    return is_intercepted(alg) ? "intercepted" : mpiguide_algorithm_name(alg);
}

static int alg_coll(int alg) {
    return is_intercepted(alg) ? alg - nreg : mpiguide_algorithm_collective(alg);
}

/* The public MPI_* call of the collective on the arguments (the library intercepts it). */
static int run_public(int coll, const mpiguide_args *a) {
    switch (coll) {
#define MG_COLL(ID, Name, s, f, P, A, F, D)                                                        \
    case MPIGUIDE_COLL_##ID:                                                                       \
        return MPI_##Name D;
#include "catalog/collectives.def"
#undef MG_COLL
    default:
        return MPI_ERR_ARG;
    }
}

/* A nonblocking collective's start (in a->request) completed, so results can be compared. */
static int completed(int rc, MPI_Request *q) {
    if (rc != MPI_SUCCESS || *q == MPI_REQUEST_NULL) return rc;
    return PMPI_Wait(q, MPI_STATUS_IGNORE);
}

/* ---- datatypes and ops ---- */

static MPI_Datatype predefined(const char *name) {
    static const struct {
        const char *name;
        MPI_Datatype t;
    } table[] = {
#define MG_DTYPE(N, ...) {#N, N},
#include "catalog/datatypes.def"
#undef MG_DTYPE
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].name, name)) return table[i].t;
    return MPI_DATATYPE_NULL;
}

/* Builds the datatype from its recipe and checks that MPI lays it out as described. */
static int build_type(const mg_rtype *d, MPI_Datatype *t, char *err, size_t len) {
    MPI_Datatype inner = MPI_DATATYPE_NULL, basic = predefined(mg_rbasics[d->basics[0]].mpi_name);
    int rc = MPI_SUCCESS;
    switch (d->how) {
    case MG_RR_PREDEFINED:
        *t = predefined(d->mpi_name);
        break;
    case MG_RR_CONTIGUOUS:
        rc = PMPI_Type_contiguous(d->n, basic, &inner);
        break;
    case MG_RR_VECTOR:
        rc = PMPI_Type_vector(d->n, d->blocklen, d->stride, basic, &inner);
        break;
    case MG_RR_INDEXED: {
        int displs[MG_RFIELDS];
        for (int i = 0; i < d->n; i++) displs[i] = (int)d->displs[i];
        rc = PMPI_Type_indexed(d->n, d->lens, displs, basic, &inner);
        break;
    }
    default: {
        int lens[MG_RFIELDS];
        MPI_Aint displs[MG_RFIELDS];
        MPI_Datatype parts[MG_RFIELDS];
        for (int i = 0; i < d->n; i++) {
            lens[i] = 1;
            displs[i] = (MPI_Aint)d->displs[i];
            parts[i] = predefined(mg_rbasics[d->basics[i]].mpi_name);
        }
        rc = PMPI_Type_create_struct(d->n, lens, displs, parts, &inner);
    }
    }
    if (rc == MPI_SUCCESS && d->how != MG_RR_PREDEFINED) {
        if (d->resized) {
            rc = PMPI_Type_create_resized(inner, (MPI_Aint)d->rlb, (MPI_Aint)d->rextent, t);
            PMPI_Type_free(&inner);
        } else {
            *t = inner;
        }
        if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(t);
    }
    if (rc != MPI_SUCCESS) {
        snprintf(err, len, "datatype %s: cannot be built (MPI error %d)", d->name, rc);
        return -1;
    }
    MPI_Aint lb, ext, tlb, text;
    int size = 0;
    PMPI_Type_get_extent(*t, &lb, &ext);
    PMPI_Type_get_true_extent(*t, &tlb, &text);
    PMPI_Type_size(*t, &size);
    if (lb != d->lb || ext != d->extent || tlb != d->true_lb || text != d->true_extent ||
        size != d->size) {
        snprintf(err, len,
                 "datatype %s: MPI reports lb %ld, extent %ld, true lb %ld, true extent %ld, "
                 "size %d; the test expects %" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64
                 ", %" PRId64,
                 d->name, (long)lb, (long)ext, (long)tlb, (long)text, size, d->lb, d->extent,
                 d->true_lb, d->true_extent, d->size);
        return -1;
    }
    return 0;
}

static const mg_rtype *described(MPI_Datatype t) {
    for (int i = 0; i < mg_nrtypes; i++)
        if (types[i] == t) return &mg_rtypes[i];
    return NULL;
}

static void user(int op, void *in, void *inout, int *len, MPI_Datatype *t) {
    const mg_rtype *d = described(*t);
    if (!d) {
        foreign_calls++;
        return;
    }
    mg_rop_apply(op, d, in, inout, *len);
}

static void user_comm(void *in, void *inout, int *len, MPI_Datatype *t) {
    user(MG_ROP_USER_COMM, in, inout, len, t);
}

static void user_noncomm(void *in, void *inout, int *len, MPI_Datatype *t) {
    user(MG_ROP_USER_NONCOMM, in, inout, len, t);
}

static MPI_Op op_of(int op) {
    static const MPI_Op predef[] = {
    /* ops.def's rows in order: the drawn ones come first */
#define MG_OPDEF(N, ...) N,
#include "catalog/ops.def"
#undef MG_OPDEF
    };
    if (op < 0) return MPI_OP_NULL;
    if (op == MG_ROP_USER_COMM) return user_ops[0];
    if (op == MG_ROP_USER_NONCOMM) return user_ops[1];
    return predef[op];
}

/* ---- set-up ---- */

static int setup(char *err, size_t len) {
    PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    PMPI_Comm_size(MPI_COMM_WORLD, &wsize);
    comms[MG_RC_WORLD] = MPI_COMM_WORLD;
    colors[MG_RC_PARITY] = wrank % 2;
    colors[MG_RC_HALVES] = wrank >= wsize / 2;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &comms[MG_RC_DUP]) != MPI_SUCCESS ||
        PMPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &comms[MG_RC_REVERSED]) != MPI_SUCCESS ||
        PMPI_Comm_split(MPI_COMM_WORLD, colors[MG_RC_PARITY], wrank, &comms[MG_RC_PARITY]) !=
            MPI_SUCCESS ||
        PMPI_Comm_split(MPI_COMM_WORLD, colors[MG_RC_HALVES], wrank, &comms[MG_RC_HALVES]) !=
            MPI_SUCCESS) {
        snprintf(err, len, "cannot make the communicators");
        return -1;
    }
    for (int k = 0; k < MG_RC_COUNT; k++) PMPI_Comm_set_errhandler(comms[k], MPI_ERRORS_RETURN);
    types = calloc((size_t)mg_nrtypes, sizeof *types);
    wides = calloc((size_t)mg_nrtypes, sizeof *wides);
    if (!types || !wides) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    for (int i = 0; i < mg_nrtypes; i++) {
        if (build_type(&mg_rtypes[i], &types[i], err, len)) return -1;
        PMPI_Type_contiguous(2, types[i], &wides[i]);
        PMPI_Type_commit(&wides[i]);
    }
    PMPI_Op_create(user_comm, 1, &user_ops[0]);
    PMPI_Op_create(user_noncomm, 0, &user_ops[1]);
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int vlen = 0;
    PMPI_Get_library_version(version, &vlen);
    if (mg_defects_parse(mg_defects_known_text, "known.txt", &defects, NULL, NULL) ||
        !(defect_on = calloc((size_t)defects.n + 1, 1))) {
        snprintf(err, len, "the built-in defect table does not parse");
        return -1;
    }
    mg_defects_for_library(&defects, version, defect_on);
    return 0;
}

static void teardown(void) {
    for (int k = 1; k < MG_RC_COUNT; k++) PMPI_Comm_free(&comms[k]);
    for (int i = 0; i < mg_nrtypes && types && wides; i++) {
        PMPI_Type_free(&wides[i]);
        if (mg_rtypes[i].how != MG_RR_PREDEFINED) PMPI_Type_free(&types[i]);
    }
    free(types);
    free(wides);
    PMPI_Op_free(&user_ops[0]);
    PMPI_Op_free(&user_ops[1]);
    mg_defects_free(&defects);
    free(defect_on);
}

/* ---- signals: a case that hangs or crashes is named before the job ends ---- */

static void say_current(const char *what) {
    char line[900];
    int n = snprintf(line, sizeof line, "mpiguide: selftest: rank %d: %s in %s\n", wrank, what,
                     current);
    ssize_t w = write(2, line, n > 0 ? (size_t)n : 0);
    (void)w;
}

static void on_alarm(int sig) {
    (void)sig;
    say_current("no progress (deadlock?)");
    _exit(3);
}

static void on_crash(int sig) {
    say_current(sig == SIGSEGV ? "segmentation fault" : sig == SIGBUS ? "bus error" : "abort");
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ---- one case ---- */

/* The buffers of this rank for one case: initial, expected, and the copy a call works on. */
typedef struct bufs {
    mg_rargs a;
    mg_rgeom g[MG_RB_NBUFS];
    size_t size[2];
    unsigned char *init[2], *work[2]; /* the allocations */
    mg_rmem exp[MG_RB_NBUFS];
} bufs;

static void bufs_free(bufs *b) {
    for (int k = 0; k < 2; k++) {
        free(b->init[k]);
        free(b->work[k]);
    }
    for (int k = 0; k < MG_RB_NBUFS; k++) {
        free(b->exp[k].mem);
        free(b->exp[k].care);
    }
}

static int bufs_make(const mg_rcase *c, int rank, bufs *b) {
    memset(b, 0, sizeof *b);
    mg_rcase_args(c, rank, &b->a);
    mg_rgeometry(c, &b->a, b->g, b->size);
    for (int k = 0; k < 2; k++)
        if (b->size[k] &&
            (!(b->init[k] = malloc(b->size[k])) || !(b->work[k] = malloc(b->size[k]))))
            return -1;
    for (int w = 0; w < MG_RB_NBUFS; w++) {
        if (!b->a.has[w]) continue;
        mg_rmem m = {b->init[b->g[w].block] + b->g[w].at, b->g[w].bytes, b->g[w].origin, NULL};
        mg_rfill(c, rank, w, &b->a, &m);
        b->exp[w] = (mg_rmem){malloc(m.bytes + 1), m.bytes, m.origin, NULL};
        if (!b->exp[w].mem) return -1;
        memcpy(b->exp[w].mem, m.mem, m.bytes);
        if (mg_rexpect(c, rank, w, &b->a, &b->exp[w])) return -1;
    }
    return 0;
}

/* The arguments of the call on the working copy. */
static mpiguide_args bind(const mg_rcase *c, bufs *b, MPI_Comm comm) {
    mpiguide_args x = {0};
    void *ptr[MG_RB_NBUFS];
    for (int k = 0; k < 2; k++)
        if (b->size[k]) memcpy(b->work[k], b->init[k], b->size[k]);
    for (int w = 0; w < MG_RB_NBUFS; w++)
        ptr[w] = b->a.has[w] ? (void *)(b->work[b->g[w].block] + b->g[w].at + b->g[w].origin)
                 : b->a.fixed[w] == MG_RF_INPLACE ? MPI_IN_PLACE
                                                  : NULL;
    x.recvbuf = ptr[MG_RB_RECV];
    x.sendbuf = b->a.fixed[MG_RB_SEND] == MG_RF_SAME ? ptr[MG_RB_RECV] : ptr[MG_RB_SEND];
    x.sendcount = (int)b->a.sendcount;
    x.recvcount = (int)b->a.recvcount;
    x.sendtype = b->a.null_type[MG_RB_SEND] ? MPI_DATATYPE_NULL
                 : b->a.sendwide            ? wides[c->type]
                                            : types[c->type];
    x.recvtype = b->a.null_type[MG_RB_RECV] ? MPI_DATATYPE_NULL
                 : b->a.recvwide            ? wides[c->type]
                                            : types[c->type];
    x.sendcounts = b->a.sendcounts, x.sdispls = b->a.sdispls;
    x.recvcounts = b->a.recvcounts, x.rdispls = b->a.rdispls;
    x.op = op_of(c->op);
    x.root = c->root;
    x.comm = comm;
    if (mg_coll_is_reduction(c->coll)) { /* one count and datatype for both sides */
        x.sendcount = x.recvcount = (int)c->count;
        x.sendtype = x.recvtype = types[c->type];
    }
    return x;
}

/* The known defect of this MPI that the library's own collective meets on the case (every
 * fact is known on every rank: the case says where MPI_IN_PLACE is passed). */
static const mg_defect *known_defect(const mg_rcase *c) {
    const mg_rtype *T = &mg_rtypes[c->type];
    int reduction = c->op >= 0, regular = 1;
    if (c->coll == MG_CAT_REDUCE_SCATTER)
        for (int i = 1; i < c->p; i++) regular &= c->counts[i] == c->counts[0];
    /* op and type by their names: "MPI_SUM" is the table's "sum" */
    char opname[32] = "";
    if (reduction && mg_rop_predefined(c->op))
        for (int i = 0; mg_rop_names[c->op][4 + i] && i < 31; i++)
            opname[i] = (char)(mg_rop_names[c->op][4 + i] | 0x20);
    mg_facts f;
    mg_facts_fill(&f, c->coll, c->p, mg_coll_is_rooted(c->coll) ? c->root : 0, c->count,
                  c->count * T->size, T->extent, T->true_lb, T->true_extent,
                  reduction ? mg_rop_commutative(c->op) : 1,
                  reduction ? mg_rop_predefined(c->op) : 1, c->inplace, regular, mg_op_code(opname),
                  T->mpi_name ? mg_type_code(T->mpi_name) : 0);
    int mixed = 0;
    for (int j = 1; j < T->nfields; j++) mixed |= T->f[j].basic != T->f[0].basic;
    mg_facts_set(&f, MG_FACT_MIXED, mixed);
    mg_facts_set(&f, MG_FACT_TYPES_DIFFER, c->sides != MG_RS_SAME);
    if (c->coll == MG_CAT_REDUCE_SCATTER) {
        int zeros = 0;
        for (int i = 0; i < c->p; i++) zeros |= c->counts[i] == 0;
        mg_facts_set(&f, MG_FACT_ZERO_COUNTS, zeros);
    }
    return mg_defect_find(&defects, defect_on, &f, NULL);
}

enum { S_RAN, S_DECLINED, S_SKIPPED };

typedef struct result {
    int state, fail, err;
    unsigned declined;
    char msg[600];
} result;

/* Runs algorithm alg on the case (the default too) and compares this rank's buffers. The case
 * is drawn for the blocking collective; a nonblocking one's algorithm starts it on the same
 * arguments and MPI_Wait completes it. */
static void run_one(const mg_rcase *c, bufs *b, MPI_Comm comm, int alg, int skip_default,
                    result *r) {
    int coll = alg_coll(alg), outcome = MPIGUIDE_RAN_DEFAULT;
    int is_default = alg == mpiguide_default_algorithm(coll);
    memset(r, 0, sizeof *r);
    mpiguide_args x = bind(c, b, comm);
    MPI_Request q = MPI_REQUEST_NULL;
    x.request = &q;
    if (skip_default) { /* the default would crash: never run it, nor fall back to it */
        if (is_default || is_intercepted(alg) ||
            mpiguide_plan(alg, &x, &outcome, &r->declined) != MPI_SUCCESS ||
            outcome != MPIGUIDE_RAN_MOCKUP) {
            r->state = is_default ? S_SKIPPED : S_DECLINED;
            return;
        }
    }
    foreign_calls = 0;
    int rc = completed(is_intercepted(alg) ? run_public(coll, &x)
                                           : mpiguide_run(alg, &x, &outcome, &r->declined),
                       &q);
    r->state =
        is_default || is_intercepted(alg) || outcome == MPIGUIDE_RAN_MOCKUP ? S_RAN : S_DECLINED;
    if (rc != MPI_SUCCESS) {
        /* the text of the error class, not of the code: MPICH 4.0.2's MPI_Error_string of a
         * code whose error stack is long writes past MPI_MAX_ERROR_STRING (met after thousands
         * of failing calls of `--random`, where it overwrote this stack); a class has none */
        char s[MPI_MAX_ERROR_STRING];
        int n = 0, cls = rc;
        if (PMPI_Error_class(rc, &cls) != MPI_SUCCESS ||
            PMPI_Error_string(cls, s, &n) != MPI_SUCCESS)
            snprintf(s, sizeof s, "error %d", rc);
        snprintf(r->msg, sizeof r->msg, "returned %s (error class %d)", s, cls);
        r->fail = r->err = 1;
        return;
    }
    if (foreign_calls) {
        snprintf(r->msg, sizeof r->msg,
                 "the user op was called %ld times with a datatype the "
                 "program never passed",
                 foreign_calls);
        r->fail = 1;
        return;
    }
    for (int w = 0; w < MG_RB_NBUFS && !r->fail; w++) {
        if (!b->a.has[w]) continue;
        const unsigned char *got = b->work[b->g[w].block] + b->g[w].at;
        if (mg_rdiff(c, &b->a, w, &b->exp[w], got, r->msg, sizeof r->msg) >= 0) r->fail = 1;
    }
}

/* Per algorithm (by id): what happened over all cases, counted by each group's rank 0. */
typedef struct tally {
    long cases, ran, declined, mismatch, skipped, library, known, mockup, unexplained, errors;
} tally;

static tally *tallies;
static long *known_by; /* calls that met each entry of the defect table (group rank 0 counts) */
static long *shown;    /* findings printed per algorithm (by a group's rank 0) */
static long *details;  /* this rank's difference lines printed per algorithm */

/* The group agrees on one algorithm's result: failed anywhere, the state everywhere alike,
 * and the first failing rank's message (broadcast). */
static int agree(result *r, MPI_Comm comm, int rank, int p, int *consistent) {
    int mine[4] = {r->fail, r->state, -r->state, r->fail ? rank : p}, all[4];
    int in[3] = {mine[0], mine[1], mine[2]}, out[3];
    PMPI_Allreduce(in, out, 3, MPI_INT, MPI_MAX, comm);
    PMPI_Allreduce(&mine[3], &all[3], 1, MPI_INT, MPI_MIN, comm);
    *consistent = out[1] == -out[2];
    r->fail = out[0];
    if (all[3] < p) PMPI_Bcast(r->msg, (int)sizeof r->msg, MPI_CHAR, all[3], comm);
    return all[3];
}

typedef struct finding_ctx {
    const mg_random_opts *o;
    const mg_rcase *c;
    int group;
    int coll; /* the collective tested: c->coll, or the nonblocking one that starts it */
} finding_ctx;

static const char *library_line(void) {
    static char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    if (!v[0]) {
        PMPI_Get_library_version(v, &n);
        v[strcspn(v, "\n")] = 0;
    }
    return v;
}

/* The path of the loaded libmpiguide, for a reproducer's LD_PRELOAD. */
static const char *library_path(void) {
    Dl_info info;
    if (dladdr((void *)&mpiguide_run, &info) && info.dli_fname) return info.dli_fname;
    return "libmpiguide.so";
}

static void write_repro(const finding_ctx *fc, const char *alg, const char *finding,
                        const char *detail) {
    const mg_random_opts *o = fc->o;
    if (fc->coll != fc->c->coll) { /* mg_repro_write writes blocking calls only */
        printf("  no reproducer: %s is nonblocking (rerun the case instead)\n",
               mg_coll_name(fc->coll));
        return;
    }
    char path[1024], found[512], cmd[2048];
    snprintf(path, sizeof path, "%s/%s-%s-seed%" PRIu64 "-case%" PRId64 ".c", o->repro_dir,
             mg_coll_short(fc->c->coll), alg ? alg : "default", o->seed, fc->c->index);
    snprintf(found, sizeof found,
             "mpiexec -n %d %s selftest --random %" PRId64 " --seed %" PRIu64 " --case %" PRId64
             " %s",
             wsize, o->argv0, fc->c->index + 1, o->seed, fc->c->index, mg_coll_short(fc->c->coll));
    mg_repro r = {fc->c,  wsize, fc->group,      alg,          finding,
                  detail, found, library_line(), MG_BUILT_MPI, library_path()};
    FILE *f = fopen(path, "w");
    if (!f || mg_repro_write(f, &r) || fclose(f)) {
        mg_error(path, "cannot write the reproducer: %s", strerror(errno));
        return;
    }
    mg_repro_command(&r, path, cmd, sizeof cmd);
    printf("  reproducer: %s\n  build and run: %s\n", path, cmd);
}

/* One case: every algorithm, the classification, the counts. Returns 1 when the case found
 * something that fails the run. */
static int one_case(const mg_random_opts *o, int coll, int64_t index, const int *algs, int nalg) {
    /* a nonblocking collective is tested on the cases of the blocking one it starts */
    int shape = mg_coll_blocking(coll);
    int kind = mg_rcase_comm(o->seed, shape, index), p, rank, bad = 0;
    MPI_Comm comm = comms[kind];
    PMPI_Comm_size(comm, &p);
    PMPI_Comm_rank(comm, &rank);
    mg_rcase c;
    bufs b;
    int nomem = mg_rcase_draw(o->seed, shape, index, p, &c) != 0;
    nomem = nomem || bufs_make(&c, rank, &b) != 0;
    int anynomem = 0;
    PMPI_Allreduce(&nomem, &anynomem, 1, MPI_INT, MPI_MAX, comm);
    char desc[600];
    mg_rcase_describe(&c, desc, sizeof desc);
    snprintf(current, sizeof current, "case %" PRId64 " [%s]", index, desc);
    if (o->verbose && rank == 0) {
        printf("case %" PRId64 ": %s\n", index, desc);
        fflush(stdout);
    }
    if (anynomem) {
        if (rank == 0) mg_error("selftest", "out of memory for case %" PRId64 " [%s]", index, desc);
        bufs_free(&b);
        mg_rcase_free(&c);
        return 1;
    }
    const mg_defect *known = known_defect(&c);
    int skip_default = known && known->effect == MG_EFFECT_CRASH;
    result *res = calloc((size_t)nalg, sizeof *res);
    int *first = calloc((size_t)nalg, sizeof *first);
    if (!res || !first) abort();
    alarm((unsigned)o->timeout);
    for (int i = 0; i < nalg; i++) {
        int consistent = 1;
        snprintf(current, sizeof current, "case %" PRId64 " [%s], %s", index, desc,
                 alg_name(algs[i]));
        run_one(&c, &b, comm, algs[i], skip_default, &res[i]);
        if (res[i].fail && res[i].msg[0] && details[algs[i]]++ < MAX_SHOWN)
            printf("  rank %d (%s, case %" PRId64 "): %s\n", rank, alg_name(algs[i]), index,
                   res[i].msg);
        first[i] = agree(&res[i], comm, rank, p, &consistent);
        if (!consistent) res[i].fail = res[i].err = 1;
    }
    alarm(0);
    /* classification and counts, by the group's rank 0 */
    if (rank == 0) {
        result *d = &res[0];
        int def_ok = d->state == S_RAN && !d->fail, any_ok = 0;
        finding_ctx fc = {o, &c, kind == MG_RC_PARITY || kind == MG_RC_HALVES ? colors[kind] : 0,
                          coll};
        char rerun[600];
        snprintf(rerun, sizeof rerun,
                 "rerun: mpiexec -n %d %s selftest --random %" PRId64 " --seed %" PRIu64
                 " --case %" PRId64 " %s",
                 wsize, o->argv0, index + 1, o->seed, index, mg_coll_short(coll));
        for (int i = 0; i < nalg; i++) {
            tally *t = &tallies[algs[i]];
            t->cases++;
            t->ran += res[i].state == S_RAN;
            t->declined += res[i].state == S_DECLINED;
            t->skipped += res[i].state == S_SKIPPED;
            /* errors of a call on a known defect's condition are that defect's; a declined
             * algorithm's are the default's, counted there */
            t->errors +=
                res[i].err && res[i].state == S_RAN && !(known && known->effect != MG_EFFECT_CRASH);
            if (i > 0 && res[i].state == S_RAN && !res[i].fail) any_ok = 1;
        }
        /* the default is wrong (or fails) on a known defect's condition; crash ones never ran */
        int d_known = known && known->effect != MG_EFFECT_CRASH && d->state == S_RAN && d->fail;
        for (int i = 1; i < nalg; i++) { /* mock-ups that ran and differ from the reference */
            if (res[i].state != S_RAN || !res[i].fail) continue;
            tally *t = &tallies[algs[i]];
            const char *alg = alg_name(algs[i]);
            int mockup = def_ok || d->state == S_SKIPPED;
            t->mismatch++;
            /* the intercepted call ran whatever the library chose there (in online mode's
             * rotation any candidate, also the MPI's own algorithms): a known defect's condition
             * explains a mismatch as for those */
            if (is_intercepted(algs[i]) && known && known->effect != MG_EFFECT_CRASH) {
                t->known++, known_by[known - defects.v]++;
                continue;
            }
            if (!is_intercepted(algs[i]) &&
                mpiguide_algorithm_kind(algs[i]) == MPIGUIDE_KIND_LIBRARY) {
                /* the MPI's own algorithm: a library defect, known when the call meets one */
                if (known && known->effect != MG_EFFECT_CRASH) {
                    t->known++, known_by[known - defects.v]++;
                    continue;
                }
                t->library++, bad = 1;
                if (shown[algs[i]]++ < MAX_SHOWN) {
                    printf("LIBRARY DEFECT (new; in the MPI's own algorithm %s) case %" PRId64
                           " [%s]: %s\n  %s\n",
                           alg, index, desc, res[i].msg, rerun);
                    if (o->repro_dir) write_repro(&fc, alg, "library defect", res[i].msg);
                }
                continue;
            }
            if (!mockup && d_known) { /* no worse than the default, which meets a known defect */
                t->known++;
                continue;
            }
            if (mockup)
                t->mockup++;
            else
                t->unexplained++;
            bad = 1;
            if (shown[algs[i]]++ < MAX_SHOWN) {
                printf("%s %s case %" PRId64 " [%s]: %s\n  %s\n",
                       mockup ? "MOCK-UP DEFECT" : "MISMATCH (the default differs too)", alg, index,
                       desc, res[i].msg, rerun);
                if (o->repro_dir && mockup && !is_intercepted(algs[i]))
                    write_repro(&fc, alg, "mock-up defect", res[i].msg);
            }
        }
        if (d->state == S_RAN && d->fail) { /* the library's own collective is wrong */
            tally *t = &tallies[algs[0]];
            int is_known = d_known;
            t->mismatch++;
            if (is_known)
                t->known++, known_by[known - defects.v]++;
            else if (any_ok)
                t->library++, bad = 1;
            else
                t->unexplained++, bad = 1;
            /* a known defect is shown only when asked for: with --verbose, or by its number
             * (--case; with --repro that writes its reproducer) */
            if (is_known && (o->verbose || o->only >= 0)) {
                printf("KNOWN LIBRARY DEFECT %s: %s case %" PRId64 " [%s]: %s\n  %s\n", known->name,
                       mg_coll_name(coll), index, desc, d->msg, rerun);
                if (o->repro_dir && o->only >= 0)
                    write_repro(&fc, NULL, "known library defect", d->msg);
            }
            if (!is_known && shown[algs[0]]++ < MAX_SHOWN) {
                printf("%s %s case %" PRId64 " [%s]: %s\n  %s\n",
                       any_ok ? "LIBRARY DEFECT (new; a mock-up matches the reference)"
                              : "MISMATCH of the default (no mock-up confirms the reference)",
                       mg_coll_name(coll), index, desc, d->msg, rerun);
                if (o->repro_dir && any_ok) write_repro(&fc, NULL, "library defect", d->msg);
            }
        }
        if (d->state == S_SKIPPED) tallies[algs[0]].known++, known_by[known - defects.v]++;
        fflush(stdout);
    }
    free(res);
    free(first);
    bufs_free(&b);
    mg_rcase_free(&c);
    return bad;
}

/* ---- the run ---- */

static int selected(const mg_random_opts *o, int alg) {
    const char *name = mpiguide_algorithm_name(alg), *g = mpiguide_algorithm_guideline(alg);
    if (!o->algs) return !(g && !strncmp(g, "TEST ONLY", 9));
    size_t len = strlen(name);
    for (const char *s = o->algs; *s;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (n == len && !strncmp(s, name, n)) return 1;
        s += n + (comma ? 1 : 0);
    }
    return 0;
}

int mg_selftest_random(const mg_random_opts *o) {
    char err[600] = "";
    int bad = 0, failed_setup = setup(err, sizeof err) != 0, any = 0;
    PMPI_Allreduce(MPI_IN_PLACE, &failed_setup, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failed_setup) {
        if (err[0]) mg_error("selftest", "%s", err);
        return 1;
    }
    int nodir = o->repro_dir && wrank == 0 && mkdir(o->repro_dir, 0777) && errno != EEXIST;
    if (nodir)
        mg_error(o->repro_dir, "cannot create the reproducer directory: %s", strerror(errno));
    PMPI_Bcast(&nodir, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (nodir) {
        teardown();
        return 1;
    }
    signal(SIGALRM, on_alarm);
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGABRT, on_crash);
    nreg = mpiguide_algorithm_count();
    int nalgs = nreg + MPIGUIDE_COLL_COUNT; /* the intercepted call of each collective after */
    tallies = calloc((size_t)nalgs, sizeof *tallies);
    known_by = calloc((size_t)defects.n + 1, sizeof *known_by);
    shown = calloc((size_t)nalgs, sizeof *shown);
    details = calloc((size_t)nalgs, sizeof *details);
    if (!tallies || !known_by || !shown || !details) abort();
    if (wrank == 0) {
        printf("mpiguide selftest --random %" PRId64 " --seed %" PRIu64 " on %d ranks (%s)\n",
               o->cases, o->seed, wsize, library_line());
        fflush(stdout);
    }
    /* the algorithms of each collective tested, the default first (nalg[c] = 0: not tested) */
    int *nalg = calloc(MPIGUIDE_COLL_COUNT, sizeof *nalg);
    int *algs = calloc((size_t)MPIGUIDE_COLL_COUNT * ((size_t)nalgs + 1), sizeof *algs);
    if (!nalg || !algs) abort();
    for (int coll = 0; coll < MPIGUIDE_COLL_COUNT; coll++) {
        /* a nonblocking collective only when named: it runs its blocking collective's cases
         * again, and MPICH 4.0.2's tsp_* schedules crash on derived datatypes (tests/mpi/
         * matrix.cmake), which would end a run over every collective */
        if ((o->any_coll && !o->colls[coll]) || (mg_coll_is_nb(coll) && !o->colls[coll]) ||
            !mg_rcase_supported(mg_coll_blocking(coll)))
            continue;
        int *v = algs + (size_t)coll * ((size_t)nalgs + 1), n = 0;
        v[n++] = mpiguide_default_algorithm(coll);
        for (int a = 0; a < nreg; a++)
            if (mpiguide_algorithm_collective(a) == coll && a != v[0] && selected(o, a)) v[n++] = a;
        if (o->intercepted) v[n++] = nreg + coll;
        if (n == 1 && !o->any_coll) continue; /* nothing to compare the library with */
        if (o->algs && n == 1) continue;
        nalg[coll] = n;
        any = 1;
    }
    /* case k of every collective, then case k + 1: a run cut by --time-limit has tested every
     * collective alike; rank 0's clock decides between rounds, so every rank stops together */
    double t0 = MPI_Wtime();
    int64_t rounds = 0;
    int cut = 0;
    for (int64_t k = 0; k < o->cases && !cut; k++) {
        if (o->only >= 0 && k != o->only) continue;
        for (int coll = 0; coll < MPIGUIDE_COLL_COUNT; coll++)
            if (nalg[coll])
                bad |= one_case(o, coll, k, algs + (size_t)coll * ((size_t)nalgs + 1), nalg[coll]);
        rounds++;
        cut = o->time_limit > 0 && wrank == 0 && MPI_Wtime() - t0 >= o->time_limit &&
              k + 1 < o->cases && o->only < 0;
        PMPI_Bcast(&cut, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    free(nalg);
    /* the counts of every group's rank 0, summed */
    long *mine = (long *)tallies, *sum = calloc((size_t)nalgs, sizeof(tally));
    if (!sum) abort();
    PMPI_Reduce(mine, sum, (int)(nalgs * sizeof(tally) / sizeof(long)), MPI_LONG, MPI_SUM, 0,
                MPI_COMM_WORLD);
    long *known_all = calloc((size_t)defects.n + 1, sizeof *known_all);
    if (!known_all) abort();
    PMPI_Reduce(known_by, known_all, defects.n, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (wrank == 0) {
        const tally *t = (const tally *)sum;
        long library = 0, known = 0, mockup = 0, unexplained = 0, errors = 0;
        printf("%-26s %-44s %7s %7s %8s %9s\n", "collective", "algorithm", "cases", "ran",
               "declined", "mismatch");
        for (int a = 0; a < nalgs; a++) {
            if (!t[a].cases) continue;
            int is_default = a == mpiguide_default_algorithm(alg_coll(a));
            printf("%-26s %-44s %7ld %7ld %8ld %9ld", mpiguide_collective_name(alg_coll(a)),
                   alg_name(a), t[a].cases, t[a].ran, is_default ? t[a].skipped : t[a].declined,
                   t[a].mismatch);
            if (t[a].known) /* the default: met a known defect; a mock-up: failed alike there */
                printf("   (known defects: %ld)", t[a].known);
            printf("\n");
            library += t[a].library, known += is_default ? t[a].known : 0, mockup += t[a].mockup;
            unexplained += t[a].unexplained, errors += t[a].errors;
        }
        for (int i = 0; i < defects.n; i++)
            if (known_all[i])
                printf("known library defect %s: %ld call(s), %s (%s)\n", defects.v[i].name,
                       known_all[i],
                       defects.v[i].effect == MG_EFFECT_CRASH   ? "not run: it would crash"
                       : defects.v[i].effect == MG_EFFECT_ERROR ? "error returned"
                                                                : "wrong result",
                       defects.v[i].reproducer);
        if (o->only < 0)
            printf("ran %lld of %lld cases per collective in %.1f s%s\n", (long long)rounds,
                   (long long)o->cases, MPI_Wtime() - t0, cut ? ": stopped by --time-limit" : "");
        printf("library defects: %ld new, %ld known; mock-up defects: %ld; unexplained "
               "mismatches: %ld; errors: %ld\n",
               library, known, mockup, unexplained, errors);
        if (!any) printf("no collective selected (or none with an algorithm to compare)\n");
        fflush(stdout);
    }
    free(sum);
    free(known_all);
    free(known_by);
    free(tallies);
    free(shown);
    free(details);
    free(algs);
    teardown();
    return bad ? 1 : 0;
}
