/* `mpiguide export`: the part of tuned-mode profiles that selects library algorithms, written
 * in the library's own tuning format, so that it applies without preloading anything:
 *   - Open MPI 4.1's coll/tuned dynamic rules file (coll_tuned_use_dynamic_rules=1,
 *     coll_tuned_dynamic_rules_filename=FILE);
 *   - MPICH's collective-selection JSON (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE), spliced
 *     into a complete base selection (MPICH reads only this one file, and a collective missing
 *     from it aborts). docs/library-algorithms.md, "Export". Pure. */
#ifndef MG_LIBALG_EXPORT_H
#define MG_LIBALG_EXPORT_H

#include <stddef.h>
#include <stdint.h>

/* ---- JSON scanning (json.c) ---- */
typedef struct mg_json_span {
    size_t off, len;
} mg_json_span;
typedef struct mg_json_member {
    mg_json_span key; /* without the quotes */
    mg_json_span val;
} mg_json_member;

/* 1 when t[0..n) is one JSON object (and nothing but white space around it). */
int mg_json_valid(const char *t, size_t n);
/* The members of the object at obj (up to max into out); their number, -1 when obj is not a
 * well-formed object. */
int mg_json_members(const char *t, mg_json_span obj, mg_json_member *out, int max);
int mg_json_key_is(const char *t, mg_json_span key, const char *s);

/* ---- what is exported ---- */
typedef struct mg_xrange {
    int64_t lo, hi;      /* mpiguide message sizes (docs/dev/interfaces.md section 1) */
    int value;           /* Open MPI: the coll_tuned_<coll>_algorithm value */
    int fanout, segsize; /* Open MPI: the values mpiguide measured with (MCA defaults) */
    char container[128]; /* MPICH: "MPIR_Allreduce_intra_recursive_doubling" */
} mg_xrange;

typedef struct mg_xentry {
    int coll, p; /* collective id, communicator size */
    int n;       /* ranges, ascending and disjoint */
    mg_xrange *r;
} mg_xentry;

/* Open MPI's rules file for the entries; NULL with a reason in why when out of memory. The
 * header comment names `source`. Caller frees. */
char *mg_export_ompi_rules(const mg_xentry *e, int n, const char *source, char *why, size_t len);
/* 1 when Open MPI's rules can express collective coll. */
int mg_export_ompi_has(int coll);

/* MPICH's selection JSON: `base` (a complete selection, e.g. the one built into libmpich) with
 * the profiled collectives' subtrees replaced by exact-size rules that fall back to the base's
 * own subtree everywhere else. NULL with a reason in why on a bad base or out of memory. */
char *mg_export_mpich_json(const mg_xentry *e, int n, const char *base, size_t blen, char *why,
                           size_t len);
/* The MPICH selection condition on message size for collective coll ("avg_msg_size",
 * "total_msg_size") and the factor from mpiguide's message size to it; NULL when MPICH's
 * selection has none for that collective. */
const char *mg_export_mpich_size_key(int coll, int *times_p);
/* The JSON built into a library file (the string that starts with {"collective= and selects
 * algorithm=MPIR_ containers): offset and length in *off, *len; 0, or -1 when none. */
int mg_export_mpich_find_base(const char *bytes, size_t n, size_t *off, size_t *len);
/* MPICH's container name of library algorithm `item` of coll: MPIR_<Coll>_intra_<item>, or
 * MPIR_<Coll>_allcomm_<item> when the library bytes have only that one (or, without bytes, for
 * the items MPICH implements for all communicators: nb, and linear for the v-collectives). */
void mg_export_mpich_container(int coll, const char *item, const char *bytes, size_t n, char *out,
                               size_t len);

#endif
