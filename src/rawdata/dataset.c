/* Reader of raw benchmark files: `#@key=value` headers, then rows
 * `test alg nrep msize runtime_sec [flag]`. Built for millions of rows (one pass, no
 * per-row allocation, a hash from (launch, test, alg, msize) to the series) and for
 * interrupted runs (an incomplete last line is dropped, the rest is kept). */
#include "outdir/outdir.h"
#include "dataset.h"
#include "line.h"
#include "stats/stats.h"
#include "util/file.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_ROW_NOTES 5 /* malformed-row notes per file; the rest are counted */

static char *dupn(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

static char *copy_of(const char *s) {
    return dupn(s, strlen(s));
}

/* Grows *arr (element size sz) to hold at least need elements. */
static int grow(void **arr, int *cap, int need, size_t sz) {
    if (need <= *cap) return 0;
    int nc = *cap ? *cap * 2 : 8;
    while (nc < need) nc *= 2;
    void *p = realloc(*arr, (size_t)nc * sz);
    if (!p) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

void mg_dataset_init(mg_dataset *ds) {
    memset(ds, 0, sizeof *ds);
    ds->cache_name[0] = ds->cache_name[1] = -1;
}

void mg_dataset_free(mg_dataset *ds) {
    for (int i = 0; i < ds->nnames; i++) free(ds->names[i]);
    free(ds->names);
    for (int i = 0; i < ds->nlaunches; i++) {
        free(ds->launches[i].path);
        for (int j = 0; j < ds->launches[i].nhdr; j++) {
            free(ds->launches[i].hdr[j].key);
            free(ds->launches[i].hdr[j].val);
        }
        free(ds->launches[i].hdr);
    }
    free(ds->launches);
    for (int i = 0; i < ds->nfiles; i++) {
        free(ds->files[i].path);
        for (int j = 0; j < ds->files[i].nhdr; j++) {
            free(ds->files[i].hdr[j].key);
            free(ds->files[i].hdr[j].val);
        }
        free(ds->files[i].hdr);
    }
    free(ds->files);
    for (size_t i = 0; i < ds->nseries; i++) {
        free(ds->series[i].v);
        free(ds->series[i].seq);
    }
    free(ds->series);
    free(ds->index);
    for (int i = 0; i < ds->nnotes; i++) free(ds->notes[i]);
    free(ds->notes);
    for (int i = 0; i < ds->ndeclined; i++) {
        free(ds->declined[i].coll);
        free(ds->declined[i].alg);
        free(ds->declined[i].why);
    }
    free(ds->declined);
    free(ds->skipped);
    mg_dataset_init(ds);
}

void mg_dataset_note(mg_dataset *ds, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (grow((void **)&ds->notes, &ds->capnotes, ds->nnotes + 1, sizeof *ds->notes)) return;
    char *d = copy_of(buf);
    if (d) ds->notes[ds->nnotes++] = d;
}

int mg_dataset_find_name(const mg_dataset *ds, const char *name) {
    for (int i = 0; i < ds->nnames; i++)
        if (!strcmp(ds->names[i], name)) return i;
    return -1;
}

int mg_dataset_intern(mg_dataset *ds, const char *name, size_t len) {
    for (int i = 0; i < ds->nnames; i++)
        if (!strncmp(ds->names[i], name, len) && ds->names[i][len] == 0) return i;
    if (grow((void **)&ds->names, &ds->capnames, ds->nnames + 1, sizeof *ds->names)) return -1;
    char *d = dupn(name, len);
    if (!d) return -1;
    ds->names[ds->nnames] = d;
    return ds->nnames++;
}

/* Interns through a one-entry cache: rows come in runs of the same test and algorithm. */
static int intern_cached(mg_dataset *ds, int slot, const char *s, size_t len) {
    int c = ds->cache_name[slot];
    if (c >= 0 && !strncmp(ds->names[c], s, len) && ds->names[c][len] == 0) return c;
    c = mg_dataset_intern(ds, s, len);
    ds->cache_name[slot] = c;
    return c;
}

int mg_dataset_add_launch(mg_dataset *ds, const char *path, int tuned) {
    if (grow((void **)&ds->launches, &ds->caplaunches, ds->nlaunches + 1, sizeof *ds->launches))
        return -1;
    mg_launch *l = &ds->launches[ds->nlaunches];
    memset(l, 0, sizeof *l);
    l->path = copy_of(path);
    l->tuned = tuned;
    if (!l->path) return -1;
    return ds->nlaunches++;
}

const char *mg_dataset_header(const mg_dataset *ds, int launch, const char *key) {
    for (int i = launch < 0 ? 0 : launch; i < (launch < 0 ? ds->nlaunches : launch + 1); i++)
        for (int j = 0; j < ds->launches[i].nhdr; j++)
            if (!strcmp(ds->launches[i].hdr[j].key, key)) return ds->launches[i].hdr[j].val;
    return NULL;
}

const char *mg_dataset_file_header(const mg_dataset *ds, int file, const char *key) {
    if (file < 0 || file >= ds->nfiles) return NULL;
    for (int j = 0; j < ds->files[file].nhdr; j++)
        if (!strcmp(ds->files[file].hdr[j].key, key)) return ds->files[file].hdr[j].val;
    return NULL;
}

/* ---- series hash ---- */

static uint64_t key_hash(int coll, int alg, int launch, long long msize, int p, int variant) {
    uint64_t h = (uint64_t)msize * 0x9E3779B97F4A7C15ull ^ (uint64_t)(unsigned)p << 52;
    h ^= (uint64_t)(unsigned)variant << 30;
    h ^= ((uint64_t)(unsigned)coll << 40) ^ ((uint64_t)(unsigned)alg << 20) ^ (unsigned)launch;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h;
}

static int rehash(mg_dataset *ds, size_t nslots) {
    size_t *idx = malloc(nslots * sizeof *idx);
    if (!idx) return -1;
    for (size_t i = 0; i < nslots; i++) idx[i] = SIZE_MAX;
    for (size_t s = 0; s < ds->nseries; s++) {
        mg_series *e = &ds->series[s];
        size_t h = key_hash(e->coll, e->alg, e->launch, e->msize, e->p, e->variant) & (nslots - 1);
        while (idx[h] != SIZE_MAX) h = (h + 1) & (nslots - 1);
        idx[h] = s;
    }
    free(ds->index);
    ds->index = idx;
    ds->nindex = nslots;
    return 0;
}

static mg_series *get_series(mg_dataset *ds, int coll, int alg, int launch, long long msize, int p,
                             int file, int variant) {
    if (ds->nindex) {
        size_t h = key_hash(coll, alg, launch, msize, p, variant) & (ds->nindex - 1);
        for (; ds->index[h] != SIZE_MAX; h = (h + 1) & (ds->nindex - 1)) {
            mg_series *e = &ds->series[ds->index[h]];
            if (e->coll == coll && e->alg == alg && e->launch == launch && e->msize == msize &&
                e->p == p && e->variant == variant)
                return e;
        }
    }
    if (2 * (ds->nseries + 1) > ds->nindex && rehash(ds, ds->nindex ? ds->nindex * 2 : 64))
        return NULL;
    if (ds->nseries == ds->capseries) {
        size_t nc = ds->capseries ? ds->capseries * 2 : 64;
        mg_series *p = realloc(ds->series, nc * sizeof *p);
        if (!p) return NULL;
        ds->series = p;
        ds->capseries = nc;
    }
    mg_series *e = &ds->series[ds->nseries];
    memset(e, 0, sizeof *e);
    e->coll = coll;
    e->alg = alg;
    e->launch = launch;
    e->msize = msize;
    e->p = p;
    e->file = file;
    e->variant = variant;
    size_t h = key_hash(coll, alg, launch, msize, p, variant) & (ds->nindex - 1);
    while (ds->index[h] != SIZE_MAX) h = (h + 1) & (ds->nindex - 1);
    ds->index[h] = ds->nseries++;
    return e;
}

const mg_series *mg_dataset_find_series(const mg_dataset *ds, int coll, int alg, int launch,
                                        long long msize, int p, int variant) {
    if (!ds->nindex) return NULL;
    size_t h = key_hash(coll, alg, launch, msize, p, variant) & (ds->nindex - 1);
    for (; ds->index[h] != SIZE_MAX; h = (h + 1) & (ds->nindex - 1)) {
        const mg_series *e = &ds->series[ds->index[h]];
        if (e->coll == coll && e->alg == alg && e->launch == launch && e->msize == msize &&
            e->p == p && e->variant == variant)
            return e;
    }
    return NULL;
}

static int push(mg_series *e, double v) {
    if (e->n == e->cap) {
        size_t nc = e->cap ? e->cap * 2 : 16;
        double *p = realloc(e->v, nc * sizeof *p);
        if (!p) return -1;
        e->v = p;
        e->cap = nc;
    }
    e->v[e->n++] = v;
    return 0;
}

static int push_indexed(mg_series *e, int file, long long index, double v) {
    if (e->nseq == e->capseq) {
        size_t nc = e->capseq ? e->capseq * 2 : 16;
        mg_indexed *p = realloc(e->seq, nc * sizeof *p);
        if (!p) return -1;
        e->seq = p;
        e->capseq = nc;
    }
    e->seq[e->nseq++] = (mg_indexed){file, index, v};
    return 0;
}

/* ---- parsing ---- */

/* Keeps the first value of each key in the list *hdr (a launch's or a file's). */
static void add_header(mg_kv **hdr, int *nhdr, const mg_raw_line *r) {
    for (int j = 0; j < *nhdr; j++)
        if (!strncmp((*hdr)[j].key, r->key, r->klen) && (*hdr)[j].key[r->klen] == 0) return;
    mg_kv *h = realloc(*hdr, (size_t)(*nhdr + 1) * sizeof *h);
    if (!h) return;
    *hdr = h;
    h[*nhdr].key = dupn(r->key, r->klen);
    h[*nhdr].val = dupn(r->val, r->vlen);
    if (h[*nhdr].key && h[*nhdr].val)
        ++*nhdr;
    else {
        free(h[*nhdr].key);
        free(h[*nhdr].val);
    }
}

static int add_file(mg_dataset *ds, int launch, const char *fname) {
    if (grow((void **)&ds->files, &ds->capfiles, ds->nfiles + 1, sizeof *ds->files)) return -1;
    mg_rawfile *f = &ds->files[ds->nfiles];
    memset(f, 0, sizeof *f);
    f->launch = launch;
    if (!(f->path = copy_of(fname))) return -1;
    return ds->nfiles++;
}

/* A positive decimal value of a header line (communicator sizes); 0 when it is not one. */
static int header_int(const mg_raw_line *r) {
    char num[24];
    if (!r->vlen || r->vlen >= sizeof num) return 0;
    memcpy(num, r->val, r->vlen);
    num[r->vlen] = 0;
    char *e;
    long v = strtol(num, &e, 10);
    return *e || v < 1 || v > 1 << 30 ? 0 : (int)v;
}

static int is_key(const mg_raw_line *r, const char *key) {
    return r->klen == strlen(key) && !strncmp(r->key, key, r->klen);
}

/* A `#@declined=COLL ALG MSIZE WHY` value (len bytes); malformed ones are noted. */
static void add_declined(mg_dataset *ds, const char *v, size_t len, const char *fname, long line) {
    char buf[512], coll[64], alg[128];
    long long msize;
    int at = 0;
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), v);
    if (sscanf(buf, "%63s %127s %lld %n", coll, alg, &msize, &at) != 3 || !buf[at] || msize < 0) {
        mg_dataset_note(ds, "%s:%ld: bad #@declined line, ignored", fname, line);
        return;
    }
    for (int i = 0; i < ds->ndeclined; i++) {
        const mg_declined *d = &ds->declined[i];
        if (d->msize == msize && !strcmp(d->coll, coll) && !strcmp(d->alg, alg) &&
            !strcmp(d->why, buf + at))
            return;
    }
    if (grow((void **)&ds->declined, &ds->capdeclined, ds->ndeclined + 1, sizeof *ds->declined))
        return;
    mg_declined d = {copy_of(coll), copy_of(alg), copy_of(buf + at), msize};
    if (d.coll && d.alg && d.why) {
        ds->declined[ds->ndeclined++] = d;
    } else {
        free(d.coll);
        free(d.alg);
        free(d.why);
    }
}

