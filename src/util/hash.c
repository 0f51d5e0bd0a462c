/* hash.c - fast byte-string hash (see hash.h).
 *
 * Eight bytes per step with a multiply-fold; the tail is read with memcpy so
 * there are no unaligned loads and no reads past the end.
 */
#include "config.h"

#include "util/hash.h"

#include <string.h>

static inline uint64_t fold_mul(uint64_t a, uint64_t b)
{
    __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t tt_hash_bytes(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ 0x9e3779b97f4a7c15ULL ^ (n * 0xa0761d6478bd642fULL);
    while (n >= 16) {
        uint64_t a, b;
        memcpy(&a, p, 8);
        memcpy(&b, p + 8, 8);
        h = fold_mul(a ^ h ^ 0xe7037ed1a0b428dbULL, b ^ 0x8ebc6af09c88c6e3ULL) ^ h;
        p += 16;
        n -= 16;
    }
    {
        uint64_t a = 0, b = 0;
        if (n >= 8) {
            memcpy(&a, p, 8);
            memcpy(&b, p + n - 8, 8);
        } else if (n >= 4) {
            uint32_t x, y;
            memcpy(&x, p, 4);
            memcpy(&y, p + n - 4, 4);
            a = x;
            b = y;
        } else if (n > 0) {
            a = ((uint64_t)p[0] << 16) | ((uint64_t)p[n >> 1] << 8) | p[n - 1];
        }
        h = fold_mul(a ^ h ^ 0xe7037ed1a0b428dbULL, b ^ 0x589965cc75374cc3ULL);
    }
    return tt_hash_mix(h);
}
