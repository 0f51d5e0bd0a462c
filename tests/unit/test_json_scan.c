/* test_json_scan.c - the JSON scanning kernels give the same answers at
 * every vector level (plain C, SSE2, AVX2) as a byte-at-a-time reference,
 * at every length and alignment, and never read past the end of their
 * buffer (each case sits in its own exact-size allocation, so ASan sees
 * an over-read). */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "decode/json_scan.h"
#include "util/num.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
    return tt_xorshift64(&rng_state);
}

/* A buffer of n bytes drawn mostly from `often`, sometimes any byte. */
static char *random_buf(size_t n, const char *often)
{
    char *b = malloc(n ? n : 1);
    size_t k = strlen(often);
    for (size_t i = 0; i < n; i++)
        b[i] = rnd() % 16 ? often[rnd() % k] : (char)(rnd() & 0xff);
    return b;
}

/* ------------------------------------------------------------ references */

static bool ref_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static const char *ref_skip_ws(const char *p, const char *end)
{
    while (p < end && ref_ws(*p))
        p++;
    return p;
}

/* js_scan_string's contract: end of the string, JS_MORE when it runs out. */
static const char *ref_scan_string(const char *p, const char *end, js_str *out, bool *more)
{
    const char *q = p + 1;
    bool esc = false;
    *more = false;
    while (q < end) {
        if (*q == '"') {
            out->s = p + 1;
            out->n = (size_t)(q - p - 1);
            out->esc = esc;
            return q + 1;
        }
        if (*q == '\\') {
            esc = true;
            if (q + 1 >= end)
                break;
            q += 2;
            continue;
        }
        q++;
    }
    *more = true;
    return NULL;
}

static size_t ref_count(const char *b, size_t n, char c)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += b[i] == c;
    return k;
}

static const char *ref_num_end(const char *p, const char *end)
{
    while (p < end && ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == '.' ||
                       *p == 'e' || *p == 'E'))
        p++;
    return p;
}

/* js_skip_container's contract, byte by byte. status: 0 ok, 1 more, 2 error */
static const char *ref_skip_container(const char *p, const char *end, int *status)
{
    char stack[1000];
    int depth = 0;
    *status = 0;
    if (p >= end || (*p != '{' && *p != '[')) {
        *status = 2;
        return NULL;
    }
    while (p < end) {
        if (*p == '"') {
            js_str t;
            bool more;
            p = ref_scan_string(p, end, &t, &more);
            if (!p) {
                *status = 1;
                return NULL;
            }
            continue;
        }
        if (*p == '{' || *p == '[') {
            if (depth == 1000) {
                *status = 2;
                return NULL;
            }
            stack[depth++] = *p++;
            continue;
        }
        if (*p == '}' || *p == ']') {
            if (stack[depth - 1] != (*p == '}' ? '{' : '[')) {
                *status = 2;
                return NULL;
            }
            p++;
            if (--depth == 0)
                return p;
            continue;
        }
        p++;
    }
    *status = 1;
    return NULL;
}

/* ------------------------------------------------------------------ cases */

static const char *level_name(int level)
{
    return level == JS_SIMD_AVX2 ? "AVX2" : level == JS_SIMD_SSE2 ? "SSE2" : "plain C";
}

