/* An independent expected result for the reductions of the matrix: every rank's input is
 * gathered and combined locally with MPI_Reduce_local in rank order, then written into a copy
 * of the initial receive buffer (data fields only, so holes keep their sentinel). A mock-up
 * passes when it matches the library's own collective or this oracle, so a defect of the MPI
 * neither fails a correct mock-up nor goes unnoticed. Cases where the library's own collective
 * is known to crash are skipped (mx_reference_defect, from the library's defect table): neither
 * the reference nor a mock-up's fallback to it could run. */
#include "matrix.h"
#include "defects/defects.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library's own defect table (src/defects/known.txt, through mgpure): the entries of the
 * running MPI, loaded once. */
static const mg_defect_table *running_defects(const unsigned char **applies) {
    static mg_defect_table t;
    static unsigned char *on;
    static int loaded;
    if (!loaded) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        loaded = 1;
        mg_defects_parse(mg_defects_known_text, "known.txt", &t, NULL, NULL);
        on = calloc((size_t)t.n + 1, 1);
        if (on && PMPI_Get_library_version(version, &len) == MPI_SUCCESS)
            mg_defects_for_library(&t, version, on);
    }
    *applies = on;
    return &t;
}

const char *mx_reference_defect(const mx_setup *S) {
    static char why[600];
    const unsigned char *applies;
    const mg_defect_table *t = running_defects(&applies);
    int commute = 1, tsize = 0, regular = 1;
    if (S->a.op != MPI_OP_NULL && PMPI_Op_commutative(S->a.op, &commute) != MPI_SUCCESS)
        return NULL;
    PMPI_Type_size(S->T->t, &tsize);
    int64_t count = S->count; /* Reduce_scatter: the whole vector, as interfaces.md section 1 */
    if (S->coll == MPIGUIDE_COLL_REDUCE_SCATTER)
        for (int i = 1; i < S->p; i++) regular &= S->counts[1][i] == S->counts[1][0];
    /* the matrix knows every rank's arguments: no fact is unknown */
    int op = S->a.op == MPI_SUM ? mg_op_code("sum") : S->a.op == MPI_MAX ? mg_op_code("max") : 0;
    int type = S->T->t == MPI_INT      ? mg_type_code("MPI_INT")
               : S->T->t == MPI_DOUBLE ? mg_type_code("MPI_DOUBLE")
                                       : 0;
    mg_facts f;
    mg_facts_fill(&f, S->coll, S->p, S->root, count, count * tsize, S->T->extent, S->T->true_lb,
                  S->T->true_extent, commute, op != 0, S->inplace, regular, op, type);
    int mixed = 0;
    for (int j = 1; j < S->T->nfields; j++) mixed |= S->T->f[j].dbl != S->T->f[0].dbl;
    mg_facts_set(&f, MG_FACT_MIXED, mixed);
    mg_facts_set(&f, MG_FACT_TYPES_DIFFER, S->tpair != MX_TP_SAME);
    int m;
    const mg_defect *d = applies ? mg_defect_find(t, applies, &f, &m) : NULL;
    if (!d || d->effect == MG_EFFECT_WRONG) return NULL; /* a wrong result: the oracle judges */
    snprintf(why, sizeof why,
             "known defect %s of this MPI (%s); neither the reference nor a "
             "fallback to it can run",
             d->name, d->summary);
    return why;
}

static int64_t input_elems(const mx_setup *S) {
    switch (S->coll) {
    case MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK:
        return (int64_t)S->p * S->count;
    default: /* Allreduce, Reduce, Scan, Reduce_scatter (the whole vector) */
        return S->count;
    }
}

/* Where this rank's share of the result starts and how many elements it has. */
static void result_block(const mx_setup *S, int64_t *from, int64_t *k) {
    *from = 0;
    *k = S->count;
    if (S->coll == MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK) {
        *from = (int64_t)S->rank * S->count;
    } else if (S->coll == MPIGUIDE_COLL_REDUCE_SCATTER) {
        *k = S->counts[1][S->rank];
        for (int i = 0; i < S->rank; i++) *from += S->counts[1][i];
    } else if ((S->coll == MPIGUIDE_COLL_REDUCE && S->rank != S->root) ||
               (S->coll == MPIGUIDE_COLL_EXSCAN && S->rank == 0)) {
        *k = 0; /* Exscan: rank 0's recvbuf is undefined, the library leaves it untouched */
    }
}

static void copy_fields(const mx_type *T, char *dst, const char *src, int64_t k) {
    for (int64_t e = 0; e < k; e++)
        for (int j = 0; j < T->nfields; j++) {
            MPI_Aint at = (MPI_Aint)e * T->extent + T->f[j].off;
            memcpy(dst + at, src + at, T->f[j].dbl ? sizeof(double) : sizeof(int));
        }
}

int mx_oracle(const mx_setup *S, const mx_buf init[MX_NBUFS], mx_buf exp[MX_NBUFS]) {
    const mx_type *T = S->T;
    int p = S->p, rc = -1;
    int64_t n = input_elems(S);
    size_t span = (size_t)(n * T->extent);
    /* this rank's input: sendbuf, or recvbuf where it passed MPI_IN_PLACE */
    const mx_buf *in = S->has[MX_SEND] ? &init[MX_SEND] : &init[MX_RECV];
    char *all = malloc(span * (size_t)p + 1), *mine = malloc(span + 1);
    mx_buf acc;
    memset(exp, 0, sizeof(mx_buf) * MX_NBUFS);
    memset(&acc, 0, sizeof acc);
    if (!all || !mine || mx_buf_alloc(&acc, T, n, n)) goto out;
    if (span) memcpy(mine, in->ptr + T->lb, span);
    if (PMPI_Allgather(mine, (int)span, MPI_BYTE, all, (int)span, MPI_BYTE, S->a.comm) !=
        MPI_SUCCESS)
        goto out;
    /* in_0 op in_1 op ... op in_last, folded from the right (inout = in op inout) */
    int last = S->coll == MPIGUIDE_COLL_SCAN     ? S->rank
               : S->coll == MPIGUIDE_COLL_EXSCAN ? (S->rank > 0 ? S->rank - 1 : 0)
                                                 : p - 1;
    if (span) memcpy(acc.ptr + T->lb, all + span * (size_t)last, span);
    for (int i = last - 1; i >= 0; i--)
        if (PMPI_Reduce_local(all + span * (size_t)i - T->lb, acc.ptr, (int)n, T->t, S->a.op) !=
            MPI_SUCCESS)
            goto out;
    if (mx_bufs_clone(exp, init, S)) goto out;
    int64_t from, k;
    result_block(S, &from, &k);
    if (S->has[MX_RECV]) copy_fields(T, exp[MX_RECV].ptr, acc.ptr + from * T->extent, k);
    rc = 0;
out:
    if (rc)
        for (int b = 0; b < MX_NBUFS; b++) mx_buf_free(&exp[b]);
    mx_buf_free(&acc);
    free(all);
    free(mine);
    return rc;
}
