/* Rank 0's output: the self-describing header, raw rows written with one write() per
 * measurement (a killed run keeps every complete measurement, nothing half), and the progress
 * line on stderr (live on a terminal, plain lines otherwise). */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "launcher.h"
#include "sim.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- header ---- */
static void add(char *out, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *out, size_t len, size_t *pos, const char *fmt, ...) {
    if (*pos >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(out + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (k > 0) *pos += (size_t)k;
}

int mg_comm_layout(MPI_Comm comm, int *nodes, int *ppn) {
    /* nodes: ranks sharing memory form one node; ppn: the most ranks on a node */
    MPI_Comm node;
    int rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    if (rc != MPI_SUCCESS) return rc;
    int nrank, nsize, in[2], sums[2] = {0, 0};
    PMPI_Comm_rank(node, &nrank);
    PMPI_Comm_size(node, &nsize);
    PMPI_Comm_free(&node);
    in[0] = nrank == 0;
    in[1] = nsize;
    rc = PMPI_Allreduce(&in[0], &sums[0], 1, MPI_INT, MPI_SUM, comm);
    if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(&in[1], &sums[1], 1, MPI_INT, MPI_MAX, comm);
    *nodes = sums[0], *ppn = sums[1];
    return rc;
}

int mg_bench_header(mg_harness *h, const mg_bench_opts *o, int raw, const char *extra, char *out,
                    size_t outlen) {
    int nodes, ppn;
    int rc = mg_comm_layout(h->hcomm, &nodes, &ppn);
    if (rc != MPI_SUCCESS || h->rank != 0) return rc;

    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "unknown", host[MPI_MAX_PROCESSOR_NAME] = "";
    int len = 0;
    PMPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = 0;
    PMPI_Get_processor_name(host, &len);
    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);

    size_t pos = 0;
    out[0] = 0;
    add(out, outlen, &pos, "#@nprocs=%d\n#@nodes=%d\n#@ppn=%d\n", h->p, nodes, ppn);
    add(out, outlen, &pos, "#@clock=MPI_Wtime\n#@procsync=%s\n#@runtime_type=%s\n",
        mg_sync_name(h->sync), mg_runtime_name(h->runtime));
    add(out, outlen, &pos, "#@clock_sync_error_s=%.3e\n", h->need_clock ? h->clock_err : 0.0);
    if (h->need_clock) { /* the drift bound, and what the first synchronisation rejected */
        char ev[256];
        mg_clock_events_text(h, ev, sizeof ev);
        add(out, outlen, &pos, "#@clock_drift_max=%g\n%s", MG_CLOCK_DRIFT_MAX, ev);
    }
    if (raw) {
        add(out, outlen, &pos, "#@nrep=%lld\n", o->nrep_file ? 0LL : (long long)o->nrep);
        if (o->nrep_file) add(out, outlen, &pos, "#@nrep_file=%s\n", o->nrep_file);
        if (o->time_ms > 0) add(out, outlen, &pos, "#@rt_bench_time_ms=%g\n", o->time_ms);
    }
    add(out, outlen, &pos, "#@datatype=%s\n#@operation=%s\n#@root_proc=%d\n", o->datatype, o->op,
        o->root);
    char roots[256];
    mg_bench_roots_text(o, roots, sizeof roots);
    add(out, outlen, &pos, "#@roots=%s\n", roots);
    if (o->batch)
        add(out, outlen, &pos, "#@timing=back-to-back\n#@batch=%lld\n", (long long)o->batch);
    else
        add(out, outlen, &pos, "#@timing=single\n");
    if (raw) add(out, outlen, &pos, "#@warmup=%lld\n", (long long)o->warmup);
    if (raw && o->irregular[0])
        add(out, outlen, &pos, "#@irregular=%s\n#@rho=%g\n", o->irregular, o->rho);
    add(out, outlen, &pos, "#@mpi_library=%s\n#@hostname=%s\n#@date=%s\n", version, host, date);
    add(out, outlen, &pos, "#@mpiguide_version=%s\n", MPIGUIDE_VERSION);
    add(out, outlen, &pos, "#@launcher=%s\n", mg_launcher(NULL));
    /* said once per file: timings of more ranks than cores are not trustworthy */
    const mg_machine *m = &h->machine;
    add(out, outlen, &pos, "#@oversubscribed=%d\n", m->any_over);
    if (m->any_over)
        add(out, outlen, &pos, "#@node_ranks=%d\n#@node_cores=%d\n#@busy_poll=%d\n", m->worst_ranks,
            m->worst_cores, m->busy_poll);
    mg_sim_header(out, outlen, &pos); /* SMPI: what the simulated times include */
    if (extra) add(out, outlen, &pos, "%s", extra);
    return MPI_SUCCESS;
}

/* ---- raw rows ---- */
static int write_all(int fd, const char *buf, size_t n) {
    while (n) {
        ssize_t k = write(fd, buf, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        buf += k;
        n -= (size_t)k;
    }
    return 0;
}

int mg_raw_lock(const char *path, int *fd, int *created) {
    /* O_RDWR: NFS takes an exclusive flock as a byte-range write lock, which needs a file
     * open for writing. O_NONBLOCK: opening a FIFO would wait for the other side, which is this
     * process. Only a regular file is locked (a FIFO or a device holds no rows to resume). */
    *created = 0;
    *fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NONBLOCK, 0644);
    if (*fd >= 0)
        *created = 1;
    else if (errno == EEXIST)
        *fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
    if (*fd < 0) return -1;
    struct stat st;
    if (fstat(*fd, &st) || !S_ISREG(st.st_mode)) {
        close(*fd);
        *fd = -1;
        return 0;
    }
    while (flock(*fd, LOCK_EX | LOCK_NB)) {
        int e = errno;
        if (e == EINTR) continue;
        close(*fd);
        *fd = -1;
        /* a file system without locks: run unlocked */
        if (e == ENOLCK || e == EINVAL || e == ENOSYS || e == EOPNOTSUPP) return 0;
        errno = e;
        return -1;
    }
    return 0;
}

int mg_raw_open(mg_raw_writer *w, const char *path, int append, int with_flag) {
    memset(w, 0, sizeof *w);
    w->with_flag = with_flag;
    if (!path) {
        fflush(stdout);
        w->fd = STDOUT_FILENO;
        return 0;
    }
    w->fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
    return w->fd < 0 ? -1 : 0;
}

int mg_raw_write_text(mg_raw_writer *w, const char *text) {
    if (w->fd == STDOUT_FILENO) fflush(stdout);
    return write_all(w->fd, text, strlen(text));
}

int mg_raw_write_meas(mg_raw_writer *w, const char *test, const char *alg, int64_t msize,
                      const double *rt, const int *flag, int64_t n, int section) {
    size_t row = strlen(test) + strlen(alg) + 80, need = row * (size_t)(n > 0 ? n : 1) + 40;
    if (need > w->cap) {
        char *b = realloc(w->buf, need);
        if (!b) return -1;
        w->buf = b;
        w->cap = need;
    }
    size_t pos = 0;
    if (section > 0 && section != w->section) {
        pos = (size_t)snprintf(w->buf, w->cap, "#@comm_size=%d\n", section);
        w->section = section;
    }
    for (int64_t i = 0; i < n; i++) {
        int k = w->with_flag ? snprintf(w->buf + pos, w->cap - pos, "%s %s %lld %lld %.10f %d\n",
                                        test, alg, (long long)i, (long long)msize, rt[i], flag[i])
                             : snprintf(w->buf + pos, w->cap - pos, "%s %s %lld %lld %.10f\n", test,
                                        alg, (long long)i, (long long)msize, rt[i]);
        if (k < 0 || (size_t)k >= w->cap - pos) return -1;
        pos += (size_t)k;
    }
    if (w->fd == STDOUT_FILENO) fflush(stdout);
    return write_all(w->fd, w->buf, pos);
}

void mg_raw_close(mg_raw_writer *w) {
    if (w->fd > STDERR_FILENO) close(w->fd);
    free(w->buf);
    memset(w, 0, sizeof *w);
}

/* ---- progress ---- */
void mg_progress_begin(mg_progress *pr, int64_t total, int quiet, int rank) {
    memset(pr, 0, sizeof *pr);
    /* Launchers hand rank 0 a pipe for stderr even when their own is a terminal, so a live
     * line can be asked for: MPIGUIDE_PROGRESS=live (or lines, or off). */
    const char *mode = getenv("MPIGUIDE_PROGRESS");
    pr->on = !quiet && rank == 0 && !(mode && !strcmp(mode, "off"));
    pr->tty = mode && !strcmp(mode, "live")    ? 1
              : mode && !strcmp(mode, "lines") ? 0
                                               : isatty(STDERR_FILENO);
    pr->total = total;
    pr->t_begin = MPI_Wtime();
    pr->t_last = pr->t_begin;
}

static void eta_text(char *buf, size_t len, double s) {
    if (s < 0 || s != s)
        snprintf(buf, len, "?");
    else if (s < 120)
        snprintf(buf, len, "%.0fs", s);
    else if (s < 7200)
        snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, len, "%.1fh", s / 3600);
}

