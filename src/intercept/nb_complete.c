/* The time of a nonblocking collective in the accounting (MPIGUIDE_RECORD, MPIGUIDE_REPORT): from
 * its start to the wait or test that completes it. The general path keeps each started one in a
 * small table keyed by its request; the wrappers of MPI_Wait, Waitall, Waitany, Waitsome, Test,
 * Testall, Testany and Testsome go straight to PMPI while the table is empty (one load and a
 * branch), and otherwise note every kept request that the call turned into MPI_REQUEST_NULL
 * (a completed nonblocking collective's request always is). docs/record.md "Nonblocking
 * collectives". The guard of nonblocking collectives (nb_guard.c) keeps its sampled starts here
 * too: their completion hands it the time the completing wait or test call took. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "intercept.h"
#include "guard.h"
#include "runtime/mpi_family.h"
#include <sys/resource.h>

#define NB_MAX 256 /* started and not yet completed; beyond, a start is noted by itself */

typedef struct pending {
    MPI_Request req;
    int coll, nodes, ppn, at; /* at: index of req in the array of the current wait or test */
    int rec;                  /* 1: the record notes it (mg_nb_started) */
    int tok;                  /* the guard's sample token, -1: none */
    uint64_t serial;          /* the start that kept it */
    mg_args a;
    mg_callinfo ci;
    double t0, t_started; /* the start call's entry and return */
} pending;

/* Only without MPI_THREAD_MULTIPLE (mg_threads: a start is noted by itself), so a wait in one
 * thread never meets a table another thread changes. */
static pending tab[NB_MAX];
static int used; /* tab[0..used) is the table, no holes */
int mg_nb_pending;
static uint64_t serial, fresh; /* the guard's kept starts; fresh: the one of the current start
                                  (0: none), which the record joins */
static double wait_s;          /* the current wait or test call's time, and whether this rank was */
static int wait_disturbed;     /* switched out meanwhile (only while a guard sample is kept) */

static int same(MPI_Request x, MPI_Request y) {
    return !memcmp(&x, &y, sizeof x);
}

/* Notes entry i (completed by a wait or test, or only its start call) and removes it. */
static void settle(int i, int completed, double t1) {
    pending *p = &tab[i];
    if (p->rec)
        mg_record_note_at(p->coll, &p->a, &p->ci, p->nodes, p->ppn, completed, p->t0,
                          completed ? t1 : p->t_started);
    if (p->tok >= 0) mg_nbguard_done(p->tok, completed, wait_s, wait_disturbed);
    tab[i] = tab[--used];
    mg_nb_pending = used;
}

/* A kept request with the same handle was freed without our seeing its completion (a Fortran
 * wait, MPI_Request_free): the library reused the handle, so the old one counts with its start
 * call only (and is no sample of the guard). Returns the entry the guard kept for this very
 * start, if any. */
static pending *forget_stale(MPI_Request req, uint64_t fresh) {
    for (int i = 0; i < used; i++)
        if (same(tab[i].req, req)) {
            if (fresh && tab[i].serial == fresh && !tab[i].rec) return &tab[i];
            settle(i, 0, 0);
            break;
        }
    return NULL;
}

int mg_nb_started(int coll, const mg_args *a, const mg_callinfo *ci, double t0) {
    double now = PMPI_Wtime();
    if (mg_threads || !a->request || same(*a->request, MPI_REQUEST_NULL)) return 0;
    pending *p = forget_stale(*a->request, fresh);
    fresh = 0;
    if (!p && used < NB_MAX) {
        p = &tab[used++];
        p->tok = -1;
        p->serial = 0;
    }
    if (!p) return 0;
    const mg_centry *e = ci->e;
    int tok = p->tok;
    uint64_t sn = p->serial;
    *p = (pending){*a->request, coll, e ? e->nodes : 0, e ? e->ppn : 0, -1, 1, tok, sn, *a, *ci,
                   t0,          now};
    p->ci.e = NULL;
    p->a.request = NULL;
    mg_nb_pending = used;
    return 1;
}

int mg_nb_guard_keep(MPI_Request req, int tok) {
    if (mg_threads || same(req, MPI_REQUEST_NULL)) return 0;
    forget_stale(req, 0);
    if (used == NB_MAX) return 0;
    pending *p = &tab[used++];
    memset(p, 0, sizeof *p);
    p->req = req;
    p->at = -1;
    p->tok = tok;
    p->serial = fresh = ++serial;
    mg_nb_pending = used;
    return 1;
}

/* Before a wait or test on reqs[0..n): where each kept request is in the array; 1 when one of
 * them is a guard sample's (its call is timed with whether the rank was switched out). */
static int find(int n, const MPI_Request *reqs) {
    int sample = 0;
    for (int i = 0; i < used; i++) {
        tab[i].at = -1;
        for (int k = 0; k < n && tab[i].at < 0; k++)
            if (same(tab[i].req, reqs[k])) tab[i].at = k;
        sample |= tab[i].at >= 0 && tab[i].tok >= 0;
    }
    return sample;
}

