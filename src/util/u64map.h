/* u64map.h - open-addressing map from 64-bit keys to 32-bit values.
 *
 * Decoders use it to find lanes, groups and open async slices by hashed
 * source keys in O(1). Ownership: the map owns its table. Not thread-safe.
 */
#ifndef TT_UTIL_U64MAP_H
#define TT_UTIL_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_u64map {
    uint64_t *keys;
    uint32_t *vals;
    uint8_t  *used;
    size_t    n, mask;   /* mask + 1 slots, 0 before first insert */
} tt_u64map;

void tt_u64map_init(tt_u64map *m);
void tt_u64map_fini(tt_u64map *m);

/* Pointer to the value of key, or NULL. Valid until the next insert. */
uint32_t *tt_u64map_get(const tt_u64map *m, uint64_t key);

/* Set key to val (insert or overwrite). 0, or -1 when out of memory. */
int tt_u64map_put(tt_u64map *m, uint64_t key, uint32_t val);

#endif
