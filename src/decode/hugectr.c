/* hugectr.c - HugeCTR inline profiler results (prof.json).
 *
 * HugeCTR's profiler measures each labelled GPU event many times and its
 * result parser (tools/profiler in the HugeCTR repository) writes a list of
 * hosts, each
 *   {"host_name": ..., "avg_iter_time_ms": T,
 *    "timeline": {"device_N": {"stream_X": [ {"label": ...,
 *        "avg_measured_time_ms": D, "avg_iter_start_to_event_start_time_ms": S,
 *        ...more statistics}, ...]}}}
 * which is an "average iteration": every event placed at its average
 * offset from the iteration start. *_ns variants of the three times are
 * accepted too.
 *
 * Model: one group per host, one lane per device/stream, events [S, S+D)
 * with time 0 = iteration start, category "kernel"; an "iteration" lane per
 * host holds the whole average iteration [0, T) and an "iteration end"
 * instant marks T. Each event keeps its source object as arguments.
 *
 * The file is small (averages, not a trace) and read whole. A plain
 * document is scanned in place, anything else parsed with cJSON (see "the
 * tree" below); a syntax error is reported at its line and column. Each
 * event's arguments are its object as cJSON_PrintUnformatted() prints it,
 * byte for byte either way.
 */
#include "config.h"

#include "decode/decode.h"
#include "decode/argjson.h"
#include "decode/json_scan.h"
#include "util/bigalloc.h"
#include "util/grow.h"
#include "util/num.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE ((size_t)512 << 20)

static int oom(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}

/* ------------------------------------------------------------ the tree
 *
 * The document is walked as a small tree of jnodes, read one of two ways:
 *   - plain documents (strict JSON, no escapes or control bytes in strings,
 *     numbers under 60 bytes, nesting under 200, no byte order mark) are
 *     scanned straight from the buffer (json_scan.h): strings and numbers
 *     stay spans of it, and an event's arguments are its source text
 *     reprinted as cJSON would print it, without parsing it into a cJSON
 *     tree first and printing that (most of the decode before);
 *   - anything else goes through cJSON, as it always did, and the tree is
 *     copied from cJSON's: its grammar, errors and string rules stay the
 *     reference for every odd file.
 * Both give the same tree for a plain document, so the model is built by
 * one walk (do_host). A plain document is scanned once, a host at a time
 * into one reused tree that goes into the model before the next host is
 * read (plain_hosts): a tree of the whole document took twice the file's
 * size in fresh memory, and its nodes were out of the caches again by the
 * walk (a 13.8 MB profile: 9% of the summary's CPU time, 17 MB of peak
 * memory). Where a later host turns out not plain, the hosts before it
 * stay in the model and cJSON reads the rest; a cut-off input is read by
 * cJSON whole. (A first pass that only checked the document, then a
 * second that built each host's tree, read every byte twice: 15% of the
 * decode's instructions.) */

enum { JN_OBJ, JN_ARR, JN_STR, JN_NUM, JN_LIT };

/* event_row(): the most key sets and members per event it handles; past
 * them an event's arguments are stored as text (jt_print). */
enum { ROW_KEYSETS = 16, ROW_MEMBERS = 32 };

/* 40 bytes: a tree holds a node per value of the document. Lengths fit
 * 32 bits, as the document is at most MAX_FILE bytes. */
typedef struct jnode {
    const char  *key;       /* member name, NULL in an array */
    const char  *s;         /* string bytes, number text, or the source span
                             * of a container (plain documents) */
    uint32_t     keyn;
    uint32_t     n;
    uint32_t     child;     /* first child + 1, 0 = none */
    uint32_t     next;      /* next sibling + 1, 0 = none */
    uint8_t      type;
    bool         canon;     /* a number written as cJSON prints it
                             * (plain_number()) */
} jnode;

typedef struct jtree {
    jnode        *nd;
    size_t        n, cap;
    const cJSON **cj;       /* per node its cJSON node (cJSON documents) */
    size_t        cap_cj;
    char         *out;      /* jt_print()'s text, event_row()'s numbers */
    size_t        cap_out;
    /* the args key sets of event_row(), one per sequence of member names
     * met: each event's object lists the same few names */
    struct {
        uint32_t  id;       /* tt_args_keyset() */
        uint32_t  n;
        char     *text;     /* the keys' texts ("\"label\":"), back to back */
        uint32_t *off;      /* key i is text[off[i], off[i + 1]) */
    } ks[ROW_KEYSETS];
    uint32_t      n_ks, last_ks;
} jtree;

static inline int64_t jt_new(jtree *t, uint8_t type)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        jnode *nd = tt_bigrealloc(t->nd, t->n * sizeof *nd, cap * sizeof *nd);
        if (!nd)
            return -1;
        t->nd = nd;
        t->cap = cap;
    }
    memset(&t->nd[t->n], 0, sizeof t->nd[t->n]);
    t->nd[t->n].type = type;
    return (int64_t)t->n++;
}

static void jt_free(jtree *t)
{
    free(t->nd);
    free(t->cj);
    free(t->out);
    for (uint32_t i = 0; i < t->n_ks; i++) {
        free(t->ks[i].text);
        free(t->ks[i].off);
    }
}