static void test_level(int level)
{
    size_t bad_str = 0, bad_ws = 0, bad_num = 0, bad_count = 0, bad_cont = 0, strings = 0;
    const char *name = level_name(level);
    for (int iter = 0; iter < 4000; iter++) {
        /* lengths around every block size the kernels use */
        size_t n = iter < 200 ? (size_t)iter : (size_t)(rnd() % 300);
        /* short strings full of escapes; long ones that reach the
         * 32-byte kernel */
        char *b = random_buf(n, iter % 2 ? "ab\"\\ \n"
                                         : "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\"");
        const char *end = b + n;
        for (size_t at = 0; at < n; at++) {
            js_scanner sc = {0};
            js_str got = {0}, want = {0};
            bool more;
            const char *g, *w;
            if (b[at] != '"')
                continue;
            strings++;
            g = js_scan_string(&sc, b + at, end, &got);
            w = ref_scan_string(b + at, end, &want, &more);
            if (g != w || (g && (got.s != want.s || got.n != want.n || got.esc != want.esc)) ||
                (!g && (sc.status != JS_MORE || sc.more_string != b + at)))
                bad_str++;
        }
        free(b);

        b = random_buf(n, iter % 3 ? " \n\t\r" : " \n\t\ra{");
        end = b + n;
        for (size_t at = 0; at <= n; at++)
            if (js_skip_ws(b + at, end) != ref_skip_ws(b + at, end) ||
                js_skip_ws_run(b + at, end) != ref_skip_ws(b + at, end))
                bad_ws++;
        if (js_count_byte(b, n, '\n') != ref_count(b, n, '\n'))
            bad_count++;
        free(b);

        b = random_buf(n, iter % 2 ? "0123456789.-+eE" : "0123456789.,} ");
        end = b + n;
        for (size_t at = 0; at < n; at++) {
            js_scanner sc = {0};
            js_str got = {0};
            const char *w = ref_num_end(b + at, end);
            const char *g = js_scan_number(&sc, b + at, end, true, &got);
            if (w == b + at ? g != NULL || sc.status != JS_ERROR
                            : g != w || got.s != b + at || got.n != (size_t)(w - b - at))
                bad_num++;
            sc.status = JS_OK;
            g = js_scan_number(&sc, b + at, end, false, &got);
            if (w == end ? g != NULL || sc.status != JS_MORE : (w != b + at && g != w))
                bad_num++;
        }
        free(b);

        b = random_buf(n, iter % 2 ? "{}[]\"\\a:, " : "{{[[\"a\\\"]]}}");
        end = b + n;
        for (size_t at = 0; at < n; at++) {
            js_scanner sc = {0};
            int st;
            const char *w = ref_skip_container(b + at, end, &st);
            const char *g = js_skip_container(&sc, b + at, end);
            if (g != w || (!g && sc.status != (st == 1 ? JS_MORE : JS_ERROR)))
                bad_cont++;
        }
        free(b);
    }
    ok(strings > 10000 && bad_str == 0, "%s: js_scan_string agrees with the reference (%zu strings, %zu differ)",
       name, strings, bad_str);
    ok(bad_ws == 0, "%s: js_skip_ws agrees with the reference (%zu differ)", name, bad_ws);
    ok(bad_num == 0, "%s: js_scan_number agrees with the reference (%zu differ)", name, bad_num);
    ok(bad_cont == 0, "%s: js_skip_container agrees with the reference (%zu differ)", name,
       bad_cont);

    /* counting over more than 255 blocks of 16, where per-byte counters
     * are folded into the total */
    for (size_t n = 4000; n < 70000; n += 7919) {
        char *b = random_buf(n, "\n\nab");
        if (js_count_byte(b, n, '\n') != ref_count(b, n, '\n'))
            bad_count++;
        free(b);
    }
    ok(bad_count == 0, "%s: js_count_byte agrees with the reference (%zu differ)", name, bad_count);
}

/* Well-formed JSON: the fast container skip ends where the validating
 * skip does, whatever the strings hold. */
static void test_container_vs_skip_value(void)
{
    static const char *const docs[] = {
        "{}", "[]", "{\"a\":1}", "[1,[2,[3]],{\"b\":[{}]}]",
        "{\"s\":\"}]\\\"{[\",\"t\":[\"\\\\\"]}",
        "{\"ph\": \"X\", \"name\": \"a long name with {braces} and [brackets] inside it\","
        " \"args\": {\"x\": [1, 2, {\"y\": \"\\u005d\"}]}}",
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        size_t n = strlen(docs[i]);
        char *b = malloc(n);
        js_scanner s1 = {0}, s2 = {0};
        memcpy(b, docs[i], n);
        if (js_skip_container(&s1, b, b + n) != js_skip_value(&s2, b, b + n, true) ||
            js_skip_container(&s1, b, b + n) != b + n)
            bad++;
        /* cut short anywhere: more data is needed */
        for (size_t k = 1; k < n; k++) {
            js_scanner s3 = {0};
            if (js_skip_container(&s3, b, b + k) != NULL || s3.status != JS_MORE)
                bad++;
        }
        free(b);
    }
    ok(bad == 0, "js_skip_container ends where js_skip_value does on well-formed JSON");
    {
        js_scanner sc = {0};
        const char *t = "{\"a\":[1}";
        ok(js_skip_container(&sc, t, t + strlen(t)) == NULL && sc.status == JS_ERROR &&
               sc.err_at == t + 7,
           "js_skip_container names the close bracket of the wrong kind");
    }
}

/* js_number_scaled(), the decoder's one-pass time parse, agrees with the
 * strict grammar and the general decimal parser on every string it takes,
 * and takes the usual timestamps. */
static void test_number_scaled(void)
{
    static const struct {
        const char *s;
        int         scale;
        int64_t     want;
    } take[] = {
        {"3712845164726.318", 3, 3712845164726318LL}, {"1.555", 3, 1555}, {"0", 3, 0},
        {"-0", 3, 0}, {"0.5", 0, 1}, {"-0.5", 0, -1}, {"0.0004", 3, 0}, {"0.0005", 3, 1},
        {"1.5555", 3, 1556}, {"-1.5555", 3, -1556}, {"25", 3, 25000}, {"-7.25", 9, -7250000000LL},
        {"999999999999999999", 0, 999999999999999999LL},
    };
    static const char *const refuse[] = {
        "", "-", "01", "-01", "1.", ".5", "1e3", "1E3", "+1", "0x1", "1.2.3", "1 ", " 1",
        "1234567890123456789", "999999999999999999", /* at scale 3: past int64 */
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof take / sizeof take[0]; i++) {
        int64_t v = -42;
        if (!js_number_scaled(take[i].s, strlen(take[i].s), take[i].scale, &v) || v != take[i].want) {
            diag("js_number_scaled(\"%s\", %d): %lld", take[i].s, take[i].scale, (long long)v);
            bad++;
        }
    }
    for (size_t i = 0; i < sizeof refuse / sizeof refuse[0]; i++) {
        int64_t v;
        if (js_number_scaled(refuse[i], strlen(refuse[i]), 3, &v)) {
            diag("js_number_scaled(\"%s\", 3) took it", refuse[i]);
            bad++;
        }
    }
    ok(bad == 0, "js_number_scaled takes the usual shapes and leaves the rest");
    bad = 0;
    int took = 0;
    for (int k = 0; k < 200000; k++) {
        size_t n = (size_t)(rnd() % 24);
        char *b = random_buf(n, k % 2 ? "0123456789." : "0123456789.-eE+");
        int scale = (int)(rnd() % 10);
        int64_t fast, slow;
        bool fast_ok = js_number_scaled(b, n, scale, &fast);
        took += fast_ok;
        if (fast_ok &&
            (!js_is_number(b, n) || tt_parse_decimal_scaled(b, n, scale, &slow) != TT_NUM_OK ||
             slow != fast)) {
            diag("js_number_scaled(\"%.*s\", %d) = %lld", (int)n, b, scale, (long long)fast);
            bad++;
        }
        free(b);
    }
    ok(bad == 0 && took > 1000,
       "js_number_scaled agrees with js_is_number and tt_parse_decimal_scaled (%d taken)", took);
}

