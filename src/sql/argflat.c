/* argflat.c - an argument record's leaves as Perfetto's args rows (see
 * argflat.h): a recursive walk over the JSON text with json_scan's
 * tokens, the keys built in two growing buffers (flat_key and key) that
 * each level extends and cuts back. */
#include "config.h"

#include "sql/argflat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/json_scan.h"

/* Deeper nesting than this is refused rather than recursed into. */
#define ARGFLAT_MAX_DEPTH 200

const char *tt_argtype_name(tt_argtype t)
{
    switch (t) {
    case TT_ARGT_INT: return "int";
    case TT_ARGT_REAL: return "real";
    case TT_ARGT_STRING: return "string";
    case TT_ARGT_BOOL: return "bool";
    }
    return "string";
}

void tt_argflat_init(tt_argflat *f)
{
    memset(f, 0, sizeof *f);
}

void tt_argflat_fini(tt_argflat *f)
{
    free(f->flat);
    free(f->key);
    free(f->str);
    memset(f, 0, sizeof *f);
}

typedef struct walk {
    tt_argflat   *f;
    const char   *text, *end;
    size_t        flat_n, key_n;   /* current lengths of f->flat, f->key */
    tt_argflat_fn fn;
    void         *ctx;
    tt_error     *err;
    js_scanner    sc;
} walk;

static int grow(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    char *p = realloc(*buf, nc);
    if (!p)
        return -1;
    *buf = p;
    *cap = nc;
    return 0;
}

static int nomem(walk *w)
{
    tt_error_set(w->err, TT_ERR_NOMEM, "out of memory");
    return -1;
}

static int bad(walk *w, const char *at, const char *what)
{
    tt_error_at_offset(w->err, TT_ERR_FORMAT, at ? (int64_t)(at - w->text) : -1,
                       "arguments: %s", what);
    return -1;
}

/* Append s[0..n) to the key (and to flat_key when flat). */
static int key_append(walk *w, const char *s, size_t n, bool flat)
{
    tt_argflat *f = w->f;
    if (grow(&f->key, &f->key_cap, w->key_n + n + 1))
        return nomem(w);
    memcpy(f->key + w->key_n, s, n);
    w->key_n += n;
    f->key[w->key_n] = '\0';
    if (flat) {
        if (grow(&f->flat, &f->flat_cap, w->flat_n + n + 1))
            return nomem(w);
        memcpy(f->flat + w->flat_n, s, n);
        w->flat_n += n;
        f->flat[w->flat_n] = '\0';
    }
    return 0;
}

/* An unescaped string token into f->str. */
static int unescape(walk *w, const js_str *t, size_t *n)
{
    tt_argflat *f = w->f;
    if (grow(&f->str, &f->str_cap, t->n + 1))
        return nomem(w);
    if (!t->esc) {
        memcpy(f->str, t->s, t->n);
        *n = t->n;
    } else {
        long r = js_unescape(&w->sc, t, f->str, f->str_cap);
        if (r < 0)
            return bad(w, w->sc.err_at, "invalid escape in a string");
        *n = (size_t)r;
    }
    f->str[*n] = '\0';
    return 0;
}

static int leaf(walk *w, tt_argleaf *l)
{
    l->flat_key = w->f->flat;
    l->flat_n = w->flat_n;
    l->key = w->f->key;
    l->key_n = w->key_n;
    return w->fn(w->ctx, l, w->err);
}

/* A number token: int64 when it is written as an integer and fits. */
static void number(const js_str *t, tt_argleaf *l)
{
    char buf[64];
    bool integral = !memchr(t->s, '.', t->n) && !memchr(t->s, 'e', t->n) &&
                    !memchr(t->s, 'E', t->n);
    size_t n = t->n < sizeof buf - 1 ? t->n : sizeof buf - 1;
    memcpy(buf, t->s, n);
    buf[n] = '\0';
    if (integral && n == t->n) {
        char *e;
        errno = 0;
        long long v = strtoll(buf, &e, 10);
        if (errno == 0 && *e == '\0') {
            l->type = TT_ARGT_INT;
            l->i = v;
            return;
        }
    }
    l->type = TT_ARGT_REAL;
    l->d = n == t->n ? strtod(buf, NULL) : strtod(t->s, NULL);
}

static const char *value(walk *w, const char *p, int depth, int *rc);

/* After a member or element at p: past a ',' (*more: another follows) or
 * past the closing bracket close; NULL with *rc for anything else. */
