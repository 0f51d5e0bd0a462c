/* test_args.c - the compressed argument store: thousands of records over
 * many blocks, empty and huge records, binary bytes, reading in order and
 * in random order, before and after sealing, with one or several readers.
 * Record contents are regenerated from their handle, so every read is
 * checked byte for byte against an independent copy. Keyed rows
 * (tt_args_add_row) mixed with plain records, in two stores joined by
 * tt_args_append, read back as the object text written out by hand. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "model/args.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Keyed row i of key set ks (0 or 1): its values, numbers and strings
 * (some with a quote, a backslash or a control byte to escape), and the
 * object text tt_args_add would have been given, written out here by
 * plain concatenation and escaping. Returns the text's length and, in
 * *raw, the raw bytes the store counts for it. */
static const char *const row_keys[2][3] = {{"\"a\":", "\"bb\":", "\"c d\":"},
                                           {"\"x\":", "\"y\":", "\"z\":"}};

static size_t row_gen(uint32_t i, int ks, tt_args_val val[3], char vbuf[3][32], char *text,
                      size_t *raw)
{
    size_t n = 0;
    *raw = 1;
    for (int k = 0; k < 3; k++) {
        uint64_t h = mix(i * 3u + (uint32_t)k + (uint32_t)ks * 1000003u);
        val[k].kind = TT_ARGV_NONE;
        if (h % 4 == 0 && !(k == 2 && i % 5 == 0))   /* some keys absent, never all */
            continue;
        val[k].s = vbuf[k];
        if (h % 3) {
            val[k].n = (size_t)snprintf(vbuf[k], 32, "%llu", (unsigned long long)(h % 100000));
            /* a checked number reads back as the same JSON text */
            val[k].kind = i % 2 ? TT_ARGV_SCALAR : TT_ARGV_JSON;
        } else {
            val[k].n = (size_t)snprintf(vbuf[k], 32, "s%llu%s", (unsigned long long)(h % 1000),
                                        h % 5 == 0 ? "q\"b\\c\001" : "");
            val[k].kind = TT_ARGV_STRING;
        }
    }
    if (val[0].kind + val[1].kind + val[2].kind == 0) {
        val[2] = (tt_args_val){"7", 1, TT_ARGV_JSON};
    }
    for (int k = 0; k < 3; k++) {
        if (!val[k].kind)
            continue;
        n += (size_t)sprintf(text + n, "%s%s", n ? "," : "{", row_keys[ks][k]);
        *raw += 1 + strlen(row_keys[ks][k]) + val[k].n;
        if (val[k].kind == TT_ARGV_JSON || val[k].kind == TT_ARGV_SCALAR) {
            n += (size_t)sprintf(text + n, "%.*s", (int)val[k].n, val[k].s);
            continue;
        }
        *raw += 2;
        text[n++] = '"';
        for (size_t c = 0; c < val[k].n; c++) {
            unsigned char ch = (unsigned char)val[k].s[c];
            if (ch == '"' || ch == '\\')
                n += (size_t)sprintf(text + n, "\\%c", ch);
            else if (ch < 0x20)
                n += (size_t)sprintf(text + n, "\\u%04x", ch);
            else
                text[n++] = (char)ch;
        }
        text[n++] = '"';
    }
    text[n++] = '}';
    return n;
}

/* Record i of a store of rows: keyed rows of key set ks, every 7th a
 * plain record. Returns the handle. */
static uint32_t rows_add(tt_args *s, uint32_t ks_id, int ks, uint32_t i)
{
    tt_args_val val[3];
    size_t raw;
    char vbuf[3][32], text[200];
    if (i % 7 == 3)
        return tt_args_add(s, "{\"plain\":1}", 11, "{\"e\":2}", 7);
    row_gen(i, ks, val, vbuf, text, &raw);
    return tt_args_add_row(s, ks_id, val);
}

static bool rows_match(tt_args_reader *r, uint32_t handle, int ks, uint32_t i)
{
    tt_args_val val[3];
    const char *a, *e;
    size_t an, en, n, raw;
    char vbuf[3][32], text[200];
    if (tt_args_read(r, handle, &a, &an, &e, &en))
        return false;
    if (i % 7 == 3)
        return an == 11 && memcmp(a, "{\"plain\":1}", 11) == 0 && en == 7;
    n = row_gen(i, ks, val, vbuf, text, &raw);
    return an == n && memcmp(a, text, n) == 0 && en == 0;
}

