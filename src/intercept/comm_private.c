/* Private per-communicator state and duplicate (see comm_private.h). */
#include "comm_private.h"
#include "intercept.h"
#include "runtime/mpi_family.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct mg_private_hdr {
    MPI_Comm priv; /* the duplicate, MPI_ERRORS_RETURN */
    MPI_Comm comm; /* the user's communicator (for mg_private_stop) */
    uint64_t seq;  /* when priv was made: this process's count of duplicates made before it */
    int one_clock; /* every rank reads the same clock (mg_private_stamp) */
    double made;   /* this rank's exit of the duplicate's creation (MPI clock) */
    mg_private_kind *kind;
    struct mg_private_hdr *prev, *next;
    max_align_t align[]; /* the caller's state follows */
} mg_private_hdr;

/* Each duplicate is a blocking collective over its communicator, so two ranks sharing two
 * communicators made their duplicates in the same order (a crossed order would have stopped
 * there): the order of seq is the same on every rank, the one blocking agreements may follow. */
static uint64_t dups_made;

static mg_private_hdr *hdr_of(const void *state) {
    return (mg_private_hdr *)((char *)state - offsetof(mg_private_hdr, align));
}

static void *state_of(mg_private_hdr *h) {
    return h->align;
}

static int slot_of(MPI_Comm comm, uintptr_t *key) {
    *key = mg_hbits(&comm, sizeof comm);
    return (int)mg_hslot(*key, 4);
}

_Static_assert(MG_PRIVATE_CACHE == 16, "the cache hash takes 4 bits");

static void forget(mg_private_kind *k, MPI_Comm comm) {
    uintptr_t key;
    int s = slot_of(comm, &key);
    if (k->cache[s].key == key) k->cache[s].key = 0, k->cache[s].state = NULL;
}

/* The node's monotonic clock, nanoseconds; SMPI's simulated clock, global to its ranks. */
static int64_t node_ns(void) {
    if (MG_SIMULATED_MPI) return (int64_t)(PMPI_Wtime() * 1e9);
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Which running kernel this process is on (its boot's id; the host name where there is none),
 * hashed: processes with the same kernel read the same CLOCK_MONOTONIC. */
static int64_t kernel_id(void) {
    char id[256] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!f || !fgets(id, sizeof id, f)) gethostname(id, sizeof id - 1);
    if (f) fclose(f);
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *c = id; *c && *c != '\n'; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return (int64_t)(h >> 2);
}

/* Do the ranks of priv, just out of its duplication, read one clock? The same kernel on every
 * rank, and their clocks within 50 ms of each other now (the duplication's exits are
 * microseconds apart; clocks of other machines, or of a kernel in another time namespace, are
 * seconds apart). Collective over priv. */
static int one_clock(MPI_Comm priv) {
    static int64_t kid;
    if (MG_SIMULATED_MPI) return 1;
#ifdef MPIGUIDE_TEST_ALGORITHMS
    /* test builds: MPIGUIDE_TEST_CLOCKS=apart, ranks on one node take the scales of ranks on
     * several (mg_private_stamp), so that the tests of one machine cover those too */
    const char *t = getenv("MPIGUIDE_TEST_CLOCKS");
    if (t && !strcmp(t, "apart")) return 0;
#endif
    if (!kid) kid = kernel_id();
    int64_t now = node_ns(), v[4] = {kid, -kid, now, -now};
    if (PMPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_INT64_T, MPI_MAX, priv) != MPI_SUCCESS) return 0;
    return v[0] == -v[1] && v[2] + v[3] < 50000000;
}

/* The attribute's delete callback: the communicator is being freed (or mg_private_stop). */
static int delete_state(MPI_Comm comm, int kv, void *val, void *extra) {
    (void)kv;
    mg_private_kind *k = extra;
    mg_private_hdr *h = val;
    forget(k, comm);
    if (k->fini) k->fini(state_of(h), h->priv);
    if (h->prev) h->prev->next = h->next;
    if (h->next) h->next->prev = h->prev;
    if (k->live == h) k->live = h->next;
    if (h->priv != MPI_COMM_NULL) PMPI_Comm_free(&h->priv);
    free(h);
    return MPI_SUCCESS;
}

int mg_private_start(mg_private_kind *k, size_t size, void (*fini)(void *, MPI_Comm)) {
    memset(k, 0, sizeof *k);
    k->size = size;
    k->fini = fini;
    k->keyval = MPI_KEYVAL_INVALID;
    return PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &k->keyval, k);
}

void mg_private_stop(mg_private_kind *k) {
    if (k->keyval == MPI_KEYVAL_INVALID) return;
    while (k->live) PMPI_Comm_delete_attr(k->live->comm, k->keyval);
    PMPI_Comm_free_keyval(&k->keyval);
    k->keyval = MPI_KEYVAL_INVALID;
    memset(k->cache, 0, sizeof k->cache);
}

