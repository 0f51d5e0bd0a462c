/* strmemo.h - a small memo of short strings to their interned ids, for the
 * Chrome decoder's hot path.
 *
 * Every Chrome event interns its pid, tid, cat and name: four trips
 * through the trace's string table (a hash of the bytes, a probe, a
 * memcmp call) per event, most of them for the same few short strings
 * ("0", "28613", "kernel", "cpu_op", "ac2g"). The memo answers those from
 * a direct-mapped table of 256 entries keyed by the string's bytes
 * themselves: a string of 1..16 bytes is spelled exactly by its length
 * and two overlapping 8-byte words (see strmemo_words), so a hit compares
 * three integers and never reads the table or the string again. A miss
 * interns as before and remembers the id; ids never change once given, so
 * an entry stays right for the life of its string table.
 *
 * The owner (the decoder's state) embeds the memo, zeroed: an entry of
 * length 0 is empty and matches nothing. It holds no pointers and owns no
 * memory. Inline: it sits on the per-event path and must not cost a call.
 */
#ifndef TT_DECODE_STRMEMO_H
#define TT_DECODE_STRMEMO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TT_STRMEMO_SLOTS  256u   /* 6 KiB: two pages per parallel chunk */
#define TT_STRMEMO_MAXLEN 16u

typedef struct tt_strmemo_ent {
    uint64_t a, b;   /* strmemo_words() of the string */
    uint32_t n;      /* its length, 0 = empty entry */
    uint32_t id;     /* its id in the owner's string table */
} tt_strmemo_ent;

typedef struct tt_strmemo {
    tt_strmemo_ent e[TT_STRMEMO_SLOTS];
} tt_strmemo;

_Static_assert(TT_STRMEMO_SLOTS == 256u, "tt_strmemo_slot() indexes by the top 8 bits of a hash");

/* Two words that, with n (1..16), spell s[0..n) exactly: the first and the
 * last 8 bytes (overlapping when n < 16), the first and last 4 for n of
 * 4..7, the first, middle and last byte for n of 1..3 (all of them).
 * Reads only s[0..n). */
static inline void tt_strmemo_words(const char *s, size_t n, uint64_t *a, uint64_t *b)
{
    if (n >= 8) {
        memcpy(a, s, 8);
        memcpy(b, s + n - 8, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        *a = x;
        *b = y;
    } else {
        *a = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n >> 1] << 8 |
             (uint64_t)(unsigned char)s[n - 1] << 16;
        *b = 0;
    }
}

/* The entry for s[0..n) (1 <= n <= TT_STRMEMO_MAXLEN), with its words in
 * *a, *b: a hit when ent->n == n && ent->a == *a && ent->b == *b, else
 * the entry to overwrite once the id is known. */
static inline tt_strmemo_ent *tt_strmemo_slot(tt_strmemo *m, const char *s, size_t n,
                                              uint64_t *a, uint64_t *b)
{
    uint64_t h;
    tt_strmemo_words(s, n, a, b);
    h = (*a ^ (*b * 0x9e3779b97f4a7c15ULL) ^ n) * 0xff51afd7ed558ccdULL;
    return &m->e[h >> 56];   /* the top 8 bits: TT_STRMEMO_SLOTS entries */
}

static inline int tt_strmemo_hit(const tt_strmemo_ent *ent, size_t n, uint64_t a, uint64_t b)
{
    return ent->n == n && ent->a == a && ent->b == b;
}

/* Strings past TT_STRMEMO_MAXLEN (kernel names: "void at::native::..."
 * of a hundred bytes and more, a few hundred distinct ones met again and
 * again) are remembered by where the string table keeps their bytes: a
 * hit is one memcmp with those, instead of hashing the string and probing
 * the table (the table's bytes never move, see strtab.h). Keyed by the
 * length and the first, middle and last 8 bytes; an entry with s NULL is
 * empty. */
#define TT_STRMEMO_LONG_SLOTS 512u

typedef struct tt_strmemo_long_ent {
    const char *s;   /* the string table's copy */
    uint32_t    n;
    uint32_t    id;
} tt_strmemo_long_ent;

typedef struct tt_strmemo_long {
    tt_strmemo_long_ent e[TT_STRMEMO_LONG_SLOTS];
} tt_strmemo_long;

/* The entry for s[0..n) (n > 8: it reads the first, middle and last 8
 * bytes; callers pass only n > TT_STRMEMO_MAXLEN). */
static inline tt_strmemo_long_ent *tt_strmemo_long_slot(tt_strmemo_long *m, const char *s,
                                                        size_t n)
{
    uint64_t a, b, c, h;
    memcpy(&a, s, 8);
    memcpy(&b, s + (n >> 1) - 4, 8);
    memcpy(&c, s + n - 8, 8);
    h = (a ^ (b * 0x9e3779b97f4a7c15ULL) ^ (c * 0xc2b2ae3d27d4eb4fULL) ^ n) * 0xff51afd7ed558ccdULL;
    return &m->e[h >> 55];   /* the top 9 bits: TT_STRMEMO_LONG_SLOTS entries */
}

_Static_assert(TT_STRMEMO_LONG_SLOTS == 512u, "tt_strmemo_long_slot() indexes by the top 9 bits");

#endif
