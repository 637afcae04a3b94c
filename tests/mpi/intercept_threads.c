/* MPI_Init_thread(MPI_THREAD_MULTIPLE) with two threads, each running collectives on its own
 * duplicate of MPI_COMM_WORLD at the same time. Built without any link to mpiguide (the test
 * LD_PRELOADs it with mock-ups forced): results must be right and nothing may deadlock, which
 * a process-wide busy flag or shared scratch would break. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 300

typedef struct job {
    MPI_Comm comm;
    int id, failed;
} job;

static void *work(void *arg) {
    job *j = arg;
    int p, r;
    MPI_Comm_size(j->comm, &p);
    MPI_Comm_rank(j->comm, &r);
    int s[64], d[64 * 16];
    for (int it = 0; it < ITER; it++) {
        int c = 1 + (it + j->id) % 40;
        for (int k = 0; k < c; k++) s[k] = r * 1000 + k + j->id;
        MPI_Allreduce(s, d, c, MPI_INT, MPI_SUM, j->comm);
        for (int k = 0; k < c; k++)
            if (d[k] != 1000 * p * (p - 1) / 2 + p * (k + j->id)) j->failed++;
        for (int k = 0; k < c; k++) d[k] = r == it % p ? k * 3 + j->id : -1;
        MPI_Bcast(d, c, MPI_INT, it % p, j->comm);
        for (int k = 0; k < c; k++)
            if (d[k] != k * 3 + j->id) j->failed++;
        if (p <= 16) {
            MPI_Allgather(s, c, MPI_INT, d, c, MPI_INT, j->comm);
            for (int i = 0; i < p * c; i++)
                if (d[i] != (i / c) * 1000 + i % c + j->id) j->failed++;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0) printf("intercept_threads: MPI_THREAD_MULTIPLE not provided; skipped\n");
        MPI_Finalize();
        return 77;
    }
    job jobs[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        jobs[i] = (job){MPI_COMM_NULL, i, 0};
        MPI_Comm_dup(MPI_COMM_WORLD, &jobs[i].comm);
    }
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, work, &jobs[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    int failed = jobs[0].failed + jobs[1].failed, all = 0;
    PMPI_Allreduce(&failed, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 2; i++) MPI_Comm_free(&jobs[i].comm);
    if (rank == 0) printf("intercept_threads: %d failed\n", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
