/* test_util.c - util/ modules against independent expectations: string
 * interning, natural order, the stable sort (against qsort with an index
 * tie-break), text sanitizing/measuring for terminals, the u64 map (against
 * a sorted reference array) and the byte hash. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "util/hash.h"
#include "util/natcmp.h"
#include "util/sort.h"
#include "util/strtab.h"
#include "util/text.h"
#include "util/u64map.h"

#include <locale.h>
#include <stdlib.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static int sign(int x) { return (x > 0) - (x < 0); }

/* ------------------------------------------------------------- strtab */

static void test_strtab(void)
{
    tt_strtab *t = tt_strtab_new();
    uint32_t a, b, c, n0;
    const char *pa;
    size_t bytes0;
    enum { MANY = 100000 };
    uint32_t *ids;
    int bad;
    char buf[32];

    if (!ok(t != NULL, "strtab: new"))
        return;
    is_i64(tt_strtab_count(t), 1, "strtab: a new table holds only id 0");
    is_str(tt_strtab_get(t, 0), "", "strtab: id 0 is the empty string");
    is_i64((int64_t)tt_strtab_len(t, 0), 0, "strtab: id 0 has length 0");
    is_i64(tt_strtab_intern(t, "ignored", 0), 0, "strtab: interning an empty span gives 0");
    is_i64(tt_strtab_find(t, "x", 0), 0, "strtab: finding an empty span gives 0");
    is_i64(tt_strtab_find(t, "abc", 3), TT_STR_ERROR, "strtab: find of an absent string fails");
    is_i64(tt_strtab_count(t), 1, "strtab: find never adds");

    a = tt_strtab_intern(t, "abc", 3);
    b = tt_strtab_intern(t, "abd", 3);
    c = tt_strtab_intern(t, "abcdef", 3);   /* the same bytes as "abc" */
    is_i64(a, 1, "strtab: first string gets id 1");
    is_i64(b, 2, "strtab: second distinct string gets id 2");
    is_i64(c, a, "strtab: equal bytes give the same id");
    is_i64(tt_strtab_find(t, "abc", 3), a, "strtab: find returns the interned id");
    is_i64(tt_strtab_find(t, "ab", 2), TT_STR_ERROR, "strtab: a prefix is a different string");
    is_str(tt_strtab_get(t, b), "abd", "strtab: get returns the bytes");
    is_str(tt_strtab_get(t, 12345), "", "strtab: unknown ids give \"\"");
    is_i64((int64_t)tt_strtab_len(t, 12345), 0, "strtab: unknown ids have length 0");

    /* bytes with NUL inside: distinct by length and content, kept exactly */
    {
        uint32_t x = tt_strtab_intern(t, "a\0b", 3), y = tt_strtab_intern(t, "a\0c", 3);
        uint32_t z = tt_strtab_intern(t, "a", 1), w = tt_strtab_intern(t, "a\0b", 3);
        ok(x != y && x != z && y != z, "strtab: strings differing after a NUL are distinct");
        is_i64(w, x, "strtab: binary string interned twice keeps its id");
        is_i64((int64_t)tt_strtab_len(t, x), 3, "strtab: binary length kept");
        ok(memcmp(tt_strtab_get(t, x), "a\0b", 4) == 0, "strtab: binary bytes kept, NUL-terminated");
        is_i64(tt_strtab_find(t, "a\0c", 3), y, "strtab: find a binary string");
    }

    /* many strings: ids stay dense and stable across table growth, and
     * returned pointers stay valid */
    pa = tt_strtab_get(t, a);
    n0 = tt_strtab_count(t);
    bytes0 = tt_strtab_bytes(t);
    ids = malloc(MANY * sizeof *ids);
    bad = 0;
    for (int i = 0; i < MANY; i++) {
        int k = snprintf(buf, sizeof buf, "name-%d", i);
        ids[i] = tt_strtab_intern(t, buf, (size_t)k);
        if (ids[i] != n0 + (uint32_t)i)
            bad++;
    }
    is_i64(bad, 0, "strtab: %d new strings get consecutive ids", MANY);
    is_i64(tt_strtab_count(t), n0 + MANY, "strtab: count after many inserts");
    ok(pa == tt_strtab_get(t, a), "strtab: string pointers survive growth");
    ok(tt_strtab_bytes(t) > bytes0, "strtab: memory accounting grows");
    bad = 0;
    for (int i = MANY; i-- > 0;) {
        int k = snprintf(buf, sizeof buf, "name-%d", i);
        if (tt_strtab_find(t, buf, (size_t)k) != ids[i] ||
            tt_strtab_intern(t, buf, (size_t)k) != ids[i] ||
            strcmp(tt_strtab_get(t, ids[i]), buf) != 0 || tt_strtab_len(t, ids[i]) != (size_t)k)
            bad++;
    }
    is_i64(bad, 0, "strtab: every string found again with its id, bytes and length");
    is_i64(tt_strtab_count(t), n0 + MANY, "strtab: re-interning adds nothing");
    is_i64(tt_strtab_find(t, "name-100000", 11), TT_STR_ERROR, "strtab: absent after growth");
    free(ids);
    tt_strtab_free(t);
    tt_strtab_free(NULL);
    ok(1, "strtab: free(NULL) is a no-op");
}