/* A `#@skipped=COLL ALG MSIZE WHY` value (len bytes) of file; malformed ones are noted. */
static void add_skipped(mg_dataset *ds, const char *v, size_t len, int file, long line) {
    mg_skipped_at e = {.file = file};
    if (mg_skipped_parse(v, len, &e.s)) {
        mg_dataset_note(ds, "%s:%ld: bad #@skipped line, ignored", ds->files[file].path, line);
        return;
    }
    for (int i = 0; i < ds->nskipped; i++) {
        const mg_skipped_at *d = &ds->skipped[i];
        if (d->file == file && d->s.msize == e.s.msize && !strcmp(d->s.coll, e.s.coll) &&
            !strcmp(d->s.alg, e.s.alg))
            return;
    }
    if (!grow((void **)&ds->skipped, &ds->capskipped, ds->nskipped + 1, sizeof *ds->skipped))
        ds->skipped[ds->nskipped++] = e;
}

/* Header values that do not tell files apart: equal, or one file does not say (hand-made
 * data; the benchmark always writes both). */
static int same_value(const char *x, const char *y) {
    return !x || !y || !strcmp(x, y);
}

/* The first file with the datatype and op of file (mg_series.variant). */
static int file_variant(const mg_dataset *ds, int file) {
    const char *t = mg_dataset_file_header(ds, file, "datatype");
    const char *o = mg_dataset_file_header(ds, file, "operation");
    int f = 0;
    while (f < file && !(same_value(t, mg_dataset_file_header(ds, f, "datatype")) &&
                         same_value(o, mg_dataset_file_header(ds, f, "operation"))))
        f++;
    return f;
}

