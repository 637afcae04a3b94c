/* Correctness matrix of every MPI_Gatherv and MPI_Scatterv algorithm (the library's own, TUW
 * and the padding guideline): all problem types plus zero-heavy and all-zero blocks, every
 * root, contiguous, reversed and gapped root layouts (zero blocks with junk displacements),
 * derived datatypes of different granularity on root and non-roots, MPI_IN_PLACE at the root.
 * Each result is compared bytewise with the expected image (gaps untouched). Cases count only
 * when the algorithm itself ran; an undocumented decline fails. --big uses large blocks (the
 * degradation variant runs with a small tuw_degrade_bytes and pool). */
#include "mpiguide.h"
#include "mpitest.h"
#include "model/problems.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 0x5a

enum { LAYOUT_CONTIG, LAYOUT_REVERSE, LAYOUT_GAPS };
enum { DT_INT, DT_STRIDED, DT_PAIRS };
static const char *layout_name[] = {"contiguous", "reversed", "gaps"};
static const char *dt_name[] = {"int", "strided", "pairs"};

typedef struct variant {
    int layout, dtype, inplace;
} variant;

static const variant variants[] = {
    {LAYOUT_CONTIG, DT_INT, 0},     {LAYOUT_CONTIG, DT_INT, 1},   {LAYOUT_REVERSE, DT_STRIDED, 0},
    {LAYOUT_GAPS, DT_PAIRS, 1},     {LAYOUT_GAPS, DT_INT, 0},     {LAYOUT_REVERSE, DT_PAIRS, 0},
    {LAYOUT_CONTIG, DT_STRIDED, 1}, {LAYOUT_CONTIG, DT_PAIRS, 0},
};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])

/* Datatypes: the root's element (unit ints at offsets within extent) and the non-roots'
 * element (one int at stride leaf_extent). */
typedef struct types {
    MPI_Datatype root, leaf;
    int unit;
    MPI_Aint root_extent, leaf_extent;
    int offs[2];
} types;

static types dts[3];

static void make_types(void) {
    dts[DT_INT] = (types){MPI_INT, MPI_INT, 1, 4, 4, {0, 0}};
    MPI_Datatype r12, l8, pair;
    MPI_Type_create_resized(MPI_INT, 0, 12, &r12);
    MPI_Type_create_resized(MPI_INT, 0, 8, &l8);
    MPI_Type_vector(2, 1, 3, MPI_INT, &pair);
    MPI_Type_commit(&r12);
    MPI_Type_commit(&l8);
    MPI_Type_commit(&pair);
    dts[DT_STRIDED] = (types){r12, l8, 1, 12, 8, {0, 0}};
    dts[DT_PAIRS] = (types){pair, MPI_INT, 2, 16, 4, {0, 12}};
}

static int value(int rank, int k, int salt) {
    return (rank + 1) * 1000003 + k * 7 + salt;
}

/* Problem blocks in ints (even, so the pair type divides them). */
#define NPROBLEMS (MG_PROBLEM_COUNT + 2)
static void problem(int kind, int p, int64_t b, uint64_t seed, int *ints) {
    int64_t c[64];
    if (kind < MG_PROBLEM_COUNT) {
        mg_problem_counts(kind, p, b, 5.0, seed, c);
    } else {
        uint64_t x = seed * 2654435761u + 1;
        for (int i = 0; i < p; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            c[i] =
                kind == MG_PROBLEM_COUNT && x % 3 == 0 ? (int64_t)(x % (uint64_t)(3 * b + 1)) : 0;
        }
    }
    for (int i = 0; i < p; i++) ints[i] = (int)(2 * c[i]);
}

static const char *problem_name(int kind) {
    return kind < MG_PROBLEM_COUNT    ? mg_problem_name(kind)
           : kind == MG_PROBLEM_COUNT ? "sparse-zeros"
                                      : "all-zero";
}

