/* Accounting of the general path, for MPIGUIDE_RECORD and the coverage lines of the report.
 * Per (collective, communicator size, the communicator's nodes and ranks per node, datatype,
 * op, message-size bucket) one slot of a table allocated once at start; a call costs a timer
 * pair, a hash probe and a few increments, and allocates nothing. At MPI_Finalize every rank's
 * slots go to rank 0, which merges them (each number the largest over ranks) and writes the
 * record in the format of src/record/ (docs/record.md). Sub-communicators are told apart by
 * their size and layout, never by their handle, so communicators created and freed in a loop
 * fill one row. */
#define _GNU_SOURCE
#include "intercept.h"
#include "runtime/mpi_family.h"
#include "record/record.h"
#include "util/diag.h"
#include "util/file.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOTS  1024 /* distinct keys per rank; a call whose key finds no room counts as lost */
#define PROBES 32
#define BINS   512 /* time histogram: 8 bins per power of two from 2^-40 s */

/* Names of the datatype and op columns: an index into the tables below, or one of these. */
#define NAME_NONE    (-1) /* "-": v-collectives (datatype), non-reductions (op) */
#define TYPE_DERIVED NTYPES
#define OP_USER      MG_NOPS_ALL

static const char *const type_names[] = {
#define MG_DTYPE(N, ...) #N,
#include "catalog/datatypes.def"
#undef MG_DTYPE
};
#define NTYPES ((int)(sizeof type_names / sizeof type_names[0]))

typedef struct skey {
    int32_t coll, p, nodes, ppn, dtype, esize, op, pad;
    int64_t lo;
} skey;

typedef struct slot {
    skey k;
    int used;
    int last_root;
    uint64_t calls, covered, mockup, other_type, b2b, sizes_other, roots_other, rotations;
    uint64_t completed; /* nonblocking: calls whose completion a wait or test saw */
    double time, covered_time;
    int nsizes, nroots;
    mg_rec_size sizes[MG_REC_SIZES];
    mg_rec_root roots[MG_REC_ROOTS];
    int64_t block;                     /* v-collectives: the largest block seen */
    uint64_t spread[MG_PROBLEM_COUNT]; /* calls whose counts had each shape */
    uint32_t hist[BINS];
} slot;

/* What goes to rank 0 at MPI_Finalize: a slot with its median instead of the histogram. */
typedef struct wire {
    skey k;
    uint64_t calls, covered, mockup, other_type, b2b, sizes_other, roots_other, rotations;
    uint64_t completed;
    double time, covered_time, median;
    int32_t nsizes, nroots;
    mg_rec_size sizes[MG_REC_SIZES];
    mg_rec_root roots[MG_REC_ROOTS];
    int64_t block;
    uint64_t spread[MG_PROBLEM_COUNT];
} wire;

static slot *tab;
static uint64_t lost;
static double t_start, last_end, last_dur;
static atomic_flag lock = ATOMIC_FLAG_INIT;

/* This job's layout: node index of every world rank; scratch for a communicator's members. */
static int world_size, world_nodes, world_ppn;
static int *node_of, *members_in, *members_out, *per_node;
static MPI_Group world_group = MPI_GROUP_NULL;

/* Datatype handles of catalog/datatypes.def, for the name of a call's datatype (a small hash). */
#define TN_BITS 7
static struct {
    uintptr_t key;
    int idx;
} tnames[1u << TN_BITS];

static mg_record merged; /* rank 0, after mg_record_finish */
static int have_merged;

/* ---- start ---- */

static void type_names_start(void) {
    static const MPI_Datatype types[] = {
#define MG_DTYPE(N, ...) N,
#include "catalog/datatypes.def"
#undef MG_DTYPE
    };
    memset(tnames, 0, sizeof tnames);
    for (int i = 0; i < NTYPES; i++) {
        uintptr_t k = mg_hbits(&types[i], sizeof types[i]);
        if (!k || types[i] == MPI_DATATYPE_NULL) continue;
        uint32_t h = mg_hslot(k, TN_BITS);
        for (int n = 0; n < (1 << TN_BITS) && tnames[h].key && tnames[h].key != k; n++)
            h = (h + 1) & ((1u << TN_BITS) - 1);
        if (!tnames[h].key) tnames[h].key = k, tnames[h].idx = i;
    }
}

