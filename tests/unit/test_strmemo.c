/* test_strmemo.c - the Chrome decoder's short-string memo (decode/strmemo.h)
 * tells strings apart exactly: two strings of 1..16 bytes hit each other's
 * entry only when they are the same bytes, and a string always finds the
 * entry it was stored in. Compared against memcmp over every pair of a
 * set of strings chosen to share prefixes, suffixes and lengths. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "decode/strmemo.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define N_STR 600

int main(void)
{
    static char text[N_STR][TT_STRMEMO_MAXLEN];
    static size_t len[N_STR];
    static tt_strmemo memo;   /* zeroed: every entry empty */
    uint64_t rng = 0x2545f4914f6cdd1dULL;
    int bad = 0, stored = 0, found = 0;
    for (int i = 0; i < N_STR; i++) {
        /* few letters, so that strings share most of their bytes */
        len[i] = 1 + (size_t)(i % TT_STRMEMO_MAXLEN);
        for (size_t k = 0; k < len[i]; k++) {
            tt_xorshift64(&rng);
            text[i][k] = "ab0"[rng % 3];
        }
    }
    for (int i = 0; i < N_STR; i++) {
        uint64_t ai, bi;
        tt_strmemo_words(text[i], len[i], &ai, &bi);
        for (int j = 0; j < N_STR; j++) {
            uint64_t aj, bj;
            bool same = len[i] == len[j] && memcmp(text[i], text[j], len[i]) == 0;
            tt_strmemo_words(text[j], len[j], &aj, &bj);
            if (same != (len[i] == len[j] && ai == aj && bi == bj))
                bad++;
        }
    }
    ok(bad == 0, "two strings of 1..16 bytes share words only when equal (%d pairs differ)", bad);

    bad = 0;
    for (int i = 0; i < N_STR; i++) {
        uint64_t a, b;
        tt_strmemo_ent *e = tt_strmemo_slot(&memo, text[i], len[i], &a, &b);
        if (tt_strmemo_hit(e, len[i], a, b)) {
            /* a hit must be a string stored before: the same bytes */
            int k;
            for (k = 0; k < i; k++)
                if (len[k] == len[i] && memcmp(text[k], text[i], len[i]) == 0 && (int)e->id == k)
                    break;
            bad += k == i;
            found++;
            continue;
        }
        e->a = a;
        e->b = b;
        e->n = (uint32_t)len[i];
        e->id = (uint32_t)i;
        stored++;
    }
    ok(bad == 0 && stored > 0, "a hit is always the same string (%d stored, %d found)", stored,
       found);

    {
        uint64_t a, b;
        tt_strmemo_ent *e = tt_strmemo_slot(&memo, text[N_STR - 1], len[N_STR - 1], &a, &b);
        e->a = a;
        e->b = b;
        e->n = (uint32_t)len[N_STR - 1];
        e->id = 7;
        e = tt_strmemo_slot(&memo, text[N_STR - 1], len[N_STR - 1], &a, &b);
        ok(tt_strmemo_hit(e, len[N_STR - 1], a, b) && e->id == 7,
           "a string finds the entry it was stored in");
    }
    return tap_done();
}
