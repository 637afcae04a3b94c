/* The call under test: arguments and buffers of every collective with regular counts (or the
 * v-collectives' per-rank counts), allocated once per measurement; how it runs (an algorithm
 * through mpiguide_run, the public MPI_* name, or nothing); and the --verify comparison. */
#include "harness.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>

MPI_Datatype mg_bench_datatype(const char *n) {
    if (!strcmp(n, "MPI_BYTE")) return MPI_BYTE;
    if (!strcmp(n, "MPI_CHAR")) return MPI_CHAR;
    if (!strcmp(n, "MPI_SIGNED_CHAR")) return MPI_SIGNED_CHAR;
    if (!strcmp(n, "MPI_UNSIGNED_CHAR")) return MPI_UNSIGNED_CHAR;
    if (!strcmp(n, "MPI_SHORT")) return MPI_SHORT;
    if (!strcmp(n, "MPI_UNSIGNED_SHORT")) return MPI_UNSIGNED_SHORT;
    if (!strcmp(n, "MPI_INT")) return MPI_INT;
    if (!strcmp(n, "MPI_UNSIGNED")) return MPI_UNSIGNED;
    if (!strcmp(n, "MPI_LONG")) return MPI_LONG;
    if (!strcmp(n, "MPI_UNSIGNED_LONG")) return MPI_UNSIGNED_LONG;
    if (!strcmp(n, "MPI_LONG_LONG")) return MPI_LONG_LONG;
    if (!strcmp(n, "MPI_FLOAT")) return MPI_FLOAT;
    if (!strcmp(n, "MPI_DOUBLE")) return MPI_DOUBLE;
    return MPI_DATATYPE_NULL;
}

MPI_Op mg_bench_op(const char *n) {
    if (!strcmp(n, "MPI_MAX")) return MPI_MAX;
    if (!strcmp(n, "MPI_MIN")) return MPI_MIN;
    if (!strcmp(n, "MPI_SUM")) return MPI_SUM;
    if (!strcmp(n, "MPI_PROD")) return MPI_PROD;
    if (!strcmp(n, "MPI_LAND")) return MPI_LAND;
    if (!strcmp(n, "MPI_LOR")) return MPI_LOR;
    if (!strcmp(n, "MPI_LXOR")) return MPI_LXOR;
    if (!strcmp(n, "MPI_BAND")) return MPI_BAND;
    if (!strcmp(n, "MPI_BOR")) return MPI_BOR;
    if (!strcmp(n, "MPI_BXOR")) return MPI_BXOR;
    return MPI_OP_NULL;
}

/* ---- how a call runs ----
 * A nonblocking collective is measured as its start and an immediate MPI_Wait: one
 * observation from the start to completion (docs/benchmark.md). */
static int complete(mg_call *c, int rc) {
    if (rc == MPI_SUCCESS && mg_coll_is_nb(c->coll)) rc = PMPI_Wait(&c->req, MPI_STATUS_IGNORE);
    return rc;
}

static int run_alg(mg_call *c) {
    return complete(c, mpiguide_run(c->alg, &c->args, NULL, NULL));
}

int mg_call_probe(mg_call *c, int *outcome, unsigned *declined) {
    return complete(c, mpiguide_run(c->alg, &c->args, outcome, declined));
}

/* The public name: under libmpiguide (linked, or LD_PRELOAD) this is the intercepted call,
 * so forced (MPIGUIDE_ALG) and tuned (MPIGUIDE_PROFILES) selection applies. */
static int run_public(mg_call *c) {
    const mpiguide_args *a = &c->args;
    switch (c->coll) {
#define MG_COLL(ID, Name, s, f, P, A, F, D)                                                        \
    case MPIGUIDE_COLL_##ID:                                                                       \
        return MPI_##Name D;
#include "catalog/collectives.def"
#undef MG_COLL
    default:
        return MPI_ERR_ARG;
    }
}

static int run_tuned(mg_call *c) {
    return complete(c, run_public(c));
}

static int run_empty(mg_call *c) {
    (void)c;
    return MPI_SUCCESS;
}

/* ---- buffers ----
 * Where a call's buffers lie changes its time, and which algorithm is faster with it (Open MPI
 * 4.1.4, 2 ranks, MPI_Allreduce of 4 KiB: the default took 1.3-2.6 us on buffers at fixed page
 * offsets and 4-8 us on the heap's, and allreduce_as_reducescatter_allgatherv was faster in one
 * case and slower in the other, in every launch). Left to malloc, the placement follows the
 * heap's history (the shuffled order of the jobs), so launches disagreed. The buffers are
 * placed the same way in every launch instead, as glibc's malloc places two buffers an
 * application allocates one after the other: below its mapping threshold back to back behind
 * 16-byte chunk headers, from it each in pages of its own at offset 16. */
