/* strtab.c - string interning (see strtab.h).
 *
 * Strings live in an arena as [uint32 length][bytes][NUL]; an array maps id
 * to the bytes. Lookup is an open-addressing table of (hash, id) slots with
 * linear probing, kept at most half full.
 */
#include "config.h"

#include "util/strtab.h"

#include "util/arena.h"
#include "util/hash.h"

#include <stdlib.h>
#include <string.h>

typedef struct strtab_slot {
    uint32_t hash;   /* low 32 bits of the string hash */
    uint32_t id;     /* 0 = empty slot (id 0, "", is never in the table) */
} strtab_slot;

struct tt_strtab {
    tt_arena     arena;
    const char **str;      /* id -> bytes (length stored just before) */
    uint32_t     count;
    uint32_t     cap;
    strtab_slot *slots;
    uint32_t     mask;     /* slots - 1 */
};

static const char empty_entry[sizeof(uint32_t) + 1] = {0};

static inline uint32_t entry_len(const char *s)
{
    uint32_t n;
    memcpy(&n, s - sizeof n, sizeof n);
    return n;
}

tt_strtab *tt_strtab_new(void)
{
    tt_strtab *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    tt_arena_init(&t->arena);
    t->cap = 1024;
    t->str = malloc(t->cap * sizeof *t->str);
    t->slots = calloc(2048, sizeof *t->slots);
    if (!t->str || !t->slots) {
        free(t->str);
        free(t->slots);
        free(t);
        return NULL;
    }
    t->mask = 2047;
    t->str[0] = empty_entry + sizeof(uint32_t);
    t->count = 1;
    return t;
}

void tt_strtab_free(tt_strtab *t)
{
    if (!t)
        return;
    tt_arena_fini(&t->arena);
    free(t->str);
    free(t->slots);
    free(t);
}

static int strtab_grow_slots(tt_strtab *t)
{
    uint32_t nslots = (t->mask + 1) * 2, i;
    strtab_slot *ns = calloc(nslots, sizeof *ns);
    if (!ns)
        return -1;
    for (i = 0; i <= t->mask; i++) {
        strtab_slot s = t->slots[i];
        if (s.id) {
            uint32_t j = s.hash & (nslots - 1);
            while (ns[j].id)
                j = (j + 1) & (nslots - 1);
            ns[j] = s;
        }
    }
    free(t->slots);
    t->slots = ns;
    t->mask = nslots - 1;
    return 0;
}

uint32_t tt_strtab_find(const tt_strtab *t, const char *s, size_t n)
{
    uint32_t h, i;
    if (n == 0)
        return 0;
    h = (uint32_t)tt_hash_bytes(s, n, 0);
    for (i = h & t->mask;; i = (i + 1) & t->mask) {
        strtab_slot sl = t->slots[i];
        if (!sl.id)
            return TT_STR_ERROR;
        if (sl.hash == h) {
            const char *e = t->str[sl.id];
            if (entry_len(e) == n && memcmp(e, s, n) == 0)
                return sl.id;
        }
    }
}

uint32_t tt_strtab_intern(tt_strtab *t, const char *s, size_t n)
{
    uint32_t h, i, id, n32;
    char *e;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX - 8)
        return TT_STR_ERROR;
    /* Keep the table at most half full so probing always ends. */
    if ((uint64_t)(t->count + 1) * 2 > (uint64_t)t->mask + 1 &&
        strtab_grow_slots(t) != 0)
        return TT_STR_ERROR;
    h = (uint32_t)tt_hash_bytes(s, n, 0);
    for (i = h & t->mask;; i = (i + 1) & t->mask) {
        strtab_slot sl = t->slots[i];
        if (!sl.id)
            break;
        if (sl.hash == h) {
            const char *x = t->str[sl.id];
            if (entry_len(x) == n && memcmp(x, s, n) == 0)
                return sl.id;
        }
    }
    if (t->count == UINT32_MAX - 1)
        return TT_STR_ERROR;
    if (t->count == t->cap) {
        uint32_t ncap = t->cap * 2;
        const char **ns = realloc(t->str, (size_t)ncap * sizeof *ns);
        if (!ns)
            return TT_STR_ERROR;
        t->str = ns;
        t->cap = ncap;
    }
    e = tt_arena_alloc(&t->arena, sizeof(uint32_t) + n + 1, 4);
    if (!e)
        return TT_STR_ERROR;
    n32 = (uint32_t)n;
    memcpy(e, &n32, sizeof n32);
    memcpy(e + sizeof n32, s, n);
    e[sizeof n32 + n] = '\0';
    id = t->count++;
    t->str[id] = e + sizeof n32;
    t->slots[i].hash = h;
    t->slots[i].id = id;
    return id;
}

const char *tt_strtab_get(const tt_strtab *t, uint32_t id)
{
    if (!t || id >= t->count)
        return "";
    return t->str[id];
}

size_t tt_strtab_len(const tt_strtab *t, uint32_t id)
{
    if (!t || id >= t->count)
        return 0;
    return entry_len(t->str[id]);
}

uint32_t tt_strtab_count(const tt_strtab *t)
{
    return t->count;
}

size_t tt_strtab_bytes(const tt_strtab *t)
{
    return t->arena.total + (size_t)t->cap * sizeof *t->str +
           ((size_t)t->mask + 1) * sizeof *t->slots;
}
