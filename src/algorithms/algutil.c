/* Typed copies and packing for the mock-ups; contiguous data takes a memcpy, anything else
 * the MPI datatype engine (PMPI_Pack / PMPI_Unpack, or a send to self on a private comm). */
#include "algutil.h"
#include <stdatomic.h>

typedef struct layout {
    int contiguous;
    MPI_Aint true_lb;
    int size;
} layout;

static int layout_of(MPI_Datatype t, int count, layout *l) {
    MPI_Aint lb, ext, tlb, text;
    int rc = PMPI_Type_size(t, &l->size);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_extent(t, &lb, &ext);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_true_extent(t, &tlb, &text);
    l->true_lb = tlb;
    l->contiguous = rc == MPI_SUCCESS && text == l->size && (count <= 1 || ext == l->size);
    return rc;
}

/* The tag of this thread's copies through the private MPI_COMM_SELF duplicate: under
 * MPI_THREAD_MULTIPLE several threads send to themselves on it at once, and with one tag a
 * thread could receive another's message. Tags run up to 32767, the least MPI_TAG_UB. */
static int copy_tag(void) {
    static atomic_int next;
    static _Thread_local int tag = -1;
    if (tag < 0) tag = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed) % 32768;
    return tag;
}

int mg_tcopy(const void *s, int sc, MPI_Datatype st, void *d, int dc, MPI_Datatype dt) {
    layout ls, ld;
    int rc = layout_of(st, sc, &ls);
    if (rc == MPI_SUCCESS) rc = layout_of(dt, dc, &ld);
    if (rc != MPI_SUCCESS) return rc;
    if ((int64_t)sc * ls.size == 0) return MPI_SUCCESS;
    if (ls.contiguous && ld.contiguous) {
        memmove((char *)d + ld.true_lb, (const char *)s + ls.true_lb, (size_t)sc * ls.size);
        return MPI_SUCCESS;
    }
    int tag = copy_tag();
    return PMPI_Sendrecv(s, sc, st, 0, tag, d, dc, dt, 0, tag, mg_pool.self, MPI_STATUS_IGNORE);
}

int mg_pack(const void *buf, int count, MPI_Datatype t, void *out) {
    layout l;
    int rc = layout_of(t, count, &l);
    if (rc != MPI_SUCCESS) return rc;
    int64_t bytes = (int64_t)count * l.size;
    if (bytes == 0) return MPI_SUCCESS;
    if (l.contiguous) {
        memcpy(out, (const char *)buf + l.true_lb, (size_t)bytes);
        return MPI_SUCCESS;
    }
    int pos = 0;
    return PMPI_Pack(buf, count, t, out, (int)bytes, &pos, mg_pool.self);
}

int mg_unpack(const void *in, void *buf, int count, MPI_Datatype t) {
    layout l;
    int rc = layout_of(t, count, &l);
    if (rc != MPI_SUCCESS) return rc;
    int64_t bytes = (int64_t)count * l.size;
    if (bytes == 0) return MPI_SUCCESS;
    if (l.contiguous) {
        memcpy((char *)buf + l.true_lb, in, (size_t)bytes);
        return MPI_SUCCESS;
    }
    int pos = 0;
    return PMPI_Unpack(in, (int)bytes, &pos, buf, count, t, mg_pool.self);
}

unsigned mg_supports_any(const mg_args *a, const mg_shape *s) {
    (void)a, (void)s;
    return 0;
}

unsigned mg_supports_p_times_count(const mg_args *a, const mg_shape *s) {
    (void)a;
    return MG_FITS_INT((int64_t)s->p * s->msize) ? 0 : MPIGUIDE_DECLINE_OVERFLOW;
}

void mg_need_none(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a, (void)s;
    need->msg = need->ints = 0;
}

void mg_need_2p_ints(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->msg = 0;
    need->ints = 2 * (size_t)s->p * sizeof(int);
}

/* The C kind of a predefined integer datatype (algutil.h). */
int mg_integer_kind(MPI_Datatype t, int *size, int *sgn) {
    static const struct {
        MPI_Datatype t;
        int size, sgn;
    } ints[] = {{MPI_SIGNED_CHAR, 1, 1},
                {MPI_UNSIGNED_CHAR, 1, 0},
                {MPI_SHORT, sizeof(short), 1},
                {MPI_UNSIGNED_SHORT, sizeof(short), 0},
                {MPI_INT, sizeof(int), 1},
                {MPI_UNSIGNED, sizeof(int), 0},
                {MPI_LONG, sizeof(long), 1},
                {MPI_UNSIGNED_LONG, sizeof(long), 0},
                {MPI_LONG_LONG, sizeof(long long), 1},
                {MPI_UNSIGNED_LONG_LONG, sizeof(long long), 0},
                {MPI_INT8_T, 1, 1},
                {MPI_INT16_T, 2, 1},
                {MPI_INT32_T, 4, 1},
                {MPI_INT64_T, 8, 1},
                {MPI_UINT8_T, 1, 0},
                {MPI_UINT16_T, 2, 0},
                {MPI_UINT32_T, 4, 0},
                {MPI_UINT64_T, 8, 0}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (ints[i].t == t) {
            *size = ints[i].size, *sgn = ints[i].sgn;
            return 1;
        }
    return 0;
}
