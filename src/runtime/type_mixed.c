/* The `mixed` fact of the defect table for a datatype handle: whether its type signature holds
 * more than one basic type (MPI_DOUBLE_INT, a struct {char, double}). A signature is what sender
 * and receiver share, so every rank of a call with data gets the same answer whatever the type
 * maps look like, and a decline on it happens on every rank alike. Derived types are decoded
 * once through their envelopes and the answer is cached on the type as an attribute (copied to
 * its duplicates, which share the signature). */
#include "mpi_defects.h"
#include <stdint.h>
#include <stdlib.h>

static int keyval = MPI_KEYVAL_INVALID;

/* The named pair types of MINLOC/MAXLOC: their two basic types; 0 for any other named type. */
static int pair_parts(MPI_Datatype t, MPI_Datatype *a, MPI_Datatype *b) {
    if (t == MPI_FLOAT_INT)
        *a = MPI_FLOAT, *b = MPI_INT;
    else if (t == MPI_DOUBLE_INT)
        *a = MPI_DOUBLE, *b = MPI_INT;
    else if (t == MPI_LONG_INT)
        *a = MPI_LONG, *b = MPI_INT;
    else if (t == MPI_SHORT_INT)
        *a = MPI_SHORT, *b = MPI_INT;
    else if (t == MPI_LONG_DOUBLE_INT)
        *a = MPI_LONG_DOUBLE, *b = MPI_INT;
    else if (t == MPI_2INT)
        *a = *b = MPI_INT;
    else
        return 0;
    return 1;
}

/* Notes basic type b: 1 once it differs from the first one seen. */
static int note(MPI_Datatype b, MPI_Datatype *first) {
    if (*first == MPI_DATATYPE_NULL) *first = b;
    return b != *first;
}

/* 1: mixed, 0: not (so far), -1: the envelope could not be read. Types a struct lists with
 * no elements do not count (they are not in the signature). */
static int walk(MPI_Datatype t, MPI_Datatype *first, int depth) {
    int ni, na, nd, comb;
    if (depth > 64 || PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS) return -1;
    if (comb == MPI_COMBINER_NAMED) {
        MPI_Datatype a, b;
        if (pair_parts(t, &a, &b)) return note(a, first) | note(b, first);
        return note(t, first);
    }
    if (nd == 0) return 0; /* Fortran parameterised types: one basic type */
    int *ints = malloc(sizeof(int) * (size_t)(ni ? ni : 1));
    MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (size_t)(na ? na : 1));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)nd);
    int r = -1;
    if (ints && addrs && types &&
        PMPI_Type_get_contents(t, ni, na, nd, ints, addrs, types) == MPI_SUCCESS) {
        r = 0;
        for (int i = 0; i < nd; i++) {
            int counted = comb != MPI_COMBINER_STRUCT || ints[1 + i] > 0;
            if (r == 0 && counted) r = walk(types[i], first, depth + 1);
            int tni, tna, tnd, tcomb; /* derived parts are new handles the caller frees */
            if (PMPI_Type_get_envelope(types[i], &tni, &tna, &tnd, &tcomb) == MPI_SUCCESS &&
                tcomb != MPI_COMBINER_NAMED)
                PMPI_Type_free(&types[i]);
        }
    }
    free(ints);
    free(addrs);
    free(types);
    return r;
}

void mg_type_mixed_start(void) {
    if (keyval == MPI_KEYVAL_INVALID)
        PMPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &keyval, NULL);
}

void mg_type_mixed_stop(void) {
    if (keyval != MPI_KEYVAL_INVALID) PMPI_Type_free_keyval(&keyval);
    keyval = MPI_KEYVAL_INVALID;
}

int mg_type_mixed(MPI_Datatype t) {
    if (t == MPI_DATATYPE_NULL) return -1;
    int ni, na, nd, comb;
    if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS) return -1;
    MPI_Datatype a, b, first = MPI_DATATYPE_NULL;
    if (comb == MPI_COMBINER_NAMED) return pair_parts(t, &a, &b) && a != b;
    void *v = NULL;
    int found = 0;
    if (keyval != MPI_KEYVAL_INVALID && PMPI_Type_get_attr(t, keyval, &v, &found) == MPI_SUCCESS &&
        found)
        return (int)(intptr_t)v - 1;
    int r = walk(t, &first, 0);
    if (r >= 0 && keyval != MPI_KEYVAL_INVALID)
        PMPI_Type_set_attr(t, keyval, (void *)(intptr_t)(r + 1));
    return r;
}
