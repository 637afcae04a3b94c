/* The known defects of the running MPI: the built-in table (src/defects/known.txt) filtered by
 * the family and version of MPI_Get_library_version, and the facts of calls to match against
 * it. Parsed on every rank at start-up (the text is part of the binary, so every rank reads the
 * same), never touched afterwards but to read. */
#include "mpi_defects.h"
#include "mpi_family.h"
#include "util/diag.h"
#include <stdlib.h>
#include <string.h>

static mg_defect_table table;
static unsigned char *applies;     /* per entry: concerns the running library */
static uint32_t colls_with_defect; /* bit per collective */
static uint32_t colls_with_mixed;  /* bit per collective with an entry testing `mixed` */

static void print_diag(void *ctx, int error, const char *where, const char *what) {
    if (*(int *)ctx == 0) mg_diag(error, where, "%s", what);
}

int mg_defects_start(int rank) {
    mg_defects_stop();
    int bad = mg_defects_parse(mg_defects_known_text, "libmpiguide: built-in defect table", &table,
                               print_diag, &rank);
    applies = table.n ? calloc((size_t)table.n, 1) : NULL;
    if (table.n && !applies) {
        mg_defects_free(&table);
        return -1;
    }
    mg_defects_for_library(&table, mg_library_version(), applies);
    for (int i = 0; i < table.n; i++) {
        if (!applies[i]) continue;
        colls_with_defect |= table.v[i].colls;
        for (int k = 0; k < table.v[i].nterms; k++)
            if (table.v[i].terms[k].fact == MG_FACT_MIXED) colls_with_mixed |= table.v[i].colls;
    }
    if (colls_with_mixed) mg_type_mixed_start();
    return bad ? -1 : 0;
}

void mg_defects_stop(void) {
    mg_defects_free(&table);
    free(applies);
    applies = NULL;
    colls_with_defect = colls_with_mixed = 0;
    mg_type_mixed_stop();
}

int mg_defects_in(int coll) {
    return coll >= 0 && coll < 32 && (colls_with_defect >> coll & 1u);
}

/* The codes of the defect table (defects/parse.c): row + 1 of catalog/ops.def and
 * catalog/datatypes.def; 0 for a user's op and any other datatype. */
int mg_op_code_of(MPI_Op op) {
    static const MPI_Op ops[] = {
#define MG_OPDEF(N, ...) N,
#include "catalog/ops.def"
#undef MG_OPDEF
    };
    for (int i = 0; i < (int)(sizeof ops / sizeof ops[0]); i++)
        if (op == ops[i]) return i + 1;
    return 0;
}

int mg_type_code_of(MPI_Datatype t) {
    static const MPI_Datatype types[] = {
#define MG_DTYPE(N, ...) N,
#include "catalog/datatypes.def"
#undef MG_DTYPE
    };
    for (int i = 0; i < (int)(sizeof types / sizeof types[0]); i++)
        if (t == types[i]) return i + 1;
    return 0;
}

/* mixed, decoded only for a collective that an entry of the running MPI tests it on */
static void set_mixed(int coll, const mg_shape *s, mg_facts *f) {
    if (coll < 0 || coll >= 32 || !(colls_with_mixed >> coll & 1u)) return;
    int mixed = mg_type_mixed(s->type);
    if (mixed >= 0) mg_facts_set(f, MG_FACT_MIXED, mixed);
}

static int regular_counts(const int *counts, int p) {
    for (int i = 1; i < p; i++)
        if (counts[i] != counts[0]) return 0;
    return 1;
}

static int zero_counts(const int *counts, int p) {
    for (int i = 0; i < p; i++)
        if (counts[i] == 0) return 1;
    return 0;
}

void mg_facts_of(int coll, const mg_args *a, const mg_shape *s, int shared_only, mg_facts *f) {
    int reduction = mg_coll_is_reduction(coll), rooted = mg_coll_is_rooted(coll);
    int b = mg_coll_blocking(coll); /* a nonblocking collective has its blocking one's arguments */
    /* MPI_IN_PLACE: on every rank or none, except at the root of a rooted collective (the
     * receive side of Scatter, the send side of the others), which only the root knows */
    const void *where = b == MPIGUIDE_COLL_SCATTER || b == MPIGUIDE_COLL_SCATTERV
                            ? (const void *)a->recvbuf
                            : a->sendbuf;
    int inplace = where == MPI_IN_PLACE;
    if (rooted && (shared_only || s->rank != a->root)) inplace = -1;
    mg_facts_fill(f, coll, s->p, rooted ? a->root : 0, s->count, s->msize, s->extent, s->true_lb,
                  s->true_extent, reduction ? s->commute : 1, reduction ? s->predefined_op : 1,
                  inplace,
                  b == MPIGUIDE_COLL_REDUCE_SCATTER ? regular_counts(a->recvcounts, s->p) : 1,
                  reduction ? s->op_code : 0, reduction ? s->type_code : 0);
    if (b == MPIGUIDE_COLL_REDUCE_SCATTER) /* recvcounts: the same on every rank */
        mg_facts_set(f, MG_FACT_ZERO_COUNTS, zero_counts(a->recvcounts, s->p));
    if (s->msize < 0) /* v-collectives: no count of section 1 */
        f->known &= ~(1u << MG_FACT_COUNT | 1u << MG_FACT_BYTES | 1u << MG_FACT_VECTOR_BYTES |
                      1u << MG_FACT_TOTAL_BYTES);
    else
        set_mixed(coll, s, f);
}

void mg_facts_inner(const mg_shape *s, int coll, int64_t count, int inplace, int root,
                    mg_facts *f) {
    mg_facts_fill(f, coll, s->p, root, count, count * (int64_t)s->tsize, s->extent, s->true_lb,
                  s->true_extent, s->commute, s->predefined_op, inplace, 1, s->op_code,
                  s->type_code);
    set_mixed(coll, s, f);
}

const mg_defect *mg_defect_hit(const mg_facts *f) {
    if (!mg_defects_in(f->coll)) return NULL;
    return mg_defect_find(&table, applies, f, NULL);
}