static void test_rows(void)
{
    enum { N = 30000 };
    static const size_t klen[2][3] = {{4, 5, 6}, {4, 4, 4}};
    tt_args *s = tt_args_new(), *t = tt_args_new();
    tt_args_reader r;
    uint32_t k0, k1, kt;
    uint64_t raw = 0;
    int bad = 0;
    tt_args_val none[3] = {{NULL, 0, TT_ARGV_NONE}, {NULL, 0, TT_ARGV_NONE},
                           {NULL, 0, TT_ARGV_NONE}};

    k0 = tt_args_keyset(s, row_keys[0], klen[0], 3);
    k1 = tt_args_keyset(s, row_keys[1], klen[1], 3);
    ok(k0 == 1 && k1 == 2, "key sets are numbered 1, 2");
    is_i64(tt_args_add_row(s, k0, none), 0, "a row without values is not stored");
    is_i64(tt_args_add_row(s, 3, none), 0, "an unknown key set is refused");
    for (uint32_t i = 0; i < N; i++) {
        tt_args_val val[3];
        size_t r1 = 18;
        char vbuf[3][32], text[200];
        if (i % 7 != 3)
            row_gen(i, i % 2, val, vbuf, text, &r1);
        raw += r1;
        if (rows_add(s, i % 2 ? k1 : k0, i % 2, i) != i + 1)
            bad++;
    }
    is_i64(bad, 0, "keyed rows and plain records get handles in order");
    is_i64((int64_t)tt_args_raw_bytes(s), (int64_t)raw, "raw bytes count keys, values and punctuation");
    tt_args_reader_init(&r, s);
    bad = 0;
    for (uint32_t i = 0; i < N; i++)
        if (!rows_match(&r, i + 1, i % 2, i))
            bad++;
    is_i64(bad, 0, "every keyed row reads back as its object text (unsealed, in order)");
    tt_args_seal(s);
    bad = 0;
    for (uint32_t i = N; i-- > 0;)
        if (!rows_match(&r, i + 1, i % 2, i))
            bad++;
    is_i64(bad, 0, "every keyed row reads back after sealing (backwards)");
    tt_args_reader_fini(&r);

    /* a second store with its own key set 1 (= s's key set 2's keys),
     * appended: its rows must find their keys past s's */
    kt = tt_args_keyset(t, row_keys[1], klen[1], 3);
    for (uint32_t i = 0; i < 5000; i++)
        rows_add(t, kt, 1, i);
    ok(tt_args_append(s, t) == 0, "append a store of keyed rows");
    tt_args_seal(s);
    tt_args_reader_init(&r, s);
    bad = 0;
    for (uint32_t i = 0; i < 5000; i++)
        if (!rows_match(&r, N + 1 + i, 1, i) || !rows_match(&r, i + 1, i % 2, i))
            bad++;
    is_i64(bad, 0, "both stores' rows read back after the append");
    {
        /* key sets added after the append continue the numbering */
        uint32_t k3 = tt_args_keyset(s, row_keys[0], klen[0], 3), h;
        const char *a, *e;
        tt_args_val val[3] = {{"1", 1, TT_ARGV_JSON}, {NULL, 0, TT_ARGV_NONE},
                              {"q", 1, TT_ARGV_STRING}};
        size_t an, en;
        h = tt_args_add_row(s, k3, val);
        ok(k3 == 4 && tt_args_read(&r, h, &a, &an, &e, &en) == 0 && an == 17 &&
               memcmp(a, "{\"a\":1,\"c d\":\"q\"}", 17) == 0,
           "a key set registered after the append");
    }
    tt_args_reader_fini(&r);
    tt_args_free(s);
}

/* ------------------------------------------------------ args templates
 * Records added with a note (the Chrome decoder's) may be stored as a
 * template and their digit runs. Whatever the text, a record reads back
 * byte for byte, the store holds the same records per block as one given
 * the texts by tt_args_add() (so that every filter answer is the same),
 * and texts of repeating layouts shrink. */
enum { TN = 40000 };

static uint64_t trng = 0x9e3779b97f4a7c15ULL;
static uint64_t trnd(void)
{
    return tt_xorshift64(&trng);
}

/* Text i into b (at least 8192 bytes), its extra text into x; kind into
 * *k (the note's key). */
