/* json_scan.h - minimal, fast JSON token scanning over a byte range.
 *
 * The Chrome decoder streams events out of multi-GB files without building
 * a document: it walks each event object with these primitives and keeps
 * only spans (pointers into its buffer). Every function works on [p, end)
 * and returns a pointer past what it consumed, or:
 *   - NULL with sc->status = JS_MORE when the value runs past `end` (the
 *     caller refills its buffer and retries from a known boundary);
 *   - NULL with sc->status = JS_ERROR, sc->err_at and sc->err_msg set.
 * Nothing allocates; nothing prints.
 */
#ifndef TT_DECODE_JSON_SCAN_H
#define TT_DECODE_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef enum js_status {
    JS_OK = 0,
    JS_MORE,
    JS_ERROR
} js_status;

typedef struct js_scanner {
    js_status   status;
    const char *err_at;
    const char *err_msg;
    const char *more_string;  /* with JS_MORE: the opening quote of the string
                               * that ran past `end`, or NULL (the caller
                               * clears it before a scan) */
} js_scanner;

/* A string token: bytes between the quotes, still escaped when esc. */
typedef struct js_str {
    const char *s;
    size_t      n;
    bool        esc;
} js_str;

/* Vector instructions the scanning kernels use: the best the CPU has
 * (detected once at startup), SSE2 being the x86-64 baseline; NONE on
 * other architectures (plain C). */
enum { JS_SIMD_NONE = 0, JS_SIMD_SSE2 = 1, JS_SIMD_AVX2 = 2 };
int js_simd_level(void);
/* What js_simd_level() returns, for the inline fast paths below (set
 * before main() runs, or by js_simd_use()). */
extern int js_simd_level_now;

/* For tests: use at most `level` from now on (never more than the CPU
 * has); returns the previous level. Not for use while other threads scan. */
int js_simd_use(int level);

/* The whitespace run at p, 16 bytes at a time (js_skip_ws's slow path). */
const char *js_skip_ws_run(const char *p, const char *end);

/* Skip JSON whitespace (space, tab, CR, LF). Between tokens there is
 * usually none or one space (after ':' and ','), and every whitespace byte
 * is <= ' ': those cases are decided inline, and so is a run ending within
 * 16 bytes (a Kineto line break and its indentation: the call was 3% of
 * a Kineto summary's instructions). */
static inline const char *js_skip_ws(const char *p, const char *end)
{
    if (p < end && (unsigned char)*p > ' ')
        return p;
    if (end - p >= 2 && *p == ' ' && (unsigned char)p[1] > ' ')
        return p + 1;
#if defined(__SSE2__)
    if (end - p >= 16 && js_simd_level_now >= JS_SIMD_SSE2) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i ws = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))),
            _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))));
        unsigned m = ~(unsigned)_mm_movemask_epi8(ws) & 0xffffu;
        if (m)
            return p + __builtin_ctz(m);
    }
#endif
    return js_skip_ws_run(p, end);
}

/* How many bytes of [p, p+n) equal c (the window counts lines with it). */
size_t js_count_byte(const char *p, size_t n, char c);

/* js_scan_string() and js_scan_number() past their inline fast paths. */
const char *js_scan_string_any(js_scanner *sc, const char *p, const char *end, js_str *out);
const char *js_scan_number_any(js_scanner *sc, const char *p, const char *end, bool at_eof,
                               js_str *out);

/* p at the opening quote. Most strings (keys, categories, ids) end within
 * 16 bytes without an escape: one compare decides them inline (a call
 * saving and restoring registers was a third of the scan's instructions,
 * callgrind, 100k-event Kineto summary). */
static inline const char *js_scan_string(js_scanner *sc, const char *p, const char *end,
                                         js_str *out)
{
#if defined(__SSE2__)
    if (end - p > 16 && js_simd_level_now >= JS_SIMD_SSE2) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
            _mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
        if (m) {
            unsigned k = (unsigned)__builtin_ctz(m);
            if (p[1 + k] == '"') {
                out->s = p + 1;
                out->n = k;
                out->esc = false;
                return p + 2 + k;
            }
        }
    }
