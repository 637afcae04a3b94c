/* Harness cost: what the benchmark's observation loop adds to a measurement. It times an empty
 * operation through the real loop (every synchronisation method) and sets the result beside
 * the cost of the timer itself (two back-to-back MPI_Wtime calls); counts heap allocations
 * (malloc, calloc, realloc are wrapped at link time) for two loop lengths, so allocations per
 * observation show as a difference; and times the default collective called through
 * mpiguide_run next to the direct PMPI call. Run by bench/harness_cost.sh.
 *   --nrep=N   observations per measurement (default 20000)
 *   --check    exit 1 when the loop allocates per observation (a test, no timing asserted) */
#include "bench/harness.h"
#include <stdlib.h>
#include <string.h>

static long allocs;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t s);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) {
    allocs++;
    return __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t s) {
    allocs++;
    return __real_calloc(n, s);
}
void *__wrap_realloc(void *p, size_t n) {
    allocs++;
    return __real_realloc(p, n);
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double mean(const double *v, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += v[i];
    return s / (double)n;
}

static double median(double *v, int64_t n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Runs the loop on an empty call; returns rank 0's median local time and the allocations made
 * inside mg_observe. */
static double empty_loop(mg_harness *h, int64_t nrep, long *loop_allocs, double *maxrank,
                         double *flagged, double *avg) {
    mg_call c;
    char why[100];
    mg_call_setup(&c, MPIGUIDE_COLL_BARRIER, MG_CALL_EMPTY, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, 0,
                  h->comm, NULL, why, sizeof why);
    mg_obs o;
    mg_obs_alloc(&o, nrep, h->rank);
    mg_obs_plan plan = {nrep, 0.0, NULL, 0};
    long before = allocs;
    mg_observe(h, &c, &plan, &o);
    *loop_allocs = allocs - before;
    double *d = malloc(sizeof(double) * (size_t)o.n), med;
    for (int64_t i = 0; i < o.n; i++) d[i] = o.t1[i] - o.t0[i];
    *avg = mean(d, o.n);
    med = median(d, o.n);
    mg_obs_collect(h, &o);
    if (h->rank == 0) {
        int64_t f = 0;
        for (int64_t i = 0; i < o.n; i++) f += o.gflag[i] != 0;
        *flagged = (double)f / (double)o.n;
        *maxrank = median(o.runtime, o.n);
    }
    free(d);
    mg_obs_free(&o);
    mg_call_free(&c);
    return med;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, p, check = 0;
    int64_t nrep = 20000;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--check"))
            check = 1;
        else if (!strncmp(argv[i], "--nrep=", 7))
            nrep = atoll(argv[i] + 7);
    }
    if (nrep < 100) nrep = 100;
    mpiguide_init();

    /* the timer: two back-to-back calls */
    int64_t nt = 1000000;
    double *t = malloc(sizeof(double) * (size_t)nt);
    for (int64_t i = 0; i < nt; i++) {
        double a = MPI_Wtime();
        double b = MPI_Wtime();
        t[i] = b - a;
    }
    double timer_avg = mean(t, nt), timer = median(t, nt), tick = MPI_Wtick();
    free(t);

    /* the default through mpiguide_run next to the direct PMPI call (count 0 on self) */
    int64_t nd = 200000;
    int buf = 0;
    mpiguide_args a = {0};
    a.sendbuf = &buf;
    a.recvbuf = &buf;
    a.recvtype = a.sendtype = MPI_INT;
    a.comm = MPI_COMM_SELF;
    int def = mpiguide_default_algorithm(MPIGUIDE_COLL_BCAST);
    double t0 = MPI_Wtime();
    for (int64_t i = 0; i < nd; i++) PMPI_Bcast(&buf, 0, MPI_INT, 0, MPI_COMM_SELF);
    double direct = (MPI_Wtime() - t0) / (double)nd;
    t0 = MPI_Wtime();
    for (int64_t i = 0; i < nd; i++) mpiguide_run(def, &a, NULL, NULL);
    double via = (MPI_Wtime() - t0) / (double)nd;

    if (rank == 0) {
        printf("# harness cost, %d ranks, %lld observations per method\n", p, (long long)nrep);
        printf("timer: MPI_Wtime back to back: median %.1f ns, mean %.2f ns (MPI_Wtick %.1f ns)\n",
               timer * 1e9, timer_avg * 1e9, tick * 1e9);
        printf("dispatch: default MPI_Bcast(count 0, self) direct %.1f ns, through mpiguide_run "
               "%.1f ns (+%.1f ns)\n",
               direct * 1e9, via * 1e9, (via - direct) * 1e9);
        printf("%-14s %9s %9s %15s %18s %15s %8s\n", "sync", "empty_ns", "mean_ns", "mean-timer_ns",
               "max_over_ranks_ns", "allocs_per_obs", "flagged");
    }
    int status = 0;
    const int methods[] = {MG_SYNC_MPIBARRIER, MG_SYNC_DISSEMINATION, MG_SYNC_ROUNDTIME,
                           MG_SYNC_WINDOW};
    for (int m = 0; m < 4; m++) {
        mg_bench_opts o;
        mg_bench_defaults(&o);
        o.sync = methods[m];
        o.runtime = MG_RUNTIME_LOCAL; /* the harness's cost, not the start skew */
        mg_harness h;
        mg_harness_init(&h, MPI_COMM_WORLD, &o);
        long a_small, a_large;
        double mx = 0, mx2 = 0, fl = 0, fl2 = 0, avg = 0, avg2 = 0;
        empty_loop(&h, nrep / 10, &a_small, &mx2, &fl2, &avg2);
        double med = empty_loop(&h, nrep, &a_large, &mx, &fl, &avg);
        /* allocations that grow with the number of observations */
        double per_obs = (double)(a_large - a_small) / (double)(nrep - nrep / 10);
        long worst[2] = {a_small, a_large}, all[2];
        PMPI_Allreduce(worst, all, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        if (all[1] != all[0] || all[1] != 0) status = 1;
        if (rank == 0)
            printf("%-14s %9.1f %9.2f %15.2f %18.1f %15.6f %7.1f%%\n", mg_sync_name(methods[m]),
                   med * 1e9, avg * 1e9, (avg - timer_avg) * 1e9, mx * 1e9, per_obs, 100.0 * fl);
        mg_harness_free(&h);
    }
    if (rank == 0) {
        printf("# empty_ns, mean_ns: rank 0's median and mean time of the empty call as the loop\n"
               "# measures it (t0 = MPI_Wtime(); call through a function pointer; t1 =\n"
               "# MPI_Wtime()); the harness adds mean-timer_ns to every observation (the timer's\n"
               "# own cost is in every measurement anyway). max_over_ranks_ns: median\n"
               "# of the slowest rank's local time (runtime-type local). allocs_per_obs counts\n"
               "# malloc/calloc/realloc inside the loop (0 means nothing per observation);\n"
               "# flagged: observations with a missed start or window overrun.\n");
        if (check) printf("check: %s\n", status ? "FAIL: the loop allocates" : "ok");
    }
    MPI_Finalize();
    return check ? status : 0;
}