/* The first byte of [p, end) that is a quote, a backslash or a control
 * byte, or end. */
static const char *string_stop(const char *p, const char *end)
{
#if defined(__SSE2__)
    if (js_simd_level_now >= JS_SIMD_SSE2) {
        for (; end - p >= 16; p += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
            /* bytes below 0x20: x == min(x, 0x1f), unsigned */
            __m128i stop = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                             _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))),
                _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x));
            unsigned m = (unsigned)_mm_movemask_epi8(stop);
            if (m)
                return p + __builtin_ctz(m);
        }
    }
#endif
    while (p < end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
        p++;
    return p;
}

/* A plain string token at p (see above): its bytes in out, the position
 * after it; NULL when it is not one (an escape, a control byte, no end).
 * One pass over the bytes: the scanner's string and a second look for
 * control bytes were a tenth of the decode's instructions. */
static const char *plain_string(const char *p, const char *end, js_str *out)
{
    const char *q = string_stop(p + 1, end);
    if (q == end || *q != '"')
        return NULL;
    out->s = p + 1;
    out->n = (size_t)(q - p - 1);
    out->esc = false;
    return q + 1;
}

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A plain number at p: the strict JSON grammar, not followed by a byte
 * that continues a number (so the scanner's span, checked, is the same
 * span), under 60 bytes (cJSON reads at most 63); the position after it,
 * else NULL. *canon: whether cJSON prints it as it is written, which
 * tt_argjson_print_number() finds in its fast case (argjson.c): no
 * exponent, at most 15 significant digits, the first between 10^-4 and
 * 10^14, no trailing zero after the point, not "-0.0" or "0.0". Such a
 * number's arguments text is its source, and its double is
 * canon_value(): the scanner's span, a grammar check and two conversions
 * of every number were a fifth of the decode. */
static const char *plain_number(const char *p, const char *end, bool *canon)
{
    const char *q = p, *int_end, *dot = NULL, *first;
    bool expo = false;
    size_t sig;
    long x;
    if (*q == '-')
        q++;
    if (q == end)
        return NULL;
    if (*q == '0')
        q++;
    else if (*q >= '1' && *q <= '9')
        while (q < end && is_digit(*q))
            q++;
    else
        return NULL;
    int_end = q;
    if (q < end && *q == '.') {
        dot = q++;
        if (q == end || !is_digit(*q))
            return NULL;
        while (q < end && is_digit(*q))
            q++;
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        expo = true;
        q++;
        if (q < end && (*q == '+' || *q == '-'))
            q++;
        if (q == end || !is_digit(*q))
            return NULL;
        while (q < end && is_digit(*q))
            q++;
    }
    if ((q < end && (is_digit(*q) || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' ||
                     *q == '-')) ||
        q - p >= 60)
        return NULL;
    *canon = false;
    if (expo)
        return q;
    /* the first significant digit: the integer part's first, or past an
     * integer part "0" and the fraction's leading zeros */
    first = p + (*p == '-');
    if (*first == '0') {
        first = dot ? dot + 1 : q;
        while (first < q && *first == '0')
            first++;
    }
    if (first == q) {   /* zero: "0" and "-0" print so */
        *canon = !dot;
        return q;
    }
    if (dot && q[-1] == '0')
        return q;
    x = first < int_end ? (long)(int_end - first) - 1 : -(long)(first - dot);
    sig = (size_t)(q - first) - (dot && first < dot ? 1 : 0);
    *canon = sig <= 15 && x >= -4 && x <= 14;
    return q;
}

/* The double of a number plain_number() found canonical: at most 15
 * significant digits (under 2^53) over a power of ten of at most 19
 * fraction digits, both exact, so one division rounds it correctly, as
 * strtod() does. */
static double canon_value(const char *s, size_t n)
{
    static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    uint64_t m = 0;
    size_t i = s[0] == '-', frac = 0;
    double d;
    for (; i < n && s[i] != '.'; i++)
        m = m * 10 + (uint64_t)(s[i] - '0');
    if (i < n) {
        frac = n - i - 1;
        for (i++; i < n; i++)
            m = m * 10 + (uint64_t)(s[i] - '0');
    }
    d = (double)m / p10[frac];
    return s[0] == '-' ? -d : d;
}

/* Scan a plain value at p (after whitespace) into node k's type and
 * children; returns the position after it, NULL when the document is not
 * plain (the cJSON path then reads it). */
static const char *plain_value(jtree *t, int64_t k, const char *p, const char *end, int depth);

/* Scan a plain string, number or literal at p into node nd; as
 * plain_value(), which it serves, and inline in its member loop (a call
 * per member was a sixth of the tree's instructions). */
static inline const char *plain_scalar(jnode *nd, const char *p, const char *end)
{
    js_str tok;
    const char *start = p;
    if (p == end)
        return NULL;
    if (*p == '"') {
        if (!(p = plain_string(p, end, &tok)))
            return NULL;
        nd->type = JN_STR;
        nd->s = tok.s;
        nd->n = (uint32_t)tok.n;
        return p;
    } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
        if (!(p = plain_number(p, end, &nd->canon)))
            return NULL;
        nd->type = JN_NUM;
    } else {
        static const char *const lit[] = {"true", "false", "null"};
        size_t i = 0;
        while (i < 3 && !((size_t)(end - p) >= strlen(lit[i]) &&
                          memcmp(p, lit[i], strlen(lit[i])) == 0))
            i++;
        if (i == 3)
            return NULL;
        p += strlen(lit[i]);
        nd->type = JN_LIT;
    }
    nd->s = start;
    nd->n = (uint32_t)(p - start);
    return p;
}