#define MG_MAP_THRESHOLD ((size_t)128 * 1024)
#define MG_CHUNK_HEAD    ((size_t)16)
#define MG_PAGE          ((size_t)4096)

static size_t round_up(size_t n, size_t to) {
    return (n + to - 1) / to * to;
}

/* Offsets of the receive buffer and the end of the region, the send buffer at MG_CHUNK_HEAD;
 * one buffer (MPI_Bcast) has both at the same place. */
static void place(size_t sbytes, size_t rbytes, int one, size_t *roff, size_t *total) {
    size_t s = sbytes ? sbytes : 1, r = rbytes ? rbytes : 1;
    if (one)
        *roff = MG_CHUNK_HEAD;
    else if (s >= MG_MAP_THRESHOLD || r >= MG_MAP_THRESHOLD)
        *roff = round_up(MG_CHUNK_HEAD + s, MG_PAGE) + MG_CHUNK_HEAD;
    else
        *roff = MG_CHUNK_HEAD + round_up(s, MG_CHUNK_HEAD) + MG_CHUNK_HEAD;
    *total = *roff + r;
}

/* Pages: which physical pages lie behind the buffers changed a collective's time from launch to
 * launch as much as their place in the page (Open MPI 4.1.4, 2 ranks, 5 launches: the default
 * MPI_Reduce_scatter_block of 256 KiB 126-522 us on base pages, 88-168 us on huge pages;
 * reduce_scatter_block_lib_butterfly against it 0.67-3.05x on base pages, 0.87-1.02x on huge
 * pages). With --pages=huge (the default) the region is aligned to 2 MiB and offered to the
 * kernel as transparent huge pages (madvise), so the data of a call lies in physically
 * contiguous memory in every launch, as on systems whose THP setting is "always"; the kernel
 * may still refuse (THP "never"), and then base pages remain. */
#define MG_HUGE_PAGE ((size_t)2 << 20)
static int huge_pages = 1;

void mg_call_pages(int huge) {
    huge_pages = huge;
}

static int alloc_buffers(mg_call *c, int one) {
    size_t roff, total, align = huge_pages ? MG_HUGE_PAGE : MG_PAGE;
    place(c->sbytes, c->rbytes, one, &roff, &total);
    total = round_up(total, align);
    if (posix_memalign(&c->block, align, total)) {
        c->block = NULL;
        return -1;
    }
#ifdef MADV_HUGEPAGE
    if (huge_pages) (void)madvise(c->block, total, MADV_HUGEPAGE); /* a hint: may be refused */
#endif
    c->sbuf = (char *)c->block + MG_CHUNK_HEAD;
    c->rbuf = (char *)c->block + roff;
    return 0;
}

int mg_test_nomem(int64_t msize) {
#ifdef MPIGUIDE_TEST_HOOKS
    /* Test builds only: MPIGUIDE_TEST_NOMEM=BYTES, the allocations of a measurement of BYTES
     * and more fail (the test of measurements skipped for lack of memory, which no machine
     * runs out of on cue: tests/mpi/bench_nomem.sh) */
    static long long from = -2;
    if (from == -2) {
        const char *e = getenv("MPIGUIDE_TEST_NOMEM");
        char *end;
        from = e ? strtoll(e, &end, 10) : -1;
        if (!e || *end || from < 0) from = -1;
    }
    return from >= 0 && msize >= from;
#else
    (void)msize;
    return 0;
#endif
}

static int *alloc_ints(int p, int *fail) {
    int *v = calloc((size_t)p, sizeof(int));
    if (!v) *fail = 1;
    return v;
}

static int too_big(int64_t elems) {
    return elems > INT_MAX;
}

