/* Writes reproducers (repro.h): the case's datatype as MPI builds it from its recipe, the user
 * op written out for that datatype's fields, the communicator, and per rank its arguments, its
 * buffers' placement, initial bytes and expected bytes (hex), so the program needs nothing but
 * MPI. The comparison skips bytes MPI leaves undefined and names the first differing byte. */
#include "repro.h"
#include "catalog/catalog.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The program's names of MG_RF_*. */
static const char *const fixed_names[] = {"NONE", "NUL", "IN_PLACE", "SAME"};

void mg_repro_command(const mg_repro *r, const char *path, char *buf, size_t len) {
    const char *mpicc = !strcmp(r->mpi, "mpich") ? "mpicc.mpich" : "mpicc.openmpi";
    const char *run = !strcmp(r->mpi, "mpich") ? "mpiexec.mpich" : "mpiexec.openmpi";
    if (r->alg)
        snprintf(buf, len,
                 "%s %s -o repro && %s -n %d env LD_PRELOAD=%s MPIGUIDE_ALG=%s=%s ./repro", mpicc,
                 path, run, r->world, r->libpath, mg_coll_short(r->c->coll), r->alg);
    else
        snprintf(buf, len, "%s %s -o repro && %s -n %d ./repro", mpicc, path, run, r->world);
}

static void hex(FILE *f, const unsigned char *b, size_t n) {
    fputs("\"", f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%02x", b[i]);
        if (i % 48 == 47 && i + 1 < n) fputs("\"\n    \"", f);
    }
    fputs("\"", f);
}

/* The datatype T from its recipe, as C statements building `t`. */
static void type_code(FILE *f, const mg_rtype *T) {
    const char *b = mg_rbasics[T->basics[0]].mpi_name;
    switch (T->how) {
    case MG_RR_PREDEFINED:
        fprintf(f, "    t = %s;\n", T->mpi_name);
        return;
    case MG_RR_CONTIGUOUS:
        fprintf(f, "    MPI_Type_contiguous(%d, %s, &t);\n", T->n, b);
        break;
    case MG_RR_VECTOR:
        fprintf(f, "    MPI_Type_vector(%d, %d, %d, %s, &t);\n", T->n, T->blocklen, T->stride, b);
        break;
    case MG_RR_INDEXED: {
        fprintf(f, "    int lens[] = {");
        for (int i = 0; i < T->n; i++) fprintf(f, "%s%d", i ? ", " : "", T->lens[i]);
        fprintf(f, "}, displs[] = {");
        for (int i = 0; i < T->n; i++) fprintf(f, "%s%" PRId64, i ? ", " : "", T->displs[i]);
        fprintf(f, "};\n    MPI_Type_indexed(%d, lens, displs, %s, &t);\n", T->n, b);
        break;
    }
    default: {
        fprintf(f, "    int lens[] = {");
        for (int i = 0; i < T->n; i++) fprintf(f, "%s1", i ? ", " : "");
        fprintf(f, "};\n    MPI_Aint displs[] = {");
        for (int i = 0; i < T->n; i++) fprintf(f, "%s%" PRId64, i ? ", " : "", T->displs[i]);
        fprintf(f, "};\n    MPI_Datatype parts[] = {");
        for (int i = 0; i < T->n; i++)
            fprintf(f, "%s%s", i ? ", " : "", mg_rbasics[T->basics[i]].mpi_name);
        fprintf(f, "};\n    MPI_Type_create_struct(%d, lens, displs, parts, &t);\n", T->n);
    }
    }
    if (T->resized) {
        fprintf(f, "    MPI_Datatype inner = t;\n");
        fprintf(f, "    MPI_Type_create_resized(inner, %" PRId64 ", %" PRId64 ", &t);\n", T->rlb,
                T->rextent);
        fprintf(f, "    MPI_Type_free(&inner);\n");
    }
    fprintf(f, "    MPI_Type_commit(&t);\n");
}

/* The user op for T's fields: the commutative one adds plus one (wrapping), the other composes
 * affine maps packed into each field (in first, then inout), as selftest's reference does. */