#endif
    return js_scan_string_any(sc, p, end, out);
}

#if defined(__SSE2__)
/* Bit i set: p[i] cannot be part of a number (digits . - + e E). */
static inline unsigned js_num_end_mask(const char *p)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0'));
    __m128i num = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
    __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));   /* 'E' -> 'e' */
    num = _mm_or_si128(num, _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('.')),
                                         _mm_cmpeq_epi8(x, _mm_set1_epi8('-'))));
    num = _mm_or_si128(num, _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('+')),
                                         _mm_cmpeq_epi8(lower, _mm_set1_epi8('e'))));
    return ~(unsigned)_mm_movemask_epi8(num) & 0xffffu;
}
#endif

/* p at the first character of a number; out spans it. A number touching
 * `end` is JS_MORE (it might continue) unless at_eof. Inline for one
 * ending within 32 bytes (timestamps run 17), as js_scan_string. */
static inline const char *js_scan_number(js_scanner *sc, const char *p, const char *end,
                                         bool at_eof, js_str *out)
{
#if defined(__SSE2__)
    if (end - p > 32 && js_simd_level_now >= JS_SIMD_SSE2) {
        unsigned m = js_num_end_mask(p), k;
        if (m & 1u)
            goto any;   /* not a number: js_scan_number_any says so */
        k = m ? (unsigned)__builtin_ctz(m) : 16u + (unsigned)__builtin_ctz(js_num_end_mask(p + 16) | 0x10000u);
        if (k < 32) {
            out->s = p;
            out->n = k;
            out->esc = false;
            return p + k;
        }
    }
any:
#endif
    return js_scan_number_any(sc, p, end, at_eof, out);
}

/* Whether [s, s+n) is exactly one number in the strict JSON grammar
 * (js_scan_number only finds a number's span). */
bool js_is_number(const char *s, size_t n);

/* The common shape of a JSON number, -?(0|[1-9][0-9]*)(.[0-9]+)? with at
 * most 18 digits, times 10^scale (0 <= scale <= 9), rounded half away from
 * zero as tt_parse_decimal_scaled() rounds, in one pass: true with *out
 * set; false for anything else (an exponent, more digits, a result past
 * int64, bad syntax), where the caller takes js_is_number() and
 * tt_parse_decimal_scaled(), which give the same value for every string
 * this accepts (tests/unit/test_json_scan.c checks it). */
bool js_number_scaled(const char *s, size_t n, int scale, int64_t *out);

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Bit 7 of each byte of w (8 bytes of text) that is not a digit, exact
 * up to the first such byte. */
static inline uint64_t js_nondigits(uint64_t w)
{
    /* carries and borrows run only towards later bytes */
    return ((w + 0x4646464646464646ULL) | (w - 0x3030303030303030ULL)) & 0x8080808080808080ULL;
}

/* The value of the first k (1..8) bytes of w, all digits (the bytes past
 * them are ignored): they are shifted to the word's top, the bytes below
 * becoming leading zeros, and converted as eight at once (the SWAR
 * conversion of Lemire's fast_float). */