static int type_index(MPI_Datatype t) {
    uintptr_t k = mg_hbits(&t, sizeof t);
    for (uint32_t h = mg_hslot(k, TN_BITS), n = 0; k && n < (1u << TN_BITS);
         n++, h = (h + 1) & ((1u << TN_BITS) - 1)) {
        if (tnames[h].key == k) return tnames[h].idx;
        if (!tnames[h].key) break;
    }
    return TYPE_DERIVED;
}

/* The node of every world rank (ranks sharing memory are one node), collective. */
static int node_map(void) {
    MPI_Comm local;
    int me, lrank, leader;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    int rc = PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    if (rc != MPI_SUCCESS) return rc;
    PMPI_Comm_rank(local, &lrank);
    leader = me;
    rc = PMPI_Bcast(&leader, 1, MPI_INT, 0, local);
    PMPI_Comm_free(&local);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgather(&leader, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) return rc;
    /* leaders' world ranks -> dense node numbers in the order of first appearance */
    for (int i = 0; i < world_size; i++) per_node[i] = -1;
    world_nodes = 0;
    for (int i = 0; i < world_size; i++) {
        int l = node_of[i];
        if (l < 0 || l >= world_size) return MPI_ERR_OTHER;
        if (per_node[l] < 0) per_node[l] = world_nodes++;
        node_of[i] = per_node[l];
    }
    for (int i = 0; i < world_size; i++) per_node[i] = 0;
    world_ppn = 0;
    for (int i = 0; i < world_size; i++)
        if (++per_node[node_of[i]] > world_ppn) world_ppn = per_node[node_of[i]];
    for (int i = 0; i < world_size; i++) per_node[i] = 0, members_in[i] = i;
    return PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
}

int mg_record_start(void) {
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    tab = calloc(SLOTS, sizeof *tab);
    node_of = malloc(sizeof(int) * (size_t)world_size);
    members_in = malloc(sizeof(int) * (size_t)world_size);
    members_out = malloc(sizeof(int) * (size_t)world_size);
    per_node = malloc(sizeof(int) * (size_t)world_size);
    int ok = tab && node_of && members_in && members_out && per_node, all = 0;
    int rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS && all) rc = node_map();
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS || !all) {
        if (mg_rt.rank == 0)
            mg_error(mg_rt.s.record ? "MPIGUIDE_RECORD" : "MPIGUIDE_REPORT",
                     "no memory for the call accounting; no record and no coverage");
        mg_record_stop();
        return MPI_ERR_NO_MEM;
    }
    type_names_start();
    lost = 0;
    last_end = last_dur = 0;
    t_start = PMPI_Wtime();
    return MPI_SUCCESS;
}

void mg_record_stop(void) {
    free(tab);
    free(node_of);
    free(members_in);
    free(members_out);
    free(per_node);
    tab = NULL;
    node_of = members_in = members_out = per_node = NULL;
    if (world_group != MPI_GROUP_NULL) PMPI_Group_free(&world_group);
    world_group = MPI_GROUP_NULL;
    if (have_merged) mg_record_free(&merged);
    have_merged = 0;
}

/* Nodes and most ranks per node of a communicator: its members' world ranks (local group
 * arithmetic, no communication), counted per node. 0 when a member is not in the world. */
void mg_record_layout(MPI_Comm comm, mg_centry *e) {
    MPI_Group g;
    if (!node_of || e->p > world_size || PMPI_Comm_group(comm, &g) != MPI_SUCCESS) return;
    int rc = PMPI_Group_translate_ranks(g, e->p, members_in, world_group, members_out);
    PMPI_Group_free(&g);
    if (rc != MPI_SUCCESS) return;
    int nodes = 0, ppn = 0, bad = 0;
    for (int i = 0; i < e->p; i++) {
        int w = members_out[i];
        if (w < 0 || w >= world_size) {
            bad = 1;
            continue;
        }
        int c = ++per_node[node_of[w]];
        nodes += c == 1;
        if (c > ppn) ppn = c;
    }
    for (int i = 0; i < e->p; i++)
        if (members_out[i] >= 0 && members_out[i] < world_size)
            per_node[node_of[members_out[i]]] = 0;
    e->nodes = bad ? 0 : nodes;
    e->ppn = bad ? 0 : ppn;
}

/* ---- per call ---- */