/* ------------------------------------------------------------- natcmp */

/* Reference: byte by byte, except that two digit runs compare by value
 * (runs are at most 9 digits in the random test, so strtoul is exact), and
 * a whole-string leading "-N" is a negative number. Written separately from
 * natcmp.c on purpose. */
static int ref_natcmp(const char *a, const char *b)
{
    int na = a[0] == '-' && a[1] >= '0' && a[1] <= '9';
    int nb = b[0] == '-' && b[1] >= '0' && b[1] <= '9';
    if (na != nb)
        return na ? -1 : 1;
    if (na) {
        char *ea, *eb;
        unsigned long x = strtoul(a + 1, &ea, 10), y = strtoul(b + 1, &eb, 10);
        if (x != y)
            return x > y ? -1 : 1;
        return ref_natcmp(ea, eb);
    }
    for (;;) {
        unsigned char ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (!ca || !cb)
            return ca ? 1 : cb ? -1 : 0;
        if (ca >= '0' && ca <= '9' && cb >= '0' && cb <= '9') {
            char *ea, *eb;
            unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
            if (x != y)
                return x < y ? -1 : 1;
            a = ea;
            b = eb;
            continue;
        }
        if (ca != cb)
            return ca < cb ? -1 : 1;
        a++;
        b++;
    }
}

static void random_label(char *s, size_t cap)
{
    static const char alpha[] = "ab -_Z\x7f\xc3";
    size_t n = rnd() % (cap - 1), i = 0;
    if (rnd() % 6 == 0 && n > 0)
        s[i++] = '-';
    while (i < n) {
        if (rnd() % 3 == 0) {
            /* a digit run, sometimes with leading zeros, <= 9 digits */
            size_t run = 1 + rnd() % 9;
            for (size_t k = 0; k < run && i < n; k++)
                s[i++] = (char)('0' + (rnd() % 4 == 0 ? 0 : rnd() % 10));
            /* keep runs apart so the reference's strtoul never overflows */
            if (i < n)
                s[i++] = alpha[rnd() % (sizeof alpha - 1)];
        } else {
            s[i++] = alpha[rnd() % (sizeof alpha - 1)];
        }
    }
    s[i] = '\0';
}

static void test_natcmp(void)
{
    static const struct {
        const char *a, *b;
        int want;
    } cases[] = {
        {"GPU 2", "GPU 10", -1},
        {"GPU 10", "GPU 2", 1},
        {"stream 7", "stream 7", 0},
        {"rank9", "rank10", -1},
        {"a", "b", -1},
        {"", "", 0},
        {"", "a", -1},
        {"a", "a0", -1},
        {"x9y", "x10a", -1},
        {"x10a", "x10b", -1},
        {"0010", "9", 1},
        {"-1", "0", -1},
        {"-2", "-1", -1},
        {"-10", "-9", -1},
        {"-1", "5", -1},
        {"-1a", "-1b", -1},
        {"n123456789012345678901234567890", "n123456789012345678901234567891", -1},
        {"n99999999999999999999999", "n100000000000000000000000", -1},
        {"a1", "a!", 1},            /* digit vs other byte: byte order */
        {"\xc3\xa9", "z", 1},       /* bytes compare unsigned */
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = sign(tt_natcmp(cases[i].a, cases[i].b));
        if (!ok(got == cases[i].want, "natcmp(\"%s\", \"%s\") = %d", cases[i].a, cases[i].b,
                cases[i].want))
            diag("got %d", got);
    }
    /* random labels against the reference, plus antisymmetry */
    for (int i = 0; i < 200000; i++) {
        char a[24], b[24];
        int x, y, r;
        random_label(a, sizeof a);
        if (rnd() % 4 == 0)
            memcpy(b, a, sizeof a), b[rnd() % (strlen(a) + 1)] = '\0';
        else
            random_label(b, sizeof b);
        x = sign(tt_natcmp(a, b));
        y = sign(tt_natcmp(b, a));
        r = sign(ref_natcmp(a, b));
        if (x != r || x != -y) {
            if (bad++ < 5)
                diag("natcmp(\"%s\", \"%s\") = %d, reverse %d, reference %d", a, b, x, y, r);
        }
    }
    is_i64(bad, 0, "natcmp: 200000 random label pairs agree with the reference");
}

