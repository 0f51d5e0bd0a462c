/* hash.h - fast non-cryptographic hashing of byte strings.
 *
 * Used for interning and for keyed lookups during decoding; not for anything
 * an attacker can exploit beyond slowing a load down.
 */
#ifndef TT_UTIL_HASH_H
#define TT_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* 64-bit hash of [p, p+n). */
uint64_t tt_hash_bytes(const void *p, size_t n, uint64_t seed);

/* Mix a 64-bit value (e.g. to combine hashes). */
static inline uint64_t tt_hash_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

#endif
