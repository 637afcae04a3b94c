/* A seeded uniform generator for the unit tests that simulate timings (xorshift64): the same
 * sequence on every machine, so a test's simulated cases are fixed. */
#ifndef MG_XORSHIFT_H
#define MG_XORSHIFT_H

#include <stdint.h>

/* The next number in (0, 1) of the sequence whose state is *s (never 0). */
static inline double xorshift_uniform(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

#endif