/* ---------------------------------------------------------------- sort */

typedef struct rec {
    uint32_t key;
    uint32_t idx;   /* original position */
    char     pad[5];   /* odd element size: 13 bytes with packing below */
} __attribute__((packed)) rec;

static unsigned long sort_cmps;

static int cmp_key(const void *a, const void *b, void *ctx)
{
    const rec *x = a, *y = b;
    (void)ctx;
    sort_cmps++;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_key_desc(const void *a, const void *b, void *ctx)
{
    int dir = *(int *)ctx;
    const rec *x = a, *y = b;
    return dir * (x->key < y->key ? -1 : x->key > y->key);
}

static int cmp_key_idx_q(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void test_sort(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 64, 100, 1000, 4097, 100000};
    int bad_random = 0, bad_few = 0;
    _Static_assert(sizeof(rec) == 13, "odd element size");
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        rec *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
        for (int pass = 0; pass < 2; pass++) {
            /* pass 0: keys from a wide range; pass 1: few distinct keys, so
             * stability matters everywhere */
            for (size_t i = 0; i < n; i++) {
                a[i].key = (uint32_t)(pass ? rnd() % 7 : rnd() % 1000000);
                a[i].idx = (uint32_t)i;
                memset(a[i].pad, (int)(i & 0xff), sizeof a[i].pad);
            }
            memcpy(b, a, n * sizeof *a);
            if (tt_sort(a, n, sizeof *a, cmp_key, NULL) != 0) {
                bad_random++;
                continue;
            }
            /* (key, original index) is a total order: a stable sort by key
             * must give exactly qsort's result under it */
            qsort(b, n, sizeof *b, cmp_key_idx_q);
            if (n && memcmp(a, b, n * sizeof *a) != 0) {
                if (pass)
                    bad_few++;
                else
                    bad_random++;
                diag("tt_sort differs from qsort+index for n=%zu pass %d", n, pass);
            }
        }
        free(a);
        free(b);
    }
    is_i64(bad_random, 0, "sort: random keys, sizes 0..100000, match qsort with index tie-break");
    is_i64(bad_few, 0, "sort: few distinct keys: stable (equal keys keep their order)");

    {
        enum { N = 100000 };
        rec *a = malloc(N * sizeof *a);
        int bad = 0, dir = -1;
        for (size_t i = 0; i < N; i++) {
            a[i].key = (uint32_t)(i / 3);
            a[i].idx = (uint32_t)i;
        }
        sort_cmps = 0;
        ok(tt_sort(a, N, sizeof *a, cmp_key, NULL) == 0, "sort: already sorted input");
        is_i64((int64_t)sort_cmps, N - 1, "sort: already sorted input costs n-1 comparisons");
        for (size_t i = 0; i < N; i++)
            if (a[i].idx != i)
                bad++;
        is_i64(bad, 0, "sort: already sorted input is left untouched");

        /* descending via ctx: reverse order, ties still in original order */
        ok(tt_sort(a, N, sizeof *a, cmp_key_desc, &dir) == 0, "sort: comparator context");
        bad = 0;
        for (size_t i = 1; i < N; i++)
            if (a[i - 1].key < a[i].key || (a[i - 1].key == a[i].key && a[i - 1].idx > a[i].idx))
                bad++;
        is_i64(bad, 0, "sort: reverse order through ctx, stable");
        free(a);
    }
}

/* The radix sort against tt_sort (stable by construction): keys from
 * narrow to full 64-bit ranges, few distinct keys, sorted input; and
 * tt_apply_order moving whole records by the vals it leaves. */
static int cmp_pair_key(const void *a, const void *b, void *ctx)
{
    const tt_kv *x = a, *y = b;
    (void)ctx;
    return x->key < y->key ? -1 : x->key > y->key;
}

