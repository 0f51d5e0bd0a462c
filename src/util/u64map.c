/* u64map.c - 64-bit key hash map (see u64map.h). */
#include "config.h"

#include "util/u64map.h"

#include "util/hash.h"

#include <stdlib.h>

void tt_u64map_init(tt_u64map *m)
{
    m->keys = NULL;
    m->vals = NULL;
    m->used = NULL;
    m->n = 0;
    m->mask = 0;
}

void tt_u64map_fini(tt_u64map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    tt_u64map_init(m);
}

uint32_t *tt_u64map_get(const tt_u64map *m, uint64_t key)
{
    size_t i;
    if (!m->used)
        return NULL;
    for (i = tt_hash_mix(key) & m->mask; m->used[i]; i = (i + 1) & m->mask)
        if (m->keys[i] == key)
            return &m->vals[i];
    return NULL;
}

static int u64map_grow(tt_u64map *m)
{
    size_t ns = m->used ? (m->mask + 1) * 2 : 64;
    uint64_t *k = malloc(ns * sizeof *k);
    uint32_t *v = malloc(ns * sizeof *v);
    uint8_t *u = calloc(ns, 1);
    if (!k || !v || !u) {
        free(k);
        free(v);
        free(u);
        return -1;
    }
    for (size_t i = 0; m->used && i <= m->mask; i++) {
        if (m->used[i]) {
            size_t j = tt_hash_mix(m->keys[i]) & (ns - 1);
            while (u[j])
                j = (j + 1) & (ns - 1);
            u[j] = 1;
            k[j] = m->keys[i];
            v[j] = m->vals[i];
        }
    }
    free(m->keys);
    free(m->vals);
    free(m->used);
    m->keys = k;
    m->vals = v;
    m->used = u;
    m->mask = ns - 1;
    return 0;
}

int tt_u64map_put(tt_u64map *m, uint64_t key, uint32_t val)
{
    size_t i;
    uint32_t *have = tt_u64map_get(m, key);
    if (have) {
        *have = val;
        return 0;
    }
    if ((!m->used || (m->n + 1) * 2 > m->mask + 1) && u64map_grow(m))
        return -1;
    for (i = tt_hash_mix(key) & m->mask; m->used[i]; i = (i + 1) & m->mask)
        ;
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return 0;
}
