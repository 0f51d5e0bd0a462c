/* test_args.c - the compressed argument store: thousands of records over
 * many blocks, empty and huge records, binary bytes, reading in order and
 * in random order, before and after sealing, with one or several readers.
 * Record contents are regenerated from their handle, so every read is
 * checked byte for byte against an independent copy. */
#include "config.h"

#include "../tap.h"
#include "model/args.h"

#include <stdbool.h>
#include <stdlib.h>

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

/* Deterministic contents of record i: sizes from 0 to a few KB, some
 * compressible JSON-like text, some random (incompressible) bytes with
 * NULs; kind 0 = args only, 1 = extra only, 2 = both. */
typedef struct gen {
    char  *a, *e;
    size_t an, en;
} gen;

static void gen_record(uint32_t i, gen *g)
{
    uint64_t h = mix(i + 1);
    int kind = (int)(h % 3);
    size_t an = kind == 1 ? 0 : 1 + (size_t)(mix(h) % 3000);
    size_t en = kind == 0 ? 0 : 1 + (size_t)(mix(h + 1) % 400);
    bool random_bytes = (h >> 8) % 4 == 0;
    g->a = malloc(an + 1);
    g->e = malloc(en + 1);
    g->an = an;
    g->en = en;
    static const char apat[] = "{\"op\":\"matmul\",\"bytes\":1024}", epat[] = "{\"tdur\":12}";
    for (size_t k = 0; k < an; k++)
        g->a[k] = random_bytes ? (char)mix(h ^ k) : apat[k % (sizeof apat - 1)];
    for (size_t k = 0; k < en; k++)
        g->e[k] = random_bytes ? (char)mix(~h ^ k) : epat[k % (sizeof epat - 1)];
}

static void gen_free(gen *g)
{
    free(g->a);
    free(g->e);
}

static bool read_matches(tt_args_reader *r, uint32_t handle, uint32_t i)
{
    gen g;
    const char *a = NULL, *e = NULL;
    size_t an = 99, en = 99;
    bool same;
    gen_record(i, &g);
    same = tt_args_read(r, handle, &a, &an, &e, &en) == 0 && an == g.an && en == g.en &&
           (an == 0 || memcmp(a, g.a, an) == 0) && (en == 0 || memcmp(e, g.e, en) == 0);
    gen_free(&g);
    return same;
}

static void test_empty(void)
{
    tt_args *s = tt_args_new();
    tt_args_reader r;
    const char *a, *e;
    size_t an, en;
    if (!ok(s != NULL, "new store"))
        return;
    is_i64(tt_args_count(s), 0, "empty store holds no records");
    is_i64(tt_args_add(s, "", 0, "", 0), 0, "a record with both texts empty is not stored");
    is_i64(tt_args_count(s), 0, "still no records");
    tt_args_reader_init(&r, s);
    is_i64(tt_args_read(&r, 0, &a, &an, &e, &en), -1, "handle 0 is never valid");
    is_i64(tt_args_read(&r, 1, &a, &an, &e, &en), -1, "unknown handle fails");
    ok(tt_args_seal(s) == 0, "sealing an empty store");
    is_i64(tt_args_read(&r, 1, &a, &an, &e, &en), -1, "unknown handle fails after seal");
    tt_args_reader_fini(&r);
    tt_args_free(s);
    tt_args_free(NULL);
    ok(1, "free(NULL) is a no-op");
}