static void test_radix_sort(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 17, 255, 256, 257, 1000, 65537, 200000};
    static const int widths[] = {1, 3, 8, 9, 16, 35, 63, 64};
    int bad = 0, bad_apply = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
            size_t n = sizes[si];
            int w = widths[wi];
            tt_kv *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
            rec *r = malloc((n ? n : 1) * sizeof *r);
            for (size_t i = 0; i < n; i++) {
                uint64_t k = rnd();
                a[i].key = w == 64 ? k : k & ((1ULL << w) - 1);
                a[i].val = i;
                r[i].key = (uint32_t)i;
                r[i].idx = (uint32_t)(a[i].key >> 7);
                memset(r[i].pad, (int)(i * 7 & 0xff), sizeof r[i].pad);
            }
            memcpy(b, a, n * sizeof *a);
            if (tt_radix_sort(a, n) != 0 || tt_sort(b, n, sizeof *b, cmp_pair_key, NULL) != 0 ||
                (n && memcmp(a, b, n * sizeof *a) != 0)) {
                bad++;
                diag("tt_radix_sort differs from tt_sort for n=%zu, %d-bit keys", n, w);
            }
            /* records follow the order: record i (key i) lands where the
             * sort put pair i, its padding intact */
            if (tt_apply_order(r, n, sizeof *r, a) != 0)
                bad_apply++;
            for (size_t i = 0; i < n; i++)
                if (r[i].key != b[i].val || r[i].idx != (uint32_t)(b[i].key >> 7) ||
                    r[i].pad[4] != (char)(b[i].val * 7 & 0xff))
                    bad_apply++;
            free(a);
            free(b);
            free(r);
        }
    is_i64(bad, 0, "radix sort: keys of 1 to 64 bits, sizes 0..200000: same order as the stable tt_sort");
    is_i64(bad_apply, 0, "apply order: records moved in place to where the radix sort put their keys");
    {
        /* keys whose differing bits are apart, as (lane << 32 | index)
         * keys are, under a bit every key shares: digits start at the
         * differing bits, and none may be left out */
        static const size_t ns[] = {100, 5000, 65537};
        int bad_sparse = 0;
        for (size_t si = 0; si < sizeof ns / sizeof ns[0]; si++) {
            size_t n = ns[si];
            tt_kv *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
            for (size_t i = 0; i < n; i++) {
                a[i].key = (rnd() & 0xfffff) | (rnd() % 5) << 32 | (rnd() & 1) << 52 |
                           (uint64_t)1 << 62;
                a[i].val = i;
            }
            memcpy(b, a, n * sizeof *a);
            if (tt_radix_sort(a, n) != 0 || tt_sort(b, n, sizeof *b, cmp_pair_key, NULL) != 0 ||
                memcmp(a, b, n * sizeof *a) != 0)
                bad_sparse++;
            free(a);
            free(b);
        }
        is_i64(bad_sparse, 0, "radix sort: keys differing in bits far apart: same order as tt_sort");
    }
    {
        enum { N = 1000 };
        tt_kv a[N];
        int moved = 0;
        for (size_t i = 0; i < N; i++)
            a[i] = (tt_kv){i / 3 + ((uint64_t)1 << 62), i};
        ok(tt_radix_sort(a, N) == 0, "radix sort: sorted input");
        for (size_t i = 0; i < N; i++)
            moved += a[i].val != i;
        is_i64(moved, 0, "radix sort: sorted input with equal keys is left as it is");
    }
}

/* ---------------------------------------------------------------- text */

/* Independent check of sanitized output: no C0 control, no DEL; in ASCII
 * mode only ASCII; in UTF-8 mode valid UTF-8 without C1 controls or
 * bidi/zero-width format characters. Returns NULL or what is wrong. */