static const char *plain_value(jtree *t, int64_t k, const char *p, const char *end, int depth)
{
    js_str tok;
    const char *start = p;
    bool obj;
    int64_t prev = -1;
    if (p == end || depth > 200)
        return NULL;
    if (*p != '{' && *p != '[')
        return plain_scalar(&t->nd[k], p, end);
    obj = *p == '{';
    t->nd[k].type = obj ? JN_OBJ : JN_ARR;
    p = js_skip_ws(p + 1, end);
    if (p < end && *p == (obj ? '}' : ']')) {
        p++;
    } else {
        for (;;) {
            int64_t c = jt_new(t, JN_LIT);
            if (c < 0)
                return NULL;
            if (obj) {
                if (p == end || *p != '"' || !(p = plain_string(p, end, &tok)))
                    return NULL;
                t->nd[c].key = tok.s;
                t->nd[c].keyn = (uint32_t)tok.n;
                p = js_skip_ws(p, end);
                if (p == end || *p != ':')
                    return NULL;
                p = js_skip_ws(p + 1, end);
            }
            /* a member deeper than 200 is not plain, a scalar too */
            if (p < end && (*p == '{' || *p == '[' || depth >= 200))
                p = plain_value(t, c, p, end, depth + 1);
            else
                p = plain_scalar(&t->nd[c], p, end);
            if (!p)
                return NULL;
            if (prev < 0)
                t->nd[k].child = (uint32_t)c + 1;
            else
                t->nd[prev].next = (uint32_t)c + 1;
            prev = c;
            p = js_skip_ws(p, end);
            if (p < end && *p == ',') {
                p = js_skip_ws(p + 1, end);
                continue;
            }
            if (p < end && *p == (obj ? '}' : ']')) {
                p++;
                break;
            }
            return NULL;
        }
    }
    t->nd[k].s = start;
    t->nd[k].n = (uint32_t)(p - start);
    return p;
}

/* Copy cJSON's tree under node k. */
static int cjson_tree(jtree *t, int64_t k, const cJSON *v)
{
    int64_t prev = -1;
    if (tt_grow_one((void **)&t->cj, &t->cap_cj, (size_t)k, sizeof *t->cj))
        return -1;
    t->cj[k] = v;
    if (cJSON_IsString(v)) {
        t->nd[k].type = JN_STR;
        t->nd[k].s = v->valuestring;
        t->nd[k].n = (uint32_t)strlen(v->valuestring);
        return 0;
    }
    if (cJSON_IsNumber(v)) {
        t->nd[k].type = JN_NUM;
        return 0;
    }
    if (!cJSON_IsObject(v) && !cJSON_IsArray(v)) {
        t->nd[k].type = JN_LIT;
        return 0;
    }
    t->nd[k].type = cJSON_IsObject(v) ? JN_OBJ : JN_ARR;
    for (const cJSON *c = v->child; c; c = c->next) {
        int64_t ck = jt_new(t, JN_LIT);
        if (ck < 0)
            return -1;
        if (c->string) {
            t->nd[ck].key = c->string;
            t->nd[ck].keyn = (uint32_t)strlen(c->string);
        }
        if (prev < 0)
            t->nd[k].child = (uint32_t)ck + 1;
        else
            t->nd[prev].next = (uint32_t)ck + 1;
        prev = ck;
        if (cjson_tree(t, ck, c))
            return -1;
    }
    return 0;
}

#define JT_EACH(t, c, parent) \
    for (const jnode *c = (parent)->child ? &(t)->nd[(parent)->child - 1] : NULL; c; \
         c = c->next ? &(t)->nd[c->next - 1] : NULL)

/* The first member named key (as cJSON_GetObjectItemCaseSensitive). */
static const jnode *jt_get(const jtree *t, const jnode *o, const char *key)
{
    size_t kn = strlen(key);
    if (o->type != JN_OBJ)
        return NULL;
    JT_EACH(t, c, o) {
        if (c->keyn == kn && memcmp(c->key, key, kn) == 0)
            return c;
    }
    return NULL;
}

static double jt_number(const jtree *t, const jnode *v)
{
    char buf[64];
    double d;
    if (t->cj)
        return t->cj[v - t->nd]->valuedouble;
    if (v->canon)
        return canon_value(v->s, v->n);
    /* strtod()'s double, most often without it (its fast path); a value
     * past the doubles (inf) from strtod() itself */
    if (tt_parse_double(v->s, v->n, &d) == TT_NUM_OK)
        return d;
    memcpy(buf, v->s, v->n);   /* under 60 bytes (plain_value) */
    buf[v->n] = '\0';
    return strtod(buf, NULL);
}

/* Room for need bytes in t->out. */
static bool out_room(jtree *t, size_t need)
{
    char *d;
    if (need <= t->cap_out)
        return true;
    if (!(d = realloc(t->out, need)))
        return false;
    t->out = d;
    t->cap_out = need;
    return true;
}