static void test_many(void)
{
    enum { N = 20000 };
    tt_args *s = tt_args_new();
    tt_args_reader r, r2;
    uint32_t *handle = malloc(N * sizeof *handle), *perm = malloc(N * sizeof *perm);
    uint64_t raw = 0;
    int bad = 0;

    for (uint32_t i = 0; i < N; i++) {
        gen g;
        gen_record(i, &g);
        handle[i] = tt_args_add(s, g.a, g.an, g.e, g.en);
        raw += g.an + g.en;
        if (handle[i] != i + 1)
            bad++;
        gen_free(&g);
    }
    is_i64(bad, 0, "handles are 1, 2, 3, ... in order of adding");
    is_i64(tt_args_count(s), N, "count after %d records", N);
    is_i64((int64_t)tt_args_raw_bytes(s), (int64_t)raw, "raw bytes are the sum of the texts (%llu)",
           (unsigned long long)raw);
    ok(raw > 20 * ((uint64_t)64 << 10), "the records span more than 20 blocks of 64 KiB");

    /* before sealing: full blocks are compressed, the last is in the fill
     * buffer; both must read back */
    tt_args_reader_init(&r, s);
    bad = 0;
    for (uint32_t i = 0; i < N; i++)
        if (!read_matches(&r, handle[i], i))
            bad++;
    is_i64(bad, 0, "every record reads back before sealing (in order)");
    tt_args_reader_fini(&r);

    ok(tt_args_seal(s) == 0, "seal");
    ok(tt_args_memory(s) < raw, "compressed store holds less than the raw text (%zu < %llu)",
       tt_args_memory(s), (unsigned long long)raw);

    /* random order, one reader: the cache must be replaced correctly */
    for (uint32_t i = 0; i < N; i++)
        perm[i] = i;
    for (uint32_t i = N; i-- > 1;) {
        uint32_t j = (uint32_t)(mix(i * 7919u) % (i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    tt_args_reader_init(&r, s);
    bad = 0;
    for (uint32_t i = 0; i < N; i++)
        if (!read_matches(&r, handle[perm[i]], perm[i]))
            bad++;
    is_i64(bad, 0, "every record reads back in random order after sealing");

    /* the reader caches one block: neighbours share it, pointers point
     * into the cache; a second reader is independent */
    {
        const char *a1, *e1, *a2, *e2;
        size_t an, en;
        uint32_t blk;
        tt_args_read(&r, handle[100], &a1, &an, &e1, &en);
        blk = r.block;
        tt_args_read(&r, handle[101], &a2, &an, &e2, &en);
        ok(blk != 0 && r.block == blk, "a neighbouring record is served from the cached block");
        ok((const unsigned char *)a2 >= r.buf && (const unsigned char *)a2 <= r.buf + r.cap,
           "texts point into the reader's buffer");
        tt_args_reader_init(&r2, s);
        bad = 0;
        for (uint32_t i = 0; i < 2000; i++) {
            /* interleave two readers at opposite ends of the store */
            if (!read_matches(&r, handle[i], i) || !read_matches(&r2, handle[N - 1 - i], N - 1 - i))
                bad++;
        }
        is_i64(bad, 0, "two readers interleaved do not disturb each other");
        tt_args_reader_fini(&r2);
    }
    {
        const char *a, *e;
        size_t an, en;
        is_i64(tt_args_read(&r, N + 1, &a, &an, &e, &en), -1, "a handle past the end fails");
    }
    tt_args_reader_fini(&r);

    /* adding after seal starts a new block; everything still reads */
    {
        uint32_t h = tt_args_add(s, "{\"late\":1}", 10, "", 0);
        const char *a, *e;
        size_t an, en;
        is_i64(h, N + 1, "adding after seal continues the handles");
        tt_args_reader_init(&r, s);
        ok(tt_args_read(&r, h, &a, &an, &e, &en) == 0 && an == 10 && memcmp(a, "{\"late\":1}", 10) == 0 &&
               en == 0, "the late record reads back (unsealed)");
        ok(read_matches(&r, handle[N - 1], N - 1) && read_matches(&r, handle[0], 0),
           "earlier records still read back");
        tt_args_seal(s);
        ok(tt_args_read(&r, h, &a, &an, &e, &en) == 0 && an == 10, "the late record after a second seal");
        tt_args_reader_fini(&r);
    }
    free(handle);
    free(perm);
    tt_args_free(s);
}

static void test_huge(void)
{
    /* one record larger than a block, between small ones */
    size_t big = (size_t)3 << 20;
    char *a = malloc(big), *e = malloc(100000);
    tt_args *s = tt_args_new();
    tt_args_reader r;
    uint32_t h1, h2, h3;
    const char *ra, *re;
    size_t an, en;
    for (size_t i = 0; i < big; i++)
        a[i] = (char)(mix(i / 7) & 0xff);
    for (size_t i = 0; i < 100000; i++)
        e[i] = (char)('a' + i % 26);
    h1 = tt_args_add(s, "x", 1, "", 0);
    h2 = tt_args_add(s, a, big, e, 100000);
    h3 = tt_args_add(s, "", 0, "y", 1);
    ok(h1 == 1 && h2 == 2 && h3 == 3, "small, huge, small records get handles 1, 2, 3");
    tt_args_seal(s);
    tt_args_reader_init(&r, s);
    ok(tt_args_read(&r, h2, &ra, &an, &re, &en) == 0 && an == big && en == 100000 &&
           memcmp(ra, a, big) == 0 && memcmp(re, e, 100000) == 0,
       "a 3 MB record reads back intact");
    ok(tt_args_read(&r, h1, &ra, &an, &re, &en) == 0 && an == 1 && ra[0] == 'x' && en == 0,
       "the record before it");
    ok(tt_args_read(&r, h3, &ra, &an, &re, &en) == 0 && an == 0 && en == 1 && re[0] == 'y',
       "the record after it (extra only)");
    tt_args_reader_fini(&r);
    tt_args_free(s);
    free(a);
    free(e);
}

int main(void)
{
    test_empty();
    test_many();
    test_huge();
    return tap_done();
}