/* After it (which started at t0): the kept requests it completed. */
static void done(const MPI_Request *reqs, double t0, int sample, const struct rusage *r0) {
    double t1 = PMPI_Wtime();
    struct rusage r1;
    wait_s = t1 - t0;
    wait_disturbed = sample && r0->ru_nivcsw >= 0 && getrusage(RUSAGE_THREAD, &r1) == 0 &&
                     r1.ru_nivcsw != r0->ru_nivcsw;
    for (int i = used - 1; i >= 0; i--)
        if (tab[i].at >= 0 && same(reqs[tab[i].at], MPI_REQUEST_NULL)) settle(i, 1, t1);
    wait_s = 0;
    wait_disturbed = 0;
}

void mg_nb_flush(void) {
    while (used) settle(used - 1, 0, 0);
}

#define NB_AROUND(n, reqs, CALL)                                                                   \
    do {                                                                                           \
        struct rusage r0_ = {.ru_nivcsw = -1};                                                     \
        int sample_ = find(n, reqs);                                                               \
        if (sample_ && (MG_SIMULATED_MPI || getrusage(RUSAGE_THREAD, &r0_) != 0))                  \
            r0_.ru_nivcsw = -1;                                                                    \
        double t0_ = PMPI_Wtime();                                                                 \
        int rc_ = CALL;                                                                            \
        done(reqs, t0_, sample_, &r0_);                                                            \
        return rc_;                                                                                \
    } while (0)

static MG_SLOW int wait_slow(MPI_Request *r, MPI_Status *st) {
    NB_AROUND(1, r, PMPI_Wait(r, st));
}
static MG_SLOW int test_slow(MPI_Request *r, int *flag, MPI_Status *st) {
    NB_AROUND(1, r, PMPI_Test(r, flag, st));
}
static MG_SLOW int waitall_slow(int n, MPI_Request r[], MPI_Status st[]) {
    NB_AROUND(n, r, PMPI_Waitall(n, r, st));
}
static MG_SLOW int testall_slow(int n, MPI_Request r[], int *flag, MPI_Status st[]) {
    NB_AROUND(n, r, PMPI_Testall(n, r, flag, st));
}
static MG_SLOW int waitany_slow(int n, MPI_Request r[], int *idx, MPI_Status *st) {
    NB_AROUND(n, r, PMPI_Waitany(n, r, idx, st));
}
static MG_SLOW int testany_slow(int n, MPI_Request r[], int *idx, int *flag, MPI_Status *st) {
    NB_AROUND(n, r, PMPI_Testany(n, r, idx, flag, st));
}
static MG_SLOW int waitsome_slow(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[]) {
    NB_AROUND(n, r, PMPI_Waitsome(n, r, out, idx, st));
}
static MG_SLOW int testsome_slow(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[]) {
    NB_AROUND(n, r, PMPI_Testsome(n, r, out, idx, st));
}

MG_EXPORT int MPI_Wait(MPI_Request *r, MPI_Status *st) {
    if (__builtin_expect(!mg_nb_pending, 1)) return PMPI_Wait(r, st);
    return wait_slow(r, st);
}
MG_EXPORT int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st) {
    if (__builtin_expect(!mg_nb_pending, 1)) return PMPI_Test(r, flag, st);
    return test_slow(r, flag, st);
}
MG_EXPORT int MPI_Waitall(int n, MPI_Request r[], MPI_Status st[]) {
    if (__builtin_expect(!mg_nb_pending, 1)) return PMPI_Waitall(n, r, st);
    return waitall_slow(n, r, st);
}
MG_EXPORT int MPI_Testall(int n, MPI_Request r[], int *flag, MPI_Status st[]) {
    if (__builtin_expect(!mg_nb_pending, 1)) return PMPI_Testall(n, r, flag, st);
    return testall_slow(n, r, flag, st);
}
MG_EXPORT int MPI_Waitany(int n, MPI_Request r[], int *idx, MPI_Status *st) {
    if (__builtin_expect(!mg_nb_pending, 1)) return PMPI_Waitany(n, r, idx, st);
    return waitany_slow(n, r, idx, st);
}
MG_EXPORT int MPI_Testany(int n, MPI_Request r[], int *idx, int *flag, MPI_Status *st) {
    if (__builtin_expect(!mg_nb_pending, 1)) return PMPI_Testany(n, r, idx, flag, st);
    return testany_slow(n, r, idx, flag, st);
}
MG_EXPORT int MPI_Waitsome(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[]) {
    if (__builtin_expect(!mg_nb_pending, 1)) return PMPI_Waitsome(n, r, out, idx, st);
    return waitsome_slow(n, r, out, idx, st);
}
MG_EXPORT int MPI_Testsome(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[]) {
    if (__builtin_expect(!mg_nb_pending, 1)) return PMPI_Testsome(n, r, out, idx, st);
    return testsome_slow(n, r, out, idx, st);
}