static uint32_t key_hash(const skey *k) {
    uint64_t h = (uint64_t)k->coll * 0x9E3779B97F4A7C15ull;
    const int32_t v[7] = {k->p, k->nodes, k->ppn, k->dtype, k->esize, k->op, (int32_t)k->lo};
    for (int i = 0; i < 7; i++) h = (h ^ (uint32_t)v[i]) * 0xBF58476D1CE4E5B9ull;
    h ^= (uint64_t)k->lo >> 32;
    return (uint32_t)(h >> 40);
}

static slot *find(const skey *k) {
    for (uint32_t h = key_hash(k) & (SLOTS - 1), n = 0; n < PROBES;
         n++, h = (h + 1) & (SLOTS - 1)) {
        slot *s = &tab[h];
        if (!s->used) {
            s->used = 1;
            s->k = *k;
            s->last_root = -1;
            return s;
        }
        if (!memcmp(&s->k, k, sizeof *k)) return s;
    }
    return NULL;
}

/* 8 bins per power of two, from the exponent and the top 3 bits of the mantissa. */
static int time_bin(double t) {
    if (!(t > 0)) return 0;
    int e;
    double m = frexp(t, &e); /* t = m 2^e, m in [0.5, 1) */
    int b = (e + 40) * 8 + (int)((m - 0.5) * 16);
    return b < 0 ? 0 : b >= BINS ? BINS - 1 : b;
}

static double bin_value(int b) {
    return ldexp(0.5 + ((b % 8) + 0.5) / 16, b / 8 - 40);
}

static void add_size(slot *s, int64_t msize, double dt, int covered) {
    int i = 0;
    while (i < s->nsizes && s->sizes[i].msize != msize) i++;
    if (i == s->nsizes) {
        if (i == MG_REC_SIZES) {
            s->sizes_other++;
            return;
        }
        s->sizes[s->nsizes++] = (mg_rec_size){msize, 0, 0, 0, 0};
    }
    mg_rec_size *z = &s->sizes[i];
    z->calls++;
    z->time_s += dt;
    if (covered) z->covered++, z->covered_s += dt;
}

static void add_root(slot *s, int root, int p) {
    if (s->last_root >= 0 && root == (s->last_root + 1) % p) s->rotations++;
    s->last_root = root;
    if (root < 0 || root >= p) {
        s->roots_other++;
        s->last_root = -1;
        return;
    }
    int i = 0;
    while (i < s->nroots && s->roots[i].root != root) i++;
    if (i == s->nroots) {
        if (i == MG_REC_ROOTS) {
            s->roots_other++;
            return;
        }
        s->roots[s->nroots++] = (mg_rec_root){root, 0};
    }
    s->roots[i].calls++;
}

/* What one rank knows of a v-collective's counts (docs/record.md "v-collectives"): the datatype
 * of its own block (the row's), the largest block, and where it knows every count (Allgatherv
 * everywhere, Gatherv and Scatterv at the root, Alltoallv its own send counts) the total in
 * bytes and the shape of the counts; *total and *shape are -1 where it does not. */
typedef struct vinfo {
    MPI_Datatype type;
    int esize, shape;
    int64_t block, total;
} vinfo;

static void v_of(int coll, const mg_args *a, const mg_callinfo *ci, vinfo *v) {
    int root = ci->rank == a->root, size = 0;
    const int *counts = NULL;
    MPI_Datatype ct = MPI_DATATYPE_NULL; /* the datatype of counts */
    int64_t own = 0;
    *v = (vinfo){MPI_DATATYPE_NULL, 0, -1, 0, -1};
    switch (mg_coll_blocking(coll)) {
    case MPIGUIDE_COLL_ALLGATHERV:
        v->type = a->recvtype, counts = a->recvcounts, ct = a->recvtype;
        break;
    case MPIGUIDE_COLL_GATHERV:
        v->type = root && a->sendbuf == MPI_IN_PLACE ? a->recvtype : a->sendtype;
        own = a->sendcount;
        if (root) counts = a->recvcounts, ct = a->recvtype;
        break;
    case MPIGUIDE_COLL_SCATTERV:
        v->type = root && a->recvbuf == MPI_IN_PLACE ? a->sendtype : a->recvtype;
        own = a->recvcount;
        if (root) counts = a->sendcounts, ct = a->sendtype;
        break;
    default: /* Alltoallv: what this rank sends (with MPI_IN_PLACE, what it receives) */
        if (a->sendbuf == MPI_IN_PLACE)
            v->type = ct = a->recvtype, counts = a->recvcounts;
        else
            v->type = ct = a->sendtype, counts = a->sendcounts;
        break;
    }
    if (mg_type_size(v->type, &v->esize) != MPI_SUCCESS || v->esize < 0) v->esize = 0;
    v->block = own * v->esize;
    if (!counts || mg_type_size(ct, &size) != MPI_SUCCESS || size < 0) return;
    int64_t sum = 0, most = 0;
    for (int i = 0; i < ci->p; i++) {
        if (counts[i] < 0) return; /* erroneous: the library reports it */
        sum += counts[i];
        most = counts[i] > most ? counts[i] : most;
    }
    v->total = sum * size;
    v->block = most * size > v->block ? most * size : v->block;
    v->shape = mg_problem_classify(counts, ci->p);
}

