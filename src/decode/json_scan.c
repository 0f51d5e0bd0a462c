/* json_scan.c - JSON token scanning (see json_scan.h). */
#include "config.h"

#include "decode/json_scan.h"

#include <stdint.h>
#include <string.h>

#define JS_MAX_DEPTH 1000

static const char *js_fail(js_scanner *sc, const char *at, const char *msg)
{
    sc->status = JS_ERROR;
    sc->err_at = at;
    sc->err_msg = msg;
    return NULL;
}

static const char *js_more(js_scanner *sc)
{
    sc->status = JS_MORE;
    return NULL;
}

/* ------------------------------------------------------------ kernels
 *
 * The Chrome decoder spends most of its time finding the end of strings,
 * whitespace runs (Kineto pretty-prints with indentation) and numbers.
 * Each kernel looks at 16 bytes at a time with SSE2 (part of the x86-64
 * baseline, so no check is needed), long strings at 32 with AVX2 when the
 * CPU has it (checked once at startup), and falls back to plain C on other
 * architectures and for the last bytes of the buffer: no kernel ever reads
 * at or past `end` (the window has no padding, and ASan would say so).
 */

#if defined(__SSE2__)
#include <emmintrin.h>
#define JS_HAVE_SSE2 1
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define JS_HAVE_AVX2 1
#endif
#endif

/* What the kernels may use: JS_SIMD_* (see json_scan.h). Set once before
 * main() runs, so threads only ever read it. */
int js_simd_level_now = JS_SIMD_NONE;
#define simd_level js_simd_level_now

#if JS_HAVE_AVX2
__attribute__((constructor)) static void js_simd_detect(void)
{
    __builtin_cpu_init();
    simd_level = __builtin_cpu_supports("avx2") ? JS_SIMD_AVX2 : JS_SIMD_SSE2;
}
#elif JS_HAVE_SSE2
__attribute__((constructor)) static void js_simd_detect(void)
{
    simd_level = JS_SIMD_SSE2;
}
#endif

int js_simd_use(int level)
{
    int old = simd_level;
    int best = JS_SIMD_NONE;
#if JS_HAVE_AVX2
    __builtin_cpu_init();
    best = __builtin_cpu_supports("avx2") ? JS_SIMD_AVX2 : JS_SIMD_SSE2;
#elif JS_HAVE_SSE2
    best = JS_SIMD_SSE2;
#endif
    simd_level = level < best ? (level < JS_SIMD_NONE ? JS_SIMD_NONE : level) : best;
    return old;
}

int js_simd_level(void)
{
    return simd_level;
}

/* Eight bytes at a time in plain C: a byte of w equal to c makes the
 * corresponding byte of has_byte() non-zero. */
static inline uint64_t has_byte(uint64_t w, unsigned char c)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t x = w ^ (ones * c);
    return (x - ones) & ~x & highs;
}

static const char *find_quote_or_backslash_c(const char *p, const char *end)
{
    while (end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        if (has_byte(w, '"') | has_byte(w, '\\'))
            break;
        p += 8;
    }
    while (p < end && *p != '"' && *p != '\\')
        p++;
    return p;
}

#if JS_HAVE_AVX2
__attribute__((target("avx2"))) static const char *find_quote_or_backslash_avx2(const char *p,
                                                                              const char *end)
{
    const __m256i quote = _mm256_set1_epi8('"'), slash = _mm256_set1_epi8('\\');
    while (end - p >= 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
        uint32_t m = (uint32_t)_mm256_movemask_epi8(
            _mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, slash)));
        if (m)
            return p + __builtin_ctz(m);
        p += 32;
    }
    return p;
}
#endif

/* Position of the first '"' or '\\' in [p, end), or end. Most keys and
 * values are short, so the first 16 bytes are looked at before anything
 * else; names and args strings run longer. */
static inline const char *find_quote_or_backslash(const char *p, const char *end)
{
#if JS_HAVE_SSE2
    if (simd_level >= JS_SIMD_SSE2) {
        const __m128i quote = _mm_set1_epi8('"'), slash = _mm_set1_epi8('\\');
        while (end - p >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
            unsigned m = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, slash)));
            if (m)
                return p + __builtin_ctz(m);
            p += 16;