/* The arguments text of an event, as cJSON_PrintUnformatted() prints it,
 * in t->out; its length, or -1 (OOM). */
static int64_t jt_print(jtree *t, const jnode *v)
{
    char *d;
    const char *p = v->s, *end = v->s + v->n;
    if (t->cj) {
        char *text = cJSON_PrintUnformatted(t->cj[v - t->nd]);
        size_t len = text ? strlen(text) : 0;
        bool ok = text && out_room(t, len + 1);
        if (ok)
            memcpy(t->out, text, len);
        free(text);
        return ok ? (int64_t)len : -1;
    }
    /* a plain document's source without its whitespace and its numbers
     * as cJSON prints them: strings have no escapes to redo, and a number
     * never prints longer than 32 bytes */
    if (!out_room(t, v->n + 32 * (v->n / 2 + 1)))
        return -1;
    d = t->out;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
            memcpy(d, p, (size_t)(q + 1 - p));
            d += q + 1 - p;
            p = q + 1;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            const char *q = p + 1;
            while (q < end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' ||
                               *q == 'E' || *q == '+' || *q == '-'))
                q++;
            d += tt_argjson_print_number(d, p, (size_t)(q - p));
            p = q;
        } else {
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                *d++ = c;
            p++;
        }
    }
    return d - t->out;
}

/* ------------------------------------------------------------ the model */

/* A time in ns from the number v_ns (in ns) or, failing that, v_ms (in
 * ms), either NULL; false when neither is a finite number within
 * TT_TIME_LIMIT. */
static bool time_of(const jtree *t, const jnode *v_ns, const jnode *v_ms, int64_t *ns)
{
    double d;
    if (v_ns && v_ns->type == JN_NUM && isfinite(d = jt_number(t, v_ns)) &&
        fabs(d) < (double)TT_TIME_LIMIT) {
        *ns = llround(d);
        return true;
    }
    if (v_ms && v_ms->type == JN_NUM && isfinite(d = jt_number(t, v_ms)) &&
        fabs(d) < (double)TT_TIME_LIMIT / 1e6) {
        *ns = llround(d * 1e6);
        return true;
    }
    return false;
}

/* A time in ns from "<base>_ms" or "<base>_ns" (BASE: a literal), as
 * time_of(). */
#define get_time(t, o, BASE, ns) time_of(t, jt_get(t, o, BASE "_ns"), jt_get(t, o, BASE "_ms"), ns)

/* The members of an event the model reads, each the first of its name
 * (as jt_get() finds it), NULL when missing: one walk over the members
 * instead of a jt_get() per name (five of them, each a strlen() and a
 * walk). */
typedef struct ev_fields {
    const jnode *label, *start_ns, *start_ms, *dur_ns, *dur_ms;
} ev_fields;

#define START_KEY "avg_iter_start_to_event_start_time_"
#define DUR_KEY   "avg_measured_time_"

static void event_fields(const jtree *t, const jnode *ev, ev_fields *f)
{
    memset(f, 0, sizeof *f);
    if (ev->type != JN_OBJ)
        return;
    JT_EACH(t, c, ev) {
        const jnode **slot = NULL;
        if (c->keyn == 5 && memcmp(c->key, "label", 5) == 0)
            slot = &f->label;
        else if (c->keyn == sizeof START_KEY + 1 &&
                 memcmp(c->key, START_KEY, sizeof START_KEY - 1) == 0)
            slot = c->key[sizeof START_KEY] != 's' ? NULL
                   : c->key[sizeof START_KEY - 1] == 'n' ? &f->start_ns
                   : c->key[sizeof START_KEY - 1] == 'm' ? &f->start_ms : NULL;
        else if (c->keyn == sizeof DUR_KEY + 1 && memcmp(c->key, DUR_KEY, sizeof DUR_KEY - 1) == 0)
            slot = c->key[sizeof DUR_KEY] != 's' ? NULL
                   : c->key[sizeof DUR_KEY - 1] == 'n' ? &f->dur_ns
                   : c->key[sizeof DUR_KEY - 1] == 'm' ? &f->dur_ms : NULL;
        if (slot && !*slot)
            *slot = c;
    }
}

/* Whether key set k holds the member names of ev's n members, in order. */
static bool keyset_is(const jtree *t, uint32_t k, const jnode *ev, uint32_t n)
{
    const char *text = t->ks[k].text;
    const uint32_t *off = t->ks[k].off;
    uint32_t i = 0;
    if (t->ks[k].n != n)
        return false;
    JT_EACH(t, c, ev) {
        if (off[i + 1] - off[i] != c->keyn + 3 || memcmp(text + off[i] + 1, c->key, c->keyn) != 0)
            return false;
        i++;
    }
    return true;
}

/* The args key set of ev's n member names (each "\"NAME\":"), made the
 * first time; 0 when ROW_KEYSETS are made already, -1 out of memory. */