static void tmpl_gen(uint32_t i, char *b, size_t *bn, char *x, size_t *xn, uint32_t *k)
{
    uint32_t kind = (uint32_t)(trnd() % 16);
    size_t n = 0;
    *xn = 0;
    *k = kind;
    switch (kind) {
    case 0: case 1: case 2: case 3: case 4:
        n = (size_t)sprintf(b, "{\n      \"External id\": %u,      \"queued\": %u, \"device\": 0, "
                               "\"grid\": [%u, 1, 1], \"blocks per SM\": %u.%06u\n    }",
                            i, (unsigned)(trnd() % 3), (unsigned)(trnd() % 1000),
                            (unsigned)(trnd() % 10), (unsigned)(trnd() % 1000000));
        break;
    case 5: case 6:
        n = (size_t)sprintf(b, "{\"External id\": %u,\"Record function id\": %u, \"Ev Idx\": %u}",
                            i, i, i + 1);
        break;
    case 7:   /* digits at both ends, a long run, leading zeros */
        n = (size_t)sprintf(b, "%u{\"a\":\"x%llu%llu%llu\",\"b\":00%u}%u", i % 7,
                            (unsigned long long)trnd(), (unsigned long long)trnd(),
                            (unsigned long long)trnd(), i, i % 3);
        break;
    case 8:   /* a text of digits only, and one without any */
        n = i % 2 ? (size_t)sprintf(b, "%u", i) : (size_t)sprintf(b, "{\"no\":\"digits\"}");
        break;
    case 9:   /* layouts that never repeat */
        n = (size_t)sprintf(b, "{\"name\":\"op%c%c%c\",\"n\":%u}", 'a' + (int)(trnd() % 26),
                            'a' + (int)(trnd() % 26), 'a' + (int)(trnd() % 26), i);
        break;
    case 10:   /* more runs than a template holds */
        n = (size_t)sprintf(b, "{\"v\":[");
        for (int j = 0; j < 200; j++)
            n += (size_t)sprintf(b + n, "%s%u", j ? "," : "", (unsigned)(trnd() % 100));
        n += (size_t)sprintf(b + n, "]}");
        break;
    case 11:   /* longer than a template's text */
        n = (size_t)sprintf(b, "{\"s\":\"");
        while (n < 5000)
            b[n++] = (char)('a' + (int)(trnd() % 26));
        n += (size_t)sprintf(b + n, "\",\"x\":%u}", i);
        break;
    case 12:   /* an escape and a NUL byte (the decoder notes them `any`) */
        n = (size_t)sprintf(b, "{\"e\\\"s\":%u,\"z\":\"a", i);
        b[n++] = 0;
        n += (size_t)sprintf(b + n, "b\"}");
        break;
    case 13:   /* with an extra text */
        n = (size_t)sprintf(b, "{\"a\":%u}", i % 50);
        *xn = (size_t)sprintf(x, "{\"ts_raw\":\"%u\"}", i);
        break;
    case 14:   /* an empty args text, extra only */
        *xn = (size_t)sprintf(x, "{\"u\":%u}", i);
        break;
    default:   /* same note key as kind 0, another layout: a wrong guess */
        *k = 0;
        n = (size_t)sprintf(b, "{\n      \"External id\": %u,      \"queued\": %u\n    }", i, i % 9);
        break;
    }
    *bn = n;
}