#if JS_HAVE_AVX2
            if (simd_level >= JS_SIMD_AVX2 && end - p >= 32) {
                /* stops at the first match, or where fewer than 32 bytes
                 * are left: a quote there is the first one as well */
                p = find_quote_or_backslash_avx2(p, end);
                if (p < end && (*p == '"' || *p == '\\'))
                    return p;
            }
#endif
        }
    }
#endif
    return find_quote_or_backslash_c(p, end);
}

static inline bool is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

const char *js_skip_ws_run(const char *p, const char *end)
{
#if JS_HAVE_SSE2
    if (simd_level >= JS_SIMD_SSE2) {
        const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'),
                      cr = _mm_set1_epi8('\r'), tab = _mm_set1_epi8('\t');
        while (end - p >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
            __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sp), _mm_cmpeq_epi8(x, nl)),
                                      _mm_or_si128(_mm_cmpeq_epi8(x, cr), _mm_cmpeq_epi8(x, tab)));
            unsigned m = ~(unsigned)_mm_movemask_epi8(ws) & 0xffffu;
            if (m)
                return p + __builtin_ctz(m);
            p += 16;
        }
    }
#endif
    while (p < end && is_ws(*p))
        p++;
    return p;
}

size_t js_count_byte(const char *p, size_t n, char c)
{
    size_t count = 0, i = 0;
#if JS_HAVE_SSE2
    if (simd_level >= JS_SIMD_SSE2) {
        const __m128i want = _mm_set1_epi8(c), zero = _mm_setzero_si128();
        while (n - i >= 16) {
            /* per-byte counters: a match subtracts -1; folded into the
             * total before any of them can wrap (255 blocks) */
            __m128i acc = zero;
            size_t blocks = (n - i) / 16;
            if (blocks > 255)
                blocks = 255;
            for (size_t b = 0; b < blocks; b++, i += 16) {
                __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
                acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(x, want));
            }
            acc = _mm_sad_epu8(acc, zero);
            count += (size_t)_mm_cvtsi128_si32(acc) +
                     (size_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(acc, acc));
        }
    }
#endif
    for (; i < n; i++)
        count += p[i] == c;
    return count;
}

const char *js_scan_string_any(js_scanner *sc, const char *p, const char *end, js_str *out)
{
    const char *q = p + 1;
    bool esc = false;
    for (;;) {
        q = find_quote_or_backslash(q, end);
        if (q == end) {
            sc->status = JS_MORE;
            sc->more_string = p;
            return NULL;
        }
        if (*q == '"') {
            out->s = p + 1;
            out->n = (size_t)(q - p - 1);
            out->esc = esc;
            return q + 1;
        }
        esc = true;
        /* skip the escaped character, which may itself be a quote */
        if (q + 1 >= end) {
            sc->status = JS_MORE;
            sc->more_string = p;
            return NULL;
        }
        q += 2;
    }
}

/* Characters that can appear in a JSON number. */
static const unsigned char num_char[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
    ['7'] = 1, ['8'] = 1, ['9'] = 1, ['-'] = 1, ['+'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1,
};

static inline bool is_num_char(char c)
{
    return num_char[(unsigned char)c];
}

/* First byte in [p, end) that cannot be part of a number, or end.
 * Timestamps run 15-20 characters: 16 at a time. */
static inline const char *skip_num_chars(const char *p, const char *end)
{
#if JS_HAVE_SSE2
    if (simd_level >= JS_SIMD_SSE2) {
        const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
        const __m128i dot = _mm_set1_epi8('.'), minus = _mm_set1_epi8('-'),
                      plus = _mm_set1_epi8('+'), e = _mm_set1_epi8('e'), E = _mm_set1_epi8('E');
        while (end - p >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
            __m128i d = _mm_sub_epi8(x, zero);                      /* digits: 0..9 */
            __m128i num = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);  /* d <= 9 unsigned */
            num = _mm_or_si128(num, _mm_or_si128(_mm_cmpeq_epi8(x, dot), _mm_cmpeq_epi8(x, minus)));
            num = _mm_or_si128(num, _mm_or_si128(_mm_cmpeq_epi8(x, plus),
                                                 _mm_or_si128(_mm_cmpeq_epi8(x, e),
                                                              _mm_cmpeq_epi8(x, E))));
            unsigned m = ~(unsigned)_mm_movemask_epi8(num) & 0xffffu;
            if (m)
                return p + __builtin_ctz(m);
            p += 16;
        }
    }
#endif
    while (p < end && is_num_char(*p))
        p++;
    return p;
}

