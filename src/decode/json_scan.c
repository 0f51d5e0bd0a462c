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

/* Position of the first '"' or '\\' in [p, end), or end. Eight bytes at a
 * time: JSON keys and values are short, and calling memchr twice per
 * string costs more than the scan itself. */
static inline const char *find_quote_or_backslash(const char *p, const char *end)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    const uint64_t quotes = ones * (unsigned char)'"', slashes = ones * (unsigned char)'\\';
    while (end - p >= 8) {
        uint64_t w, a, b;
        memcpy(&w, p, 8);
        a = w ^ quotes;
        b = w ^ slashes;
        /* a byte of a or b is zero where w matched */
        if (((a - ones) & ~a & highs) | ((b - ones) & ~b & highs))
            break;
        p += 8;
    }
    while (p < end && *p != '"' && *p != '\\')
        p++;
    return p;
}

const char *js_scan_string(js_scanner *sc, const char *p, const char *end, js_str *out)
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

const char *js_scan_number(js_scanner *sc, const char *p, const char *end, bool at_eof,
                           js_str *out)
{
    const char *q = p;
    while (q < end && is_num_char(*q))
        q++;
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

const char *js_skip_value(js_scanner *sc, const char *p, const char *end, bool at_eof)
{
    char stack[JS_MAX_DEPTH];
    int depth = 0, state = EXP_VALUE;
    js_str tok;
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