void mg_record_note(int coll, const mg_args *a, const mg_callinfo *ci, double t0, double t1) {
    const mg_centry *e = ci->e;
    mg_record_note_at(coll, a, ci, e ? e->nodes : 0, e ? e->ppn : 0, 0, t0, t1);
}

void mg_record_note_at(int coll, const mg_args *a, const mg_callinfo *ci, int nodes, int ppn,
                       int completed, double t0, double t1) {
    if (!tab || ci->msize < 0 || ci->p < 1) return;
    double dt = t1 - t0 > 0 ? t1 - t0 : 0;
    int idx = NAME_NONE;
    vinfo v = {ci->type, ci->esize, -1, 0, ci->msize};
    if (mg_coll_is_v(coll)) v_of(coll, a, ci, &v);
    int none = mg_coll_blocking(coll) == MPIGUIDE_COLL_BARRIER; /* no datatype at all */
    skey k = {
        coll,      ci->p, nodes, ppn, none ? NAME_NONE : type_index(v.type), none ? 0 : v.esize,
        NAME_NONE, 0,     0};
    if (mg_coll_is_reduction(coll)) {
        mg_ocache_get(a->op, &idx);
        k.op = idx >= 0 ? idx : OP_USER;
    }
    int64_t hi;
    mg_rec_bucket(ci->msize, &k.lo, &hi);
    int covered = ci->sel == MG_SEL_RANGE;
    if (mg_threads)
        while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire)) continue;
    slot *s = find(&k);
    if (s) {
        s->calls++;
        s->completed += completed != 0;
        s->time += dt;
        if (s->hist[time_bin(dt)] < UINT32_MAX) s->hist[time_bin(dt)]++;
        if (covered) s->covered++, s->covered_time += dt, s->mockup += ci->mockup != 0;
        s->other_type += ci->sel == MG_SEL_OTHERTYPE;
        /* back to back: started within the previous call's duration (at least 1 us) after it */
        s->b2b += last_end > 0 && t0 - last_end <= (last_dur > 1e-6 ? last_dur : 1e-6);
        if (v.total >= 0) add_size(s, v.total, dt, covered);
        if (v.block > s->block) s->block = v.block;
        if (v.shape >= 0) s->spread[v.shape]++;
        if (mg_coll_is_rooted(coll)) add_root(s, a->root, ci->p);
    } else {
        lost++;
    }
    last_end = t1;
    last_dur = dt;
    if (mg_threads) atomic_flag_clear_explicit(&lock, memory_order_release);
}

/* ---- MPI_Finalize: gather, merge, write ---- */

static double median_of(const slot *s) {
    uint64_t half = (s->calls + 1) / 2, cum = 0;
    for (int b = 0; b < BINS; b++)
        if ((cum += s->hist[b]) >= half) return bin_value(b);
    return 0;
}

static int by_time(const void *x, const void *y) {
    const wire *a = x, *b = y;
    return a->time < b->time ? 1 : a->time > b->time ? -1 : 0;
}

