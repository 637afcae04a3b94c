/* The known defects of the running MPI (src/defects/known.txt, built in): which entries concern
 * this library's family and version, the facts of a call or of a mock-up's inner call, and the
 * entry a call would run into. Every fact used for a decision is shared by all ranks, so a
 * decline or a repair happens on every rank or on none (docs/dev/design.md invariant 1). */
#ifndef MG_CORE_DEFECTS_H
#define MG_CORE_DEFECTS_H

#include "defects/defects.h"
#include "call.h"

/* Parses the built-in table and keeps the entries of the running library (no communication:
 * every rank runs the same binary under the same MPI). 0, or -1 when the table is unusable
 * (reported once by rank 0; no entry applies then). */
int mg_defects_start(int rank);
void mg_defects_stop(void);
/* 1 when some entry of the running MPI names the collective. */
int mg_defects_in(int coll);

/* The names of the defect table's op and type facts for MPI handles (0: a user op, a derived
 * datatype). */
int mg_op_code_of(MPI_Op op);
int mg_type_code_of(MPI_Datatype t);

/* The `mixed` fact of a datatype: 1 when its type signature holds more than one basic type, 0
 * when not, -1 when it cannot be told. Derived types are decoded once and the answer cached on
 * them (start creates the attribute key, after MPI_Init; stop frees it). */
int mg_type_mixed(MPI_Datatype t);
void mg_type_mixed_start(void);
void mg_type_mixed_stop(void);

/* The facts of a call: everything from its shape (mixed too, where an entry of the running MPI
 * asks for it); with shared_only, a rooted collective's
 * MPI_IN_PLACE (which only the root knows) stays unknown, so every rank gets the same answer. */
void mg_facts_of(int coll, const mg_args *a, const mg_shape *s, int shared_only, mg_facts *f);
/* The facts of an inner call a reduction mock-up makes with the call's datatype and op: the
 * inner collective, its count (per interfaces.md section 1), whether it passes MPI_IN_PLACE and
 * its root. regular is 1; set it for an inner Reduce_scatter with unequal counts. */
void mg_facts_inner(const mg_shape *s, int coll, int64_t count, int inplace, int root, mg_facts *f);
/* The entry of the running MPI the facts meet or may meet; NULL when none. */
const mg_defect *mg_defect_hit(const mg_facts *f);

#endif