/* Called when a measurement starts: pr->done measurements are complete. */
void mg_progress_step(mg_progress *pr, const char *call, const char *alg, int64_t msize) {
    if (!pr->on) return;
    double now = MPI_Wtime(), spent = now - pr->t_begin;
    if (!pr->tty && now - pr->t_last < 5.0) return; /* plain lines: long runs, every 5 s */
    char eta[32];
    eta_text(eta, sizeof eta,
             pr->done ? spent / (double)pr->done * (double)(pr->total - pr->done) : -1.0);
    if (pr->tty) {
        fprintf(stderr, "\r\033[K[%lld/%lld] %s %s %lld B  remaining %lld  eta %s",
                (long long)pr->done + 1, (long long)pr->total, call, alg, (long long)msize,
                (long long)(pr->total - pr->done), eta);
        pr->live = 1;
    } else {
        fprintf(stderr, "mpiguide: progress: %lld/%lld done, now %s %s %lld B, eta %s\n",
                (long long)pr->done, (long long)pr->total, call, alg, (long long)msize, eta);
    }
    fflush(stderr);
    pr->t_last = now;
}

void mg_progress_clear(mg_progress *pr) {
    if (pr->on && pr->live) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
        pr->live = 0;
    }
}

void mg_progress_end(mg_progress *pr) {
    if (!pr->on) return;
    mg_progress_clear(pr);
    if (pr->total > 1 && (MPI_Wtime() - pr->t_begin > 5.0 || pr->tty))
        fprintf(stderr, "mpiguide: progress: %lld/%lld measurements in %.1fs\n",
                (long long)pr->done, (long long)pr->total, MPI_Wtime() - pr->t_begin);
}