/* Stores one row. Returns 0, or -1 when memory ran out. */
static int add_row(mg_dataset *ds, int launch, const mg_raw_line *r, int p, int file, int variant,
                   int noise) {
    int coll = noise && r->tlen == 11 && !strncmp(r->test, "MPI_Barrier", 11)
                   ? mg_dataset_intern(ds, MG_BARRIER_NOISE, strlen(MG_BARRIER_NOISE))
                   : intern_cached(ds, 0, r->test, r->tlen);
    int alg = intern_cached(ds, 1, r->alg, r->alen);
    if (coll < 0 || alg < 0) return -1;
    mg_series *s = get_series(ds, coll, alg, launch, r->msize, p, file, variant);
    if (!s) return -1;
    if (r->flag) {
        s->nflagged++;
        ds->flagged_rows++;
        return 0;
    }
    if (ds->launches[launch].tuned && push_indexed(s, file, r->index, r->runtime)) return -1;
    return push(s, r->runtime);
}

int mg_dataset_parse(mg_dataset *ds, int launch, char *text, size_t len, const char *fname) {
    const char *p = text, *end = text + len;
    long lineno = 0, bad = 0, rows = 0;
    int seen_data = 0, nprocs = 0, section = 0, variant = -1;
    int file = add_file(ds, launch, fname);
    const char *base = strrchr(fname, '/');
    int noise = !strcmp(base ? base + 1 : fname, "MPI_Barrier.dat");
    if (file < 0) return -1;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        lineno++;
        mg_raw_line r;
        int kind = mg_raw_line_parse(p, le, &r);
        if (!nl) {
            /* no newline: the run stopped while writing this line; its numbers may be cut */
            if (kind != MG_RAW_BLANK)
                mg_dataset_note(ds, "%s:%ld: last line incomplete (run interrupted?), dropped",
                                fname, lineno);
            break;
        }
        if (kind == MG_RAW_HEADER && is_key(&r, "comm_size")) {
            /* a section: the rows up to the next such line ran on a sub-communicator */
            if (!(section = header_int(&r)))
                mg_dataset_note(ds, "%s:%ld: bad #@comm_size; rows taken as the whole job's", fname,
                                lineno);
        } else if (kind == MG_RAW_HEADER && is_key(&r, "declined")) {
            add_declined(ds, r.val, r.vlen, fname, lineno);
        } else if (kind == MG_RAW_HEADER && is_key(&r, "skipped")) {
            add_skipped(ds, r.val, r.vlen, file, lineno);
        } else if (kind == MG_RAW_HEADER) {
            if (is_key(&r, "nprocs") && !nprocs) nprocs = header_int(&r);
            add_header(&ds->launches[launch].hdr, &ds->launches[launch].nhdr, &r);
            add_header(&ds->files[file].hdr, &ds->files[file].nhdr, &r);
        } else if (kind == MG_RAW_ROW) {
            if (variant < 0) variant = file_variant(ds, file); /* the headers come first */
            if (add_row(ds, launch, &r, section ? section : nprocs, file, variant, noise))
                return -1;
            rows++;
            seen_data = 1;
        } else if (kind == MG_RAW_BAD) {
            const char *q = p;
            while (q < le && isspace((unsigned char)*q)) q++;
            if (!seen_data && le - q > 4 && !strncmp(q, "test", 4) &&
                isspace((unsigned char)q[4])) {
                /* a column-name line before the data */
            } else {
                if (bad < MAX_ROW_NOTES)
                    mg_dataset_note(ds,
                                    "%s:%ld: malformed row skipped (expected `test alg nrep "
                                    "msize runtime_sec [flag]`)",
                                    fname, lineno);
                bad++;
            }
        }
        p = le + 1;
    }
    if (bad > MAX_ROW_NOTES)
        mg_dataset_note(ds, "%s: %ld more malformed rows skipped", fname, bad - MAX_ROW_NOTES);
    if (!rows) mg_dataset_note(ds, "%s: no observations", fname);
    ds->rows += rows;
    ds->bad_rows += bad;
    return 0;
}

