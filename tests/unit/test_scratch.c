/* test_scratch.c - the scratch pool of util/scratch.h and the radix sort
 * that takes its buffer from it: a block put back is handed to the next
 * get() it fits (the same memory: no fresh pages), a get() bigger than
 * every kept block grows the biggest and the whole of what was asked can
 * be written (the sanitizer builds check the bounds), small blocks and a
 * NULL pool are plain malloc()/free(), a full pool keeps its biggest
 * blocks, and a radix sort through a pool orders exactly as one without
 * (stable, keys checked against a merge sort of the same pairs). */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "util/bigalloc.h"
#include "util/scratch.h"
#include "util/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MB ((size_t)1 << 20)

static int cmp_kv(const void *pa, const void *pb, void *ctx)
{
    const tt_kv *a = pa, *b = pb;
    (void)ctx;
    return a->key < b->key ? -1 : a->key > b->key;
}

int main(void)
{
    tt_scratch *pool = tt_scratch_new();
    unsigned char *a, *b, *c;
    tt_kv *x, *y, *z;
    size_t n = 700000, same = 0, stable = 1;
    uint64_t seed = 88172645463325252ull;

    ok(pool != NULL, "a pool");

    /* a block put back comes back for what fits in it */
    a = tt_scratch_get(pool, 5 * MB);
    ok(a != NULL, "get 5 MB");
    memset(a, 1, 5 * MB);
    tt_scratch_put(pool, a, 5 * MB);
    b = tt_scratch_get(pool, 3 * MB);
    ok(b == a, "a get of 3 MB reuses the 5 MB block put back");
    memset(b, 2, 6 * MB);   /* whole huge pages: 6 MB are the block's */

    /* none fits: the biggest grows, and all of it can be written */
    tt_scratch_put(pool, b, 3 * MB);
    c = tt_scratch_get(pool, 11 * MB + 5);
    ok(c != NULL, "get 11 MB when only a 4 MB block is kept");
    if (c) {
        memset(c, 3, 11 * MB + 5);
        ok(c[0] == 3 && c[11 * MB + 4] == 3, "the grown block holds 11 MB");
    }
    tt_scratch_put(pool, c, 11 * MB + 5);

    /* small blocks are not kept; a NULL pool is malloc() and free() */
    a = tt_scratch_get(pool, 1000);
    ok(a != NULL, "a small get");
    tt_scratch_put(pool, a, 1000);
    a = tt_scratch_get(NULL, 3 * MB);
    ok(a != NULL, "get from no pool");
    if (a)
        memset(a, 4, 3 * MB);
    tt_scratch_put(NULL, a, 3 * MB);
    tt_scratch_put(pool, NULL, 3 * MB);

    /* a full pool frees its smallest: the big one is still there */
    {
        void *blk[TT_SCRATCH_KEEP + 1];
        for (int i = 0; i <= TT_SCRATCH_KEEP; i++)
            blk[i] = tt_scratch_get(pool, (size_t)(2 + i) * MB);
        for (int i = 0; i <= TT_SCRATCH_KEEP; i++)
            tt_scratch_put(pool, blk[i], (size_t)(2 + i) * MB);
        a = tt_scratch_get(pool, (size_t)(2 + TT_SCRATCH_KEEP) * MB);
        ok(a == blk[TT_SCRATCH_KEEP], "a full pool keeps its biggest block");
        tt_scratch_put(pool, a, (size_t)(2 + TT_SCRATCH_KEEP) * MB);
    }
    tt_scratch_trim(pool);
    a = tt_scratch_get(pool, 3 * MB);
    ok(a != NULL, "a get after trim");
    tt_scratch_put(pool, a, 3 * MB);

    /* the radix sort through the pool, twice (the second reuses the
     * first's buffer), against a merge sort of the same pairs */
    x = malloc(n * sizeof *x);
    y = malloc(n * sizeof *y);
    z = malloc(n * sizeof *z);
    if (!x || !y || !z)
        return tap_skip_all("out of memory");
    for (size_t i = 0; i < n; i++) {
        tt_xorshift64(&seed);
        x[i] = (tt_kv){seed % 50000 * 1000, i};   /* many equal keys */
    }
    memcpy(y, x, n * sizeof *x);
    memcpy(z, x, n * sizeof *x);
    ok(tt_radix_sort_in(y, n, pool) == 0 && tt_radix_sort_in(z, n, pool) == 0,
       "radix sorts through the pool");
    ok(tt_sort(x, n, sizeof *x, cmp_kv, NULL) == 0, "merge sort");
    for (size_t i = 0; i < n; i++) {
        same += x[i].key == y[i].key && x[i].val == y[i].val && y[i].val == z[i].val;
        if (i && y[i].key == y[i - 1].key && y[i].val < y[i - 1].val)
            stable = 0;
    }
    is_i64((int64_t)same, (int64_t)n, "the same order as the stable merge sort");
    ok(stable, "equal keys keep their order");
    free(x);
    free(y);
    free(z);
    tt_scratch_free(pool);
    tt_scratch_free(NULL);
    return tap_done();
}
