/* The interception's process-wide state: which collectives are switched on, the mode flags,
 * the counters of the report. Set at start-up and finalize (lifecycle.c), read on the hot path. */
#include "intercept.h"

unsigned char mg_on[MPIGUIDE_COLL_COUNT];
#ifdef MPIGUIDE_TEST_ALGORITHMS
uint64_t mg_test_memo_hits[MPIGUIDE_COLL_COUNT];
#endif
int mg_threads;
int mg_general;
unsigned char mg_checked[MPIGUIDE_COLL_COUNT];
int mg_acct_on;

/* Per profile: the last (msize + 1) << 16 | (alg + 1) looked up; one atomic word, so threads
 * may share it. */
_Atomic uint64_t *mg_lasthit;

_Atomic uint64_t mg_counts[MPIGUIDE_COLL_COUNT][MG_N_COUNT];
int mg_report_on;
