/* normname.c - name normalization for `diff --normalize` (rules in
 * normname.h). One pass over the name; output goes through a small
 * writer that counts every byte and stores those that fit, so the
 * caller gets snprintf's contract without a second pass.
 */
#include "config.h"

#include "analysis/normname.h"

#include <stdbool.h>
#include <string.h>

typedef struct nout {
    char  *buf;
    size_t cap, n;     /* n: bytes produced so far (may exceed cap) */
} nout;

static void put(nout *o, const char *s, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        if (o->n + 1 < o->cap)
            o->buf[o->n] = s[i];
        o->n++;
    }
}

static bool is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool has_letter(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (is_word(s[i]) && !is_digit(s[i]) && s[i] != '_')
            return true;
    return false;
}

/* End (one past) of the template argument group opening at s[i] == '<',
 * or 0 when it has no matching '>'. */
static size_t angle_end(const char *s, size_t i)
{
    size_t depth = 0, paren = 0;
    for (; s[i]; i++) {
        char c = s[i];
        if (c == '(') {
            paren++;
        } else if (c == ')') {
            if (!paren)
                return 0;
            paren--;
        } else if (!paren && c == '<') {
            depth++;
        } else if (!paren && c == '>' && --depth == 0) {
            return i + 1;
        }
    }
    return 0;
}

/* Whether w[i..n) starts a hex address (rule 2): "0x" and hex digits at
 * a segment start (the word's start or after a '_') that end the word or
 * a '_'. Its end goes to *end. */
static bool hex_at(const char *w, size_t i, size_t n, size_t *end)
{
    size_t j = i + 2;
    if (!(i == 0 || w[i - 1] == '_') || j >= n || w[i] != '0' ||
        (w[i + 1] != 'x' && w[i + 1] != 'X') || !is_hex(w[j]))
        return false;
    while (j < n && is_hex(w[j]))
        j++;
    *end = j;
    return j == n || w[j] == '_';
}

/* Emit the word w[0..n) by rules 2 and 3: its trailing digits (and one
 * '_' before them) dropped unless its last segment is a hex address,
 * then hex addresses as "0x". qualifier: the word is followed by "::"
 * and is kept whole. */
static void put_word(nout *o, const char *w, size_t n, bool qualifier)
{
    size_t keep = n, seg = n, i = 0, e;
    if (qualifier || !has_letter(w, n)) {
        put(o, w, n);
        return;
    }
    while (seg && w[seg - 1] != '_')
        seg--;
    if (!hex_at(w, seg, n, &e)) {
        while (keep && is_digit(w[keep - 1]))
            keep--;
        if (keep < n && keep > 2 && w[keep - 1] == 'v' && w[keep - 2] == '_')
            keep -= 2;   /* an API version: cudaMalloc_v3020 */
        else if (keep < n && keep > 1 && w[keep - 1] == '_')
            keep--;
    }
    while (i < keep) {
        if (hex_at(w, i, keep, &e)) {
            put(o, "0x", 2);
            i = e;
        } else {
            put(o, w + i, 1);
            i++;
        }
    }
}

size_t tt_name_normalize(const char *in, char *out, size_t cap)
{
    nout o = {out, cap, 0};
    const char *prev_word = NULL;   /* the word just emitted, as in the input */
    size_t prev_n = 0, i = 0;
    while (in[i]) {
        char c = in[i];
        if (is_word(c)) {
            size_t j = i;
            while (is_word(in[j]))
                j++;
            put_word(&o, in + i, j - i, in[j] == ':' && in[j + 1] == ':');
            prev_word = in + i;
            prev_n = j - i;
            i = j;
            continue;
        }
        if (c == '<' && i > 0 && is_word(in[i - 1]) &&
            !(prev_n == 8 && memcmp(prev_word, "operator", 8) == 0)) {
            size_t j = angle_end(in, i);
            if (j) {
                put(&o, "<>", 2);
                prev_word = NULL;
                prev_n = 0;
                i = j;
                continue;
            }
        }
        if ((c == '.' || c == '#') && is_digit(in[i + 1]) &&
            (c == '#' || (i > 0 && is_word(in[i - 1]) && has_letter(prev_word, prev_n)))) {
            size_t j = i + 1;
            while (is_digit(in[j]))
                j++;
            if (!is_word(in[j])) {
                i = j;
                continue;
            }
        }
        put(&o, &c, 1);
        prev_word = NULL;
        prev_n = 0;
        i++;
    }
    if (cap)
        out[o.n < cap ? o.n : cap - 1] = '\0';
    return o.n;
}