static int64_t event_keyset(tt_trace *tr, jtree *t, const jnode *ev, uint32_t n)
{
    const char *keys[ROW_MEMBERS];
    size_t klen[ROW_MEMBERS], total = 0;
    uint32_t i = 0, k = t->n_ks, id;
    char *text;
    uint32_t *off;
    for (uint32_t j = 0; j < t->n_ks; j++) {
        k = (t->last_ks + j) % t->n_ks;
        if (keyset_is(t, k, ev, n))
            return t->ks[t->last_ks = k].id;
    }
    if (t->n_ks == ROW_KEYSETS)
        return 0;
    JT_EACH(t, c, ev) {
        total += c->keyn + 3;
    }
    text = malloc(total);
    off = malloc((n + 1) * sizeof *off);
    if (!text || !off) {
        free(text);
        free(off);
        return -1;
    }
    off[0] = 0;
    JT_EACH(t, c, ev) {
        char *d = text + off[i];
        d[0] = '"';
        memcpy(d + 1, c->key, c->keyn);
        memcpy(d + 1 + c->keyn, "\":", 2);
        off[i + 1] = off[i] + c->keyn + 3;
        keys[i] = d;
        klen[i] = c->keyn + 3;
        i++;
    }
    k = t->n_ks;
    t->ks[k].text = text;
    t->ks[k].off = off;
    t->ks[k].n = n;
    t->n_ks++;   /* jt_free() frees them from here on */
    if (!(id = tt_args_keyset(tr->args, keys, klen, n)))
        return -1;
    t->ks[k].id = id;
    t->last_ks = k;
    return id;
}

/* An event's arguments stored as a keyed row (args.h) of a plain
 * document: its member names once per key set, its values as cJSON
 * prints them, the row reading back as jt_print()'s text. Storing that
 * text had the store scan it for its keys and zstd compress the names of
 * every event (a fifth of a summary's instructions). The args handle; 0
 * when the event takes text (a nested value, more than ROW_MEMBERS
 * members, more than ROW_KEYSETS name sequences, values over
 * TT_ARGS_ROW_MAX bytes), -1 out of memory. */
static int64_t event_row(tt_trace *tr, jtree *t, const jnode *ev)
{
    tt_args_val val[ROW_MEMBERS];
    uint32_t n = 0, h;
    size_t bytes = 0;
    int64_t ks;
    if (!out_room(t, ROW_MEMBERS * 32))
        return -1;
    JT_EACH(t, c, ev) {
        if (n == ROW_MEMBERS || c->type == JN_OBJ || c->type == JN_ARR)
            return 0;
        if (c->type == JN_STR) {
            /* a plain string, quoted: no escape, no control byte */
            val[n].s = c->s - 1;
            val[n].n = c->n + 2;
            val[n].kind = TT_ARGV_SCALAR;
        } else if (c->type == JN_NUM && c->canon) {
            val[n].s = c->s;
            val[n].n = c->n;
            val[n].kind = TT_ARGV_SCALAR;
        } else if (c->type == JN_NUM) {
            char *d = t->out + (size_t)n * 32;
            val[n].s = d;
            val[n].n = tt_argjson_print_number(d, c->s, c->n);
            val[n].kind = TT_ARGV_SCALAR;
        } else {
            val[n].s = c->s;   /* true, false, null */
            val[n].n = c->n;
            val[n].kind = TT_ARGV_JSON;
        }
        bytes += val[n].n;
        n++;
    }
    if (n == 0 || bytes > TT_ARGS_ROW_MAX)   /* too large for a row: text */
        return 0;
    if ((ks = event_keyset(tr, t, ev, n)) <= 0)
        return ks;
    h = tt_args_add_row(tr->args, (uint32_t)ks, val);
    return h ? (int64_t)h : -1;
}

static uint32_t lane_for(tt_trace *tr, uint32_t group, const char *key, const char *name)
{
    uint32_t k = tt_trace_intern_cstr(tr, key), nm = tt_trace_intern_cstr(tr, name), l;
    if (k == TT_STR_ERROR || nm == TT_STR_ERROR)
        return TT_NO_LANE;
    l = tt_trace_lane(tr, group, k, TT_LANE_THREAD);
    if (l != TT_NO_LANE)
        tr->lanes[l].name = nm;
    return l;
}

/* cat_id: the category's string id once interned, else 0 (interned
 * here, after the name, in the order it always was). */
static int64_t push(tt_trace *tr, uint32_t lane, tt_ns start, tt_ns dur, const char *name,
                    size_t name_n, const char *cat, uint32_t *cat_id, uint8_t kind)
{
    uint32_t nm = tt_trace_intern(tr, name, name_n), c;
    int64_t idx;
    tt_event *e;
    if (!*cat_id)
        *cat_id = tt_trace_intern_cstr(tr, cat);
    c = *cat_id;
    if (nm == TT_STR_ERROR || c == TT_STR_ERROR)
        return -1;
    idx = tt_trace_push_event(tr, lane);
    if (idx < 0)
        return -1;
    e = &tr->lanes[lane].ev[idx];
    e->start = start;
    e->dur = dur;
    e->name = nm;
    e->cat = c;
    e->kind = kind;
    return idx;
}

#define PUSH_LIT(tr, lane, start, dur, name, cat, kind) \
    push(tr, lane, start, dur, name, sizeof name - 1, cat, &(uint32_t){0}, kind)

/* A member name as a C string (names in the model and in messages), the
 * caller frees it; NULL when out of memory. */
static char *key_text(const jnode *n)
{
    return n->key ? strndup(n->key, n->keyn) : strdup("?");
}

