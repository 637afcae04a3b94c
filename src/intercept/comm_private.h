/* State of ours attached to a user's communicator, with a private duplicate of it: machinery
 * that must talk among the ranks of a user's communicator (the guard's agreement; a library
 * algorithm's shadow communicator) uses the duplicate, so its messages can never match the
 * user's. The state lives as long as the communicator: an attribute whose delete callback frees
 * it (and the duplicate) whenever the communicator is freed; duplicates of the user's
 * communicator do not inherit it. A small direct-mapped cache keeps the common lookup free of
 * MPI calls. */
#ifndef MG_COMM_PRIVATE_H
#define MG_COMM_PRIVATE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define MG_PRIVATE_CACHE 16

typedef struct mg_private_kind {
    int keyval;  /* MPI_KEYVAL_INVALID when not started */
    size_t size; /* bytes of the state */
    /* Called before a state is freed (its communicator is freed, or mg_private_stop); may be
     * NULL. It may use priv, not comm. */
    void (*fini)(void *state, MPI_Comm priv);
    struct {
        uintptr_t key;
        void *state;
    } cache[MG_PRIVATE_CACHE];
    struct mg_private_hdr *live; /* every state, newest first */
} mg_private_kind;

/* Creates the keyval (after MPI_Init). Returns an MPI error code. */
int mg_private_start(mg_private_kind *k, size_t size, void (*fini)(void *, MPI_Comm));
/* Frees every state (fini first), the duplicates and the keyval. Before MPI_Finalize. */
void mg_private_stop(mg_private_kind *k);
/* The state attached to comm, or NULL when there is none. Local: no communication. */
void *mg_private_find(mg_private_kind *k, MPI_Comm comm);
/* The state attached to comm, created (zeroed) when there is none. Creating duplicates comm:
 * collective over comm, so every rank must reach it at the same call on comm, which holds when
 * whether a state exists follows from the calls made on comm alone. NULL on failure. */
void *mg_private_get(mg_private_kind *k, MPI_Comm comm);
/* The same without the duplicate (its private communicator is MPI_COMM_NULL until
 * mg_private_dup): local, for state that a call which must not wait (a nonblocking start) keeps
 * until every rank is known to be at the same call on comm. NULL on failure. */
void *mg_private_get_local(mg_private_kind *k, MPI_Comm comm);
/* Makes a state's duplicate if it has none: collective over its communicator. */
int mg_private_dup(void *state);
/* A time stamp, in seconds, on a scale the ranks of the state's communicator share (for
 * frontier times, model/frontier.h): when every rank reads the same clock (one kernel; SMPI's
 * simulated clock) that clock; otherwise the MPI clock from origin, this rank's exit of the last
 * reduction on the duplicate, so that the ranks' scales differ by how far apart they left it.
 * Learnt with the duplicate (one reduction); before it exists, the MPI clock from origin. */
double mg_private_stamp(const void *state, double origin);
/* This rank's MPI clock at its exit of the duplicate's creation (after the reduction that learns
 * the clock): the origin of mg_private_stamp until the caller's first reduction of its own. */
double mg_private_made(const void *state);
/* The private duplicate of a state's communicator (MPI_COMM_NULL: mg_private_get_local's, not
 * yet duplicated). */
MPI_Comm mg_private_comm(const void *state);
/* Every state in turn (newest first): NULL starts, NULL ends. */
void *mg_private_next(const mg_private_kind *k, const void *state);
/* Per state, the element-wise maximum over its communicator's ranks of the n values fill
 * writes, handed to take (not for a state whose reduction failed or that has no duplicate): one
 * nonblocking reduction per state on its duplicate, so communicators that ranks list in other
 * orders cannot deadlock (under SMPI blocking ones, in the order the duplicates were made,
 * which is every rank's: comm_private.c says why). Collective over every communicator that has
 * a state. Returns -1 when out of memory. */
int mg_private_allmax(const mg_private_kind *k, int n, void (*fill)(void *state, int64_t *v),
                      void (*take)(void *state, const int64_t *v));

#endif
