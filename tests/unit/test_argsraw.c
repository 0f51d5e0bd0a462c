/* test_argsraw.c - a store made after tt_args_store_raw(true) (convert's
 * load) keeps its blocks uncompressed and reads them where they lie: every
 * record, read in order or out of it, by text or by form, and every key
 * filter's answer must be those of a store that compresses its blocks;
 * raw fragments appended to a compressing store read the same too.
 */
#include "config.h"

#include "../tap.h"
#include "model/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 20000u

/* Record i's args text (templated Kineto-like, plain, keyed-looking). */
static size_t args_text(uint32_t i, char *d, size_t cap)
{
    switch (i % 3) {
    case 0:
        return (size_t)snprintf(d, cap, "{\"External id\": %u, \"Sequence number\": %u}", i * 7,
                                i / 3);
    case 1:
        return (size_t)snprintf(d, cap, "{\"name\": \"kernel_%u\", \"grid\": [%u, 1, 1]}", i % 97,
                                i % 1000);
    default:
        return (size_t)snprintf(d, cap, "{\"device\": %u, \"stream\": %u, \"correlation\": %u}",
                                i % 8, 7 + i % 3, i * 13 + 5);
    }
}

static void fill(tt_args *a, uint32_t lo, uint32_t hi)
{
    char t[256], x[64];
    for (uint32_t i = lo; i < hi; i++) {
        size_t n = args_text(i, t, sizeof t);
        size_t xn = i % 5 == 0 ? (size_t)snprintf(x, sizeof x, "{\"id\": %u}", i) : 0;
        tt_args_add(a, t, n, x, xn);
    }
}

/* Whether every record of a and b reads the same, in handle order and
 * in a scattered order. */
static int same_records(const tt_args *a, const tt_args *b, uint64_t *loads_a, uint64_t *loads_b)
{
    tt_args_reader ra, rb;
    int same = tt_args_count(a) == tt_args_count(b);
    tt_args_reader_init(&ra, a);
    tt_args_reader_init(&rb, b);
    for (uint32_t pass = 0; pass < 2 && same; pass++)
        for (uint32_t k = 1; k <= tt_args_count(a) && same; k++) {
            uint32_t h = pass == 0 ? k : 1 + (uint32_t)((uint64_t)k * 7919 % tt_args_count(a));
            const char *p1, *e1, *p2, *e2;
            size_t n1, x1, n2, x2;
            if (tt_args_read(&ra, h, &p1, &n1, &e1, &x1) || tt_args_read(&rb, h, &p2, &n2, &e2, &x2))
                same = 0;
            else
                same = n1 == n2 && x1 == x2 && memcmp(p1, p2, n1) == 0 && memcmp(e1, e2, x1) == 0;
        }
    *loads_a = ra.loads;
    *loads_b = rb.loads;
    tt_args_reader_fini(&ra);
    tt_args_reader_fini(&rb);
    return same;
}

int main(void)
{
    tt_args *z, *r, *dst, *frag;
    uint64_t lz, lr;
    static uint32_t handles[N];
    static unsigned char mz[N], mr[N];
    const char *needles[] = {"External id", "grid", "absent key"};

    z = tt_args_new();
    tt_args_store_raw(true);
    r = tt_args_new();
    frag = tt_args_new();
    tt_args_store_raw(false);
    dst = tt_args_new();
    fill(z, 0, N);
    fill(r, 0, N);
    ok(tt_args_seal(z) == 0 && tt_args_seal(r) == 0, "both stores sealed");
    ok(tt_args_memory(r) > 2 * tt_args_memory(z), "the raw store holds its raw bytes (%zu vs %zu)",
       tt_args_memory(r), tt_args_memory(z));
    is_i64((int64_t)tt_args_raw_bytes(r), (int64_t)tt_args_raw_bytes(z), "same raw bytes accepted");
    ok(same_records(z, r, &lz, &lr), "every record reads the same, in order and scattered");
    is_i64((int64_t)lr, (int64_t)lz, "as many block loads");

    for (uint32_t i = 0; i < N; i++)
        handles[i] = i + 1;
    ok(tt_args_filter(z, handles, N, needles, 3, mz) == 0 &&
           tt_args_filter(r, handles, N, needles, 3, mr) == 0 && memcmp(mz, mr, N) == 0,
       "the key filters answer the same");

    /* a compressing store, then raw fragments appended, as a parallel
     * load's trace gathers its workers' */
    fill(dst, 0, N / 2);
    fill(frag, N / 2, N);
    ok(tt_args_seal(dst) == 0 && tt_args_seal(frag) == 0 && tt_args_append(dst, frag) == 0,
       "a raw fragment appended");
    ok(same_records(z, dst, &lz, &lr), "the gathered store reads as the compressed one");

    tt_args_free(z);
    tt_args_free(r);
    tt_args_free(dst);   /* frag was taken by the append */
    return tap_done();
}