/* The text key_text() gives for n's member name, without copying it:
 * its bytes up to a NUL, or "?". */
static void key_span(const jnode *n, const char **s, size_t *len)
{
    if (!n->key) {
        *s = "?";
        *len = 1;
        return;
    }
    *s = n->key;
    *len = strnlen(n->key, n->keyn);
}

/* The text s[0..len) after its last '_' ("device_3" -> "3") when
 * something follows it, else the whole text; in place. */
static void suffix_span(const char **s, size_t *len)
{
    size_t u = *len;
    while (u > 0 && (*s)[u - 1] != '_')
        u--;
    if (u > 0 && u < *len) {   /* a '_' at u - 1 with text after it */
        *s += u;
        *len -= u;
    }
}

/* s[0..n) appended at buf[at] as snprintf() would, truncated to leave
 * room for the NUL in cap bytes; the new length. */
static size_t put_span(char *buf, size_t cap, size_t at, const char *s, size_t n)
{
    if (at + 1 >= cap)
        return at;
    if (n > cap - 1 - at)
        n = cap - 1 - at;
    memcpy(buf + at, s, n);
    return at + n;
}

/* Room on lane l for the events of list strm at once: a profile has
 * thousands of streams holding a few events each, and the model's first
 * growth step (64 events a lane) made most of the decode's memory and
 * its time. 0 or -1 (OOM). */
static int reserve_events(tt_lane *l, const jtree *t, const jnode *strm)
{
    size_t k = 0;
    tt_event *ev;
    JT_EACH(t, c, strm) {
        k++;
    }
    if (l->n + k <= l->cap)
        return 0;
    if (!(ev = realloc(l->ev, (l->n + k) * sizeof *ev)))
        return -1;
    l->ev = ev;
    l->cap = l->n + k;
    return 0;
}

static int do_host(tt_trace *tr, jtree *t, const jnode *host, int index,
                   uint64_t *events, tt_error *err)
{
    const jnode *hn = jt_get(t, host, "host_name");
    const jnode *tl = jt_get(t, host, "timeline");
    char gname[256], key[600], name[600];
    int64_t iter;
    uint32_t gk, g, kernel = 0;   /* the events' category, once interned */
    if (hn && hn->type == JN_STR && hn->n)
        snprintf(gname, sizeof gname, "%.*s", (int)hn->n, hn->s);
    else
        snprintf(gname, sizeof gname, "host %d", index);
    snprintf(key, sizeof key, "host:%d:%s", index, gname);
    gk = tt_trace_intern_cstr(tr, key);
    g = gk == TT_STR_ERROR ? TT_NO_LANE : tt_trace_group(tr, gk);
    if (g == TT_NO_LANE)
        return oom(err);
    tr->groups[g].name = tt_trace_intern_cstr(tr, gname);
    tr->groups[g].sort_index = index;
    tr->groups[g].has_sort = true;
    if (tr->groups[g].name == TT_STR_ERROR)
        return oom(err);

    if (get_time(t, host, "avg_iter_time", &iter) && iter >= 0) {
        uint32_t l = lane_for(tr, g, "iteration", "iteration");
        if (l == TT_NO_LANE ||
            PUSH_LIT(tr, l, 0, iter, "iteration (average)", "iteration", TT_EV_SLICE) < 0 ||
            PUSH_LIT(tr, l, iter, 0, "iteration end", "iteration", TT_EV_INSTANT_GLOBAL) < 0)
            return oom(err);
        tr->lanes[l].sort_index = -1;   /* above the streams */
        tr->lanes[l].has_sort = true;
        *events += 2;
    } else {
        tt_trace_problem(tr, TT_PROB_BAD_EVENT, "host \"%s\" has no avg_iter_time_ms", gname);
    }
    if (!tl || tl->type != JN_OBJ) {
        tt_trace_problem(tr, TT_PROB_BAD_EVENT, "host \"%s\" has no timeline object", gname);
        return 0;
    }
    JT_EACH(t, dev, tl) {
        char *dkey;
        if (dev->type != JN_OBJ) {
            if (!(dkey = key_text(dev)))
                return oom(err);
            tt_trace_problem(tr, TT_PROB_BAD_EVENT, "timeline entry \"%s\" is not an object",
                             dkey);
            free(dkey);
            continue;
        }
        JT_EACH(t, strm, dev) {
            uint32_t l;
            const char *ds, *ss;
            size_t dn, sn, kn = 0, nn = 0;
            if (strm->type != JN_ARR) {
                char *skey = key_text(strm);
                if (!skey)
                    return oom(err);
                tt_trace_problem(tr, TT_PROB_BAD_EVENT, "stream entry \"%s\" is not a list",
                                 skey);
                free(skey);
                continue;
            }
            /* "DEV/STREAM" and "device D stream S" (the keys' suffixes),
             * as snprintf() made them from key_text()'s copies, without
             * copies or printf: a profile has thousands of streams */
            key_span(dev, &ds, &dn);
            key_span(strm, &ss, &sn);
            kn = put_span(key, sizeof key, kn, ds, dn);
            kn = put_span(key, sizeof key, kn, "/", 1);
            kn = put_span(key, sizeof key, kn, ss, sn);
            key[kn] = '\0';
            suffix_span(&ds, &dn);
            suffix_span(&ss, &sn);
            nn = put_span(name, sizeof name, nn, "device ", 7);
            nn = put_span(name, sizeof name, nn, ds, dn);
            nn = put_span(name, sizeof name, nn, " stream ", 8);
            nn = put_span(name, sizeof name, nn, ss, sn);
            name[nn] = '\0';
            l = lane_for(tr, g, key, name);
            if (l == TT_NO_LANE || reserve_events(&tr->lanes[l], t, strm))
                return oom(err);
            JT_EACH(t, ev, strm) {
                ev_fields f;
                int64_t s, d, idx, len, args;
                event_fields(t, ev, &f);
                if (ev->type != JN_OBJ || !f.label || f.label->type != JN_STR ||
                    !time_of(t, f.start_ns, f.start_ms, &s) ||
                    !time_of(t, f.dur_ns, f.dur_ms, &d)) {
                    tt_trace_problem(tr, TT_PROB_BAD_EVENT,
                                     "event without label, avg_measured_time_ms or "
                                     "avg_iter_start_to_event_start_time_ms on %s",
                                     key);
                    continue;
                }
                if (d < 0) {
                    tt_trace_problem(tr, TT_PROB_NEGATIVE_DURATION,
                                     "\"%.*s\" has a negative average time", (int)f.label->n,
                                     f.label->s);
                    d = 0;
                }
                idx = push(tr, l, s, d, f.label->s, f.label->n, "kernel", &kernel, TT_EV_SLICE);
                if (idx < 0 || (args = t->cj ? 0 : event_row(tr, t, ev)) < 0)
                    return oom(err);
                if (args == 0) {
                    if ((len = jt_print(t, ev)) < 0 ||
                        !(args = tt_args_add(tr->args, t->out, (size_t)len, NULL, 0)))
                        return oom(err);
                }
                tr->lanes[l].ev[idx].args = (uint32_t)args;
                (*events)++;
            }
        }
    }
    return 0;
}