static void user_op_code(FILE *f, const mg_rtype *T, int op) {
    fprintf(f,
            "static void user_op(void *in, void *inout, int *len, MPI_Datatype *type) {\n"
            "    (void)type;\n"
            "    for (int i = 0; i < *len; i++) {\n"
            "        char *x = (char *)in + (long)i * %" PRId64
            ", *y = (char *)inout + (long)i * %" PRId64 ";\n",
            T->extent, T->extent);
    for (int k = 0; k < T->nfields; k++) {
        const mg_rbasic_desc *b = &mg_rbasics[T->f[k].basic];
        fprintf(f, "        { /* field %d */\n            %s a, o;\n", k, b->c_type);
        fprintf(f,
                "            memcpy(&a, x + %d, sizeof a);\n            memcpy(&o, y + %d, sizeof "
                "o);\n",
                T->f[k].off, T->f[k].off);
        if (op == MG_ROP_USER_COMM) {
            if (b->is_float)
                fprintf(f, "            o = a + o + 1;\n");
            else
                fprintf(f, "            o = (%s)((uint64_t)a + (uint64_t)o + 1u);\n", b->c_type);
        } else {
            int half = b->is_float ? (T->f[k].basic == MG_RB_F32 ? 8 : 16) : b->size * 4;
            fprintf(f,
                    "            uint64_t m = (1ull << %d) - 1, ua = (uint64_t)%sa, uo = "
                    "(uint64_t)%so;\n"
                    "            uint64_t ai = ua >> %d & m, bi = ua & m, ao = uo >> %d & m, bo = "
                    "uo & m;\n"
                    "            o = (%s)(((ao * ai) & m) << %d | ((ao * bi + bo) & m));\n",
                    half, b->is_float ? "" : "(uint64_t)", b->is_float ? "" : "(uint64_t)", half,
                    half, b->c_type, half);
        }
        fprintf(f, "            memcpy(y + %d, &o, sizeof o);\n        }\n", T->f[k].off);
    }
    fprintf(f, "    }\n}\n\n");
}

/* The buffers of one rank as the run placed them. */
typedef struct rank_bufs {
    mg_rargs a;
    mg_rgeom g[MG_RB_NBUFS];
    size_t size[2];
    mg_rmem init[MG_RB_NBUFS], exp[MG_RB_NBUFS];
} rank_bufs;

static void free_bufs(rank_bufs *rb) {
    for (int b = 0; b < MG_RB_NBUFS; b++) {
        free(rb->init[b].mem);
        free(rb->exp[b].mem);
        free(rb->exp[b].care);
    }
}

static int make_bufs(const mg_rcase *c, int rank, rank_bufs *rb) {
    memset(rb, 0, sizeof *rb);
    mg_rcase_args(c, rank, &rb->a);
    mg_rgeometry(c, &rb->a, rb->g, rb->size);
    for (int b = 0; b < MG_RB_NBUFS; b++) {
        if (!rb->a.has[b]) continue;
        size_t n = rb->g[b].bytes;
        rb->init[b] = (mg_rmem){malloc(n + 1), n, rb->g[b].origin, NULL};
        rb->exp[b] = (mg_rmem){malloc(n + 1), n, rb->g[b].origin, NULL};
        if (!rb->init[b].mem || !rb->exp[b].mem) return -1;
        mg_rfill(c, rank, b, &rb->a, &rb->init[b]);
        memcpy(rb->exp[b].mem, rb->init[b].mem, n);
        if (mg_rexpect(c, rank, b, &rb->a, &rb->exp[b])) return -1;
    }
    return 0;
}

static void int_array(FILE *f, const char *name, const int *v, int n) {
    fprintf(f, "static const int %s[] = {", name);
    for (int i = 0; i < n; i++) fprintf(f, "%s%d", i ? ", " : "", v[i]);
    fprintf(f, "};\n");
}