/* This rank's slots, largest time first, at most cap of them. */
static wire *pack(int cap, int *n) {
    int used = 0;
    for (int i = 0; i < SLOTS; i++) used += tab[i].used;
    wire *w = malloc(sizeof *w * (size_t)(used ? used : 1));
    *n = 0;
    if (!w) return NULL;
    for (int i = 0; i < SLOTS; i++) {
        const slot *s = &tab[i];
        if (!s->used) continue;
        wire *x = &w[(*n)++];
        memset(x, 0, sizeof *x);
        x->k = s->k;
        x->calls = s->calls, x->covered = s->covered, x->mockup = s->mockup;
        x->other_type = s->other_type, x->b2b = s->b2b, x->sizes_other = s->sizes_other;
        x->roots_other = s->roots_other, x->rotations = s->rotations;
        x->completed = s->completed;
        x->time = s->time, x->covered_time = s->covered_time, x->median = median_of(s);
        x->nsizes = s->nsizes, x->nroots = s->nroots;
        memcpy(x->sizes, s->sizes, sizeof x->sizes);
        memcpy(x->roots, s->roots, sizeof x->roots);
        x->block = s->block;
        memcpy(x->spread, s->spread, sizeof x->spread);
    }
    qsort(w, (size_t)*n, sizeof *w, by_time);
    if (*n > cap) *n = cap;
    return w;
}

#define MAX(a, b) ((a) > (b) ? (a) : (b))

static void merge_into(mg_rec_row *r, const wire *x) {
    r->calls = MAX(r->calls, x->calls);
    r->covered = MAX(r->covered, x->covered);
    r->mockup = MAX(r->mockup, x->mockup);
    r->other_type = MAX(r->other_type, x->other_type);
    r->b2b = MAX(r->b2b, x->b2b);
    r->sizes_other = MAX(r->sizes_other, x->sizes_other);
    r->roots_other = MAX(r->roots_other, x->roots_other);
    r->rotations = MAX(r->rotations, x->rotations);
    r->completed = MAX(r->completed, x->completed);
    r->time_s = MAX(r->time_s, x->time);
    r->covered_s = MAX(r->covered_s, x->covered_time);
    r->median_s = MAX(r->median_s, x->median);
    r->block = MAX(r->block, x->block);
    for (int t = 0; t < MG_PROBLEM_COUNT; t++) r->spread[t] = MAX(r->spread[t], x->spread[t]);
    for (int i = 0; i < x->nsizes; i++) {
        const mg_rec_size *z = &x->sizes[i];
        int k = 0;
        while (k < r->nsizes && r->sizes[k].msize != z->msize) k++;
        if (k == r->nsizes) {
            if (k == MG_REC_SIZES) { /* no room: a size of another rank among the unlisted */
                r->sizes_other = MAX(r->sizes_other, z->calls);
                continue;
            }
            r->sizes[r->nsizes++] = *z;
            continue;
        }
        mg_rec_size *m = &r->sizes[k];
        m->calls = MAX(m->calls, z->calls);
        m->time_s = MAX(m->time_s, z->time_s);
        m->covered = MAX(m->covered, z->covered);
        m->covered_s = MAX(m->covered_s, z->covered_s);
    }
    for (int i = 0; i < x->nroots; i++) {
        int k = 0;
        while (k < r->nroots && r->roots[k].root != x->roots[i].root) k++;
        if (k == r->nroots) {
            if (k == MG_REC_ROOTS) {
                r->roots_other = MAX(r->roots_other, x->roots[i].calls);
                continue;
            }
            r->roots[r->nroots++] = x->roots[i];
            continue;
        }
        r->roots[k].calls = MAX(r->roots[k].calls, x->roots[i].calls);
    }
}

static int row_cmp(const void *x, const void *y) {
    const mg_rec_row *a = x, *b = y;
    if (a->coll != b->coll) return a->coll - b->coll;
    if (a->p != b->p) return b->p - a->p;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    int c = strcmp(a->datatype, b->datatype);
    if (c) return c;
    c = strcmp(a->op, b->op);
    if (c) return c;
    return a->nodes != b->nodes ? a->nodes - b->nodes : a->ppn - b->ppn;
}

static int size_cmp(const void *x, const void *y) {
    const mg_rec_size *a = x, *b = y;
    return a->calls < b->calls   ? 1
           : a->calls > b->calls ? -1
                                 : (a->msize > b->msize) - (a->msize < b->msize);
}

static int root_cmp(const void *x, const void *y) {
    const mg_rec_root *a = x, *b = y;
    return a->calls < b->calls ? 1 : a->calls > b->calls ? -1 : a->root - b->root;
}