int mg_call_setup(mg_call *c, int coll, int alg, int64_t msize, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm comm, const int64_t *vcounts, char *why, size_t whylen) {
    memset(c, 0, sizeof *c);
    int p, rank, fail = 0, tsize = 1;
    PMPI_Comm_size(comm, &p);
    PMPI_Comm_rank(comm, &rank);
    if (type != MPI_DATATYPE_NULL) PMPI_Type_size(type, &tsize);
    c->coll = coll;
    c->alg = alg;
    c->run = alg == MG_CALL_TUNED ? run_tuned : alg == MG_CALL_EMPTY ? run_empty : run_alg;
    c->type = type;
    c->tsize = tsize;
    c->count = msize / tsize;
    c->significant = 1;
    int64_t n = c->count, pn = (int64_t)p * n;
    size_t ts = (size_t)tsize;
    mpiguide_args *a = &c->args;
    a->comm = comm;
    int is_root = root < 0 || rank == root; /* a changing root: root-sized buffers everywhere */
    a->root = root < 0 ? 0 : root;
    a->op = op;
    a->sendtype = a->recvtype = type;
    a->request = &c->req;
    coll = mg_coll_blocking(coll); /* a nonblocking collective has its blocking one's buffers */
    if (alg == MG_CALL_EMPTY || coll == MPIGUIDE_COLL_BARRIER) {
        c->significant = 0;
        return 0;
    }
    int64_t total = pn, most = n; /* elements of the full vector, of the largest block */
    if (vcounts && mg_coll_is_v(coll)) {
        total = most = 0;
        for (int i = 0; i < p; i++)
            total += vcounts[i], most = vcounts[i] > most ? vcounts[i] : most;
    }
    if (too_big(pn) || too_big(total) || too_big(most * p)) {
        snprintf(why, whylen, "%lld elements on %d ranks exceed int counts", (long long)n, p);
        return -1;
    }
    a->sendcount = a->recvcount = (int)n;
    switch (coll) {
    case MPIGUIDE_COLL_ALLGATHER:
        c->sbytes = (size_t)n * ts, c->rbytes = (size_t)pn * ts;
        break;
    case MPIGUIDE_COLL_ALLGATHERV: { /* msize is the whole vector, split as Reduce_scatter's */
        c->rcounts = alloc_ints(p, &fail), c->rdispls = alloc_ints(p, &fail);
        int64_t off = 0;
        for (int i = 0; !fail && i < p; i++) {
            c->rcounts[i] = (int)(vcounts ? vcounts[i] : n / p + (i < n % p));
            c->rdispls[i] = (int)off;
            off += c->rcounts[i];
        }
        a->sendcount = fail ? 0 : c->rcounts[rank];
        c->sbytes = (size_t)a->sendcount * ts, c->rbytes = (size_t)off * ts;
        break;
    }
    case MPIGUIDE_COLL_ALLTOALLV: { /* rank i sends counts[j] (n without) to every rank j */
        c->rcounts = alloc_ints(p, &fail), c->rdispls = alloc_ints(p, &fail);
        c->scounts = alloc_ints(p, &fail), c->sdispls = alloc_ints(p, &fail);
        int64_t soff = 0, mine = fail ? 0 : vcounts ? vcounts[rank] : n;
        for (int i = 0; !fail && i < p; i++) {
            c->scounts[i] = (int)(vcounts ? vcounts[i] : n), c->sdispls[i] = (int)soff;
            soff += c->scounts[i];
            c->rcounts[i] = (int)mine, c->rdispls[i] = (int)(i * mine);
        }
        c->sbytes = (size_t)soff * ts, c->rbytes = (size_t)(p * mine) * ts;
        break;
    }
    case MPIGUIDE_COLL_ALLTOALL:
    case MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK:
        c->sbytes = (size_t)pn * ts;
        c->rbytes = (size_t)(coll == MPIGUIDE_COLL_ALLTOALL ? pn : n) * ts;
        break;
    case MPIGUIDE_COLL_BCAST:
        c->rbytes = (size_t)n * ts;
        break;
    case MPIGUIDE_COLL_ALLREDUCE:
    case MPIGUIDE_COLL_SCAN:
    case MPIGUIDE_COLL_EXSCAN:
        c->sbytes = c->rbytes = (size_t)n * ts;
        c->significant = coll != MPIGUIDE_COLL_EXSCAN || rank != 0;
        break;
    case MPIGUIDE_COLL_REDUCE:
        c->sbytes = (size_t)n * ts;
        c->rbytes = is_root ? (size_t)n * ts : 0;
        c->significant = rank == a->root;
        break;
    case MPIGUIDE_COLL_GATHER:
        c->sbytes = (size_t)n * ts;
        c->rbytes = is_root ? (size_t)pn * ts : 0;
        c->significant = rank == a->root;
        break;
    case MPIGUIDE_COLL_SCATTER:
        c->sbytes = is_root ? (size_t)pn * ts : 0;
        c->rbytes = (size_t)n * ts;
        break;
    case MPIGUIDE_COLL_REDUCE_SCATTER:
        c->sbytes = (size_t)n * ts;
        c->rcounts = alloc_ints(p, &fail);
        for (int i = 0; !fail && i < p; i++) c->rcounts[i] = (int)(n / p + (i < n % p));
        c->rbytes = fail ? 0 : (size_t)c->rcounts[rank] * ts;
        break;
    case MPIGUIDE_COLL_GATHERV:
    case MPIGUIDE_COLL_SCATTERV: {
        int *cnt = alloc_ints(p, &fail), *dsp = alloc_ints(p, &fail);
        int64_t off = 0;
        for (int i = 0; !fail && i < p; i++) {
            cnt[i] = (int)(vcounts ? vcounts[i] : n);
            dsp[i] = (int)off;
            off += cnt[i];
        }
        size_t mine = fail ? 0 : (size_t)cnt[rank] * ts, all = (size_t)off * ts;
        if (coll == MPIGUIDE_COLL_GATHERV) {
            c->rcounts = cnt, c->rdispls = dsp;
            c->sbytes = mine, c->rbytes = is_root ? all : 0;
            a->sendcount = fail ? 0 : cnt[rank];
            c->significant = rank == a->root;
        } else {
            c->scounts = cnt, c->sdispls = dsp;
            c->sbytes = is_root ? all : 0, c->rbytes = mine;
            a->recvcount = fail ? 0 : cnt[rank];
        }
        break;
    }
    default:
        snprintf(why, whylen, "collective %d unknown to the benchmark", coll);
        return -1;
    }
    /* the hook fails the last rank alone: rank 0, which reports, must learn it from the others */
    if (!fail && rank == p - 1 && mg_test_nomem(msize)) fail = 1;
    if (!fail && alloc_buffers(c, coll == MPIGUIDE_COLL_BCAST) != 0) fail = 1;
    a->sendbuf = c->sbuf;
    a->recvbuf = c->rbuf;
    a->sendcounts = c->scounts;
    a->sdispls = c->sdispls;
    a->recvcounts = c->rcounts;
    a->rdispls = c->rdispls;
    if (fail) {
        mg_call_free(c);
        snprintf(why, whylen, "out of memory for %lld-byte buffers", (long long)msize);
        return -2;
    }
    mg_call_fill(c, rank);
    return 0;
}

