/* attrs.c - deduplicated attribute tuples (see attrs.h). */
#include "config.h"

#include "model/attrs.h"

#include "util/hash.h"

#include <stdlib.h>

static uint32_t tuple_hash(tt_attr_tuple t)
{
    uint64_t h = tt_hash_mix(((uint64_t)t.opcode << 32) ^ t.layer);
    return (uint32_t)tt_hash_mix(h ^ t.operand);
}

tt_attrs *tt_attrs_new(void)
{
    tt_attrs *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->cap = 64;
    a->tuple = calloc(a->cap, sizeof *a->tuple);
    a->slots = calloc(128, sizeof *a->slots);
    if (!a->tuple || !a->slots) {
        tt_attrs_free(a);
        return NULL;
    }
    a->mask = 127;
    a->count = 1;
    return a;
}

void tt_attrs_free(tt_attrs *a)
{
    if (!a)
        return;
    free(a->tuple);
    free(a->slots);
    free(a);
}

static int attrs_rehash(tt_attrs *a)
{
    uint32_t n = (a->mask + 1) * 2, i;
    uint32_t *ns = calloc(n, sizeof *ns);
    if (!ns)
        return -1;
    for (i = 1; i < a->count; i++) {
        uint32_t j = tuple_hash(a->tuple[i]) & (n - 1);
        while (ns[j])
            j = (j + 1) & (n - 1);
        ns[j] = i;
    }
    free(a->slots);
    a->slots = ns;
    a->mask = n - 1;
    return 0;
}

uint32_t tt_attrs_intern(tt_attrs *a, tt_attr_tuple t)
{
    uint32_t i;
    if (!t.opcode && !t.layer && !t.operand)
        return 0;
    if ((uint64_t)(a->count + 1) * 2 > (uint64_t)a->mask + 1 && attrs_rehash(a))
        return UINT32_MAX;
    for (i = tuple_hash(t) & a->mask; a->slots[i]; i = (i + 1) & a->mask) {
        tt_attr_tuple x = a->tuple[a->slots[i]];
        if (x.opcode == t.opcode && x.layer == t.layer && x.operand == t.operand)
            return a->slots[i];
    }
    if (a->count == a->cap) {
        tt_attr_tuple *nt = realloc(a->tuple, (size_t)a->cap * 2 * sizeof *nt);
        if (!nt)
            return UINT32_MAX;
        a->tuple = nt;
        a->cap *= 2;
    }
    a->tuple[a->count] = t;
    a->slots[i] = a->count;
    return a->count++;
}