/* A syntax error at `at` in buf, with its line and column. */
static void syntax_error(tt_error *err, const char *buf, const char *at, const char *msg)
{
    int64_t line = 1, col = 1;
    for (const char *p = buf; p < at; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    tt_error_at_line(err, TT_ERR_FORMAT, at - buf, line, col, "%s", msg);
}

/* Host entry `index` at node h: a host, or a problem. */
static int one_host(tt_trace *tr, jtree *t, const jnode *h, int index, uint64_t *events,
                    tt_error *err)
{
    if (h->type != JN_OBJ) {
        tt_trace_problem(tr, TT_PROB_BAD_EVENT, "host entry %d is not an object", index);
        return 0;
    }
    return do_host(tr, t, h, index, events, err);
}

static int not_hosts(tt_error *err)
{
    return tt_error_set(err, TT_ERR_FORMAT,
                        "a HugeCTR profile is a list of hosts, not a JSON scalar"), -1;
}

/* The hosts of buf read as a plain document (see "the tree"), each
 * host scanned into the tree and put into the model before the next one
 * is read. 0, or -1 (do_host's errors, or a scalar document); 1 when the
 * document is not plain, or its tree does not fit in memory: the first
 * *done hosts are in the model then, and cJSON reads the rest (or reports
 * the document's error, the model then dropped with the trace). */
static int plain_hosts(tt_trace *tr, jtree *t, const char *buf, size_t n, uint64_t *events,
                       int *done, tt_error *err)
{
    const char *end = buf + n, *p;
    *done = 0;
    if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
        return 1;
    p = js_skip_ws(buf, end);
    t->n = 0;
    if (p == end || *p != '[') {
        /* one host object, or a scalar: the document at node 0 */
        if (jt_new(t, JN_LIT) != 0 || !(p = plain_value(t, 0, p, end, 0)) ||
            js_skip_ws(p, end) != end)
            return 1;
        return t->nd[0].type == JN_OBJ ? do_host(tr, t, &t->nd[0], 0, events, err)
                                       : not_hosts(err);
    }
    /* a list, read as plain_value() reads one, a host at a time */
    p = js_skip_ws(p + 1, end);
    if (p < end && *p == ']')
        return js_skip_ws(p + 1, end) == end ? 0 : 1;
    for (;;) {
        t->n = 0;
        if (jt_new(t, JN_LIT) != 0 || !(p = plain_value(t, 0, p, end, 1)))
            return 1;
        p = js_skip_ws(p, end);
        if (p == end || (*p != ',' && *p != ']'))
            return 1;
        if (one_host(tr, t, &t->nd[0], *done, events, err))
            return -1;
        ++*done;
        if (*p == ']')
            return js_skip_ws(p + 1, end) == end ? 0 : 1;
        p = js_skip_ws(p + 1, end);
    }
}

/* The hosts of a cJSON document, from its copied tree, but for the first
 * `done` (plain_hosts() read them). */
static int cjson_hosts(tt_trace *tr, jtree *t, const cJSON *doc, int done, uint64_t *events,
                       tt_error *err)
{
    int index = 0;
    if (cJSON_IsObject(doc)) {
        t->n = 0;
        if (jt_new(t, JN_LIT) < 0 || cjson_tree(t, 0, doc))
            return oom(err);
        return do_host(tr, t, &t->nd[0], 0, events, err);
    }
    if (!cJSON_IsArray(doc))
        return not_hosts(err);
    for (const cJSON *h = doc->child; h; h = h->next) {
        if (index < done) {
            index++;
            continue;
        }
        t->n = 0;
        if (jt_new(t, JN_LIT) < 0 || cjson_tree(t, 0, h))
            return oom(err);
        if (one_host(tr, t, &t->nd[0], index++, events, err))
            return -1;
    }
    return 0;
}

static int hugectr_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                          tt_error *err)
{
    unsigned char *raw;
    char *buf;
    size_t n;
    cJSON *doc = NULL;
    const char *end = NULL;
    uint64_t events = 0;
    int rc, done = 0;
    jtree t = {0};
    (void)info;

    switch (tt_input_read_all(in, MAX_FILE, &raw, &n, err)) {
    case 0:
        buf = (char *)raw;
        break;
    case -2:
        return tt_error_set(err, TT_ERR_FORMAT,
                            "a HugeCTR profile larger than %zu MB is not plausible",
                            MAX_FILE >> 20), -1;
    default:
        return -1;
    }
    /* a cut-off input is read by cJSON, which says where it was cut (a
     * plain one's model is the same either way) */
    rc = tt_input_truncated(in) ? 1 : plain_hosts(tr, &t, buf, n, &events, &done, err);
    if (rc == 1) {
        doc = cJSON_ParseWithLengthOpts(buf, n, &end, 0);
        if (!doc) {
            /* cJSON reports where it stopped; a document that is fine up
             * to the end of the data (a string or number cut in half
             * included) was cut off */
            const char *at = cJSON_GetErrorPtr();
            js_scanner sc = {0};
            if (!at || at < buf || at > buf + n)
                at = buf + n;
            if (!js_skip_value(&sc, buf, buf + n, false) && sc.status == JS_MORE)
                at = buf + n;
            if (at == buf + n && tt_input_truncated(in))
                tt_error_set(err, TT_ERR_FORMAT, "compressed data ends early: the file is cut off");
            else
                syntax_error(err, buf, at,
                             at == buf + n ? "the file ends inside the JSON document: it is cut off"
                                           : "invalid JSON");
            free(buf);
            jt_free(&t);
            return -1;
        }
        while (end && end < buf + n &&
               (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t'))
            end++;
        if (end && end < buf + n) {
            syntax_error(err, buf, end, "unexpected data after the end of the JSON document");
            cJSON_Delete(doc);
            free(buf);
            jt_free(&t);
            return -1;
        }
        if (tt_input_truncated(in) && !opts->lenient) {
            cJSON_Delete(doc);
            free(buf);
            jt_free(&t);
            return tt_error_set(err, TT_ERR_FORMAT,
                                "compressed data ends early: the file is cut off"), -1;
        }
        rc = cjson_hosts(tr, &t, doc, done, &events, err);
    }
    cJSON_Delete(doc);
    free(buf);
    jt_free(&t);
    if (rc)
        return -1;
    if (events && tt_trace_tally_phase(tr, "event", 5, events))
        return oom(err);
    cJSON_AddStringToObject(tr->meta, "timeline", "average iteration (HugeCTR inline profiler)");
    if (opts->progress)
        opts->progress(opts->progress_ctx, tt_input_file_pos(in), tt_input_file_size(in),
                       (int64_t)n, events);
    return 0;
}

/* Whether head holds a "timeline" member whose value is an object with an
 * averaged event inside it (device_N -> stream_X -> [{label,
 * avg_measured_time_ms, avg_iter_start_to_event_start_time_ms}]): the
 * structure shows early, while avg_iter_time_ms, which the parser writes
 * after the timeline, is often far past the head. */
static bool probe_timeline(const unsigned char *head, size_t n)
{
    const char *end = (const char *)head + n;
    size_t at = 0;
    while ((at = tt_probe_find(head, n, at, "\"timeline\"")) < n) {
        const char *p = js_skip_ws((const char *)head + at + 10, end);
        at += 10;
        if (p == end || *p != ':')
            continue;   /* a string "timeline", not a member name */
        p = js_skip_ws(p + 1, end);
        if (p == end || *p != '{')
            continue;
        at = (size_t)(p - (const char *)head);
        return tt_probe_find(head, n, at, "\"avg_measured_time_") < n ||
               tt_probe_find(head, n, at, "\"avg_iter_start_to_event_start_time_") < n;
    }
    return false;
}

static int hugectr_probe(const unsigned char *head, size_t n)
{
    const char *p = js_skip_ws((const char *)head, (const char *)head + n);
    if (p == (const char *)head + n || (*p != '[' && *p != '{'))
        return 0;
    if (probe_timeline(head, n) ||
        ((tt_probe_has(head, n, "\"avg_iter_time_ms\"") ||
          tt_probe_has(head, n, "\"avg_iter_time_ns\"")) &&
         tt_probe_has(head, n, "\"timeline\"")))
        return 95;
    return 0;
}

const tt_decoder tt_decoder_hugectr = {
    .name = "hugectr-json",
    .description = "HugeCTR inline profiler prof.json (average iteration)",
    .probe = hugectr_probe,
    .decode = hugectr_decode,
};