static inline uint64_t js_word_digits(uint64_t w, unsigned k)
{
    w = (w - 0x3030303030303030ULL) << (8 * (8 - k));
    w = w * 10 + (w >> 8);
    w = ((w & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
         ((w >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32))) >> 32;
    return w & 0xffffffffULL;
}

#endif

/* js_scan_number() and js_number_scaled() at once, for a number at p in
 * the shape profilers write (1 to 15 integer digits, no leading zero, a
 * point and exactly `scale` (1..8) decimals) with 32 bytes readable: the
 * position past it, its span in *out and its value times 10^scale in
 * *val. NULL, with nothing else touched, for any other shape or place,
 * where the caller takes the two (which find the same span and value for
 * every number this takes). The digit runs are found and converted 8
 * bytes at a time, with no step per byte: a Kineto event's "ts" and
 * "dur". Always inline: a call saving and restoring registers was a
 * fifth of its cost. */
static inline __attribute__((always_inline)) const char *
js_scan_fixed(const char *p, const char *end, unsigned scale, js_str *out, int64_t *val)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    static const uint64_t pow10[9] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
                                      1000000ULL, 10000000ULL, 100000000ULL};
    uint64_t w, w2, wf, nd, v;
    unsigned li, lf;
    unsigned char t;
    if (end - p < 32 || scale - 1 >= 8)
        return NULL;
    memcpy(&w, p, 8);
    nd = js_nondigits(w);
    if (nd) {
        li = (unsigned)__builtin_ctzll(nd) >> 3;
        if (li == 0)
            return NULL;
        v = js_word_digits(w, li);
    } else {
        memcpy(&w2, p + 8, 8);
        nd = js_nondigits(w2);
        if (!nd)
            return NULL;   /* 16 integer digits or more */
        li = 8 + ((unsigned)__builtin_ctzll(nd) >> 3);
        v = js_word_digits(w, 8);
        if (li > 8)
            v = v * pow10[li - 8] + js_word_digits(w2, li - 8);
    }
    if (p[li] != '.' || (p[0] == '0' && li > 1))
        return NULL;
    memcpy(&wf, p + li + 1, 8);
    nd = js_nondigits(wf);
    lf = nd ? (unsigned)__builtin_ctzll(nd) >> 3 : 8u;
    /* exactly scale decimals, and the number ends there: what follows
     * cannot continue it (an exponent, a second point, a sign) */
    t = (unsigned char)p[li + 1 + lf];
    if (lf != scale || li + lf > 18 || (unsigned)(t - '0') <= 9 || t == '.' || t == '-' ||
        t == '+' || (t | 0x20) == 'e')
        return NULL;
    *val = (int64_t)(v * pow10[scale] + js_word_digits(wf, lf));
    out->s = p;
    out->n = li + 1 + lf;
    out->esc = false;
    return p + li + 1 + lf;
#else
    (void)p, (void)end, (void)scale, (void)out, (void)val;
    return NULL;
#endif
}

/* Skip one complete value of any type, validating its structure. */
const char *js_skip_value(js_scanner *sc, const char *p, const char *end, bool at_eof);

/* Skip the object or array that starts at p ('{' or '['), fast: only
 * brackets and string boundaries (with their escapes) are looked at, 16
 * or 32 bytes at a time, and nothing else is validated (js_skip_value
 * does that). Returns the position just past the matching close bracket;
 * NULL with JS_MORE when the container runs past `end`; NULL with JS_ERROR
 * for a close bracket of the wrong kind, nesting deeper than 1000, or p
 * not at '{' or '['. For splitting an events array at object boundaries:
 * from one event's '{' it finds where the next event may start. */
const char *js_skip_container(js_scanner *sc, const char *p, const char *end);

/* Unescape a string token into buf (cap bytes; the result is never longer
 * than the escaped text). \uXXXX becomes UTF-8, surrogate pairs combined,
 * lone surrogates become U+FFFD. \u0000 stays the six characters "\u0000":
 * names are C strings everywhere downstream, and a NUL would silently cut
 * them. Returns the length, or -1 with err_at set
 * for an invalid escape. */
long js_unescape(js_scanner *sc, const js_str *in, char *buf, size_t cap);

/* Compare a string token with a literal (exact bytes, no escapes). */
static inline bool js_str_eq(const js_str *s, const char *lit, size_t n)
{
    /* memcmp of a constant length: a load and a compare */
    return s->n == n && !s->esc && memcmp(s->s, lit, n) == 0;
}
#define JS_EQ(tok, lit) js_str_eq((tok), lit, sizeof(lit) - 1)

#endif