int mg_dataset_read_file(mg_dataset *ds, int launch, const char *path) {
    size_t len = 0;
    char *buf = mg_file_read(path, MG_RAW_FILE_MAX, &len);
    if (!buf) {
        char why[128];
        if (errno == ENOMEM) return -1;
        mg_dataset_note(ds, "%s: %s", path, mg_file_error(errno, MG_RAW_FILE_MAX, why, sizeof why));
        return 0;
    }
    int rc = mg_dataset_parse(ds, launch, buf, len, path);
    free(buf);
    return rc;
}

/* ---- directories ---- */

static int is_dir(const char *p) {
    struct stat st;
    return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static int has_suffix(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* Natural order: "launch-2" before "launch-10". */
static int natcmp(const void *pa, const void *pb) {
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            char *ea, *eb;
            unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
            if (x != y) return x < y ? -1 : 1;
            a = ea;
            b = eb;
        } else {
            if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
            a++, b++;
        }
    }
    return (unsigned char)*a - (unsigned char)*b;
}

/* Entries of dir (sorted naturally) that are directories (want_dirs) or *.dat files. */
static char **list_dir(const char *dir, int want_dirs, int *n) {
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char **v = NULL;
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t need = strlen(dir) + strlen(e->d_name) + 2;
        char *full = malloc(need);
        if (!full) break;
        snprintf(full, need, "%s/%s", dir, e->d_name);
        int ok = want_dirs ? is_dir(full) : (has_suffix(e->d_name, ".dat") && !is_dir(full));
        if (ok && !grow((void **)&v, &cap, *n + 1, sizeof *v))
            v[(*n)++] = full;
        else
            free(full);
    }
    closedir(d);
    if (*n) qsort(v, (size_t)*n, sizeof *v, natcmp);
    return v;
}

