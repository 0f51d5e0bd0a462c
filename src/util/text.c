/* text.c - sanitizing and measuring text for terminals (see text.h). */
#include "config.h"

#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static bool text_utf8 = false;

void tt_text_set_utf8(bool utf8) { text_utf8 = utf8; }
bool tt_text_utf8(void) { return text_utf8; }

size_t tt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    uint32_t c;
    size_t len, i;
    if (n == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    if ((s[0] & 0xe0) == 0xc0) {
        len = 2;
        c = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        len = 3;
        c = s[0] & 0x0f;
    } else if ((s[0] & 0xf8) == 0xf0) {
        len = 4;
        c = s[0] & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    /* reject overlong forms, surrogates and values past U+10FFFF */
    if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
        (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
        return 0;
    *cp = c;
    return len;
}

/* Unicode characters that reorder or hide text (bidi controls, zero-width
 * joiners used to spoof) are escaped as well. */
static bool is_format_char(uint32_t c)
{
    return (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;
}

size_t tt_text_sanitize(const char *s, size_t n, char *out, size_t cap)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    size_t o = 0;
    if (cap == 0)
        return 0;
    while (p < end) {
        char esc[16];
        size_t elen = 0, clen;
        uint32_t cp;
        if (*p >= 0x20 && *p < 0x7f) {
            if (o + 1 >= cap)
                break;
            out[o++] = (char)*p++;
            continue;
        }
        if (*p < 0x80) {
            switch (*p) {
            case 0x1b: memcpy(esc, "\\e", 3); break;
            case '\n': memcpy(esc, "\\n", 3); break;
            case '\r': memcpy(esc, "\\r", 3); break;
            case '\t': memcpy(esc, "\\t", 3); break;
            default: snprintf(esc, sizeof esc, "\\x%02x", *p); break;
            }
            elen = strlen(esc);
            clen = 1;
        } else if (text_utf8 && (clen = tt_utf8_decode(p, (size_t)(end - p), &cp)) > 0) {
            if ((cp >= 0x80 && cp <= 0x9f) || is_format_char(cp)) {
                snprintf(esc, sizeof esc, "\\u%04x", cp);
                elen = strlen(esc);
            } else {
                if (o + clen >= cap)
                    break;
                memcpy(out + o, p, clen);
                o += clen;
                p += clen;
                continue;
            }
        } else {
            snprintf(esc, sizeof esc, "\\x%02x", *p);
            elen = strlen(esc);
            clen = 1;
        }
        if (o + elen >= cap)
            break;
        memcpy(out + o, esc, elen);
        o += elen;
        p += clen;
    }
    out[o] = '\0';
    return o;
}

const char *tt_text_safe(const char *s, char *out, size_t cap)
{
    tt_text_sanitize(s, strlen(s), out, cap);
    return out;
}

const char *tt_shell_quote(const char *s, char *out, size_t cap, bool *cut)
{
    size_t o = 0;
    if (cap < 3) {
        if (cap)
            out[0] = '\0';
        if (cut)
            *cut = true;
        return out;
    }
    out[o++] = '\'';
    /* room left for the longest piece (4 bytes), the closing ' and NUL */
    for (; *s && o + 6 < cap; s++) {
        if (*s == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *s;
        }
    }
    if (*s && cut)
        *cut = true;
    out[o++] = '\'';
    out[o] = '\0';
    return out;
}

char *tt_json_repair(const char *json)
{
    const unsigned char *p = (const unsigned char *)json;
    size_t n = strlen(json), o = 0, i = 0;
    char *out = malloc(n * 6 + 1);   /* a 2-byte C1 becomes a 6-byte escape */
    if (!out)
        return NULL;
    while (i < n) {
        uint32_t cp;
        size_t k;
        if (p[i] < 0x80 && p[i] != 0x7f) {
            out[o++] = (char)p[i++];
            continue;
        }
        k = p[i] == 0x7f ? 1 : tt_utf8_decode(p + i, n - i, &cp);
        if (k == 0) {
            memcpy(out + o, "\xef\xbf\xbd", 3);   /* U+FFFD */
            o += 3;
            i++;
            continue;
        }
        if (p[i] == 0x7f)
            cp = 0x7f;
        if (cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || is_format_char(cp)) {
            o += (size_t)snprintf(out + o, 7, "\\u%04x", cp);
        } else {
            memcpy(out + o, p + i, k);
            o += k;
        }
        i += k;
    }
    out[o] = '\0';
    return out;
}

static int char_width(uint32_t cp)
{
    int w;
    if (cp < 0x80)
        return 1;
    w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

int tt_text_width(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    int w = 0;
    while (n > 0) {
        uint32_t cp;
        size_t k = tt_utf8_decode(p, n, &cp);
        if (k == 0) {
            k = 1;
            cp = '?';
        }
        w += char_width(cp);
        p += k;
        n -= k;
    }
    return w;
}

size_t tt_text_fit(const char *s, int cols, int *used)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), off = 0;
    int w = 0;
    while (off < n) {
        uint32_t cp;
        size_t k = tt_utf8_decode(p + off, n - off, &cp);
        int cw;
        if (k == 0) {
            k = 1;
            cp = '?';
        }
        cw = char_width(cp);
        if (w + cw > cols)
            break;
        w += cw;
        off += k;
    }
    if (used)
        *used = w;
    return off;
}

size_t tt_text_wrap_len(const char *s, int cols)
{
    size_t fit = tt_text_fit(s, cols, NULL), cut = fit;
    if (s[fit]) {
        /* break after the last space that leaves a decent line */
        for (size_t k = fit; k > fit / 2; k--)
            if (s[k - 1] == ' ') {
                cut = k;
                break;
            }
    }
    if (cut == 0 && *s) {
        /* a character wider than the line: take it alone */
        uint32_t cp;
        size_t len = strlen(s);
        cut = tt_utf8_decode((const unsigned char *)s, len, &cp);
        if (cut == 0)
            cut = 1;
    }
    return cut;
}
