/* The machine under a job: per node (ranks sharing memory, MPI_COMM_TYPE_SHARED) the ranks
 * against the cores they may run on (online processors, narrowed to the union of the ranks'
 * affinity masks). More ranks than cores makes timings untrustworthy: a rank that waits for a
 * descheduled peer loses a time slice, and MPICH's progress engine busy-polls (it yields only
 * every MPIR_CVAR_POLLS_BEFORE_YIELD polls), so a collective can cost milliseconds. The
 * harness yields in its own waiting loops then, and the raw header says so. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "harness.h"
#include "sim.h"
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MASK_WORDS (CPU_SETSIZE / (8 * (int)sizeof(unsigned long)))

/* Cores of this node that its ranks may use: the union of their affinity masks (one
 * reduction over the node), capped by the online processors; under SMPI the cores of the
 * simulated host (the same on every rank of a node, so no reduction is skipped by some). */
static int node_cores(MPI_Comm node) {
    int simulated = mg_sim_host_cores(); /* SMPI: the simulated host's, not this machine's */
    if (simulated > 0) return simulated;
    cpu_set_t set;
    unsigned long mine[MASK_WORDS], all[MASK_WORDS];
    memset(mine, 0, sizeof mine);
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                mine[c / (8 * sizeof(unsigned long))] |= 1ul << (c % (8 * sizeof(unsigned long)));
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int n = 0;
    if (PMPI_Allreduce(mine, all, MASK_WORDS, MPI_UNSIGNED_LONG, MPI_BOR, node) == MPI_SUCCESS)
        for (int w = 0; w < MASK_WORDS; w++) n += __builtin_popcountl(all[w]);
    if (n <= 0) n = online > 0 ? (int)online : 1; /* no affinity known: every online core */
    if (online > 0 && n > online) n = (int)online;
    return n;
}

int mg_machine_probe(MPI_Comm comm, mg_machine *m) {
    memset(m, 0, sizeof *m);
    MPI_Comm node;
    int rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    if (rc != MPI_SUCCESS) return rc;
    PMPI_Comm_size(node, &m->node_ranks);
    m->node_cores = node_cores(node);
    PMPI_Comm_free(&node);
    m->over = m->node_ranks > m->node_cores;
    m->simulated = mg_sim_host_cores() > 0;
    /* the node with the most ranks beyond its cores speaks for the job */
    int rank, in[2] = {m->node_ranks - m->node_cores, 0}, out[2];
    PMPI_Comm_rank(comm, &rank);
    in[1] = rank;
    rc = PMPI_Allreduce(in, out, 1, MPI_2INT, MPI_MAXLOC, comm);
    int worst[2] = {m->node_ranks, m->node_cores};
    if (rc == MPI_SUCCESS) rc = PMPI_Bcast(worst, 2, MPI_INT, out[1], comm);
    if (rc != MPI_SUCCESS) return rc;
    m->any_over = out[0] > 0;
    m->worst_ranks = worst[0];
    m->worst_cores = worst[1];
#ifdef MPICH
    m->busy_poll = m->any_over;
#endif
    return MPI_SUCCESS;
}

/* This process's CPU time and involuntary context switches so far (every thread: MPI's own and
 * the watchdog's mostly sleep). */
static void usage_now(double *cpu, long *switches) {
    struct rusage u;
    *cpu = 0.0, *switches = 0;
    if (getrusage(RUSAGE_SELF, &u)) return;
    *cpu = (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
    *switches = u.ru_nivcsw;
}

void mg_busy_begin(mg_busy *b) {
    b->wall = MPI_Wtime();
    usage_now(&b->cpu, &b->switches);
}

int mg_busy_end(MPI_Comm comm, const mg_busy *b, double *per_s, double *share) {
    double cpu, wall = MPI_Wtime() - b->wall;
    long switches;
    usage_now(&cpu, &switches);
    double in[2] = {0.0, -1.0}, out[2];
    if (wall > 0) {
        in[0] = (double)(switches - b->switches) / wall;
        in[1] = -(cpu - b->cpu) / wall;
    }
    int rc = PMPI_Allreduce(in, out, 2, MPI_DOUBLE, MPI_MAX, comm);
    *per_s = out[0];
    *share = -out[1];
    return rc;
}