static void free_list(char **v, int n) {
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* A directory holding *.dat files becomes one launch. Returns 1 (added), 0 (no files), -1. */
static int add_launch_dir(mg_dataset *ds, const char *dir, int tuned) {
    int nf;
    char **files = list_dir(dir, 0, &nf);
    if (!nf) {
        free(files);
        return 0;
    }
    int launch = mg_dataset_add_launch(ds, dir, tuned), rc = 1;
    if (launch < 0) rc = -1;
    for (int i = 0; i < nf && rc > 0; i++)
        if (mg_dataset_read_file(ds, launch, files[i])) rc = -1;
    free_list(files, nf);
    return rc;
}

/* raw/ or tuned/: its launch-K subdirectories, plus *.dat files directly inside. */
static int add_launch_tree(mg_dataset *ds, const char *dir, int tuned) {
    int added = 0, rc = add_launch_dir(ds, dir, tuned);
    if (rc < 0) return -1;
    added += rc;
    int nd;
    char **subs = list_dir(dir, 1, &nd);
    for (int i = 0; i < nd; i++) {
        rc = add_launch_dir(ds, subs[i], tuned);
        if (rc < 0) break;
        added += rc;
    }
    free_list(subs, nd);
    return rc < 0 ? -1 : added;
}

int mg_dataset_add_path(mg_dataset *ds, const char *path, char *err, size_t errlen) {
    if (!is_dir(path)) {
        FILE *f = fopen(path, "rb");
        if (!f) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return -1;
        }
        fclose(f);
        int launch = mg_dataset_add_launch(ds, path, 0);
        if (launch < 0 || mg_dataset_read_file(ds, launch, path)) {
            snprintf(err, errlen, "%s: out of memory", path);
            return -1;
        }
        return 1;
    }
    size_t need = strlen(path) + 16;
    char *sub = malloc(need);
    if (!sub) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int added = 0, rc = 0;
    mg_out_path(sub, need, path, MG_OUT_RAW);
    if (is_dir(sub)) {
        rc = add_launch_tree(ds, sub, 0);
        if (rc > 0) added += rc;
        mg_out_path(sub, need, path, MG_OUT_TUNED);
        if (rc >= 0 && is_dir(sub)) {
            int t = add_launch_tree(ds, sub, 1);
            rc = t < 0 ? -1 : rc;
        }
    } else {
        rc = add_launch_dir(ds, path, 0);
        if (rc > 0) added += rc;
    }
    free(sub);
    if (rc < 0) {
        snprintf(err, errlen, "%s: out of memory while reading raw data", path);
        return -1;
    }
    if (!added) {
        snprintf(err, errlen, "%s: no raw data (expected %s/raw/launch-K/<MPI_Name>.dat)", path,
                 path);
        return -1;
    }
    return added;
}

void mg_dataset_sort(mg_dataset *ds) {
    for (size_t i = 0; i < ds->nseries; i++) {
        mg_series *s = &ds->series[i];
        mg_sort(s->v, s->n);
    }
}
