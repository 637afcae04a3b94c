/* MPI_Init_thread(MPI_THREAD_MULTIPLE) with T threads (default 4), each running collectives on
 * its own communicator at the same time (duplicates of MPI_COMM_WORLD and a reversed-order
 * split), and every 25 iterations replacing it by a duplicate of itself, so the communicators'
 * scratch is made and released while the others run. Built without any link to mpiguide (the
 * tests preload it with mock-ups forced or profiles); intercept_threads_linked is the same
 * program linked with libmpiguide (the ThreadSanitizer build). Results must be right and
 * nothing may deadlock.
 *   intercept_threads [--threads=T] [--iter=N] */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 40 /* elements per call at most */

typedef struct job {
    MPI_Comm comm;
    int id, iter, failed;
} job;

static void check(job *j, int ok) {
    if (!ok) j->failed++;
}

/* One round of collectives on j->comm with c elements, results checked. */
static void round_of(job *j, int it, int c) {
    int p, r;
    MPI_Comm_size(j->comm, &p);
    MPI_Comm_rank(j->comm, &r);
    int s[MAXC * 16], d[MAXC * 16];
    for (int k = 0; k < c * p && k < MAXC * 16; k++) s[k] = r * 1000 + k + j->id;
    MPI_Allreduce(s, d, c, MPI_INT, MPI_SUM, j->comm);
    for (int k = 0; k < c; k++) check(j, d[k] == 1000 * p * (p - 1) / 2 + p * (k + j->id));
    int root = it % p;
    for (int k = 0; k < c; k++) d[k] = r == root ? k * 3 + j->id : -1;
    MPI_Bcast(d, c, MPI_INT, root, j->comm);
    for (int k = 0; k < c; k++) check(j, d[k] == k * 3 + j->id);
    if (p > 16) return;
    MPI_Allgather(s, c, MPI_INT, d, c, MPI_INT, j->comm);
    for (int i = 0; i < p * c; i++) check(j, d[i] == (i / c) * 1000 + i % c + j->id);
    MPI_Reduce(s, d, c, MPI_INT, MPI_SUM, root, j->comm);
    for (int k = 0; r == root && k < c; k++)
        check(j, d[k] == 1000 * p * (p - 1) / 2 + p * (k + j->id));
    MPI_Reduce_scatter_block(s, d, c, MPI_INT, MPI_SUM, j->comm);
    for (int k = 0; k < c; k++) check(j, d[k] == 1000 * p * (p - 1) / 2 + p * (r * c + k + j->id));
    MPI_Scan(s, d, c, MPI_INT, MPI_SUM, j->comm);
    for (int k = 0; k < c; k++) check(j, d[k] == 1000 * r * (r + 1) / 2 + (r + 1) * (k + j->id));
    MPI_Gather(s, c, MPI_INT, d, c, MPI_INT, root, j->comm);
    for (int i = 0; r == root && i < p * c; i++) check(j, d[i] == (i / c) * 1000 + i % c + j->id);
}

static void *work(void *arg) {
    job *j = arg;
    for (int it = 0; it < j->iter; it++) {
        round_of(j, it, 1 + (it + 7 * j->id) % MAXC);
        if (it % 25 == 24) { /* a fresh communicator: its scratch is made anew */
            MPI_Comm next;
            MPI_Comm_dup(j->comm, &next);
            MPI_Comm_free(&j->comm);
            j->comm = next;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    int provided, rank, size, nthreads = 4, iter = 100;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--threads=", 10)) nthreads = atoi(argv[i] + 10);
        if (!strncmp(argv[i], "--iter=", 7)) iter = atoi(argv[i] + 7);
    }
    if (nthreads < 1 || nthreads > 64) nthreads = 4;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0) printf("intercept_threads: MPI_THREAD_MULTIPLE not provided; skipped\n");
        MPI_Finalize();
        return 77;
    }
    job *jobs = calloc((size_t)nthreads, sizeof *jobs);
    pthread_t *th = calloc((size_t)nthreads, sizeof *th);
    for (int i = 0; i < nthreads; i++) { /* created in order on every rank, before the threads */
        jobs[i] = (job){MPI_COMM_NULL, i, iter, 0};
        if (i % 2)
            MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &jobs[i].comm);
        else
            MPI_Comm_dup(MPI_COMM_WORLD, &jobs[i].comm);
    }
    for (int i = 0; i < nthreads; i++) pthread_create(&th[i], NULL, work, &jobs[i]);
    int failed = 0, all = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(th[i], NULL);
        failed += jobs[i].failed;
        MPI_Comm_free(&jobs[i].comm);
    }
    PMPI_Allreduce(&failed, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("intercept_threads: %d threads, %d failed\n", nthreads, all);
    free(jobs);
    free(th);
    MPI_Finalize();
    return all ? 1 : 0;
}