static void row_of_key(mg_rec_row *w, const skey *k) {
    w->coll = k->coll, w->p = k->p, w->nodes = k->nodes, w->ppn = k->ppn, w->esize = k->esize;
    mg_rec_bucket(k->lo, &w->lo, &w->hi);
    snprintf(w->datatype, sizeof w->datatype, "%s",
             k->dtype == NAME_NONE      ? "-"
             : k->dtype == TYPE_DERIVED ? "derived"
                                        : type_names[k->dtype]);
    snprintf(w->op, sizeof w->op, "%s",
             k->op == NAME_NONE ? "-"
             : k->op == OP_USER ? "user"
                                : mg_op_names_all[k->op]);
    w->rooted = mg_coll_is_rooted(w->coll);
    w->vrow = mg_coll_is_v(w->coll);
    w->nb = mg_coll_is_nb(w->coll);
}

/* Rank 0: one row per distinct key of all ranks' slots (a hash from key to row). */
static int merge_all(const wire *all, size_t n, mg_record *r) {
    size_t nslots = 64;
    while (nslots < 2 * n) nslots *= 2;
    int *index = malloc(sizeof(int) * nslots);
    skey *keys = malloc(sizeof(skey) * (n ? n : 1));
    int rc = -1;
    if (!index || !keys) goto out;
    for (size_t i = 0; i < nslots; i++) index[i] = -1;
    for (size_t i = 0; i < n; i++) {
        const wire *x = &all[i];
        size_t h = key_hash(&x->k) & (nslots - 1);
        while (index[h] >= 0 && memcmp(&keys[index[h]], &x->k, sizeof x->k))
            h = (h + 1) & (nslots - 1);
        if (index[h] < 0) {
            mg_rec_row *w = mg_record_add_row(r);
            if (!w) goto out;
            index[h] = r->nrows - 1;
            keys[index[h]] = x->k;
            row_of_key(w, &x->k);
        }
        merge_into(&r->rows[index[h]], x);
    }
    for (int i = 0; i < r->nrows; i++) {
        mg_rec_row *w = &r->rows[i];
        qsort(w->sizes, (size_t)w->nsizes, sizeof w->sizes[0], size_cmp);
        qsort(w->roots, (size_t)w->nroots, sizeof w->roots[0], root_cmp);
    }
    qsort(r->rows, (size_t)r->nrows, sizeof r->rows[0], row_cmp);
    rc = 0;
out:
    free(index);
    free(keys);
    return rc;
}

/* Rank 0's command line, arguments separated by spaces. */
static void command_line(char *out, size_t len) {
    size_t n = 0;
    char *buf = mg_file_read("/proc/self/cmdline", 1 << 16, &n);
    out[0] = 0;
    if (!buf) return;
    for (size_t i = 0; i + 1 < n; i++)
        if (!buf[i]) buf[i] = ' ';
    snprintf(out, len, "%s", buf);
    free(buf);
}

static void header(mg_record *r) {
    snprintf(r->mpi_library, sizeof r->mpi_library, "%s", mg_library_version());
    r->nprocs = world_size, r->nodes = world_nodes, r->ppn = world_ppn;
    char host[MPI_MAX_PROCESSOR_NAME] = "";
    int len = 0;
    PMPI_Get_processor_name(host, &len);
    snprintf(r->hostname, sizeof r->hostname, "%s", host);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(r->mpiguide_version, sizeof r->mpiguide_version, "%s", MPIGUIDE_VERSION);
    command_line(r->command, sizeof r->command);
    int forced = 0;
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) forced |= mg_rt.s.forced[c] >= 0;
    snprintf(r->mode, sizeof r->mode, "%s",
             mg_rt.sel.nprof ? "tuned"
             : forced        ? "forced"
                             : "untuned");
    snprintf(r->match, sizeof r->match, "%s", mg_rt.s.match_size ? "size" : "exact");
    r->wall_s = PMPI_Wtime() - t_start;
}

static void write_record(const mg_record *r) {
    const char *path = mg_rt.s.record_path;
    char *text = mg_record_render(r);
    FILE *f = text ? fopen(path, "w") : NULL;
    int ok = f && fputs(text, f) >= 0;
    int err = errno;
    if (f && fclose(f)) ok = 0, err = errno;
    if (!ok)
        mg_error(path, "cannot write the record (MPIGUIDE_RECORD): %s",
                 text ? strerror(err) : "out of memory");
    free(text);
}