const char *js_scan_number_any(js_scanner *sc, const char *p, const char *end, bool at_eof,
                               js_str *out)
{
    const char *q = skip_num_chars(p, end);
    if (q == end && !at_eof)
        return js_more(sc);
    if (q == p)
        return js_fail(sc, p, "expected a number");
    /* light validation here; a decoder that converts the number checks
     * the strict grammar with js_is_number() (the Chrome decoder does for
     * ts and dur) */
    out->s = p;
    out->n = (size_t)(q - p);
    out->esc = false;
    return q;
}

static size_t skip_digits(const char *s, size_t i, size_t n)
{
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

bool js_is_number(const char *s, size_t n)
{
    size_t i = 0, d;
    if (i < n && s[i] == '-')
        i++;
    if (i < n && s[i] == '0')
        i++;
    else if (i < n && s[i] >= '1' && s[i] <= '9')
        i = skip_digits(s, i, n);
    else
        return false;
    if (i < n && s[i] == '.') {
        d = ++i;
        if ((i = skip_digits(s, i, n)) == d)
            return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        d = i;
        if ((i = skip_digits(s, i, n)) == d)
            return false;
    }
    return i == n;
}

/* Digits s[i..) onto *mant (which may wrap past 19 digits: the caller
 * refuses those); the position after them. Eight at a time where eight
 * are there, as one word (the SWAR conversion of Lemire's fast_float):
 * a timestamp's 13 integer digits cost two steps instead of 13. */
static inline __attribute__((always_inline)) size_t add_digits(const char *s, size_t i, size_t n,
                                                             uint64_t *mant)
{
    uint64_t m = *mant;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (n - i >= 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (js_nondigits(w))
            break;   /* not every byte within '0'..'9' */
        m = m * 100000000ULL + js_word_digits(w, 8);
        i += 8;
    }
#endif
    for (; i < n && (unsigned)(s[i] - '0') <= 9; i++)
        m = m * 10 + (unsigned)(s[i] - '0');
    *mant = m;
    return i;
}

bool js_number_scaled(const char *s, size_t n, int scale, int64_t *out)
{
    static const uint64_t pow10[19] = {
        1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
        100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
        10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
        100000000000000000ULL, 1000000000000000000ULL};
    size_t i = 0, digits = 0, frac = 0;
    uint64_t mant = 0, r;
    bool neg = false;
    if (scale < 0 || scale > 9)
        return false;
    if (i < n && s[i] == '-') {
        neg = true;
        i++;
    }
    if (i >= n || (unsigned)(s[i] - '0') > 9 || (s[i] == '0' && i + 1 < n && s[i + 1] != '.'))
        return false;   /* no digit, or a leading zero JSON forbids ("01") */
    {
        size_t d = i;
        i = add_digits(s, i, n, &mant);
        digits = i - d;
    }
    if (i < n && s[i] == '.') {
        size_t d = ++i;
        i = add_digits(s, i, n, &mant);
        frac = i - d;
        digits += frac;
        if (frac == 0)
            return false;
    }
    /* anything left (an exponent, junk) or too many digits for mant
     * (18 never wrap it): the general path decides */
    if (i != n || digits > 18)
        return false;
    if (frac <= (size_t)scale) {
        if (__builtin_mul_overflow(mant, pow10[(size_t)scale - frac], &r))
            return false;
    } else {
        uint64_t div = pow10[frac - (size_t)scale], rem = mant % div;
        r = mant / div + (rem >= div - rem);
    }
    if (r > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? -(int64_t)r : (int64_t)r;
    return true;
}

static const char *js_literal(js_scanner *sc, const char *p, const char *end, bool at_eof,
                              const char *lit, size_t n)
{
    size_t have = (size_t)(end - p);
    if (have < n) {
        if (memcmp(p, lit, have) == 0 && !at_eof)
            return js_more(sc);
        return js_fail(sc, p, "expected a JSON value");
    }
    if (memcmp(p, lit, n) != 0)
        return js_fail(sc, p, "expected a JSON value");
    return p + n;
}

/* Iterative skip: a stack of open containers ('{' or '[') and the state of
 * what must come next. */
enum { EXP_VALUE, EXP_VALUE_OR_CLOSE, EXP_KEY, EXP_KEY_OR_CLOSE, EXP_COLON,
       EXP_COMMA_OR_CLOSE };

/* An array of numbers ("grid": [1, 1, 1] in a Kineto kernel's args), the
 * only container most traces hold: walked here without the general
 * walk's stack and states. NULL, with sc as it was, for anything else or
 * anything short of the closing ']': js_skip_value() then walks it from
 * the start, reaching the same end or the same error. */
static const char *skip_number_array(js_scanner *sc, const char *p, const char *end, bool at_eof)
{
    js_scanner keep = *sc;
    js_str tok;
    p = js_skip_ws(p + 1, end);
    if (p < end && *p == ']')
        return p + 1;
    for (;;) {
        if (p == end || !((*p >= '0' && *p <= '9') || *p == '-'))
            break;
        if (!(p = js_scan_number(sc, p, end, at_eof, &tok)))
            break;
        p = js_skip_ws(p, end);
        if (p == end)
            break;
        if (*p == ']')
            return p + 1;
        if (*p != ',')
            break;
        p = js_skip_ws(p + 1, end);
    }
    *sc = keep;
    return NULL;
}

const char *js_skip_value(js_scanner *sc, const char *p, const char *end, bool at_eof)
{
    char stack[JS_MAX_DEPTH];
    int depth = 0, state = EXP_VALUE;
    js_str tok;
    if (p < end && *p == '[') {
        const char *q = skip_number_array(sc, p, end, at_eof);
        if (q)
            return q;
    }
    for (;;) {
        p = js_skip_ws(p, end);
        if (p == end)
            return at_eof ? js_fail(sc, p, "unexpected end of data inside a value")
                          : js_more(sc);
        switch (state) {
        case EXP_VALUE_OR_CLOSE:
            if (*p == ']') {
                p++;
                depth--;
                goto after_value;
            }
            /* fall through */
        case EXP_VALUE:
            switch (*p) {
            case '{':
            case '[':
                if (depth == JS_MAX_DEPTH)
                    return js_fail(sc, p, "nesting too deep");
                stack[depth++] = *p;
                state = *p == '{' ? EXP_KEY_OR_CLOSE : EXP_VALUE_OR_CLOSE;
                p++;
                continue;
            case '"':
                p = js_scan_string(sc, p, end, &tok);
                break;
            case 't':
                p = js_literal(sc, p, end, at_eof, "true", 4);
                break;
            case 'f':
                p = js_literal(sc, p, end, at_eof, "false", 5);
                break;
            case 'n':
                p = js_literal(sc, p, end, at_eof, "null", 4);
                break;
            default:
                if (!((*p >= '0' && *p <= '9') || *p == '-'))
                    return js_fail(sc, p, "expected a JSON value");
                p = js_scan_number(sc, p, end, at_eof, &tok);
                break;
            }
            if (!p)
                goto scan_failed;
            goto after_value;
        case EXP_KEY_OR_CLOSE:
            if (*p == '}') {
                p++;
                depth--;
                goto after_value;
            }
            /* fall through */
        case EXP_KEY:
            if (*p != '"')
                return js_fail(sc, p, "expected a string key");
            if (!(p = js_scan_string(sc, p, end, &tok)))
                goto scan_failed;
            state = EXP_COLON;
            continue;
        case EXP_COLON:
            if (*p != ':')
                return js_fail(sc, p, "expected ':' after a key");
            p++;
            state = EXP_VALUE;
            continue;
        case EXP_COMMA_OR_CLOSE:
            if (*p == ',') {
                p++;
                state = stack[depth - 1] == '{' ? EXP_KEY : EXP_VALUE;
                continue;
            }
            if (*p == (stack[depth - 1] == '{' ? '}' : ']')) {
                p++;
                depth--;
                goto after_value;
            }
            return js_fail(sc, p, stack[depth - 1] == '{' ? "expected ',' or '}'"
                                                         : "expected ',' or ']'");
        }
    after_value:
        if (depth == 0)
            return p;
        state = EXP_COMMA_OR_CLOSE;
    }
scan_failed:
    if (sc->status == JS_MORE && at_eof)
        return js_fail(sc, end, "unexpected end of data inside a string");
    return NULL;
}

/* First '"', '{', '}', '[' or ']' in [p, end), or end. '[' and ']' are
 * '{' and '}' less 0x20, so or-ing 0x20 in needs only three compares. */
static inline const char *find_structural(const char *p, const char *end)
{
#if JS_HAVE_SSE2
    if (simd_level >= JS_SIMD_SSE2) {
        const __m128i quote = _mm_set1_epi8('"'), open = _mm_set1_epi8('{'),
                      close = _mm_set1_epi8('}'), case_bit = _mm_set1_epi8(0x20);
        while (end - p >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
            __m128i f = _mm_or_si128(x, case_bit);
            __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(x, quote),
                                       _mm_or_si128(_mm_cmpeq_epi8(f, open),
                                                    _mm_cmpeq_epi8(f, close)));
            unsigned m = (unsigned)_mm_movemask_epi8(hit);
            if (m)
                return p + __builtin_ctz(m);
            p += 16;
        }
    }
#endif
    while (p < end && *p != '"' && *p != '{' && *p != '}' && *p != '[' && *p != ']')
        p++;
    return p;
}

const char *js_skip_container(js_scanner *sc, const char *p, const char *end)
{
    char stack[JS_MAX_DEPTH];
    int depth = 0;
    js_str tok;
    if (p >= end || (*p != '{' && *p != '['))
        return js_fail(sc, p, "expected '{' or '['");
    for (;;) {
        p = find_structural(p, end);
        if (p == end)
            return js_more(sc);
        switch (*p) {
        case '"':
            if (!(p = js_scan_string(sc, p, end, &tok)))
                return NULL;
            continue;
        case '{':
        case '[':
            if (depth == JS_MAX_DEPTH)
                return js_fail(sc, p, "nesting too deep");
            stack[depth++] = *p++;
            continue;
        default:
            if (stack[depth - 1] != (*p == '}' ? '{' : '['))
                return js_fail(sc, p, *p == '}' ? "'}' closes an array" : "']' closes an object");
            p++;
            if (--depth == 0)
                return p;
        }
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int read_hex4(const char *p, const char *end, uint32_t *out)
{
    uint32_t v = 0;
    if (end - p < 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p[i]);
        if (h < 0)
            return -1;
        v = v << 4 | (uint32_t)h;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

long js_unescape(js_scanner *sc, const js_str *in, char *buf, size_t cap)
{
    const char *p = in->s, *end = in->s + in->n;
    size_t o = 0;
    while (p < end) {
        if (*p != '\\') {
            if (o >= cap)
                break;
            buf[o++] = *p++;
            continue;
        }
        if (p + 1 >= end) {
            js_fail(sc, p, "invalid escape in string");
            return -1;
        }
        if (o + 4 > cap)
            break;
        switch (p[1]) {
        case '"': buf[o++] = '"'; p += 2; break;
        case '\\': buf[o++] = '\\'; p += 2; break;
        case '/': buf[o++] = '/'; p += 2; break;
        case 'b': buf[o++] = '\b'; p += 2; break;
        case 'f': buf[o++] = '\f'; p += 2; break;
        case 'n': buf[o++] = '\n'; p += 2; break;
        case 'r': buf[o++] = '\r'; p += 2; break;
        case 't': buf[o++] = '\t'; p += 2; break;
        case 'u': {
            uint32_t cp, lo;
            if (read_hex4(p + 2, end, &cp)) {
                js_fail(sc, p, "invalid \\u escape in string");
                return -1;
            }
            if (cp == 0) {
                /* kept as written: six bytes in, six out */
                if (o + 6 > cap)
                    return (long)o;
                memcpy(buf + o, p, 6);
                o += 6;
                p += 6;
                break;
            }
            p += 6;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (end - p >= 6 && p[0] == '\\' && p[1] == 'u' && read_hex4(p + 2, end, &lo) == 0 &&
                    lo >= 0xdc00 && lo <= 0xdfff) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    p += 6;
                } else {
                    cp = 0xfffd;
                }
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                cp = 0xfffd;
            }
            o += put_utf8(buf + o, cp);
            break;
        }
        default:
            js_fail(sc, p, "invalid escape in string");
            return -1;
        }
    }
    return (long)o;
}
