/* Synthetic raw benchmark data for the analysis tests: OUTDIR/raw/launch-K/<MPI_Name>.dat
 * with known medians and log-normal noise from a seeded generator, so every test knows the
 * right answer. */
#ifndef MG_SYNTH_H
#define MG_SYNTH_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t synth_state = 88172645463325252ull;

static void synth_seed(uint64_t s) {
    synth_state = s * 2654435761u + 0x9E3779B97F4A7C15ull;
    if (!synth_state) synth_state = 1;
}

static double synth_uniform(void) { /* (0, 1) */
    synth_state ^= synth_state << 13;
    synth_state ^= synth_state >> 7;
    synth_state ^= synth_state << 17;
    return ((double)(synth_state >> 11) + 0.5) / 9007199254740992.0;
}

static double synth_normal(void) {
    return sqrt(-2 * log(synth_uniform())) * cos(6.283185307179586 * synth_uniform());
}

/* A new empty directory under /tmp; the caller removes it with synth_rmrf. */
static char *synth_tmpdir(void) {
    static char buf[8][64];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, 64, "/tmp/mg_analyze_XXXXXX");
    return mkdtemp(b);
}

static void synth_rmrf(const char *dir) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) fprintf(stderr, "could not remove %s\n", dir);
}

static void synth_mkdirs(const char *path) {
    char b[512];
    snprintf(b, sizeof b, "%s", path);
    for (char *p = b + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(b, 0777);
            *p = '/';
        }
    mkdir(b, 0777);
}

/* Opens OUTDIR/raw/launch-K/<coll>.dat (append) and writes the header when new. */
static FILE *synth_open(const char *outdir, int launch, const char *coll, int nprocs) {
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/raw/launch-%d", outdir, launch);
    synth_mkdirs(dir);
    snprintf(path, sizeof path, "%s/%s.dat", dir, coll);
    int fresh = access(path, F_OK) != 0;
    FILE *f = fopen(path, "a");
    if (f && fresh)
        fprintf(f,
                "#@nprocs=%d\n#@nodes=1\n#@ppn=%d\n#@mpi_library=Synthetic MPI 1.0\n"
                "#@datatype=MPI_INT\n#@operation=MPI_SUM\n#@date=2024-06-01\n",
                nprocs, nprocs);
    return f;
}

/* Opens OUTDIR/tuned/launch-K/<coll>.dat (append; K from 1) for a validation launch, with a
 * header (extra: more `#@` lines, may be NULL). */
__attribute__((unused)) static FILE *
synth_open_tuned(const char *outdir, int launch, const char *coll, int nprocs, const char *extra) {
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/tuned/launch-%d", outdir, launch);
    synth_mkdirs(dir);
    snprintf(path, sizeof path, "%s/%s.dat", dir, coll);
    int fresh = access(path, F_OK) != 0;
    FILE *f = fopen(path, "a");
    if (f && fresh) fprintf(f, "#@nprocs=%d\n#@interleave=10\n%s", nprocs, extra ? extra : "");
    return f;
}

/* n observations of alg at msize: median * exp(noise * N(0, 1)). */
static void synth_rows(FILE *f, const char *coll, const char *alg, long long msize, double median,
                       double noise, int n) {
    for (int i = 0; i < n; i++)
        fprintf(f, "%s %s %d %lld %.9e\n", coll, alg, i, msize,
                median * exp(noise * synth_normal()));
}

/* One call: the series of alg in every launch 0..launches-1. */
static void synth_series(const char *outdir, int launches, const char *coll, const char *alg,
                         long long msize, double median, double noise, int n) {
    for (int l = 0; l < launches; l++) {
        FILE *f = synth_open(outdir, l, coll, 4);
        if (!f) return;
        synth_rows(f, coll, alg, msize, median, noise, n);
        fclose(f);
    }
}

__attribute__((unused)) static char *synth_slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

__attribute__((unused)) static int synth_count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

#endif