static void test_templates(void)
{
    static char b[8192], x[256];
    tt_args *s = tt_args_new(), *p = tt_args_new(), *t = tt_args_new();
    char **keep = calloc(TN, sizeof *keep);
    size_t *klen = calloc(TN, sizeof *klen), *kx = calloc(TN, sizeof *kx);
    tt_args_reader r;
    int bad = 0, badf = 0;
    uint32_t *hs = calloc(TN, sizeof *hs);
    unsigned char *m1 = calloc(TN, 1), *m2 = calloc(TN, 1);
    for (uint32_t i = 0; i < TN; i++) {
        size_t bn, xn;
        uint32_t k;
        tt_args_note note;
        tt_args *dst = i < TN / 2 ? s : t;
        tmpl_gen(i, b, &bn, x, &xn, &k);
        /* keys left to the store's scan; the note's count and first hash
         * still pick the template tried first */
        note.n = k % 3;
        note.any = k == 12;
        note.rescan = true;
        note.hash[0] = tt_args_key_hash("k", 1, 1) + k;
        note.hash[1] = k;
        keep[i] = malloc(bn + xn + 1);
        memcpy(keep[i], b, bn);
        memcpy(keep[i] + bn, x, xn);
        klen[i] = bn;
        kx[i] = xn;
        if (tt_args_add_noted(dst, b, bn, x, xn, &note) != (i < TN / 2 ? i + 1 : i - TN / 2 + 1) ||
            tt_args_add(p, b, bn, x, xn) != i + 1)
            bad++;
    }
    is_i64(bad, 0, "noted records get handles in order");
    {
        /* a key set after templates: its own id, its rows read back */
        static const char *const keys[2] = {"\"a\":", "\"b\":"};
        static const size_t kl[2] = {4, 4};
        tt_args_val val[2] = {{"7", 1, TT_ARGV_JSON}, {"q", 1, TT_ARGV_STRING}};
        uint32_t ks = tt_args_keyset(t, keys, kl, 2), h = tt_args_add_row(t, ks, val);
        const char *a, *e;
        size_t an, en;
        tt_args_reader_init(&r, t);
        ok(ks != 0 && h == TN / 2 + 1 && tt_args_read(&r, h, &a, &an, &e, &en) == 0 && an == 15 &&
               memcmp(a, "{\"a\":7,\"b\":\"q\"}", 15) == 0,
           "a key set registered after templates");
        tt_args_reader_fini(&r);
    }
    is_i64((int64_t)tt_args_raw_bytes(s) + (int64_t)tt_args_raw_bytes(t) - 15,
           (int64_t)tt_args_raw_bytes(p), "raw bytes as the plain store's");
    tt_args_reader_init(&r, s);
    bad = 0;
    for (uint32_t i = 0; i < TN / 2; i++) {
        const char *a, *e;
        size_t an, en;
        if (tt_args_read(&r, i + 1, &a, &an, &e, &en) || an != klen[i] || en != kx[i] ||
            (an && memcmp(a, keep[i], an)) || (en && memcmp(e, keep[i] + an, en)))
            bad++;
    }
    is_i64(bad, 0, "every record reads back (unsealed, in order)");
    tt_args_reader_fini(&r);
    ok(tt_args_append(s, t) == 0, "append a noted store");
    tt_args_seal(s);
    tt_args_seal(p);
    tt_args_reader_init(&r, s);
    bad = 0;
    for (uint32_t j = 0; j < TN; j++) {
        uint32_t i = j % 3 ? (uint32_t)(trnd() % TN) : TN - 1 - j;
        const char *a, *e;
        size_t an, en;
        if (tt_args_read(&r, i + 1, &a, &an, &e, &en) || an != klen[i] ||
            en != kx[i] || (an && memcmp(a, keep[i], an)) || (en && memcmp(e, keep[i] + an, en)))
            bad++;
    }
    is_i64(bad, 0, "every record reads back after sealing and the append (random order)");
    tt_args_reader_fini(&r);
    {
        /* the first half's blocks are the plain store's: the same answers */
        static const char *const needles[] = {"\"queued\"", "\"x\"", "\"zz\""};
        for (uint32_t i = 0; i < TN / 2; i++)
            hs[i] = i + 1;
        for (int k = 0; k < 3; k++) {
            tt_args_filter(s, hs, TN / 2, needles + k, 1, m1);
            tt_args_filter(p, hs, TN / 2, needles + k, 1, m2);
            if (memcmp(m1, m2, TN / 2))
                badf++;
        }
        is_i64(badf, 0, "filter answers as the plain store's");
    }
    {
        /* Kineto-like texts (kinds 0 to 6) alone shrink */
        tt_args *ks = tt_args_new(), *kp = tt_args_new();
        for (uint32_t i = 0; i < TN; i++) {
            size_t bn, xn;
            uint32_t k;
            tt_args_note note = {0, false, true, {0}};
            do
                tmpl_gen(i, b, &bn, x, &xn, &k);
            while (k > 6 || xn);
            note.n = 1;
            note.hash[0] = k;
            tt_args_add_noted(ks, b, bn, NULL, 0, &note);
            tt_args_add(kp, b, bn, NULL, 0);
        }
        tt_args_seal(ks);
        tt_args_seal(kp);
        ok(tt_args_memory(ks) < tt_args_memory(kp),
           "templates store less of Kineto-like texts (%zu < %zu)", tt_args_memory(ks),
           tt_args_memory(kp));
        tt_args_free(ks);
        tt_args_free(kp);
    }
    for (uint32_t i = 0; i < TN; i++)
        free(keep[i]);
    free(keep);
    free(klen);
    free(kx);
    free(hs);
    free(m1);
    free(m2);
    tt_args_free(s);
    tt_args_free(p);
}

int main(void)
{
    test_empty();
    test_many();
    test_huge();
    test_rows();
    test_templates();
    return tap_done();
}
