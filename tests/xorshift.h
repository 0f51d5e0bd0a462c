/* xorshift.h - the tests' pseudo-random numbers: Marsaglia's xorshift64
 * (13, 7, 17), one step of the state *s. Deterministic, so a failing
 * check fails again with the same input; each test keeps its own state
 * and seed. Header-only, for the test programs. */
#ifndef TT_TESTS_XORSHIFT_H
#define TT_TESTS_XORSHIFT_H

#include <stdint.h>

static inline uint64_t tt_xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#endif