/* The call itself, with this rank's arguments (rank table `R`). */
static void call_code(FILE *f, const mg_rcase *c) {
    const char *s = "sbuf", *r = "rbuf";
    switch (c->coll) {
    case MG_CAT_ALLGATHER:
    case MG_CAT_ALLTOALL:
    case MG_CAT_GATHER:
    case MG_CAT_SCATTER:
        fprintf(f, "    rc = MPI_%s(%s, R->sendcount, stype, %s, R->recvcount, rtype%s, comm);\n",
                mg_coll_name(c->coll) + 4, s, r, mg_coll_is_rooted(c->coll) ? ", ROOT" : "");
        break;
    case MG_CAT_BCAST:
        fprintf(f, "    rc = MPI_Bcast(rbuf, R->recvcount, rtype, ROOT, comm);\n");
        break;
    case MG_CAT_GATHERV:
        fprintf(
            f, "    rc = MPI_Gatherv(sbuf, R->sendcount, stype, rbuf, R->vcounts ? counts : NULL,\n"
               "                     R->vcounts ? displs : NULL, rtype, ROOT, comm);\n");
        break;
    case MG_CAT_SCATTERV:
        fprintf(
            f,
            "    rc = MPI_Scatterv(sbuf, R->vcounts ? counts : NULL, R->vcounts ? displs : NULL,\n"
            "                      stype, rbuf, R->recvcount, rtype, ROOT, comm);\n");
        break;
    case MG_CAT_ALLREDUCE:
    case MG_CAT_SCAN:
        fprintf(f, "    rc = MPI_%s(sbuf, rbuf, COUNT, t, op, comm);\n", mg_coll_name(c->coll) + 4);
        break;
    case MG_CAT_REDUCE:
        fprintf(f, "    rc = MPI_Reduce(sbuf, rbuf, COUNT, t, op, ROOT, comm);\n");
        break;
    case MG_CAT_REDUCE_SCATTER_BLOCK:
        fprintf(f, "    rc = MPI_Reduce_scatter_block(sbuf, rbuf, COUNT, t, op, comm);\n");
        break;
    case MG_CAT_REDUCE_SCATTER:
        fprintf(f, "    rc = MPI_Reduce_scatter(sbuf, rbuf, counts, t, op, comm);\n");
        break;
    }
}