void *mg_private_find(mg_private_kind *k, MPI_Comm comm) {
    uintptr_t key;
    int s = slot_of(comm, &key);
    if (k->cache[s].key == key && key) return k->cache[s].state;
    void *val = NULL;
    int flag = 0;
    if (k->keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL ||
        PMPI_Comm_get_attr(comm, k->keyval, &val, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    k->cache[s].key = key;
    k->cache[s].state = state_of(val);
    return k->cache[s].state;
}

/* The state of comm, attached with priv as its duplicate (may be MPI_COMM_NULL). */
static void *attach(mg_private_kind *k, MPI_Comm comm, int dup) {
    void *state = mg_private_find(k, comm);
    if (state || k->keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL) return state;
    mg_private_hdr *h = calloc(1, sizeof *h + k->size);
    MPI_Comm priv = MPI_COMM_NULL;
    /* every rank of comm is here, at the same call: the duplicate is collective */
    int rc = dup ? PMPI_Comm_dup(comm, &priv) : MPI_SUCCESS, one = 0;
    if (rc == MPI_SUCCESS && dup) {
        PMPI_Comm_set_errhandler(priv, MPI_ERRORS_RETURN);
        one = one_clock(priv); /* on every rank that made the duplicate, memory or not */
    }
    if (rc != MPI_SUCCESS || !h || PMPI_Comm_set_attr(comm, k->keyval, h) != MPI_SUCCESS) {
        if (priv != MPI_COMM_NULL) PMPI_Comm_free(&priv);
        free(h);
        return NULL;
    }
    h->priv = priv;
    h->seq = dups_made++;
    h->one_clock = one;
    h->made = PMPI_Wtime();
    h->comm = comm;
    h->kind = k;
    h->next = k->live;
    if (k->live) k->live->prev = h;
    k->live = h;
    uintptr_t key;
    int s = slot_of(comm, &key);
    k->cache[s].key = key;
    k->cache[s].state = state_of(h);
    return state_of(h);
}

void *mg_private_get(mg_private_kind *k, MPI_Comm comm) {
    return attach(k, comm, 1);
}

void *mg_private_get_local(mg_private_kind *k, MPI_Comm comm) {
    return attach(k, comm, 0);
}

int mg_private_dup(void *state) {
    mg_private_hdr *h = hdr_of(state);
    if (h->priv != MPI_COMM_NULL) return MPI_SUCCESS;
    int rc = PMPI_Comm_dup(h->comm, &h->priv);
    h->seq = dups_made++;
    if (rc == MPI_SUCCESS) {
        PMPI_Comm_set_errhandler(h->priv, MPI_ERRORS_RETURN);
        h->one_clock = one_clock(h->priv);
        h->made = PMPI_Wtime();
    } else {
        h->priv = MPI_COMM_NULL;
    }
    return rc;
}

double mg_private_made(const void *state) {
    return hdr_of(state)->made;
}

double mg_private_stamp(const void *state, double origin) {
    return hdr_of(state)->one_clock ? (double)node_ns() * 1e-9 : PMPI_Wtime() - origin;
}

MPI_Comm mg_private_comm(const void *state) {
    return hdr_of(state)->priv;
}

void *mg_private_next(const mg_private_kind *k, const void *state) {
    mg_private_hdr *h = state ? hdr_of(state)->next : k->live;
    return h ? state_of(h) : NULL;
}

static int by_seq(const void *a, const void *b) {
    uint64_t x = hdr_of(*(void *const *)a)->seq, y = hdr_of(*(void *const *)b)->seq;
    return (x > y) - (x < y);
}

int mg_private_allmax(const mg_private_kind *k, int n, void (*fill)(void *state, int64_t *v),
                      void (*take)(void *state, const int64_t *v)) {
    int count = 0;
    for (void *s = mg_private_next(k, NULL); s; s = mg_private_next(k, s)) count++;
    size_t m = (size_t)(count ? count : 1);
    MPI_Request *rq = calloc(m, sizeof *rq);
    int64_t *buf = calloc(m * (size_t)n, sizeof *buf);
    char *posted = calloc(m, 1);
    void **order = calloc(m, sizeof *order);
    int rc = rq && buf && posted && order ? 0 : -1;
    int i = 0;
    for (void *s = mg_private_next(k, NULL); s && !rc; s = mg_private_next(k, s)) order[i++] = s;
    /* SMPI's nonblocking reduction sends every rank's values to every rank: at 256 simulated
     * ranks one took SimGrid more than an hour of host time, the blocking one seconds. So under
     * SMPI the reductions are blocking, in the order the duplicates were made (dups_made). */
    if (MG_SIMULATED_MPI && !rc) qsort(order, (size_t)i, sizeof *order, by_seq);
    for (int j = 0; j < i; j++) {
        void *s = order[j];
        fill(s, buf + (size_t)j * (size_t)n);
        int64_t *v = buf + (size_t)j * (size_t)n;
        MPI_Comm priv = mg_private_comm(s);
        rq[j] = MPI_REQUEST_NULL;
        if (priv == MPI_COMM_NULL) continue; /* not yet duplicated: no reduction */
        posted[j] =
            (MG_SIMULATED_MPI ? PMPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_MAX, priv)
                              : PMPI_Iallreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_MAX, priv,
                                                &rq[j])) == MPI_SUCCESS;
    }
    for (int j = 0; j < i; j++) { /* (MPICH's MPI_STATUSES_IGNORE upsets GCC's access checks) */
        MPI_Status st;
        PMPI_Wait(&rq[j], &st);
    }
    for (int j = 0; j < i; j++)
        if (posted[j]) take(order[j], buf + (size_t)j * (size_t)n);
    free(rq);
    free(buf);
    free(posted);
    free(order);
    return rc;
}