/* Root layout in root elements; returns the buffer size in elements. */
static int layout(int lay, int p, const int *count, int *displ) {
    int at = 0, end = 0;
    if (lay == LAYOUT_REVERSE) {
        for (int i = p - 1; i >= 0; i--) displ[i] = at, at += count[i];
    } else {
        for (int i = 0; i < p; i++) {
            if (lay == LAYOUT_GAPS) at += 1;
            displ[i] = at;
            at += count[i] + (lay == LAYOUT_GAPS ? 2 : 0);
            if (lay == LAYOUT_CONTIG && count[i] == 0) displ[i] = 0; /* junk for empty blocks */
        }
    }
    for (int i = 0; i < p; i++)
        if (displ[i] + count[i] > end) end = displ[i] + count[i];
    return end + 2;
}

/* Writes rank i's block (n ints) into a root image at element displ. */
static void put_root_block(char *img, const types *t, int displ, int n, int rank, int salt) {
    for (int k = 0; k < n; k++) {
        int e = k / t->unit, w = k % t->unit, v = value(rank, k, salt);
        memcpy(img + (displ + e) * t->root_extent + t->offs[w], &v, sizeof v);
    }
}

/* A non-root style buffer of n ints at stride leaf_extent. */
static void put_leaf_block(char *buf, const types *t, int n, int rank, int salt) {
    for (int k = 0; k < n; k++) {
        int v = value(rank, k, salt);
        memcpy(buf + k * t->leaf_extent, &v, sizeof v);
    }
}

typedef struct tally {
    long ran, memory, declined_ok;
} tally;

static int check_outcome(int alg, int outcome, unsigned declined, tally *t, const char *desc) {
    int is_default = alg == mpiguide_default_algorithm(mpiguide_algorithm_collective(alg));
    if (outcome == (is_default ? MPIGUIDE_RAN_DEFAULT : MPIGUIDE_RAN_MOCKUP)) {
        t->ran++;
        return 1;
    }
    if (outcome == MPIGUIDE_FALLBACK_MEMORY) {
        t->memory++;
        return 1;
    }
    if (outcome == MPIGUIDE_FALLBACK_ARGS &&
        (declined & mpiguide_algorithm_declines(alg)) == declined) {
        t->declined_ok++;
        return 1;
    }
    mt_check(0, "%s: outcome %d declined 0x%x not documented", desc, outcome, declined);
    return 0;
}