int mg_repro_write(FILE *f, const mg_repro *r) {
    const mg_rcase *c = r->c;
    const mg_rtype *T = &mg_rtypes[c->type];
    rank_bufs *rb = calloc((size_t)c->p, sizeof *rb);
    int rc = -1;
    char desc[1024], cmd[1200];
    if (!rb) return -1;
    for (int q = 0; q < c->p; q++)
        if (make_bufs(c, q, &rb[q])) goto out;
    mg_rcase_describe(c, desc, sizeof desc);
    mg_repro_command(r, "repro.c", cmd, sizeof cmd);
    fprintf(f, "/* Reproducer written by mpiguide selftest --random: %s.\n", r->finding);
    fprintf(f, " *   %s\n", desc);
    fprintf(f, " * %s\n",
            r->alg ? "The collective below is correct; run with the mock-up forced, it is not:"
                   : "The MPI library's own collective gives a wrong result:");
    if (r->alg) fprintf(f, " *   %s (%s)\n", r->alg, mg_coll_name(c->coll));
    fprintf(f, " * Seen: %s\n * MPI: %s\n * Found by: %s\n", r->detail, r->library, r->found_by);
    fprintf(f, " * Build and run (%d processes):\n *   %s\n", r->world, cmd);
    fprintf(
        f,
        " * Prints \"correct\" and exits 0 when every rank's buffers hold the expected bytes;\n"
        " * otherwise names the first wrong byte of each rank and exits 1. Only MPI calls. */\n");
    fprintf(f, "#include <mpi.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
               "#include <string.h>\n\n");
    fprintf(f, "#define P %d     /* processes in the communicator of the call */\n", c->p);
    fprintf(f, "#define ROOT %d\n#define COUNT %" PRId64 "\n", c->root, c->count);
    fprintf(f, "#define COMM_KIND \"%s\" /* made from MPI_COMM_WORLD of %d processes */\n",
            mg_rcomm_names[c->comm], r->world);
    fprintf(f, "#define GROUP %d /* of a split: the color of the group that makes the call */\n\n",
            r->group);
    if (c->op == MG_ROP_USER_COMM || c->op == MG_ROP_USER_NONCOMM) user_op_code(f, T, c->op);
    if (c->counts) {
        int_array(f, "counts", c->counts, c->p);
        int_array(f, "displs", c->displs, c->p);
        fprintf(f, "\n");
    }
    /* per rank: arguments, placement, bytes */
    fprintf(f, "enum { NONE, NUL, IN_PLACE, SAME }; /* how a missing buffer is passed */\n"
               "typedef struct rank_args {\n"
               "    int has[2], fixed[2], wide[2], null_type[2], vcounts;\n"
               "    int sendcount, recvcount;\n"
               "    int block[2];                 /* which allocation */\n"
               "    size_t at[2], bytes[2], origin[2], size[2];\n"
               "    const char *init[2], *expect[2], *care[2]; /* hex; care: one bit per byte */\n"
               "} rank_args;\n\n");
    for (int q = 0; q < c->p; q++) {
        for (int b = 0; b < MG_RB_NBUFS; b++) {
            if (!rb[q].a.has[b]) continue;
            size_t n = rb[q].g[b].bytes;
            fprintf(f, "static const char init_%d_%d[] =\n    ", q, b);
            hex(f, rb[q].init[b].mem, n);
            fprintf(f, ";\nstatic const char expect_%d_%d[] =\n    ", q, b);
            hex(f, rb[q].exp[b].mem, n);
            unsigned char *bits = calloc((n + 7) / 8 + 1, 1);
            if (!bits) goto out;
            for (size_t i = 0; i < n; i++)
                if (!rb[q].exp[b].care || rb[q].exp[b].care[i])
                    bits[i / 8] |= (unsigned char)(1u << (i % 8));
            fprintf(f, ";\nstatic const char care_%d_%d[] =\n    ", q, b);
            hex(f, bits, (n + 7) / 8);
            fprintf(f, ";\n");
            free(bits);
        }
    }
    fprintf(f, "\nstatic const rank_args ranks[P] = {\n");
    for (int q = 0; q < c->p; q++) {
        const mg_rargs *a = &rb[q].a;
        const mg_rgeom *g = rb[q].g;
        fprintf(f, "    {{%d, %d}, {%s, %s}, {%d, %d}, {%d, %d}, %d, %" PRId64 ", %" PRId64 ",\n",
                a->has[0], a->has[1], fixed_names[a->fixed[0]], fixed_names[a->fixed[1]],
                a->sendwide, a->recvwide, a->null_type[0], a->null_type[1],
                a->recvcounts || a->sendcounts ? 1 : 0, a->sendcount, a->recvcount);
        fprintf(f, "     {%d, %d}, {%zu, %zu}, {%zu, %zu}, {%zu, %zu}, {%zu, %zu},\n", g[0].block,
                g[1].block, g[0].at, g[1].at, g[0].bytes, g[1].bytes, g[0].origin, g[1].origin,
                rb[q].size[0], rb[q].size[1]);
        fprintf(f, "     {");
        for (int b = 0; b < 2; b++)
            fprintf(f, a->has[b] ? "%sinit_%d_%d" : "%sNULL", b ? ", " : "", q, b);
        fprintf(f, "}, {");
        for (int b = 0; b < 2; b++)
            fprintf(f, a->has[b] ? "%sexpect_%d_%d" : "%sNULL", b ? ", " : "", q, b);
        fprintf(f, "}, {");
        for (int b = 0; b < 2; b++)
            fprintf(f, a->has[b] ? "%scare_%d_%d" : "%sNULL", b ? ", " : "", q, b);
        fprintf(f, "}},\n");
    }
    fprintf(f, "};\n\n");
    fprintf(f,
            "static unsigned char byte_at(const char *hex, size_t i) {\n"
            "    unsigned v = 0;\n"
            "    sscanf(hex + 2 * i, \"%%2x\", &v);\n"
            "    return (unsigned char)v;\n"
            "}\n\n"
            "int main(int argc, char **argv) {\n"
            "    int world, wrank, rank = -1, rc, wrong = 0, all = 0;\n"
            "    MPI_Init(&argc, &argv);\n"
            "    MPI_Comm_size(MPI_COMM_WORLD, &world);\n"
            "    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);\n"
            "    if (world != %d) {\n"
            "        if (wrank == 0) fprintf(stderr, \"run with %d processes\\n\");\n"
            "        MPI_Abort(MPI_COMM_WORLD, 2);\n"
            "    }\n",
            r->world, r->world);
    static const char *const comm_code[MG_RC_COUNT] = {
        "    MPI_Comm comm = MPI_COMM_WORLD;\n    int color = 0;\n",
        "    MPI_Comm comm;\n    int color = 0;\n    MPI_Comm_dup(MPI_COMM_WORLD, &comm);\n",
        "    MPI_Comm comm;\n    int color = 0;\n    MPI_Comm_split(MPI_COMM_WORLD, 0, world - "
        "wrank, &comm);\n",
        "    MPI_Comm comm;\n    int color = wrank % 2;\n    MPI_Comm_split(MPI_COMM_WORLD, color, "
        "wrank, &comm);\n",
        "    MPI_Comm comm;\n    int color = wrank >= world / 2;\n    "
        "MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &comm);\n"};
    fputs(comm_code[c->comm], f);
    fprintf(f, "    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);\n"
               "    MPI_Comm_rank(comm, &rank);\n"
               "    MPI_Datatype t, t2;\n");
    type_code(f, T);
    fprintf(f, "    MPI_Type_contiguous(2, t, &t2);\n    MPI_Type_commit(&t2);\n");
    if (c->op >= 0 && mg_rop_predefined(c->op))
        fprintf(f, "    MPI_Op op = %s;\n", mg_rop_names[c->op]);
    else if (c->op >= 0)
        fprintf(f, "    MPI_Op op;\n    MPI_Op_create(user_op, %d, &op);\n",
                mg_rop_commutative(c->op));
    fprintf(
        f,
        "    if (color == GROUP) {\n"
        "        const rank_args *R = &ranks[rank];\n"
        "        unsigned char *block[2] = {NULL, NULL}, *buf[2] = {NULL, NULL};\n"
        "        for (int k = 0; k < 2; k++)\n"
        "            if (R->size[k]) block[k] = malloc(R->size[k]);\n"
        "        for (int b = 0; b < 2; b++) {\n"
        "            if (!R->has[b]) continue;\n"
        "            buf[b] = block[R->block[b]] + R->at[b];\n"
        "            for (size_t i = 0; i < R->bytes[b]; i++) buf[b][i] = byte_at(R->init[b], i);\n"
        "        }\n"
        "        void *ptr[2];\n"
        "        for (int b = 0; b < 2; b++)\n"
        "            ptr[b] = R->has[b] ? (void *)(buf[b] + R->origin[b])\n"
        "                     : R->fixed[b] == IN_PLACE ? MPI_IN_PLACE : NULL;\n"
        "        void *sbuf = R->fixed[0] == SAME ? ptr[1] : ptr[0], *rbuf = ptr[1];\n"
        "        MPI_Datatype stype = R->null_type[0] ? MPI_DATATYPE_NULL : R->wide[0] ? t2 : t;\n"
        "        MPI_Datatype rtype = R->null_type[1] ? MPI_DATATYPE_NULL : R->wide[1] ? t2 : t;\n"
        "        (void)sbuf, (void)stype, (void)rtype;\n");
    call_code(f, c);
    fprintf(f,
            "        if (rc != MPI_SUCCESS) {\n"
            "            char s[MPI_MAX_ERROR_STRING];\n"
            "            int n = 0;\n"
            "            MPI_Error_string(rc, s, &n);\n"
            "            printf(\"rank %%d: the call failed: %%s\\n\", rank, s);\n"
            "            wrong++;\n"
            "        }\n"
            "        for (int b = 0; b < 2 && !wrong; b++)\n"
            "            for (size_t i = 0; R->has[b] && i < R->bytes[b]; i++) {\n"
            "                if (!(byte_at(R->care[b], i / 8) >> (i %% 8) & 1)) continue;\n"
            "                unsigned char want = byte_at(R->expect[b], i);\n"
            "                if (buf[b][i] != want) {\n"
            "                    printf(\"rank %%d: %%s byte %%+ld from element 0's origin: "
            "expected 0x%%02x, \"\n"
            "                           \"got 0x%%02x\\n\", rank, b ? \"recvbuf\" : \"sendbuf\",\n"
            "                           (long)i - (long)R->origin[b], want, buf[b][i]);\n"
            "                    wrong++;\n"
            "                    break;\n"
            "                }\n"
            "            }\n"
            "        free(block[0]);\n"
            "        free(block[1]);\n"
            "    }\n"
            "    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);\n"
            "    if (wrank == 0) printf(\"%%s\\n\", all ? \"WRONG\" : \"correct\");\n"
            "    MPI_Finalize();\n"
            "    return all ? 1 : 0;\n"
            "}\n");
    rc = ferror(f) ? -1 : 0;
out:
    for (int q = 0; q < c->p; q++) free_bufs(&rb[q]);
    free(rb);
    return rc;
}