/* js_scan_fixed(), the scan and parse at once of the usual timestamp
 * shape, finds the span js_scan_number() finds and the value
 * js_number_scaled() gives, or leaves the number to them. */
static void test_scan_fixed(void)
{
    int bad = 0, took = 0;
    {
        const char *t = "3712845164726.318, \"dur\": 1.555}                ";
        js_str tok;
        int64_t v = 0;
        const char *q = js_scan_fixed(t, t + strlen(t), 3, &tok, &v);
        if (q != t + 17 || tok.s != t || tok.n != 17 || v != 3712845164726318LL)
            bad++;
    }
    for (int k = 0; k < 300000; k++) {
        size_t n = 32 + (size_t)(rnd() % 8);
        char *b = random_buf(n, k % 2 ? "0123456789" : "0123456789.-eE+, }");
        unsigned scale = 1 + (unsigned)(rnd() % 8);
        size_t li = 1 + (size_t)(rnd() % 18);
        js_scanner sc = {0};
        js_str fast = {0}, slow = {0};
        int64_t fv = -1, sv = -2;
        const char *q, *r;
        if (k % 4 && li + 1 < n)
            b[li] = '.';   /* the shape it looks for, more often */
        if (k % 8 == 0)
            b[0] = '0';
        q = js_scan_fixed(b, b + n, scale, &fast, &fv);
        if (q) {
            took++;
            r = js_scan_number(&sc, b, b + n, true, &slow);
            if (r != q || slow.s != fast.s || slow.n != fast.n || fast.esc ||
                !js_number_scaled(slow.s, slow.n, (int)scale, &sv) || sv != fv) {
                diag("js_scan_fixed(\"%.*s\", %u) = %lld", (int)n, b, scale, (long long)fv);
                bad++;
            }
        }
        free(b);
    }
    ok(bad == 0 && took > 1000, "js_scan_fixed agrees with js_scan_number and js_number_scaled (%d taken)",
       took);
}

/* js_skip_value() on an array of numbers, which it walks on a short path
 * of its own, ends where its general walk does, with the same status and
 * error: the general walk is what it takes for the same text after a
 * space. */
static void test_skip_number_array(void)
{
    int bad = 0, ended = 0;
    for (int k = 0; k < 200000; k++) {
        size_t n = 1 + (size_t)(rnd() % 20);
        char *b = random_buf(n, k % 3 ? "0123456789, ]" : "[]{}0123456789-.,e \n\"");
        char *c = malloc(n + 1);
        bool eof = k % 2;
        js_scanner s1 = {0}, s2 = {0};
        const char *r1, *r2;
        b[0] = '[';
        c[0] = ' ';
        memcpy(c + 1, b, n);
        r1 = js_skip_value(&s1, b, b + n, eof);
        r2 = js_skip_value(&s2, c, c + n + 1, eof);
        ended += r1 != NULL;
        if (r1 ? r2 != c + 1 + (r1 - b)
               : r2 != NULL || s1.status != s2.status ||
                     (s1.status == JS_ERROR &&
                      (s1.err_at - b != s2.err_at - (c + 1) || strcmp(s1.err_msg, s2.err_msg))))
            bad++;
        free(b);
        free(c);
    }
    ok(bad == 0 && ended > 1000, "js_skip_value on arrays of numbers ends as its general walk (%d ended)",
       ended);
}

int main(void)
{
    int best = js_simd_level();
    diag("this CPU: %s", level_name(best));
    for (int level = JS_SIMD_NONE; level <= best; level++) {
        js_simd_use(level);
        if (js_simd_level() != level) {
            ok(0, "js_simd_use(%s)", level_name(level));
            continue;
        }
        test_level(level);
    }
    js_simd_use(best);
    test_container_vs_skip_value();
    test_number_scaled();
    test_skip_number_array();
    test_scan_fixed();
    return tap_done();
}