static const char *unsafe_reason(const char *s, size_t n, bool utf8)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        uint32_t cp;
        size_t len;
        if (c < 0x20 || c == 0x7f)
            return "raw control byte";
        if (c < 0x80) {
            i++;
            continue;
        }
        if (!utf8)
            return "non-ASCII byte in ASCII mode";
        if (c >= 0xc2 && c <= 0xdf)
            len = 2, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef)
            len = 3, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4)
            len = 4, cp = c & 0x07;
        else
            return "invalid UTF-8 lead byte";
        if (i + len > n)
            return "truncated UTF-8";
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return "invalid UTF-8 continuation";
            cp = cp << 6 | (p[i + k] & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return "overlong, surrogate or out of range";
        if (cp <= 0x9f)
            return "C1 control";
        if ((cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
            (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff)
            return "bidi or zero-width format character";
        i += len;
    }
    return NULL;
}

static void check_sanitize(const char *in, size_t n, bool utf8, const char *want, const char *what)
{
    char out[256];
    size_t len;
    tt_text_set_utf8(utf8);
    len = tt_text_sanitize(in, n, out, sizeof out);
    if (!is_str(out, want, "sanitize (%s mode): %s", utf8 ? "UTF-8" : "ASCII", what))
        return;
    if (len != strlen(out))
        ok(0, "sanitize returns the length written");
}

/* Every cap from 0 to the full length + 1: the result is the longest
 * sanitized prefix of whole input characters that fits. */
static int check_truncation(const char *in, size_t n, bool utf8)
{
    char full[512], part[512], pre[512];
    size_t flen, bounds[128], nb = 0;
    int bad = 0;
    tt_text_set_utf8(utf8);
    flen = tt_text_sanitize(in, n, full, sizeof full);
    /* boundaries: sanitized lengths of input prefixes whose sanitized form
     * is itself a prefix of the full output (cuts inside a UTF-8 character
     * sanitize differently and are not boundaries) */
    for (size_t k = 0; k <= n && nb < 128; k++) {
        size_t pl = tt_text_sanitize(in, k, pre, sizeof pre);
        if (pl <= flen && memcmp(pre, full, pl) == 0 && (nb == 0 || bounds[nb - 1] != pl))
            bounds[nb++] = pl;
    }
    for (size_t cap = 0; cap <= flen + 1; cap++) {
        size_t got, want = 0;
        memset(part, 'Z', sizeof part);
        got = tt_text_sanitize(in, n, part, cap);
        if (cap == 0) {
            if (got != 0 || part[0] != 'Z')
                bad++;
            continue;
        }
        for (size_t i = 0; i < nb; i++)
            if (bounds[i] < cap)
                want = bounds[i];
        if (got != want || part[got] != '\0' || memcmp(part, full, got) != 0)
            bad++;
    }
    return bad;
}

static void test_text(void)
{
    char out[64];
    int bad;

    check_sanitize("plain text 123", 14, false, "plain text 123", "printable ASCII unchanged");
    check_sanitize("a\x1b[31mred", 9, false, "a\\e[31mred", "ESC becomes \\e");
    check_sanitize("bell\x07", 5, true, "bell\\x07", "BEL becomes \\x07");
    check_sanitize("x\ry\nz\tw", 7, true, "x\\ry\\nz\\tw", "CR, LF, TAB visible");
    check_sanitize("nul\0in", 6, false, "nul\\x00in", "NUL inside the span");
    check_sanitize("del\x7f", 4, true, "del\\x7f", "DEL escaped");
    check_sanitize("\xc2\x9b" "31m", 5, true, "\\u009b31m", "C1 CSI (U+009B) escaped");
    check_sanitize("\xc2\x85", 2, true, "\\u0085", "C1 NEL escaped");
    check_sanitize("\xc2\x9b", 2, false, "\\xc2\\x9b", "C1 bytes escaped");
    check_sanitize("\x9b" "2J", 3, true, "\\x9b2J", "lone 8-bit CSI byte escaped");
    check_sanitize("\x9b" "2J", 3, false, "\\x9b2J", "lone 8-bit CSI byte escaped");
    check_sanitize("ab\xe2\x80\xae" "cd", 7, true, "ab\\u202ecd", "RLO bidi override escaped");
    check_sanitize("\xe2\x81\xa6x\xe2\x81\xa9", 7, true, "\\u2066x\\u2069", "bidi isolates escaped");
    check_sanitize("z\xe2\x80\x8bw", 5, true, "z\\u200bw", "zero-width space escaped");
    check_sanitize("\xef\xbb\xbfhi", 5, true, "\\ufeffhi", "BOM escaped");
    check_sanitize("caf\xc3\xa9", 5, true, "caf\xc3\xa9", "valid UTF-8 kept");
    check_sanitize("caf\xc3\xa9", 5, false, "caf\\xc3\\xa9", "non-ASCII escaped");
    check_sanitize("\xf0\x9f\x98\x80", 4, true, "\xf0\x9f\x98\x80", "4-byte character kept");
    check_sanitize("\xc0\xaf", 2, true, "\\xc0\\xaf", "overlong form escaped");
    check_sanitize("\xed\xa0\x80", 3, true, "\\xed\\xa0\\x80", "UTF-16 surrogate escaped");
    check_sanitize("\xf4\x90\x80\x80", 4, true, "\\xf4\\x90\\x80\\x80", "past U+10FFFF escaped");
    check_sanitize("a\xe2\x82", 3, true, "a\\xe2\\x82", "truncated sequence at the end");
    check_sanitize("\xe2\x82" "ab", 4, true, "\\xe2\\x82ab", "truncated sequence before ASCII");
    check_sanitize("\xff\xfe", 2, true, "\\xff\\xfe", "bytes never valid in UTF-8");
    check_sanitize("", 0, true, "", "empty");

    tt_text_set_utf8(false);
    ok(!tt_text_utf8(), "text: ASCII mode flag");
    is_str(tt_text_safe("a\x1b" "b", out, sizeof out), "a\\eb", "text_safe on a C string");
    is_i64((int64_t)tt_text_sanitize("abc", 3, out, 0), 0, "sanitize with cap 0 writes nothing");
    tt_text_set_utf8(true);
    ok(tt_text_utf8(), "text: UTF-8 mode flag");

    /* truncation never splits a character or an escape */
    {
        static const char *const samples[] = {
            "ab\x1b" "cd\xc3\xa9" "e\xe2\x80\xae" "f\xf0\x9f\x98\x80g\x07",
            "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\x9b\xc2\x9b",
            "x\xe2\x82\xe2\x82\xacy\xed\xa0\x80",
        };
        bad = 0;
        for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
            bad += check_truncation(samples[i], strlen(samples[i]), true);
            bad += check_truncation(samples[i], strlen(samples[i]), false);
        }
        is_i64(bad, 0, "sanitize: every capacity gives the longest whole-character prefix");
    }

    /* random bytes: the output is always safe, whatever the input */
    bad = 0;
    for (int i = 0; i < 20000; i++) {
        unsigned char in[40];
        char o[200];
        size_t n = rnd() % sizeof in, len;
        bool utf8 = i & 1;
        const char *why;
        for (size_t k = 0; k < n; k++) {
            /* bias towards interesting bytes */
            static const unsigned char pick[] = {0x1b, 0x07, 0x0d, 0x00, 0x7f, 0x9b, 0xc2,
                                                 0xe2, 0x80, 0xae, 0xf0, 0x9f, 'a', ' '};
            in[k] = rnd() % 2 ? pick[rnd() % sizeof pick] : (unsigned char)rnd();
        }
        tt_text_set_utf8(utf8);
        len = tt_text_sanitize((const char *)in, n, o, sizeof o);
        if (len != strlen(o) || (why = unsafe_reason(o, len, utf8)) != NULL) {
            if (bad++ < 3)
                diag("unsafe output for random input %d: %s", i,
                     len != strlen(o) ? "length" : why);
        }
    }
    is_i64(bad, 0, "sanitize: 20000 random byte strings give safe output in both modes");

    /* width and fit (wcwidth needs a UTF-8 locale for wide characters) */
    is_i64(tt_text_width(""), 0, "width of \"\"");
    is_i64(tt_text_width("abc"), 3, "width of ASCII");
    is_i64(tt_text_width("a\\e[1m"), 6, "escapes count as their visible text");
    {
        int used = -1;
        is_i64((int64_t)tt_text_fit("abcdef", 3, &used), 3, "fit ASCII into 3 columns");
        is_i64(used, 3, "fit reports the width used");
        is_i64((int64_t)tt_text_fit("abc", 10, &used), 3, "fit: everything when it fits");
        is_i64((int64_t)tt_text_fit("abc", 0, &used), 0, "fit into 0 columns");
        is_i64(used, 0, "fit into 0 columns uses 0");
        is_i64((int64_t)tt_text_fit("caf\xc3\xa9!", 4, &used), 5,
               "fit keeps a whole 2-byte character");
        is_i64((int64_t)tt_text_fit("caf\xc3\xa9!", 3, NULL), 3, "fit stops before it (used NULL)");
    }
    if (setlocale(LC_CTYPE, "C.UTF-8") || setlocale(LC_CTYPE, "en_US.UTF-8")) {
        int used = -1;
        const char *jp = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e";   /* 3 wide characters */
        is_i64(tt_text_width(jp), 6, "width: CJK characters take 2 columns");
        is_i64(tt_text_width("e\xcc\x81"), 1, "width: a combining accent takes none");
        is_i64((int64_t)tt_text_fit(jp, 3, &used), 3, "fit: a wide character is never split");
        is_i64(used, 2, "fit: the column left over stays unused");
        is_i64((int64_t)tt_text_fit(jp, 1, &used), 0, "fit: a wide character does not fit in 1");
        is_i64((int64_t)tt_text_fit(jp, 6, &used), 9, "fit: all three in 6 columns");
        /* fit never splits: over many cut widths, the prefix decodes to
         * whole characters and its width is what was reported */
        bad = 0;
        for (int cols = 0; cols < 12; cols++) {
            const char *s = "a\xe6\x97\xa5" "b\xc3\xa9\xf0\x9f\x98\x80" "c\xe8\xaa\x9e";
            char pre[64];
            size_t k = tt_text_fit(s, cols, &used);
            memcpy(pre, s, k);
            pre[k] = '\0';
            if (used > cols || tt_text_width(pre) != used || unsafe_reason(pre, k, true))
                bad++;
            if (s[k]) {
                /* maximal: the next character would not have fit */
                uint32_t cp;
                size_t cl = tt_utf8_decode((const unsigned char *)s + k, strlen(s + k), &cp);
                memcpy(pre, s, k + cl);
                pre[k + cl] = '\0';
                if (cl == 0 || tt_text_width(pre) <= cols)
                    bad++;
            }
        }
        is_i64(bad, 0, "fit: prefixes at every width are whole characters");
        setlocale(LC_CTYPE, "C");
    } else {
        ok(1, "# SKIP no UTF-8 locale for wide-character widths");
    }

    /* the decoder itself */
    {
        uint32_t cp = 0;
        is_i64((int64_t)tt_utf8_decode((const unsigned char *)"A", 1, &cp), 1, "utf8: ASCII");
        is_i64((int64_t)tt_utf8_decode((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3, "utf8: euro sign");
        is_i64(cp, 0x20ac, "utf8: euro code point");
        is_i64((int64_t)tt_utf8_decode((const unsigned char *)"\xe2\x82\xac", 2, &cp), 0,
               "utf8: short buffer is invalid");
        is_i64((int64_t)tt_utf8_decode((const unsigned char *)"\x80", 1, &cp), 0,
               "utf8: lone continuation byte");
        is_i64((int64_t)tt_utf8_decode((const unsigned char *)"\xe0\x80\x80", 3, &cp), 0,
               "utf8: overlong 3-byte NUL");
        is_i64((int64_t)tt_utf8_decode((const unsigned char *)"\xf4\x8f\xbf\xbf", 4, &cp), 4,
               "utf8: U+10FFFF is valid");
        is_i64((int64_t)tt_utf8_decode((const unsigned char *)"", 0, &cp), 0, "utf8: empty");
    }
    tt_text_set_utf8(false);
}

/* ------------------------------------------------------------- u64map */

typedef struct kv {
    uint64_t k;
    uint32_t v;
} kv;

static int cmp_kv(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    return x->k < y->k ? -1 : x->k > y->k;
}

static void test_u64map(void)
{
    enum { N = 200000 };
    tt_u64map m;
    kv *ref = malloc(N * sizeof *ref);
    size_t nref = 0;
    int bad = 0;

    tt_u64map_init(&m);
    ok(tt_u64map_get(&m, 0) == NULL, "u64map: empty map finds nothing (key 0)");
    ok(tt_u64map_get(&m, 12345) == NULL, "u64map: empty map finds nothing");

    /* keys: edge values, sequential runs (bad for weak hashes), random;
     * some inserted twice with a new value */
    for (size_t i = 0; i < N; i++) {
        uint64_t k;
        switch (i % 4) {
        case 0: k = i; break;
        case 1: k = (uint64_t)i << 32; break;
        case 2: k = rnd(); break;
        default: k = i < 8 ? UINT64_MAX - i : ref[rnd() % nref].k; break;   /* re-put */
        }
        if (i == 1)
            k = UINT64_MAX;
        if (tt_u64map_put(&m, k, (uint32_t)i)) {
            bad++;
            break;
        }
        ref[nref].k = k;
        ref[nref].v = (uint32_t)i;
        nref++;
    }
    ok(bad == 0, "u64map: %d puts succeed", N);
    {
        /* the reference: sort by key; v is the insertion order, so among
         * equal keys the largest v is the last put, which must win */
        size_t uniq = 0;
        qsort(ref, nref, sizeof *ref, cmp_kv);
        for (size_t i = 0; i < nref; i++) {
            /* among equal keys the largest v (last put) wins */
            if (uniq && ref[uniq - 1].k == ref[i].k) {
                if (ref[i].v > ref[uniq - 1].v)
                    ref[uniq - 1].v = ref[i].v;
            } else {
                ref[uniq++] = ref[i];
            }
        }
        is_i64((int64_t)m.n, (int64_t)uniq, "u64map: size equals the distinct keys");
        bad = 0;
        for (size_t i = 0; i < uniq; i++) {
            uint32_t *v = tt_u64map_get(&m, ref[i].k);
            if (!v || *v != ref[i].v)
                bad++;
        }
        is_i64(bad, 0, "u64map: every key maps to its last value");
        bad = 0;
        for (int i = 0; i < 100000; i++) {
            uint64_t k = rnd() | 1ULL << 63;   /* random high keys: almost surely absent */
            kv probe = {k, 0};
            bool present = bsearch(&probe, ref, uniq, sizeof *ref, cmp_kv) != NULL;
            if ((tt_u64map_get(&m, k) != NULL) != present)
                bad++;
        }
        is_i64(bad, 0, "u64map: absent keys are not found");
    }
    tt_u64map_fini(&m);
    ok(m.n == 0 && tt_u64map_get(&m, 1) == NULL, "u64map: fini leaves an empty map");
    ok(tt_u64map_put(&m, 7, 70) == 0 && *tt_u64map_get(&m, 7) == 70, "u64map: reusable after fini");
    tt_u64map_fini(&m);
    free(ref);
}

/* ---------------------------------------------------------------- hash */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_hash(void)
{
    unsigned char buf[128];
    int bad = 0, collisions = 0;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)rnd();
    is_i64((int64_t)tt_hash_bytes("abc", 3, 0), (int64_t)tt_hash_bytes("abc", 3, 0),
           "hash: deterministic");
    ok(tt_hash_bytes("abc", 3, 0) != tt_hash_bytes("abc", 3, 1), "hash: the seed matters");
    ok(tt_hash_bytes("a", 1, 0) != tt_hash_bytes("a\0", 2, 0), "hash: the length matters");
    ok(tt_hash_bytes("", 0, 0) != tt_hash_bytes("\0", 1, 0), "hash: empty differs from NUL");

    /* every length 0..128, every single-bit flip changes the hash: a
     * missed byte (e.g. the tail of a length) would show up here; run
     * under ASan an out-of-bounds read would too (exact-size copies) */
    for (size_t n = 0; n <= sizeof buf; n++) {
        unsigned char *copy = malloc(n ? n : 1);
        uint64_t h;
        memcpy(copy, buf, n);
        h = tt_hash_bytes(copy, n, 42);
        for (size_t i = 0; i < n; i++)
            for (int bit = 0; bit < 8; bit++) {
                copy[i] ^= (unsigned char)(1 << bit);
                if (tt_hash_bytes(copy, n, 42) == h)
                    bad++;
                copy[i] ^= (unsigned char)(1 << bit);
            }
        free(copy);
    }
    is_i64(bad, 0, "hash: every bit of every length 0..128 affects the hash");

    /* spread: sequential short keys over 1024 buckets (low bits, as the
     * tables use them); chi-square far below what a broken mix gives */
    {
        enum { KEYS = 102400, BUCKETS = 1024 };
        static unsigned cnt[BUCKETS];
        double chi = 0, expect = (double)KEYS / BUCKETS;
        for (uint32_t i = 0; i < KEYS; i++) {
            char k[16];
            int kn = snprintf(k, sizeof k, "tid %u", i);
            cnt[tt_hash_bytes(k, (size_t)kn, 0) & (BUCKETS - 1)]++;
        }
        for (int b = 0; b < BUCKETS; b++)
            chi += (cnt[b] - expect) * (cnt[b] - expect) / expect;
        /* 1023 degrees of freedom: mean 1023, sd ~45; 1400 is > 8 sd */
        ok(chi < 1400, "hash: low bits spread sequential keys (chi-square %.0f)", chi);
    }
    /* the 64-bit mixer is a bijection: no collisions on a range */
    {
        enum { M = 1 << 16 };
        uint64_t *h = malloc(M * sizeof *h);
        for (uint64_t i = 0; i < M; i++)
            h[i] = tt_hash_mix(i);
        qsort(h, M, sizeof *h, cmp_u64);
        for (size_t i = 1; i < M; i++)
            if (h[i] == h[i - 1])
                collisions++;
        free(h);
    }
    is_i64(collisions, 0, "hash: tt_hash_mix has no collisions over 0..65535");
}

int main(void)
{
    test_strtab();
    test_natcmp();
    test_sort();
    test_radix_sort();
    test_text();
    test_u64map();
    test_hash();
    return tap_done();
}