static const char *next_item(walk *w, const char *p, char close, bool *more, int *rc)
{
    p = js_skip_ws(p, w->end);
    if (p < w->end && (*p == ',' || *p == close)) {
        *more = *p == ',';
        return *more ? js_skip_ws(p + 1, w->end) : p + 1;
    }
    *rc = bad(w, p < w->end ? p : NULL, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    return NULL;
}

/* Cut the keys back to a container's own. */
static void keys_cut(walk *w, size_t flat0, size_t key0)
{
    w->flat_n = flat0;
    w->key_n = key0;
    w->f->flat[flat0] = '\0';
    w->f->key[key0] = '\0';
}

/* The members of an object (p at '{'), each under key "." NAME. */
static const char *object(walk *w, const char *p, int depth, int *rc)
{
    size_t flat0 = w->flat_n, key0 = w->key_n;
    p = js_skip_ws(p + 1, w->end);
    if (p < w->end && *p == '}')
        return p + 1;
    for (;;) {
        js_str k;
        size_t kn;
        if (p >= w->end || *p != '"') {
            *rc = bad(w, p < w->end ? p : NULL, "expected a member name");
            return NULL;
        }
        if (!(p = js_scan_string(&w->sc, p, w->end, &k))) {
            *rc = bad(w, w->sc.err_at, "unterminated string");
            return NULL;
        }
        p = js_skip_ws(p, w->end);
        if (p >= w->end || *p != ':') {
            *rc = bad(w, p < w->end ? p : NULL, "expected ':'");
            return NULL;
        }
        p = js_skip_ws(p + 1, w->end);
        w->flat_n = flat0;
        w->key_n = key0;
        if (unescape(w, &k, &kn) || key_append(w, ".", 1, true) ||
            key_append(w, w->f->str, kn, true)) {
            *rc = -1;
            return NULL;
        }
        bool more;
        if (!(p = value(w, p, depth + 1, rc)) || !(p = next_item(w, p, '}', &more, rc)))
            return NULL;
        if (!more)
            break;
    }
    keys_cut(w, flat0, key0);
    return p;
}

/* The elements of an array (p at '['), each under key "[i]" (flat_key
 * unchanged), i counting the elements that are not null. */
static const char *array(walk *w, const char *p, int depth, int *rc)
{
    size_t flat0 = w->flat_n, key0 = w->key_n, i = 0;
    p = js_skip_ws(p + 1, w->end);
    if (p < w->end && *p == ']')
        return p + 1;
    for (;;) {
        if (p >= w->end) {
            *rc = bad(w, NULL, "unterminated array");
            return NULL;
        }
        if (w->end - p >= 4 && memcmp(p, "null", 4) == 0) {
            p += 4;
        } else {
            char idx[32];
            int n = snprintf(idx, sizeof idx, "[%zu]", i++);
            w->flat_n = flat0;
            w->key_n = key0;
            if (key_append(w, idx, (size_t)n, false)) {
                *rc = -1;
                return NULL;
            }
            if (!(p = value(w, p, depth + 1, rc)))
                return NULL;
        }
        bool more;
        if (!(p = next_item(w, p, ']', &more, rc)))
            return NULL;
        if (!more)
            break;
    }
    keys_cut(w, flat0, key0);
    return p;
}

/* One value at p under the current keys; the position after it, or NULL
 * with *rc: -1 (err set) or 1 (the callback stopped the walk). */
static const char *value(walk *w, const char *p, int depth, int *rc)
{
    tt_argleaf l;
    memset(&l, 0, sizeof l);
    if (p >= w->end) {
        *rc = bad(w, NULL, "expected a value");
        return NULL;
    }
    if (depth > ARGFLAT_MAX_DEPTH) {
        *rc = bad(w, p, "nested too deep");
        return NULL;
    }
    switch (*p) {
    case '{': return object(w, p, depth, rc);
    case '[': return array(w, p, depth, rc);
    case '"': {
        js_str t;
        if (!(p = js_scan_string(&w->sc, p, w->end, &t))) {
            *rc = bad(w, w->sc.err_at, "unterminated string");
            return NULL;
        }
        if (unescape(w, &t, &l.n)) {
            *rc = -1;
            return NULL;
        }
        l.type = TT_ARGT_STRING;
        l.s = w->f->str;
        break;
    }
    case 't':
    case 'f': {
        bool t = *p == 't';
        size_t n = t ? 4 : 5;
        if ((size_t)(w->end - p) < n || memcmp(p, t ? "true" : "false", n) != 0) {
            *rc = bad(w, p, "expected a value");
            return NULL;
        }
        p += n;
        l.type = TT_ARGT_BOOL;
        l.i = t;
        break;
    }
    case 'n':
        if (w->end - p < 4 || memcmp(p, "null", 4) != 0) {
            *rc = bad(w, p, "expected a value");
            return NULL;
        }
        return p + 4;   /* nulls are no rows, as in Perfetto */
    default: {
        js_str t;
        if (!(p = js_scan_number(&w->sc, p, w->end, true, &t)) || !js_is_number(t.s, t.n)) {
            *rc = bad(w, p ? t.s : w->sc.err_at, "expected a value");
            return NULL;
        }
        number(&t, &l);
        break;
    }
    }
    int r = leaf(w, &l);
    if (r) {
        *rc = r;
        return NULL;
    }
    return p;
}

int tt_argflat_walk(tt_argflat *f, const char *text, size_t n, tt_argflat_fn fn, void *ctx,
                    tt_error *err)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.f = f;
    w.text = text;
    w.end = text + n;
    w.fn = fn;
    w.ctx = ctx;
    w.err = err;
    if (n == 0)
        return 0;
    if (key_append(&w, "args", 4, true))
        return -1;
    int rc = 0;
    const char *p = value(&w, js_skip_ws(text, w.end), 0, &rc);
    if (!p)
        return rc;
    p = js_skip_ws(p, w.end);
    if (p != w.end)
        return bad(&w, p, "text after the value");
    return 0;
}
