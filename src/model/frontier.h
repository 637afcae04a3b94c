/* A timed call's cost to the application as the ranks together see it: from the moment the last
 * rank enters it to the moment the last rank leaves it (its "frontier" time), for the in-
 * application comparisons (the guard, online mode; docs/online.md "Pairs inside a pipelined
 * loop"). Each rank gives its call's entry and exit on a common time scale; the ranks reduce both
 * with one maximum per element (the reduction the comparisons already make), and this file turns
 * the maxima into times. Pure, no MPI.
 *
 * Why not each call's slowest rank (its longest time), as before 2026-12-07: in a loop whose
 * ranks run ahead of each other a call's slowest rank is one that entered early and waited for
 * the last to arrive, whatever the call runs, so the longest time measured the skew the calls
 * before left, not the call. The frontier time is what the call adds to the loop: summed over a
 * loop's calls, the exits' maxima telescope to the loop's time. Simulated (SMPI, 64 and 256
 * ranks, MPI_Gather 8 B with the root moving): the loop gains 12.4x and 6.2x from
 * gather_as_gatherv, the slowest rank saw 1.23x and 1.17x, the frontier 17.4x and 21.5x.
 *
 * The common time scale (intercept/comm_private.h mg_private_stamp): where every rank reads the
 * same clock (one node's kernel, SMPI's simulated clock) that clock; otherwise each rank measures
 * from its own exit of the reduction before (or of the communicator's private duplicate), so the
 * scales differ by how far apart the ranks left that reduction: microseconds, the same for every
 * call in between (2 Open MPI ranks, MPI_Gather of 8 B: 1.119 on those scales against 1.105 on
 * the node's clock). */
#ifndef MG_FRONTIER_H
#define MG_FRONTIER_H

/* dur[i] = end[i] - start[i] (the reduced maxima; not below MG_FRONTIER_MIN) for every i with
 * end[i] >= 0; -1 where end[i] < 0 (a slot no rank timed). dur may be end. */
void mg_frontier_times(const double *start, const double *end, double *dur, int n);

/* exit[i] = entry[i] + t[i] (this rank's exit of slot i, to be reduced with the entries), -1
 * where t[i] < 0 (the slot was not timed, the same on every rank). */
void mg_frontier_exits(const double *entry, const double *t, double *exit, int n);

/* The shortest frontier time kept (seconds): the scales' offsets can make the difference of two
 * maxima zero or negative for a call shorter than they are; its ratio must stay finite. */
#define MG_FRONTIER_MIN 1e-9

#endif