static void run_case(int coll, int alg, int root, int kind, int64_t b, const variant *v, int salt,
                     tally *tl) {
    int p = mt_size(), me = mt_rank();
    const types *t = &dts[v->dtype];
    int ints[64], count[64], displ[64];
    problem(kind, p, b, (uint64_t)salt, ints);
    for (int i = 0; i < p; i++) count[i] = ints[i] / t->unit;
    int elems = layout(v->layout, p, count, displ);
    size_t img_bytes = (size_t)elems * (size_t)t->root_extent;
    char desc[300];
    snprintf(desc, sizeof desc, "%s %s p=%d root=%d problem=%s b=%lld layout=%s type=%s%s",
             mpiguide_collective_name(coll), mpiguide_algorithm_name(alg), p, root,
             problem_name(kind), (long long)b, layout_name[v->layout], dt_name[v->dtype],
             v->inplace ? " in-place" : "");
    char *img = malloc(img_bytes), *want = malloc(img_bytes);
    size_t leaf_bytes = (size_t)ints[me] * (size_t)t->leaf_extent + 16;
    char *leaf = malloc(leaf_bytes), *leaf_want = malloc(leaf_bytes);
    memset(img, SENTINEL, img_bytes);
    memset(want, SENTINEL, img_bytes);
    memset(leaf, SENTINEL, leaf_bytes);
    memset(leaf_want, SENTINEL, leaf_bytes);
    int outcome = -1;
    unsigned declined = 0;
    int rc;
    mpiguide_args a = {0};
    a.root = root;
    a.comm = MPI_COMM_WORLD;
    if (coll == MPIGUIDE_COLL_GATHERV) {
        for (int i = 0; i < p; i++) put_root_block(want, t, displ[i], ints[i], i, salt);
        put_leaf_block(leaf, t, ints[me], me, salt);
        a.sendbuf = leaf;
        a.sendcount = ints[me];
        a.sendtype = t->leaf;
        /* Insignificant at non-roots, but mg_shape_of() sizes it on every rank (see report). */
        a.recvtype = t->root;
        if (me == root) {
            a.recvbuf = img;
            a.recvcounts = count;
            a.rdispls = displ;
            a.recvtype = t->root;
            if (v->inplace) {
                put_root_block(img, t, displ[me], ints[me], me, salt);
                a.sendbuf = MPI_IN_PLACE;
            }
        }
        rc = mpiguide_run(alg, &a, &outcome, &declined);
        mt_check(rc == MPI_SUCCESS, "%s: rc %d", desc, rc);
        if (me == root) mt_check(!memcmp(img, want, img_bytes), "%s: root buffer differs", desc);
    } else {
        put_leaf_block(leaf_want, t, ints[me], me, salt);
        a.recvbuf = leaf;
        a.recvcount = ints[me];
        a.recvtype = t->leaf;
        if (me == root) {
            for (int i = 0; i < p; i++) put_root_block(img, t, displ[i], ints[i], i, salt);
            memcpy(want, img, img_bytes);
            a.sendbuf = img;
            a.sendcounts = count;
            a.sdispls = displ;
            a.sendtype = t->root;
            if (v->inplace) a.recvbuf = MPI_IN_PLACE;
        }
        rc = mpiguide_run(alg, &a, &outcome, &declined);
        mt_check(rc == MPI_SUCCESS, "%s: rc %d", desc, rc);
        if (!(me == root && v->inplace))
            mt_check(!memcmp(leaf, leaf_want, leaf_bytes), "%s: received block differs", desc);
        if (me == root) mt_check(!memcmp(img, want, img_bytes), "%s: root sendbuf changed", desc);
    }
    check_outcome(alg, outcome, declined, tl, desc);
    free(img);
    free(want);
    free(leaf);
    free(leaf_want);
}

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    int big = 0;
    for (int i = 1; i < argc; i++) big |= !strcmp(argv[i], "--big");
    int rc = mpiguide_init();
    mt_check(rc == MPI_SUCCESS, "mpiguide_init: %d", rc);
    make_types();
    int p = mt_size();
    if (p > 64) {
        mt_check(0, "at most 64 ranks");
        return mt_finish();
    }
    static const char *names[2][3] = {
        {"default", "gatherv_as_tuw", "gatherv_as_allreduce_gather"},
        {"default", "scatterv_as_tuw", "scatterv_as_allreduce_scatter"}};
    int colls[2] = {MPIGUIDE_COLL_GATHERV, MPIGUIDE_COLL_SCATTERV};
    int64_t b = big ? 60 : 3;
    int salt = 1;
    for (int ci = 0; ci < 2; ci++) {
        for (int ai = 0; ai < 3; ai++) {
            int alg = mpiguide_algorithm_id(colls[ci], names[ci][ai]);
            mt_check(alg >= 0, "%s: %s not registered", mpiguide_collective_name(colls[ci]),
                     names[ci][ai]);
            if (alg < 0) continue;
            tally tl = {0, 0, 0};
            for (int root = 0; root < p; root++)
                for (int kind = 0; kind < NPROBLEMS; kind++)
                    for (int vi = 0; vi < NVARIANTS; vi++)
                        run_case(colls[ci], alg, root, kind, b, &variants[vi], salt++, &tl);
            long local[3] = {tl.ran, tl.memory, tl.declined_ok}, all[3];
            MPI_Allreduce(local, all, 3, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
            if (mt_rank() == 0)
                printf("%-14s %-32s ran %ld, memory fallback %ld, documented decline %ld\n",
                       mpiguide_collective_name(colls[ci]), names[ci][ai], all[0], all[1], all[2]);
            mt_check(all[0] > 0, "%s never ran itself", names[ci][ai]);
            mt_check(all[1] == 0, "%s fell back for memory %ld times", names[ci][ai], all[1]);
        }
    }
    MPI_Type_free(&dts[DT_STRIDED].root);
    MPI_Type_free(&dts[DT_STRIDED].leaf);
    MPI_Type_free(&dts[DT_PAIRS].root);
    return mt_finish();
}