void mg_call_free(mg_call *c) {
    free(c->block);
    free(c->ref);
    free(c->scounts);
    free(c->sdispls);
    free(c->rcounts);
    free(c->rdispls);
    memset(c, 0, sizeof *c);
}

/* Element values 1..3: exact in every datatype, so sums and products of a few ranks are exact
 * and independent of the order of reduction. */
static void fill_typed(void *buf, size_t bytes, MPI_Datatype t, int tsize, int rank) {
    size_t n = bytes / (size_t)tsize;
    for (size_t i = 0; i < n; i++) {
        int v = 1 + (int)((i + (size_t)rank) % 3);
        char *e = (char *)buf + i * (size_t)tsize;
        if (t == MPI_FLOAT) {
            float f = (float)v;
            memcpy(e, &f, sizeof f);
        } else if (t == MPI_DOUBLE) {
            double d = v;
            memcpy(e, &d, sizeof d);
        } else if (tsize == 1) {
            *e = (char)v;
        } else if (tsize == 2) {
            int16_t x = (int16_t)v;
            memcpy(e, &x, sizeof x);
        } else if (tsize == 4) {
            int32_t x = v;
            memcpy(e, &x, sizeof x);
        } else {
            int64_t x = v;
            memcpy(e, &x, sizeof x);
        }
    }
}

void mg_call_fill(mg_call *c, int rank) {
    if (c->rbytes) memset(c->rbuf, 0xA5, c->rbytes);
    if (mg_coll_blocking(c->coll) == MPIGUIDE_COLL_BCAST) {
        if (rank == c->args.root) fill_typed(c->rbuf, c->rbytes, c->type, c->tsize, rank);
    } else if (c->sbytes) {
        fill_typed(c->sbuf, c->sbytes, c->type, c->tsize, rank);
    }
}

int mg_call_verify(mg_call *c, int rank, int *bad_rank) {
    *bad_rank = -1;
    if (c->rbytes && !c->ref && !(c->ref = malloc(c->rbytes))) return MPI_ERR_NO_MEM;
    mg_call_fill(c, rank);
    int rc = complete(c, mpiguide_run(mpiguide_default_algorithm(c->coll), &c->args, NULL, NULL));
    if (rc != MPI_SUCCESS) return rc;
    if (c->rbytes) memcpy(c->ref, c->rbuf, c->rbytes);
    mg_call_fill(c, rank);
    if ((rc = c->run(c)) != MPI_SUCCESS) return rc;
    int mine = c->significant && c->rbytes && memcmp(c->ref, c->rbuf, c->rbytes) ? rank : INT_MAX;
    int first;
    rc = PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c->args.comm);
    *bad_rank = first == INT_MAX ? -1 : first;
    mg_call_fill(c, rank);
    return rc;
}
