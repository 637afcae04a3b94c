/* Online mode (MPIGUIDE_ONLINE; docs/online.md): the application's own calls race the
 * candidates where no profile covers them (online.c), and what the run learned goes into the
 * report and, with MPIGUIDE_PROFILES_OUT, into profiles (online_end.c). */
#ifndef MG_ONLINE_H
#define MG_ONLINE_H

#include "intercept.h"
#include "model/online_rule.h"
#include <stdio.h>

#pragma GCC visibility push(hidden)

/* 1 while online mode runs (set at start-up on every rank alike). */
extern int mg_online_on;

/* After the interception starts, MPIGUIDE_ONLINE on and not MPI_THREAD_MULTIPLE: collective
 * over MPI_COMM_WORLD (every rank starts or none). */
int mg_online_start(void);
/* A call the selection sends to the default (not forced; ci as mg_intercept found it, sel as
 * mg_pick said): 1 when online mode ran it (result in *rc), -1 when the caller must run the
 * library's own collective as it is (a committed winner fell back, its repair already tried),
 * 0 when the caller goes on as without online mode. The first call on a communicator is
 * collective over it (every rank makes it). */
int mg_online_call(int coll, const mg_args *a, const mg_callinfo *ci, int *rc);
/* The communicator cache's slot is about to be refilled: the calls the fast path took on its
 * countdowns (mg_left) are credited to their cells, and the countdowns end. */
void mg_online_slot_reset(int slot);
/* The countdown of one (cache slot, collective) ends, its calls credited to their cell. */
void mg_online_settle(int slot, int coll);

/* ---- online_end.c ---- */
/* What one cell decided, as rank 0 gathers it (plain numbers, sent as bytes). */
typedef struct mg_online_result {
    int32_t coll, p, esize, opclass, dtype, op; /* dtype, op: catalog name indexes, -1 none */
    int32_t state, winner, best, ncand, ndropped, pauses, agree; /* winner, best: ids, -1 */
    int32_t pad;
    int64_t lo, hi, msize;                                  /* bucket; the size the cell saw most */
    uint64_t calls, fast, explored, cand_calls, decided_at; /* fast: of calls, the fast path's */
    double cost, budget, dhat;    /* seconds: spent, allowed, default per call */
    double over;                  /* seconds: the most a window overran (mg_online_cell) */
    double speedup, ci_lo, ci_hi; /* of the winner, else of the best candidate */
} mg_online_result;
/* A cell's result (online.c fills it from its state; agree: -1 unknown, 0 no, 1 yes). */
void mg_online_result_of(const mg_online_cell *c, int coll, int p, int esize, int opclass,
                         int dtype, int op, int64_t lo, int64_t hi, int64_t msize, int agree,
                         mg_online_result *r);
/* This rank's time since online mode started, with what its cells spent exploring in *cost. */
double mg_online_run_time(double *cost);
/* The results this rank reports: cells of communicators whose rank 0 it is (online.c). */
int mg_online_results(mg_online_result **out, int *n);
/* At MPI_Finalize, collective over MPI_COMM_WORLD: the ranks agree per cell on the call of its
 * decision (with the report), rank 0 gathers every result, writes MPIGUIDE_PROFILES_OUT. */
void mg_online_finish(void);
/* ranks_agree of online.c's communicators (mg_online_finish calls it first). */
void mg_online_agree(void);
/* The footer's `#@mpiguide online` lines (rank 0). */
void mg_online_report(FILE *f);
/* Frees everything (private communicators included); before PMPI_Finalize. */
void mg_online_stop(void);
void mg_online_end_free(void);

#pragma GCC visibility pop

#endif