void mg_record_finish(void) {
    if (!tab) return;
    int me = mg_rt.rank, n = 0;
    /* what fits one MPI_Gatherv of bytes: the slots with the most time first */
    int cap = (int)((size_t)INT32_MAX / sizeof(wire) / (size_t)world_size);
    wire *mine = pack(cap, &n);
    if (!mine) n = 0;
    int *counts = me == 0 ? malloc(sizeof(int) * 2 * (size_t)world_size) : NULL;
    int ok = (me != 0 || counts) && mine, all_ok = 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    uint64_t lost_max = 0, mylost = lost + (uint64_t)(mine ? 0 : 1);
    PMPI_Reduce(&mylost, &lost_max, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    wire *all = NULL;
    size_t total = 0;
    if (all_ok) {
        int bytes = n * (int)sizeof(wire);
        PMPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
        int *displs = counts ? counts + world_size : NULL;
        int room = 1;
        if (me == 0) {
            for (int i = 0; i < world_size; i++) displs[i] = (int)total, total += (size_t)counts[i];
            room = (all = malloc(total ? total : 1)) != NULL;
        }
        /* every rank sends only when rank 0 has room for all of it */
        PMPI_Bcast(&room, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (room)
            PMPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
        total /= sizeof(wire);
    }
    free(mine);
    free(counts);
    if (me != 0) return;
    mg_record *r = &merged;
    memset(r, 0, sizeof *r);
    header(r);
    r->lost_calls = lost_max;
    if (!all_ok || !all || merge_all(all, total, r)) {
        mg_error(mg_rt.s.record ? mg_rt.s.record_path : "MPIGUIDE_REPORT",
                 "out of memory while gathering the calls of every rank; %s",
                 mg_rt.s.record ? "no record written" : "no coverage");
        free(all);
        mg_record_free(r);
        return;
    }
    free(all);
    have_merged = 1;
    if (mg_rt.s.record) write_record(r);
}

void mg_record_report(FILE *f) {
    if (!have_merged) return;
    const mg_record *r = &merged;
    mg_rec_cover c;
    mg_rec_coverage(r, -1, 0, &c);
    fprintf(f,
            "#@mpiguide coverage all calls=%llu covered=%llu mockup=%llu other_type=%llu "
            "time_s=%.9g covered_s=%.9g calls_pct=%.1f time_pct=%.1f\n",
            (unsigned long long)c.calls, (unsigned long long)c.covered,
            (unsigned long long)c.mockup, (unsigned long long)c.other_type, c.time_s, c.covered_s,
            c.calls ? 100.0 * (double)c.covered / (double)c.calls : 0.0,
            c.time_s > 0 ? 100.0 * c.covered_s / c.time_s : 0.0);
    for (int i = 0; i < r->nrows; i++) {
        const mg_rec_row *w = &r->rows[i];
        if (i && w->coll == r->rows[i - 1].coll && w->p == r->rows[i - 1].p) continue;
        mg_rec_coverage(r, w->coll, w->p, &c);
        fprintf(f,
                "#@mpiguide coverage %s p=%d calls=%llu covered=%llu mockup=%llu other_type=%llu "
                "time_s=%.9g covered_s=%.9g calls_pct=%.1f time_pct=%.1f\n",
                mg_coll_name(w->coll), w->p, (unsigned long long)c.calls,
                (unsigned long long)c.covered, (unsigned long long)c.mockup,
                (unsigned long long)c.other_type, c.time_s, c.covered_s,
                100.0 * (double)c.covered / (double)c.calls,
                c.time_s > 0 ? 100.0 * c.covered_s / c.time_s : 0.0);
    }
    mg_rec_gap g[5];
    int n = mg_rec_top_uncovered(r, g, 5);
    for (int i = 0; i < n; i++) {
        if (g[i].msize >= 0)
            fprintf(f,
                    "#@mpiguide uncovered %s p=%d msize=%lld datatype=%s op=%s calls=%llu "
                    "time_s=%.9g\n",
                    mg_coll_name(g[i].coll), g[i].p, (long long)g[i].msize, g[i].datatype, g[i].op,
                    (unsigned long long)g[i].calls, g[i].time_s);
        else
            fprintf(f,
                    "#@mpiguide uncovered %s p=%d msize=%lld-%lld datatype=%s op=%s calls=%llu "
                    "time_s=%.9g\n",
                    mg_coll_name(g[i].coll), g[i].p, (long long)g[i].lo, (long long)g[i].hi,
                    g[i].datatype, g[i].op, (unsigned long long)g[i].calls, g[i].time_s);
    }
}
