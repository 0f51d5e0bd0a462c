/* chrome.c - Chrome trace-event JSON decoder (PyTorch/Kineto, MindSpore and
 * Ascend trace_view.json, TensorFlow/JAX, viztracer, catapult).
 *
 * Streaming: the input is read through a window buffer and parsed one event
 * object at a time; no document is ever built. An event is parsed into
 * spans over the buffer; when its text runs past the buffered data the
 * parse restarts on that event after a refill, so the parsing code never
 * needs to be resumable. The event is committed to the model only once it
 * is complete. Arguments are stored as raw JSON text in the compressed
 * argument store; the few well-known ones (bytes, correlation, opcode,
 * layer, operand) are extracted on the way.
 *
 * Object form {"traceEvents": [...], ...other metadata} and bare array form
 * [...] are accepted; the bare array's closing ']' is optional, as the
 * format allows. A trace cut off mid-write is an error naming the
 * position; with opts->lenient every complete event is kept and the dropped
 * tail is reported in tt_load_info.
 */
#include "config.h"

#include "decode/decode.h"
#include "decode/chrome_chunks.h"
#include "decode/json_scan.h"
#include "decode/json_window.h"
#include "decode/strmemo.h"
#include "model/args.h"
#include "model/merge.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/num.h"
#include "util/parallel.h"
#include "util/sort.h"
#include "util/u64map.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define WINDOW_INITIAL ((size_t)4 << 20)
/* One event (so any string in it) must fit the window: a stated limit,
 * so that a small compressed file holding one huge string fails clearly
 * instead of taking gigabytes. Whitespace between values streams. */
#define WINDOW_MAX ((size_t)256 << 20)
#define WINDOW_MAX_TEXT "256 MB"
/* What the window keeps while parallel chunks read the input (the serial
 * loop after them grows it again when one value needs more): its 4 MB
 * would stay resident through the whole load otherwise. */
#define WINDOW_KEPT ((size_t)256 << 10)
#define META_VALUE_MAX ((size_t)256 << 20)   /* larger metadata values are skipped */
/* A mapped window (chrome_window_map) gives back the pages it has parsed
 * every this many bytes, and reports progress there. */
#define MAP_STEP ((size_t)4 << 20)

/* ------------------------------------------------------------- context */

typedef struct async_stack {
    uint32_t  lane;
    uint32_t *idx;
    size_t    n, cap;
} async_stack;

/* A B or E event, matched after the whole input is read: files may list
 * them out of time order, and an E closes the innermost B open at its time
 * on its thread. */
typedef struct be_mark {
    tt_ns    ts;
    uint32_t lane;
    uint32_t seq;      /* source order, breaks ties */
    uint32_t ref;      /* B: event index in the lane; E: name id */
    uint32_t args;     /* E: its arguments (attached to the slice), 0 none */
    uint8_t  is_end;
} be_mark;

/* A chunk decoded on its own thread (chrome_chunks.c) does not match async
 * begins and ends itself: one may lie in an earlier chunk, and an end
 * looks through the whole stack of open begins of its id. It records
 * them in source order for the merge to replay in the real trace. */
typedef struct async_id {
    uint64_t key;      /* async_key() */
    uint32_t pid, cat; /* the string ids it was made with */
} async_id;

typedef struct async_op {
    async_id id;
    tt_ns    ts;       /* end: its time */
    uint32_t lane;     /* begin: its lane */
    uint32_t ref;      /* begin: event index in the lane; end: name id */
    uint8_t  is_end;
} async_op;

/* A name or sort index set by a metadata event in a chunk, replayed by the
 * merge in source order (a later chunk may set a name back to ""). */
typedef enum meta_what { META_GROUP_NAME, META_GROUP_LABELS, META_GROUP_SORT, META_LANE_NAME,
                         META_LANE_SORT } meta_what;
typedef struct meta_op {
    int64_t  sort;
    uint32_t target;   /* group or lane index */
    uint32_t value;    /* string id */
    uint8_t  what;     /* meta_what */
} meta_op;

/* A chunk's flow point whose key was made with a category id. */
typedef struct flow_keyed {
    uint32_t point;    /* index in the chunk's flow points */
    uint32_t cat;      /* the chunk's string id */
} flow_keyed;

/* The lengths and first bytes of arg_keys (below), as bit sets: most
 * members of an args object ("External id", "Record function id", "grid")
 * are not well known, and two bit tests say so without walking the table
 * (the walk was 4.5% of a Kineto load's instructions). Filled by
 * arg_filter_init() from the table itself. */
typedef struct arg_filter {
    uint32_t len;        /* bit n: a key of n bytes (all are under 32) */
    uint64_t first[4];   /* bit c: a key starting with byte c */
    uint16_t by_len[32]; /* bit i: arg_keys[i] has n bytes */
} arg_filter;

typedef struct chrome {
    tt_trace            *tr;
    const tt_load_opts  *opts;
    tt_load_info        *info;
    tt_error            *err;
    tt_jwin              w;
    js_scanner           sc;

    char                *scratch;     /* unescape buffer */
    size_t               scratch_cap;
    char                *extra;       /* extras object text being built */
    size_t               extra_len, extra_cap;

    tt_strmemo           memo;        /* short strings -> ids (intern_tok) */
    tt_strmemo_long      memo_long;   /* long ones -> ids (intern_tok) */
    arg_filter           argf;        /* which args keys may be well known */
    tt_u64map            lanes;       /* (pid id, tid/cat id, kind) -> lane */
    tt_u64map            groups;      /* pid id -> group */
    tt_u64map            async_map;   /* async key -> async_stacks index */
    async_stack         *async;
    size_t               n_async, cap_async;
    be_mark             *marks;
    size_t               n_marks, cap_marks;

    uint64_t             ph_count[256];
    uint8_t              ph_order[256];
    int                  n_ph_order;
    uint64_t             events;
    int64_t              last_progress;
    bool                 saw_trace_events;
    int64_t              last_good;   /* stream offset after the last complete event */
    uint64_t             good_events;

    /* chunk mode (a fragment of the trace, see chrome_chunks.h) */
    bool                 chunk;
    async_op            *async_ops;
    size_t               n_async_ops, cap_async_ops;
    meta_op             *meta_ops;
    size_t               n_meta_ops, cap_meta_ops;
    flow_keyed          *keyed;       /* flow points keyed with a category id */
    size_t               n_keyed, cap_keyed;

    /* after a parallel part (chrome_window_switch): the window reads the
     * rest of the mapped file through tail_in */
    tt_input            *in;          /* the load's input (borrowed) */
    tt_input            *tail_in;     /* owned */
    const void          *map;         /* owned mapping of the whole file */
    size_t               map_size;
    /* the window is the mapping itself while the events array is parsed
     * (chrome_window_map): its data is not its own and is never written */
    bool                 mapped;
    size_t               map_dropped; /* pages before this are given back */
    size_t               map_end_at;  /* window position at its end of data */
} chrome;

/* One parsed event: spans into the window, valid until the next refill.
 * parse_event() clears only the flags and the few fields before `note`'s
 * hashes (48 bytes, not the ~720 of the whole): every span below is read
 * only where its has_ flag says it was set (commit_metadata() checks
 * has_name before comparing the name), and at, bytes and corr are set
 * for every event. */
typedef struct cev {
    bool has_ph, has_name, has_cat, has_pid, has_tid, has_ts, has_dur, has_id, has_id2,
         has_bp, has_scope_s, has_scope, has_bind_id;
    bool has_opcode, has_layer, has_operand, has_a_name, has_a_labels, has_a_sort;
    bool ts_str, dur_str;              /* given as strings */
    bool ts_fixed, dur_fixed;          /* read by js_scan_fixed: ts_ns, dur_ns hold them */
    bool flow_in, flow_out;
    const char *args;                  /* raw object text, NULL when absent */
    size_t      args_n;
    tt_args_note note;                 /* the keys of args (scan_args) */
    /* not cleared: */
    const char *at;                    /* its '{' */
    int64_t ts_ns, dur_ns;             /* with ts_fixed, dur_fixed */
    int64_t bytes;                     /* well-known arguments */
    int64_t corr;
    js_str ph, name, cat, pid, tid, ts, dur, id, id2, bp, scope_s, scope, bind_id;
    js_str  opcode, layer, operand, a_name, a_labels, a_sort;
} cev;

/* What parse_event() clears: up to note's hashes. */
#define CEV_CLEARED offsetof(cev, note.hash)

static int fail_at(chrome *c, const char *at, const char *msg)
{
    int64_t off, line, col;
    tt_jwin_position(&c->w, at, &off, &line, &col);
    return tt_error_at_line(c->err, TT_ERR_FORMAT, off, line, col, "%s", msg);
}

/* Report a scanner error (status JS_ERROR) at its position. */
static int fail_scan(chrome *c)
{
    return fail_at(c, c->sc.err_at, c->sc.err_msg);
}

static int scratch_reserve(chrome *c, size_t n)
{
    if (n <= c->scratch_cap)
        return 0;
    {
        size_t nc = c->scratch_cap ? c->scratch_cap : 256;
        char *nb;
        while (nc < n)
            nc *= 2;
        nb = realloc(c->scratch, nc);
        if (!nb)
            return -1;
        c->scratch = nb;
        c->scratch_cap = nc;
    }
    return 0;
}

/* intern_tok() past its inline memo hit. */
static __attribute__((noinline)) uint32_t intern_tok_any(chrome *c, const js_str *t)
{
    uint32_t id;
    if (!t->esc && t->n - 1 < TT_STRMEMO_MAXLEN) {
        uint64_t a, b;
        tt_strmemo_ent *ent = tt_strmemo_slot(&c->memo, t->s, t->n, &a, &b);
        id = tt_trace_intern(c->tr, t->s, t->n);
        if (id != TT_STR_ERROR) {
            ent->a = a;
            ent->b = b;
            ent->n = (uint32_t)t->n;
            ent->id = id;
        }
    } else if (!t->esc && t->n > TT_STRMEMO_MAXLEN) {
        /* past the short memo's length (the empty string is not: n - 1
         * wrapped above, and the long memo reads 8 bytes at each end) */
        tt_strmemo_long_ent *ent = tt_strmemo_long_slot(&c->memo_long, t->s, t->n);
        if (ent->s && ent->n == t->n && memcmp(ent->s, t->s, t->n) == 0)
            return ent->id;
        id = tt_trace_intern(c->tr, t->s, t->n);
        if (id != TT_STR_ERROR && t->n <= UINT32_MAX) {
            ent->s = tt_strtab_get(c->tr->strings, id);
            ent->n = (uint32_t)t->n;
            ent->id = id;
        }
    } else if (!t->esc) {
        id = tt_trace_intern(c->tr, t->s, t->n);   /* "" */
    } else {
        long n;
        if (scratch_reserve(c, t->n + 1)) {
            tt_error_set(c->err, TT_ERR_NOMEM, "out of memory");
            return TT_STR_ERROR;
        }
        n = js_unescape(&c->sc, t, c->scratch, c->scratch_cap);
        if (n < 0) {
            fail_scan(c);
            return TT_STR_ERROR;
        }
        id = tt_trace_intern(c->tr, c->scratch, (size_t)n);
    }
    if (id == TT_STR_ERROR && c->err->code == TT_OK)
        tt_error_set(c->err, TT_ERR_NOMEM, "out of memory");
    return id;
}

/* Intern a string token (unescaping when needed). TT_STR_ERROR on failure
 * with c->err set. The usual case, a short string met before (pid, tid,
 * cat, most names), is answered inline by the memo: a call saving and
 * restoring registers cost as much as the lookup. */
static inline __attribute__((always_inline)) uint32_t intern_tok(chrome *c, const js_str *t)
{
    if (!t->esc && t->n - 1 < TT_STRMEMO_MAXLEN) {
        uint64_t a, b;
        tt_strmemo_ent *ent = tt_strmemo_slot(&c->memo, t->s, t->n, &a, &b);
        if (tt_strmemo_hit(ent, t->n, a, b))
            return ent->id;
    }
    return intern_tok_any(c, t);
}

static int extra_append(chrome *c, const char *s, size_t n)
{
    if (c->extra_len + n + 2 > c->extra_cap) {
        size_t nc = c->extra_cap ? c->extra_cap : 256;
        char *nb;
        while (nc < c->extra_len + n + 2)
            nc *= 2;
        nb = realloc(c->extra, nc);
        if (!nb)
            return -1;
        c->extra = nb;
        c->extra_cap = nc;
    }
    memcpy(c->extra + c->extra_len, s, n);
    c->extra_len += n;
    return 0;
}

/* ------------------------------------------------------- event parsing */

/* A syntax error at `at` for the caller's parse to report; returns NULL. */
static const char *bad_syntax(chrome *c, const char *at, const char *msg)
{
    c->sc.status = JS_ERROR;
    c->sc.err_at = at;
    c->sc.err_msg = msg;
    return NULL;
}

/* From just past a key to its value: the ':' and the whitespace around
 * it. Writers put no space before the ':' and one after it ("ph": "X"):
 * that is one two-byte compare; anything else takes the general skips.
 * NULL with JS_MORE or a syntax error. */
static inline __attribute__((always_inline)) const char *
after_key(chrome *c, const char *p, const char *end)
{
    if (end - p >= 3) {
        uint16_t two, want;
        memcpy(&two, p, 2);   /* one load and compare, in any byte order */
        memcpy(&want, ": ", 2);
        if (two == want && (unsigned char)p[2] > ' ')
            return p + 2;
    }
    p = js_skip_ws(p, end);
    if (p == end)
        goto more;
    if (*p != ':')
        return bad_syntax(c, p, "expected ':' after a key");
    p = js_skip_ws(p + 1, end);
    if (p == end)
        goto more;
    return p;
more:
    c->sc.status = JS_MORE;
    return NULL;
}

/* Parse a string-or-number value (pid, tid, id, ts, dur). */
/* Inline: pid, tid, ts, dur and most args values go through it, and the
 * scans it calls are inline fast paths themselves. */
static inline __attribute__((always_inline)) const char *
scan_scalar(chrome *c, const char *p, const char *end, js_str *out, bool *is_str)
{
    if (p < end && *p == '"') {
        *is_str = true;
        return js_scan_string(&c->sc, p, end, out);
    }
    *is_str = false;
    if (p < end && ((*p >= '0' && *p <= '9') || *p == '-'))
        return js_scan_number(&c->sc, p, end, c->w.eof, out);
    if (p == end) {
        c->sc.status = JS_MORE;
        return NULL;
    }
    return bad_syntax(c, p, "expected a number or a string");
}

/* A time member (ts, dur): read at once where it has the usual shape
 * (js_scan_fixed: *fixed set, *ns its nanoseconds), else its span for
 * parse_time() as scan_scalar() finds it. */
static inline __attribute__((always_inline)) const char *
scan_time(chrome *c, const char *p, const char *end, js_str *out, bool *is_str, bool *fixed,
          int64_t *ns)
{
    const char *q = js_scan_fixed(p, end, 3, out, ns);
    *fixed = q != NULL;
    if (q) {
        *is_str = false;
        return q;
    }
    return scan_scalar(c, p, end, out, is_str);
}

/* A numeric argument value (number or numeric string) as int64. */
static bool num_value(const js_str *t, int64_t *out)
{
    return !t->esc && tt_parse_decimal_scaled(t->s, t->n, 0, out) == TT_NUM_OK;
}

/* Well-known argument keys, taken on the way through an args object.
 * `weak` ones only fill a field nothing else has set (MindSpore's "type",
 * Ascend's "Task Type" and MindSpore's scope path yield to the explicit
 * keys). */
typedef enum arg_field {
    AF_NAME, AF_LABELS, AF_SORT, AF_OPCODE, AF_LAYER, AF_OPERAND, AF_BYTES, AF_CORR
} arg_field;

static const struct {
    const char *key;
    size_t      len;
    arg_field   field;
    bool        string_only;
    bool        weak;
} arg_keys[] = {
    {"name", 4, AF_NAME, true, false},
    {"labels", 6, AF_LABELS, true, false},
    {"sort_index", 10, AF_SORT, false, false},
    {"opcode", 6, AF_OPCODE, true, false},
    {"type", 4, AF_OPCODE, true, true},           /* MindSpore op type */
    {"Task Type", 9, AF_OPCODE, true, true},      /* Ascend hardware task type */
    {"hlo_name", 8, AF_LAYER, true, false},
    {"layer", 5, AF_LAYER, true, false},
    {"fullname", 8, AF_LAYER, true, true},        /* MindSpore scope path */
    {"operand", 7, AF_OPERAND, true, false},
    {"tensor", 6, AF_OPERAND, true, false},
    {"bytes", 5, AF_BYTES, false, false},
    {"correlation", 11, AF_CORR, false, false},
    {"correlation_id", 14, AF_CORR, false, false},
};

static void take(js_str *dst, bool *has, const js_str *val, bool weak)
{
    if (weak && *has)
        return;
    *dst = *val;
    *has = true;
}

static void arg_filter_init(arg_filter *f)
{
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < sizeof arg_keys / sizeof arg_keys[0]; i++) {
        unsigned char c0 = (unsigned char)arg_keys[i].key[0];
        f->len |= 1u << arg_keys[i].len;
        f->first[c0 >> 6] |= 1ULL << (c0 & 63);
        f->by_len[arg_keys[i].len] |= (uint16_t)(1u << i);
    }
}

static bool arg_maybe_known(const arg_filter *f, const js_str *key)
{
    unsigned char c0;
    if (key->n >= 32 || !(f->len >> key->n & 1u))
        return false;
    c0 = (unsigned char)key->s[0];
    return f->first[c0 >> 6] >> (c0 & 63) & 1u;
}

/* Note one args member if its key is well known (arg_maybe_known() said
 * it may be: key->n < 32). Only the keys of its length are compared: a
 * key that passed the filter by chance ("stream", "context", "cbid") and
 * "correlation", in every Kineto kernel and runtime call, walked most of
 * the table. */
static void note_arg(const arg_filter *f, cev *ev, const js_str *key, const js_str *val,
                     bool is_str)
{
    _Static_assert(sizeof arg_keys / sizeof arg_keys[0] <= 16, "arg_filter.by_len holds 16 bits");
    for (unsigned m = f->by_len[key->n]; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        bool w = arg_keys[i].weak;
        /* the first byte before memcmp: most args are not well known */
        if (key->s[0] != arg_keys[i].key[0] || memcmp(key->s, arg_keys[i].key, key->n) != 0)
            continue;
        if (arg_keys[i].string_only && !is_str)
            return;
        switch (arg_keys[i].field) {
        case AF_NAME: take(&ev->a_name, &ev->has_a_name, val, w); break;
        case AF_LABELS: take(&ev->a_labels, &ev->has_a_labels, val, w); break;
        case AF_SORT: take(&ev->a_sort, &ev->has_a_sort, val, w); break;
        case AF_OPCODE: take(&ev->opcode, &ev->has_opcode, val, w); break;
        case AF_LAYER: take(&ev->layer, &ev->has_layer, val, w); break;
        case AF_OPERAND: take(&ev->operand, &ev->has_operand, val, w); break;
        case AF_BYTES: num_value(val, &ev->bytes); break;
        case AF_CORR: num_value(val, &ev->corr); break;
        }
        return;
    }
}

/* Whether the string token t, not escaped, holds a NUL byte (which makes
 * the argument store's key summary `any`, see tt_args_note). end: the
 * window's end; a short string is looked at in one load where 16 bytes
 * are there. */
static inline bool str_has_nul(const js_str *t, const char *end)
{
#if defined(__SSE2__)
    if (t->n <= 16 && end - t->s >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)t->s);
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128()));
        return (m & ((1u << t->n) - 1u)) != 0;
    }
#endif
    return t->n && memchr(t->s, 0, t->n) != NULL;
}

/* A string of the args text (key: an object key) into the record's note
 * (tt_args_note): its hash when a key, `any` when it holds a backslash or
 * a NUL byte. */
static inline void note_string(tt_args_note *nt, const js_str *t, const char *end, bool key)
{
    if (nt->any)
        return;
    if (t->esc || str_has_nul(t, end))
        nt->any = true;
    else if (!key)
        return;
    else if (nt->n < TT_ARGS_NOTE_MAX)
        nt->hash[nt->n++] = tt_args_key_hash(t->s, t->n, (size_t)(end - t->s));
    else
        nt->rescan = true;
}

/* Walk the args object once, noting the well-known members, and its keys
 * for the argument store (ev->note). */
static const char *scan_args(chrome *c, const char *p, const char *end, cev *ev)
{
    const char *start = p;
    tt_args_note *nt = &ev->note;
    nt->n = 0;   /* a second "args" member replaces the first */
    nt->any = nt->rescan = false;
    p++;   /* '{' */
    p = js_skip_ws(p, end);
    if (p == end)
        goto more;
    if (*p == '}') {
        p++;
        goto done;
    }
    for (;;) {
        js_str key, val;
        bool is_str;
        p = js_skip_ws(p, end);
        if (p == end)
            goto more;
        if (*p != '"') {
            return bad_syntax(c, p, "expected a string key in args");
        }
        if (!(p = js_scan_string(&c->sc, p, end, &key)))
            return NULL;
        note_string(nt, &key, end, true);
        if (!(p = after_key(c, p, end)))
            return NULL;
        val.n = 0;
        is_str = false;
        if (*p == '"' || (*p >= '0' && *p <= '9') || *p == '-') {
            if (!(p = scan_scalar(c, p, end, &val, &is_str)))
                return NULL;
            if (is_str)
                note_string(nt, &val, end, false);
        } else {
            const char *v = p;
            if (!(p = js_skip_value(&c->sc, p, end, c->w.eof)))
                return NULL;
            /* a nested value with strings (keys, or bytes for `any`):
             * the store scans the text; arrays of numbers ("grid": [1,
             * 1, 1]) and literals hold neither */
            if ((*v == '{' || *v == '[') && memchr(v, '"', (size_t)(p - v)))
                nt->rescan = true;
        }
        if (val.n > 0 && !key.esc)
            if (arg_maybe_known(&c->argf, &key))
                note_arg(&c->argf, ev, &key, &val, is_str);
        /* the usual ',' right after the value, before any whitespace */
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        p = js_skip_ws(p, end);
        if (p == end)
            goto more;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == '}') {
            p++;
            break;
        }
        return bad_syntax(c, p, "expected ',' or '}' in args");
    }
done:
    ev->args = start;
    ev->args_n = (size_t)(p - start);
    return p;
more:
    c->sc.status = JS_MORE;
    return NULL;
}

/* Parse one event object at p ('{'). */
static const char *parse_event(chrome *c, const char *p, const char *end, cev *ev)
{
    memset(ev, 0, CEV_CLEARED);
    ev->at = p;
    ev->bytes = -1;
    ev->corr = 0;
    c->extra_len = 0;
    p++;
    p = js_skip_ws(p, end);
    if (p == end)
        goto more;
    if (*p == '}')
        return p + 1;
    for (;;) {
        js_str key;
        const char *kstart, *vstart;
        bool is_str, known = true;
        p = js_skip_ws(p, end);
        if (p == end)
            goto more;
        if (*p != '"')
            return bad_syntax(c, p, "expected a string key");
        kstart = p;
        if (!(p = js_scan_string(&c->sc, p, end, &key)))
            return NULL;
        if (!(p = after_key(c, p, end)))
            return NULL;
        vstart = p;
        switch (key.esc ? 0 : key.n) {
        case 1:
            if (key.s[0] == 's' && *p == '"') {
                p = js_scan_string(&c->sc, p, end, &ev->scope_s);
                ev->has_scope_s = true;
            } else
                known = false;
            break;
        case 2:
            if (JS_EQ(&key, "ph") && *p == '"') {
                p = js_scan_string(&c->sc, p, end, &ev->ph);
                ev->has_ph = true;
            } else if (JS_EQ(&key, "ts")) {
                p = scan_time(c, p, end, &ev->ts, &ev->ts_str, &ev->ts_fixed, &ev->ts_ns);
                ev->has_ts = true;
            } else if (JS_EQ(&key, "id")) {
                p = scan_scalar(c, p, end, &ev->id, &is_str);
                ev->has_id = true;
            } else if (JS_EQ(&key, "bp") && *p == '"') {
                p = js_scan_string(&c->sc, p, end, &ev->bp);
                ev->has_bp = true;
            } else
                known = false;
            break;
        case 3:
            if (JS_EQ(&key, "pid")) {
                p = scan_scalar(c, p, end, &ev->pid, &is_str);
                ev->has_pid = true;
            } else if (JS_EQ(&key, "tid")) {
                p = scan_scalar(c, p, end, &ev->tid, &is_str);
                ev->has_tid = true;
            } else if (JS_EQ(&key, "cat") && *p == '"') {
                p = js_scan_string(&c->sc, p, end, &ev->cat);
                ev->has_cat = true;
            } else if (JS_EQ(&key, "dur")) {
                p = scan_time(c, p, end, &ev->dur, &ev->dur_str, &ev->dur_fixed, &ev->dur_ns);
                ev->has_dur = true;
            } else if (JS_EQ(&key, "id2") && *p == '{') {
                const char *q = js_skip_value(&c->sc, p, end, c->w.eof);
                if (q) {
                    ev->id2.s = p;
                    ev->id2.n = (size_t)(q - p);
                    ev->has_id2 = true;
                }
                p = q;
            } else
                known = false;
            break;
        case 4:
            if (JS_EQ(&key, "name") && *p == '"') {
                p = js_scan_string(&c->sc, p, end, &ev->name);
                ev->has_name = true;
            } else if (JS_EQ(&key, "args") && *p == '{') {
                p = scan_args(c, p, end, ev);
            } else
                known = false;
            break;
        case 5:
            if (JS_EQ(&key, "scope") && *p == '"') {
                p = js_scan_string(&c->sc, p, end, &ev->scope);
                ev->has_scope = true;
            } else
                known = false;
            break;
        case 7:
            if (JS_EQ(&key, "bind_id")) {
                p = scan_scalar(c, p, end, &ev->bind_id, &is_str);
                ev->has_bind_id = true;
            } else if (JS_EQ(&key, "flow_in") && (*p == 't' || *p == 'f')) {
                ev->flow_in = *p == 't';
                p = js_skip_value(&c->sc, p, end, c->w.eof);
            } else
                known = false;
            break;
        case 8:
            if (JS_EQ(&key, "flow_out") && (*p == 't' || *p == 'f')) {
                ev->flow_out = *p == 't';
                p = js_skip_value(&c->sc, p, end, c->w.eof);
            } else
                known = false;
            break;
        default:
            known = false;
            break;
        }
        if (!known) {
            /* keep unknown members verbatim for the details view */
            p = js_skip_value(&c->sc, vstart, end, c->w.eof);
            if (p && (extra_append(c, c->extra_len ? "," : "{", 1) ||
                      extra_append(c, kstart, (size_t)(p - kstart)))) {
                tt_error_set(c->err, TT_ERR_NOMEM, "out of memory");
                return bad_syntax(c, p, "out of memory");
            }
        }
        if (!p)
            return NULL;
        /* the usual ',' right after the value, before any whitespace */
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        p = js_skip_ws(p, end);
        if (p == end)
            goto more;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == '}')
            break;
        return bad_syntax(c, p, "expected ',' or '}' after an event member");
    }
    if (c->extra_len && extra_append(c, "}", 1)) {
        tt_error_set(c->err, TT_ERR_NOMEM, "out of memory");
        return bad_syntax(c, p, "out of memory");
    }
    return p + 1;
more:
    c->sc.status = JS_MORE;
    return NULL;
}

/* --------------------------------------------------------------- commit */

static int oom(chrome *c)
{
    return tt_error_set(c->err, TT_ERR_NOMEM, "out of memory");
}

static uint32_t group_for(chrome *c, uint32_t pid_id)
{
    uint32_t *g = tt_u64map_get(&c->groups, pid_id), idx;
    if (g)
        return *g;
    idx = tt_trace_group(c->tr, pid_id);
    if (idx == TT_NO_LANE || tt_u64map_put(&c->groups, pid_id, idx))
        return TT_NO_LANE;
    return idx;
}

static uint32_t lane_for(chrome *c, uint32_t pid_id, uint32_t key_id, tt_lane_kind kind)
{
    uint64_t k = ((uint64_t)pid_id << 32 | key_id) * 2 + (uint64_t)kind;
    uint32_t *l = tt_u64map_get(&c->lanes, k), g, idx;
    if (l)
        return *l;
    g = group_for(c, pid_id);
    if (g == TT_NO_LANE)
        return TT_NO_LANE;
    idx = tt_trace_lane(c->tr, g, key_id, kind);
    if (idx == TT_NO_LANE || tt_u64map_put(&c->lanes, k, idx))
        return TT_NO_LANE;
    return idx;
}

/* Text id of a pid/tid/id token: numbers and strings with the same digits
 * name the same thing. */
static uint32_t key_id(chrome *c, bool has, const js_str *t)
{
    if (!has)
        return 0;
    return intern_tok(c, t);
}

/* Times and durations are limited to TT_TIME_LIMIT (model/trace.h). */
/* quoted: given as a JSON string ("ts": "12.5"), which profilers write and
 * which is read as a decimal; a bare JSON number must follow JSON's
 * grammar (no "01", "1.", ".5"). */
static int parse_time(chrome *c, const cev *ev, const js_str *t, bool quoted, const char *what,
                      tt_ns *out)
{
    int rc;
    /* the usual bare number ("3712845164726.318") in one pass */
    if (!quoted && !t->esc && js_number_scaled(t->s, t->n, 3, out) && tt_time_ok(*out))
        return 0;
    rc = !quoted && !js_is_number(t->s, t->n) ? TT_NUM_SYNTAX
                                              : tt_parse_decimal_scaled(t->s, t->n, 3, out);
    if (rc == TT_NUM_OK && !tt_time_ok(*out))
        rc = TT_NUM_RANGE;
    if (rc == TT_NUM_OK && !t->esc)
        return 0;
    {
        char msg[96];
        snprintf(msg, sizeof msg, rc == TT_NUM_RANGE ? "%s out of range" : "invalid %s: expected a number of microseconds", what);
        (void)ev;
        return fail_at(c, t->s, msg);
    }
}

/* Store args and extras; 0 handle when there is nothing to keep. */
static int store_args(chrome *c, const cev *ev, uint32_t *handle)
{
    size_t an = ev->args_n;
    const char *a = ev->args;
    *handle = 0;
    if (an == 2 && a[0] == '{' && a[1] == '}')
        an = 0;
    if (an == 0 && c->extra_len == 0)
        return 0;
    *handle = tt_args_add_noted(c->tr->args, a, an, c->extra, c->extra_len, &ev->note);
    return *handle ? 0 : oom(c);
}

static int set_attrs(chrome *c, const cev *ev, tt_event *e)
{
    tt_attr_tuple t = {0, 0, 0};
    uint32_t id;
    if (!ev->has_opcode && !ev->has_layer && !ev->has_operand)
        return 0;
    if (ev->has_opcode && (t.opcode = intern_tok(c, &ev->opcode)) == TT_STR_ERROR)
        return -1;
    if (ev->has_layer && (t.layer = intern_tok(c, &ev->layer)) == TT_STR_ERROR)
        return -1;
    if (ev->has_operand && (t.operand = intern_tok(c, &ev->operand)) == TT_STR_ERROR)
        return -1;
    id = tt_attrs_intern(c->tr->attrs, t);
    if (id == UINT32_MAX)
        return oom(c);
    e->attrs = id;
    return 0;
}

/* Push a new event on lane with the common fields of ev. */
static int64_t push_common(chrome *c, uint32_t lane, const cev *ev, uint32_t name,
                           uint32_t cat, tt_ns ts, uint8_t kind)
{
    int64_t idx = tt_trace_push_event(c->tr, lane);
    tt_event *e;
    uint32_t args;
    if (idx < 0)
        return oom(c), -1;
    e = &c->tr->lanes[lane].ev[idx];
    e->start = ts;
    e->name = name;
    e->cat = cat;
    e->kind = kind;
    e->bytes = ev->bytes;
    e->corr = ev->corr > 0 && ev->corr <= UINT32_MAX ? (uint32_t)ev->corr : 0;
    if (set_attrs(c, ev, e) || store_args(c, ev, &args))
        return -1;
    c->tr->lanes[lane].ev[idx].args = args;
    c->events++;
    return idx;
}

/* The key's part from the category scope (a string id, so a chunk's
 * keys are translated by the merge: flow_scope_fix). */
static uint64_t flow_scope(uint32_t cat)
{
    return tt_hash_mix(cat + 0x9e37ULL);
}

static uint64_t flow_key(uint32_t cat, const js_str *id)
{
    return tt_hash_bytes(id->s, id->n, 0x5f1d) ^ flow_scope(cat);
}

/* key_cat: the category the key was made with (0 for flow v2). */
static int add_flow_point(chrome *c, uint32_t lane, tt_ns ts, tt_ns dur, uint32_t key_cat,
                          const js_str *id, uint32_t name, uint32_t cat, tt_flow_phase phase,
                          tt_flow_bind bind)
{
    tt_flow_point fp;
    memset(&fp, 0, sizeof fp);
    fp.key = flow_key(key_cat, id);
    fp.ts = ts;
    fp.dur = dur;
    fp.lane = lane;
    fp.name = name;
    fp.cat = cat;
    fp.phase = (uint8_t)phase;
    fp.bind = (uint8_t)bind;
    if (c->chunk && key_cat) {
        /* remember which points the merge must re-key */
        if (tt_grow_one((void **)&c->keyed, &c->cap_keyed, c->n_keyed, sizeof *c->keyed))
            return oom(c);
        c->keyed[c->n_keyed].point = (uint32_t)c->tr->n_flow_points;
        c->keyed[c->n_keyed++].cat = key_cat;
    }
    return tt_trace_flow_point(c->tr, &fp) ? oom(c) : 0;
}

/* Flow v2: an event with bind_id and flow_out starts a flow, flow_in ends
 * one, both make it a step. */
static int add_v2_flow(chrome *c, const cev *ev, uint32_t lane, tt_ns ts, tt_ns dur,
                       uint32_t name, uint32_t cat, tt_flow_bind bind)
{
    tt_flow_phase ph;
    if (!ev->has_bind_id || !(ev->flow_in || ev->flow_out))
        return 0;
    ph = ev->flow_in && ev->flow_out ? TT_FLOW_STEP : ev->flow_out ? TT_FLOW_START : TT_FLOW_END;
    return add_flow_point(c, lane, ts, dur, 0, &ev->bind_id, name, cat, ph, bind);
}

/* Async slices (b/e, S/F) match by (pid, category, id, scope). */
/* The key's part from string ids (so a chunk's keys are translated by the
 * merge: replay_async). */
static uint64_t async_key_ids(uint32_t pid_id, uint32_t cat)
{
    return tt_hash_mix(((uint64_t)pid_id << 32) ^ cat);
}

static uint64_t async_key(chrome *c, const cev *ev, uint32_t pid_id, uint32_t cat)
{
    uint64_t h = async_key_ids(pid_id, cat);
    if (ev->has_id)
        h ^= tt_hash_bytes(ev->id.s, ev->id.n, 1);
    if (ev->has_id2)
        h ^= tt_hash_bytes(ev->id2.s, ev->id2.n, 2);
    if (ev->has_scope)
        h ^= tt_hash_bytes(ev->scope.s, ev->scope.n, 3);
    (void)c;
    return h;
}

static async_stack *async_get(chrome *c, uint64_t key, bool create)
{
    uint32_t *slot = tt_u64map_get(&c->async_map, key);
    async_stack *s;
    if (slot)
        return &c->async[*slot];
    if (!create)
        return NULL;
    if (c->n_async == c->cap_async) {
        size_t nc = c->cap_async ? c->cap_async * 2 : 64;
        async_stack *na = realloc(c->async, nc * sizeof *na);
        if (!na)
            return NULL;
        c->async = na;
        c->cap_async = nc;
    }
    if (tt_u64map_put(&c->async_map, key, (uint32_t)c->n_async))
        return NULL;
    s = &c->async[c->n_async++];
    memset(s, 0, sizeof *s);
    return s;
}

static int async_push(async_stack *s, uint32_t lane, uint32_t idx)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 4;
        uint32_t *ni = realloc(s->idx, nc * sizeof *ni);
        if (!ni)
            return -1;
        s->idx = ni;
        s->cap = nc;
    }
    s->lane = lane;
    s->idx[s->n++] = idx;
    return 0;
}

static int note_async(chrome *c, const async_id *id, tt_ns ts, uint32_t lane, uint32_t ref,
                      bool is_end)
{
    async_op *o;
    if (tt_grow_one((void **)&c->async_ops, &c->cap_async_ops, c->n_async_ops,
                 sizeof *c->async_ops))
        return oom(c);
    o = &c->async_ops[c->n_async_ops++];
    o->id = *id;
    o->ts = ts;
    o->lane = lane;
    o->ref = ref;
    o->is_end = is_end;
    return 0;
}

/* An async begin (b, S): open on the stack of its id. */
static int async_begin(chrome *c, const async_id *id, uint32_t lane, uint32_t idx)
{
    async_stack *s;
    if (c->chunk)
        return note_async(c, id, 0, lane, idx, false);
    if (!(s = async_get(c, id->key, true)) || async_push(s, lane, idx))
        return oom(c);
    return 0;
}

/* An async end (e, F): closes the innermost open slice of its id,
 * preferring one of the same name. */
static int async_end(chrome *c, const async_id *id, uint32_t name, tt_ns ts)
{
    async_stack *s;
    size_t k;
    tt_event *e;
    if (c->chunk)
        return note_async(c, id, ts, 0, name, true);
    s = async_get(c, id->key, false);
    if (!s || s->n == 0) {
        tt_trace_problem(c->tr, TT_PROB_UNMATCHED_END,
                         "async end of '%s' at %lld us with no matching begin",
                         tt_str(c->tr, name), (long long)(ts / 1000));
        return 0;
    }
    k = s->n - 1;
    for (size_t j = s->n; j-- > 0;)
        if (!name || c->tr->lanes[s->lane].ev[s->idx[j]].name == name) {
            k = j;
            break;
        }
    e = &c->tr->lanes[s->lane].ev[s->idx[k]];
    e->dur = ts >= e->start ? ts - e->start : 0;
    memmove(&s->idx[k], &s->idx[k + 1], (s->n - k - 1) * sizeof *s->idx);
    s->n--;
    return 0;
}

/* In chunk mode, remember a metadata assignment for the merge. */
static int note_meta(chrome *c, meta_what what, uint32_t target, uint32_t value, int64_t sort)
{
    meta_op *m;
    if (!c->chunk)
        return 0;
    if (tt_grow_one((void **)&c->meta_ops, &c->cap_meta_ops, c->n_meta_ops, sizeof *c->meta_ops))
        return oom(c);
    m = &c->meta_ops[c->n_meta_ops++];
    m->what = (uint8_t)what;
    m->target = target;
    m->value = value;
    m->sort = sort;
    return 0;
}

/* A name or label from a metadata event's args into *dst. */
static int meta_string(chrome *c, bool has, const js_str *tok, uint32_t *dst, meta_what what,
                       uint32_t target)
{
    uint32_t id;
    if (!has)
        return 0;
    if ((id = intern_tok(c, tok)) == TT_STR_ERROR)
        return -1;
    *dst = id;
    return note_meta(c, what, target, id, 0);
}

/* args.sort_index of a metadata event, when it is a number. */
static int meta_sort(chrome *c, const cev *ev, int64_t *dst, bool *has_dst, meta_what what,
                     uint32_t target)
{
    int64_t v;
    if (ev->has_a_sort && num_value(&ev->a_sort, &v)) {
        *dst = v;
        *has_dst = true;
        return note_meta(c, what, target, 0, v);
    }
    return 0;
}

static int commit_metadata(chrome *c, const cev *ev, uint32_t pid_id, uint32_t tid_id)
{
    const js_str *n = &ev->name;
    if (!ev->has_name)
        return 0;
    if (JS_EQ(n, "process_name") || JS_EQ(n, "process_labels") ||
        JS_EQ(n, "process_sort_index")) {
        uint32_t g = group_for(c, pid_id);
        tt_group *grp;
        if (g == TT_NO_LANE)
            return oom(c);
        grp = &c->tr->groups[g];
        if (JS_EQ(n, "process_name"))
            return meta_string(c, ev->has_a_name, &ev->a_name, &grp->name, META_GROUP_NAME, g);
        if (JS_EQ(n, "process_labels"))
            return meta_string(c, ev->has_a_labels, &ev->a_labels, &grp->labels,
                               META_GROUP_LABELS, g);
        return meta_sort(c, ev, &grp->sort_index, &grp->has_sort, META_GROUP_SORT, g);
    } else if (JS_EQ(n, "thread_name") || JS_EQ(n, "thread_sort_index")) {
        uint32_t l = lane_for(c, pid_id, tid_id, TT_LANE_THREAD);
        tt_lane *lane;
        if (l == TT_NO_LANE)
            return oom(c);
        lane = &c->tr->lanes[l];
        if (JS_EQ(n, "thread_name"))
            return meta_string(c, ev->has_a_name, &ev->a_name, &lane->name, META_LANE_NAME, l);
        return meta_sort(c, ev, &lane->sort_index, &lane->has_sort, META_LANE_SORT, l);
    }
    return 0;
}

static int commit_counter(chrome *c, const cev *ev, uint32_t pid_id, uint32_t name, tt_ns ts)
{
    const char *p, *end;
    uint32_t g, track = name;
    if (!ev->args)
        return 0;
    g = group_for(c, pid_id);
    if (g == TT_NO_LANE)
        return oom(c);
    if (ev->has_id) {
        char buf[512];
        int k = snprintf(buf, sizeof buf, "%s[%.*s]", tt_str(c->tr, name),
                         (int)(ev->id.n > 200 ? 200 : ev->id.n), ev->id.s);
        track = tt_trace_intern(c->tr, buf, (size_t)(k < (int)sizeof buf ? k : (int)sizeof buf - 1));
        if (track == TT_STR_ERROR)
            return oom(c);
    }
    /* the args object is complete in the window: walk its members */
    p = ev->args + 1;
    end = ev->args + ev->args_n;
    for (;;) {
        js_str key, val;
        bool is_str = false;
        double v;
        p = js_skip_ws(p, end);
        if (p >= end || *p != '"')
            break;
        p = js_scan_string(&c->sc, p, end, &key);
        if (!p)
            break;
        p = js_skip_ws(p, end);
        p = js_skip_ws(p + 1, end);   /* ':' checked by scan_args */
        val.n = 0;
        if (*p == '"' || (*p >= '0' && *p <= '9') || *p == '-')
            p = scan_scalar(c, p, end, &val, &is_str);
        else
            p = js_skip_value(&c->sc, p, end, true);
        if (!p)
            break;
        if (val.n && !val.esc && tt_parse_double(val.s, val.n, &v) == TT_NUM_OK) {
            uint32_t kid = intern_tok(c, &key), ci;
            if (kid == TT_STR_ERROR)
                return -1;
            ci = tt_trace_counter(c->tr, g, track, kid);
            if (ci == TT_NO_LANE || tt_trace_counter_push(c->tr, ci, ts, v))
                return oom(c);
        }
        p = js_skip_ws(p, end);
        if (p < end && *p == ',')
            p++;
    }
    return 0;
}

static int add_mark(chrome *c, uint32_t lane, tt_ns ts, uint32_t ref, uint32_t args,
                    bool is_end)
{
    be_mark *m;
    if (c->n_marks == c->cap_marks) {
        size_t nc = c->cap_marks ? c->cap_marks * 2 : 256;
        be_mark *nm = realloc(c->marks, nc * sizeof *nm);
        if (!nm)
            return oom(c);
        c->marks = nm;
        c->cap_marks = nc;
    }
    m = &c->marks[c->n_marks];
    m->ts = ts;
    m->lane = lane;
    m->seq = (uint32_t)c->n_marks;
    m->ref = ref;
    m->args = args;
    m->is_end = is_end;
    c->n_marks++;
    return 0;
}

static int cmp_mark(const void *pa, const void *pb, void *ctx)
{
    const be_mark *a = pa, *b = pb;
    (void)ctx;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int push_open(tt_lane *l, uint32_t idx)
{
    if (l->n_open == l->cap_open) {
        size_t nc = l->cap_open ? l->cap_open * 2 : 16;
        uint32_t *no = realloc(l->open, nc * sizeof *no);
        if (!no)
            return -1;
        l->open = no;
        l->cap_open = nc;
    }
    l->open[l->n_open++] = idx;
    return 0;
}

/* Match B/E per thread in time order (source order on ties). Begins left
 * open stay in lane->open for tt_trace_finalize(). */
static int match_begin_end(chrome *c)
{
    tt_trace *tr = c->tr;
    size_t *start, n = c->n_marks;
    be_mark *sorted;
    if (n == 0)
        return 0;
    start = calloc((size_t)tr->n_lanes + 1, sizeof *start);
    sorted = malloc(n * sizeof *sorted);
    if (!start || !sorted) {
        free(start);
        free(sorted);
        return oom(c);
    }
    /* counting sort by lane, then each lane's marks by time */
    for (size_t i = 0; i < n; i++)
        start[c->marks[i].lane + 1]++;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        start[l + 1] += start[l];
    {
        size_t *fill = calloc((size_t)tr->n_lanes + 1, sizeof *fill);
        if (!fill) {
            free(start);
            free(sorted);
            return oom(c);
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t l = c->marks[i].lane;
            sorted[start[l] + fill[l]++] = c->marks[i];
        }
        free(fill);
    }
    free(c->marks);
    c->marks = NULL;
    c->n_marks = c->cap_marks = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        be_mark *m = sorted + start[l];
        size_t k = start[l + 1] - start[l];
        tt_lane *lane = &tr->lanes[l];
        if (k == 0)
            continue;
        if (tt_sort(m, k, sizeof *m, cmp_mark, NULL)) {
            free(start);
            free(sorted);
            return oom(c);
        }
        for (size_t i = 0; i < k; i++) {
            tt_event *e;
            if (!m[i].is_end) {
                if (push_open(lane, m[i].ref)) {
                    free(start);
                    free(sorted);
                    return oom(c);
                }
                continue;
            }
            if (lane->n_open == 0) {
                tt_trace_problem(tr, TT_PROB_UNMATCHED_END,
                                 "end of '%s' at %lld us with no open begin on its thread",
                                 tt_str(tr, m[i].ref), (long long)(m[i].ts / 1000));
                continue;
            }
            e = &lane->ev[lane->open[--lane->n_open]];
            if (m[i].ref && e->name != m[i].ref)
                tt_trace_problem(tr, TT_PROB_MISMATCHED_END,
                                 "end named '%s' closes begin named '%s'", tt_str(tr, m[i].ref),
                                 tt_str(tr, e->name));
            e->dur = m[i].ts - e->start;   /* >= 0: sorted by time */
            if (!e->args && m[i].args)
                e->args = m[i].args;
        }
    }
    free(start);
    free(sorted);
    return 0;
}

/* Every phase commit_event() knows, drawn or only counted. */
#define KNOWN_PHASES "XBEiIRbSeFnCstfMTpPONDc()Vv"

static void tally(chrome *c, unsigned char ph)
{
    if (c->ph_count[ph]++ == 0)
        c->ph_order[c->n_ph_order++] = ph;
}

static int commit_event(chrome *c, const cev *ev)
{
    unsigned char ph;
    uint32_t pid_id, tid_id, name, cat, lane;
    tt_ns ts = 0, dur = 0;

    if (!ev->has_ph || ev->ph.n == 0) {
        tt_trace_problem(c->tr, TT_PROB_BAD_EVENT, "event without \"ph\" skipped");
        return 0;
    }
    /* "Xfoo" is read as X, as Perfetto does; a longer phase whose first
     * letter means nothing stays unknown */
    ph = (unsigned char)ev->ph.s[0];
    if (ev->ph.n != 1 && (ph == 0 || !strchr(KNOWN_PHASES, ph)))
        ph = '?';
    tally(c, ph);

    if ((pid_id = key_id(c, ev->has_pid, &ev->pid)) == TT_STR_ERROR ||
        (tid_id = key_id(c, ev->has_tid, &ev->tid)) == TT_STR_ERROR)
        return -1;
    name = ev->has_name ? intern_tok(c, &ev->name) : 0;
    cat = ev->has_cat ? intern_tok(c, &ev->cat) : 0;
    if (name == TT_STR_ERROR || cat == TT_STR_ERROR)
        return -1;

    if (ph == 'M')
        return commit_metadata(c, ev, pid_id, tid_id);

    if (!ev->has_ts) {
        tt_trace_problem(c->tr, TT_PROB_BAD_EVENT, "event with ph '%c' and no \"ts\" skipped", ph);
        return 0;
    }
    /* read on the way (js_scan_fixed) where it had the usual shape */
    if (ev->ts_fixed && tt_time_ok(ev->ts_ns))
        ts = ev->ts_ns;
    else if (parse_time(c, ev, &ev->ts, ev->ts_str, "timestamp", &ts))
        return -1;
    if (ev->has_dur && ev->dur_fixed && tt_time_ok(ev->dur_ns))
        dur = ev->dur_ns;
    else if (ev->has_dur && parse_time(c, ev, &ev->dur, ev->dur_str, "duration", &dur))
        return -1;

    switch (ph) {
    case 'X': {
        int64_t idx;
        if ((lane = lane_for(c, pid_id, tid_id, TT_LANE_THREAD)) == TT_NO_LANE)
            return oom(c);
        if ((idx = push_common(c, lane, ev, name, cat, ts, TT_EV_SLICE)) < 0)
            return -1;
        if (dur < 0) {
            tt_trace_problem(c->tr, TT_PROB_NEGATIVE_DURATION, "'%s' has a negative duration",
                             tt_str(c->tr, name));
            c->tr->lanes[lane].ev[idx].flags |= TT_EVF_CLAMPED;
            dur = 0;
        }
        c->tr->lanes[lane].ev[idx].dur = dur;
        return add_v2_flow(c, ev, lane, ts, dur, name, cat, TT_BIND_EXACT);
    }
    case 'B': {
        int64_t idx;
        if ((lane = lane_for(c, pid_id, tid_id, TT_LANE_THREAD)) == TT_NO_LANE)
            return oom(c);
        if ((idx = push_common(c, lane, ev, name, cat, ts, TT_EV_SLICE)) < 0)
            return -1;
        if (add_mark(c, lane, ts, (uint32_t)idx, 0, false))
            return -1;
        /* a B's end is not known yet: bind its flows to the slice at ts */
        return add_v2_flow(c, ev, lane, ts, 0, name, cat, TT_BIND_ENCLOSING);
    }
    case 'E': {
        uint32_t args = 0;
        if ((lane = lane_for(c, pid_id, tid_id, TT_LANE_THREAD)) == TT_NO_LANE)
            return oom(c);
        /* arguments given only at the end still belong to the slice */
        if ((ev->args_n > 2 || c->extra_len) && store_args(c, ev, &args))
            return -1;
        return add_mark(c, lane, ts, name, args, true);
    }
    case 'i':
    case 'I':
    case 'R': {
        uint8_t kind = TT_EV_INSTANT;
        uint32_t lpid = pid_id, ltid = tid_id;
        if (ph == 'R' || (ev->has_scope_s && JS_EQ(&ev->scope_s, "p"))) {
            kind = TT_EV_INSTANT_PROCESS;
            ltid = 0;
        } else if (ev->has_scope_s && JS_EQ(&ev->scope_s, "g")) {
            kind = TT_EV_INSTANT_GLOBAL;
            lpid = ltid = 0;
        }
        if ((lane = lane_for(c, lpid, ltid, TT_LANE_THREAD)) == TT_NO_LANE)
            return oom(c);
        return push_common(c, lane, ev, name, cat, ts, kind) < 0 ? -1 : 0;
    }
    case 'b':
    case 'S':
    case 'e':
    case 'F':
    case 'n': {
        async_id key = {async_key(c, ev, pid_id, cat), pid_id, cat};
        if ((lane = lane_for(c, pid_id, cat, TT_LANE_ASYNC)) == TT_NO_LANE)
            return oom(c);
        if (ph == 'n')
            return push_common(c, lane, ev, name, cat, ts, TT_EV_INSTANT) < 0 ? -1 : 0;
        if (ph == 'b' || ph == 'S') {
            int64_t idx = push_common(c, lane, ev, name, cat, ts, TT_EV_ASYNC);
            if (idx < 0)
                return -1;
            return async_begin(c, &key, lane, (uint32_t)idx);
        }
        return async_end(c, &key, name, ts);
    }
    case 'C':
        return commit_counter(c, ev, pid_id, name, ts);
    case 's':
    case 't':
    case 'f': {
        const js_str *id = ev->has_id ? &ev->id : ev->has_id2 ? &ev->id2 : NULL;
        tt_flow_bind bind;
        tt_flow_phase fph = ph == 's' ? TT_FLOW_START : ph == 't' ? TT_FLOW_STEP : TT_FLOW_END;
        if (!id) {
            tt_trace_problem(c->tr, TT_PROB_BAD_EVENT, "flow event without an id skipped");
            return 0;
        }
        /* s binds to the enclosing slice; f to the next slice unless
         * bp is "e" (enclosing), as chrome://tracing does. */
        bind = TT_BIND_ENCLOSING;
        if (ph == 'f' && !(ev->has_bp && JS_EQ(&ev->bp, "e")))
            bind = TT_BIND_NEXT;
        if ((lane = lane_for(c, pid_id, tid_id, TT_LANE_THREAD)) == TT_NO_LANE)
            return oom(c);
        return add_flow_point(c, lane, ts, 0, cat, id, name, cat, fph, bind);
    }
    case 'T':
    case 'p':
    case 'P':
    case 'O':
    case 'N':
    case 'D':
    case 'c':
    case '(':
    case ')':
    case 'V':
    case 'v':
        /* known phases tracetty does not draw: counted in the phase tally */
        return 0;
    default:
        tt_trace_problem(c->tr, TT_PROB_UNKNOWN_PHASE, "unknown phase \"%.*s\"",
                         (int)(ev->ph.n > 8 ? 8 : ev->ph.n), ev->ph.s);
        return 0;
    }
}

/* ----------------------------------------------------------- top level */

static void report_progress(chrome *c)
{
    if (!c->opts->progress)
        return;
    if (c->mapped)
        c->opts->progress(c->opts->progress_ctx, c->w.base + (int64_t)c->w.pos,
                          (int64_t)c->map_size, c->w.base + (int64_t)c->w.pos, c->events);
    else if (c->tail_in)   /* reading the rest of a mapped file (chrome_window_switch) */
        c->opts->progress(c->opts->progress_ctx, c->w.base + (int64_t)c->w.len,
                          tt_input_file_size(c->in), c->w.base + (int64_t)c->w.pos, c->events);
    else
        c->opts->progress(c->opts->progress_ctx, tt_input_file_pos(c->w.in),
                          tt_input_file_size(c->w.in), c->w.base + (int64_t)c->w.pos,
                          c->events);
}

/* tt_jwin_refill(), but a mapped window holds all there is: its end is
 * the end of data (and its bytes are never moved). */
static int win_refill(chrome *c)
{
    if (c->mapped) {
        /* a read window would drop what lies before pos here, which
         * drop_tail does not count */
        c->map_end_at = c->w.pos;
        c->w.eof = true;
        return 0;
    }
    return tt_jwin_refill(&c->w, c->err);
}

/* Refill the window; on end of data returns 0. */
static int refill(chrome *c)
{
    int rc = win_refill(c);
    if (rc > 0)
        report_progress(c);
    return rc;
}

/* Count the bytes and events in the unparsed tail (for --lenient). */
static int drop_tail(chrome *c, const char *why_at, const char *why)
{
    int64_t off, line, col, dropped = 0;
    uint64_t events = 0;
    bool any = false;
    tt_jwin_position(&c->w, why_at, &off, &line, &col);
    /* consume the rest of the input, counting what is thrown away */
    c->w.pos = 0;
    {
        int64_t from = c->last_good - c->w.base;
        if (c->mapped && from < (int64_t)c->map_end_at)
            from = (int64_t)c->map_end_at;
        const char *p = c->w.data + (from > 0 ? from : 0);
        const char *end = c->w.data + c->w.len;
        /* what is dropped starts at the damaged or partial event: the
         * comma and whitespace after the last complete event are not
         * counted. A read window may have dropped them already, and the
         * parallel chunks hand over after them (chrome_chunks.c); left in
         * the window, they were counted: a damaged event inside a mapped
         * file counted 4 bytes more serially than in parallel. */
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' || *p == ','))
            p++;
        char edge[6];        /* the last bytes before p, then p's first */
        size_t edge_len = 0;
        for (;;) {
            size_t head = (size_t)(end - p) < 3 ? (size_t)(end - p) : 3;
            for (const char *q = p; q < end && !any; q++)
                if (!(*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t' || *q == ',' || *q == 0))
                    any = true;
            /* a rough count of partial or unparsed events: their "ph" keys,
             * also one across the end of the last window, so that the
             * count does not depend on where the reads ended */
            memcpy(edge + edge_len, p, head);
            for (size_t i = 0; i < edge_len && i + 4 <= edge_len + head; i++)
                if (memcmp(edge + i, "\"ph\"", 4) == 0)
                    events++;
            /* then the last 3 bytes read (with a window shorter than
             * that, some are the last window's) */
            edge_len += head;
            if ((size_t)(end - p) >= 3)
                memcpy(edge, end - 3, 3);
            else if (edge_len > 3)
                memmove(edge, edge + edge_len - 3, 3);
            if (edge_len > 3)
                edge_len = 3;
            for (const char *q = p; (q = memchr(q, '"', (size_t)(end - q))) != NULL; q++)
                if (end - q >= 4 && memcmp(q, "\"ph\"", 4) == 0)
                    events++;
            dropped += end - p;
            c->w.pos = c->w.len;
            {
                int rc = win_refill(c);
                if (rc < 0)
                    return -1;
                if (rc == 0)
                    break;
            }
            p = c->w.data;
            end = c->w.data + c->w.len;
        }
    }
    if (any && events == 0)
        events = 1;
    c->info->dropped_bytes = any ? dropped : 0;
    c->info->dropped_events = any ? events : 0;
    if (any)
        tt_trace_problem(c->tr, TT_PROB_DROPPED_TAIL,
                         "%s at line %lld, column %lld: dropped %lld bytes (about %llu events)",
                         why, (long long)line, (long long)col, (long long)dropped,
                         (unsigned long long)events);
    else
        /* every event was complete, only the closing brackets are missing:
         * still a cut-off file, and --lenient says so */
        tt_trace_problem(c->tr, TT_PROB_DROPPED_TAIL,
                         "%s at line %lld, column %lld: every event was complete, nothing "
                         "dropped", why, (long long)line, (long long)col);
    return 0;
}

/* A truncated or broken tail: error, or with --lenient keep what is
 * complete. */
static int cut_off(chrome *c, const char *at, const char *msg)
{
    if (c->opts->lenient)
        return drop_tail(c, at, msg);
    {
        char full[300];
        snprintf(full, sizeof full,
                 "%s: the trace is cut off or damaged after %llu complete events "
                 "(--lenient loads them)", msg, (unsigned long long)c->good_events);
        return fail_at(c, at, full);
    }
}

/* An event that does not fit the window: name the string that makes it so
 * when there is one (at its opening quote), else the event. */
static int too_large(chrome *c, const char *event)
{
    if (c->sc.more_string)
        return fail_at(c, c->sc.more_string,
                       "a string longer than " WINDOW_MAX_TEXT
                       " (the limit for one string value)");
    return fail_at(c, event, "an event larger than " WINDOW_MAX_TEXT " (the limit for one event)");
}

/* Free what the decoder state owns (not the trace, not the window). */
static void chrome_fini(chrome *c)
{
    for (size_t i = 0; i < c->n_async; i++)
        free(c->async[i].idx);
    free(c->async);
    free(c->marks);
    free(c->async_ops);
    free(c->meta_ops);
    free(c->keyed);
    tt_input_close(c->tail_in);
    if (c->map)
        munmap((void *)c->map, c->map_size);
    tt_u64map_fini(&c->lanes);
    tt_u64map_fini(&c->groups);
    tt_u64map_fini(&c->async_map);
    free(c->scratch);
    free(c->extra);
}

/* ------------------------------------------------------ parallel chunks */

struct chrome_chunk {
    chrome       c;          /* chunk mode: its own trace, no window input */
    tt_load_opts opts;       /* the load's, without progress (not thread-safe) */
    tt_load_info info;
    tt_error     err;
    size_t       end;
    size_t       last_end;   /* offset after its last complete event */
    size_t       in_event;   /* the event it stopped in, SIZE_MAX none */
    bool         at_limit;
};

void chrome_chunk_free(chrome_chunk *k)
{
    if (!k)
        return;
    chrome_fini(&k->c);
    tt_trace_free(k->c.tr);
    free(k);
}

/* The serial loop of parse_events() over one chunk, from an event boundary
 * on. It stops quietly at anything but the chunk's end after a comma (']',
 * bad syntax, a failed commit, an event running past the chunk): the
 * serial loop takes over there and says what is wrong. */
chrome_chunk *chrome_chunk_decode(const char *data, size_t size, bool more,
                                  const tt_load_opts *opts)
{
    chrome_chunk *k = calloc(1, sizeof *k);
    chrome *c;
    const char *p, *end = data + size;
    bool need_comma = false;
    if (!k)
        return NULL;
    c = &k->c;
    k->opts = *opts;
    k->opts.progress = NULL;
    c->opts = &k->opts;
    c->info = &k->info;
    c->err = &k->err;
    c->chunk = true;
    arg_filter_init(&c->argf);
    tt_u64map_init(&c->lanes);
    tt_u64map_init(&c->groups);
    tt_u64map_init(&c->async_map);
    /* a window over the chunk, for the parser's end-of-data checks */
    c->w.data = (char *)data;
    c->w.len = c->w.cap = size;
    c->w.eof = !more;
    c->w.line = 1;
    if (!(c->tr = tt_trace_new())) {
        chrome_chunk_free(k);
        return NULL;
    }
    p = data;
    k->in_event = SIZE_MAX;
    for (;;) {
        const char *q;
        cev ev;
        p = js_skip_ws(p, end);
        if (p == end) {
            /* after a comma: where the next chunk's event must begin */
            if (more && !need_comma) {
                k->end = size;
                k->at_limit = true;
            }
            break;
        }
        if (*p == ']')
            break;
        if (need_comma) {
            if (*p != ',')
                break;
            p++;
            need_comma = false;
            continue;
        }
        if (*p != '{')
            break;
        c->sc.status = JS_OK;
        c->sc.more_string = NULL;
        if (!(q = parse_event(c, p, end, &ev)) || commit_event(c, &ev)) {
            k->in_event = (size_t)(p - data);
            break;
        }
        p = q;
        k->end = k->last_end = (size_t)(p - data);
        c->good_events++;
        need_comma = true;
    }
    /* The fragment's last argument block is compressed here, on the
     * worker, not by tt_args_append on the merging thread, which the
     * whole load waits for. A failure leaves the block unflushed: the
     * append tries again and reports it. */
    (void)tt_args_seal(c->tr->args);
    return k;
}

void chrome_chunk_end(const chrome_chunk *k, size_t *end, bool *at_limit, bool *any_events,
                      size_t *in_event)
{
    if (in_event)
        *in_event = k->in_event;
    *end = k->end;
    *at_limit = k->at_limit;
    *any_events = k->c.good_events > 0;
}

/* The chunk's B/E marks after c's, translated, in source order. */
static int merge_marks(chrome *c, const chrome *f, const tt_merge_map *m)
{
    for (size_t i = 0; i < f->n_marks; i++) {
        const be_mark *fm = &f->marks[i];
        uint32_t lane = m->lane[fm->lane];
        uint32_t ref = fm->is_end ? m->str[fm->ref] : (uint32_t)(fm->ref + m->lane_base[fm->lane]);
        if (add_mark(c, lane, fm->ts, ref, fm->args ? fm->args + m->args_base : 0, fm->is_end))
            return -1;
    }
    return 0;
}

/* Async begins and ends matched now, in source order, as the serial decode
 * matches them while reading. */
static int replay_async(chrome *c, const chrome *f, const tt_merge_map *m)
{
    for (size_t i = 0; i < f->n_async_ops; i++) {
        const async_op *o = &f->async_ops[i];
        /* the key made with the chunk's string ids, made with the trace's */
        async_id id = {o->id.key ^ async_key_ids(o->id.pid, o->id.cat) ^
                           async_key_ids(m->str[o->id.pid], m->str[o->id.cat]),
                       m->str[o->id.pid], m->str[o->id.cat]};
        int rc = o->is_end ? async_end(c, &id, m->str[o->ref], o->ts)
                           : async_begin(c, &id, m->lane[o->lane],
                                         (uint32_t)(o->ref + m->lane_base[o->lane]));
        if (rc)
            return -1;
    }
    return 0;
}

/* Metadata names and sort indexes in source order: the last one wins. */
static void replay_meta(chrome *c, const chrome *f, const tt_merge_map *m)
{
    for (size_t i = 0; i < f->n_meta_ops; i++) {
        const meta_op *o = &f->meta_ops[i];
        bool on_lane = o->what == META_LANE_NAME || o->what == META_LANE_SORT;
        tt_group *g = on_lane ? NULL : &c->tr->groups[m->group[o->target]];
        tt_lane *l = on_lane ? &c->tr->lanes[m->lane[o->target]] : NULL;
        switch ((meta_what)o->what) {
        case META_GROUP_NAME: g->name = m->str[o->value]; break;
        case META_GROUP_LABELS: g->labels = m->str[o->value]; break;
        case META_GROUP_SORT: g->sort_index = o->sort; g->has_sort = true; break;
        case META_LANE_NAME: l->name = m->str[o->value]; break;
        case META_LANE_SORT: l->sort_index = o->sort; l->has_sort = true; break;
        }
    }
}

int chrome_chunk_merge(chrome *c, chrome_chunk *k, int64_t base)
{
    chrome *f;
    tt_merge_map m;
    int rc = -1;
    tt_trace *frag;
    if (!k)
        return oom(c);
    f = &k->c;
    frag = f->tr;
    f->tr = NULL;
    if (tt_trace_merge(c->tr, frag, &m, c->err))
        goto out;
    if (merge_marks(c, f, &m) || replay_async(c, f, &m))
        goto out;
    for (size_t i = 0; i < f->n_keyed; i++) {
        /* a flow key made with the chunk's category id, made with the
         * trace's (the point's cat is that category, translated) */
        tt_flow_point *p = &c->tr->flow_points[m.flow_base + f->keyed[i].point];
        uint32_t cat = f->keyed[i].cat;
        p->key ^= flow_scope(cat) ^ flow_scope(m.str[cat]);
    }
    replay_meta(c, f, &m);
    for (int i = 0; i < f->n_ph_order; i++) {
        unsigned char ph = f->ph_order[i];
        if (c->ph_count[ph] == 0)
            c->ph_order[c->n_ph_order++] = ph;
        c->ph_count[ph] += f->ph_count[ph];
    }
    c->events += f->events;
    c->good_events += f->good_events;
    if (f->good_events)
        c->last_good = base + (int64_t)k->last_end;
    rc = 0;
out:
    tt_merge_map_fini(&m);
    chrome_chunk_free(k);
    if (rc && c->err->code == TT_OK)
        oom(c);
    return rc;
}

void chrome_progress(chrome *c, int64_t file_pos, int64_t data_pos)
{
    if (c->opts->progress)
        c->opts->progress(c->opts->progress_ctx, file_pos, tt_input_file_size(c->in), data_pos,
                          c->events);
}

tt_error *chrome_error(chrome *c)
{
    return c->err;
}

void chrome_window_pending(chrome *c, const char **p, size_t *n)
{
    *p = c->w.data + c->w.pos;
    *n = c->w.len - c->w.pos;
}

void chrome_window_release(chrome *c)
{
    tt_jwin *w = &c->w;
    int64_t off, line, col;
    char *nd;
    /* forget what lies before pos, the line count kept (json_window.c) */
    tt_jwin_position(w, w->data + w->pos, &off, &line, &col);
    w->base = off;
    w->line = line;
    w->line_start = off - col + 1;
    w->len = w->pos = 0;
    /* a failed shrink keeps the larger buffer: nothing is lost */
    if (w->cap > WINDOW_KEPT && (nd = realloc(w->data, WINDOW_KEPT + 1)) != NULL) {
        w->data = nd;
        w->cap = WINDOW_KEPT;
    }
}

int64_t chrome_window_line(chrome *c, int64_t *line_start)
{
    int64_t off, line, col;
    tt_jwin_position(&c->w, c->w.data + c->w.pos, &off, &line, &col);
    *line_start = off - col + 1;
    return line;
}

int chrome_window_resume(chrome *c, const char *pending, size_t n, int64_t at, int64_t line,
                         int64_t line_start, bool eof)
{
    if (n > c->w.cap) {
        char *nd = realloc(c->w.data, n + 1);
        if (!nd)
            return oom(c);
        c->w.data = nd;
        c->w.cap = n;
        if (c->w.max < n)
            c->w.max = n;
    }
    if (n)
        memcpy(c->w.data, pending, n);
    c->w.len = n;
    c->w.pos = 0;
    c->w.base = at;
    c->w.line = line;
    c->w.line_start = line_start;
    c->w.eof = eof;
    return 0;
}

int chrome_window_switch(chrome *c, const void *map, size_t size, size_t at, int64_t line,
                         int64_t line_start)
{
    tt_input *tail;
    if (tt_input_open_mem((const char *)map + at, size - at, &tail, c->err)) {
        munmap((void *)map, size);
        return -1;
    }
    c->map = map;
    c->map_size = size;
    c->tail_in = tail;
    c->w.in = tail;
    c->w.len = c->w.pos = 0;
    c->w.base = (int64_t)at;
    c->w.line = line;
    c->w.line_start = line_start;
    /* the chunks did not count the mapping's lines: a position counts
     * them when a message needs one */
    c->w.lines_origin = map;
    c->w.eof = false;
    return 0;
}

int chrome_window_map(chrome *c, const void *map, size_t size, size_t at)
{
    tt_jwin *w = &c->w;
    /* its buffer is not needed until the array ends (window_unmap) */
    free(w->data);
    w->data = (char *)(uintptr_t)map;
    w->len = w->cap = size;
    w->pos = at;
    w->base = 0;
    w->line = 1;
    w->line_start = 0;
    /* not yet: as over a stream, the end of data is found by a refill
     * (win_refill), so every message stays what a read window says */
    w->eof = false;
    c->map = map;
    c->map_size = size;
    c->mapped = true;
    c->map_dropped = 0;
    c->map_end_at = 0;
    return 0;
}

/* Give back the mapped pages before pos, and say how far the load is. */
static void map_step(chrome *c)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), to = c->w.pos / page * page;
    if (to > c->map_dropped)
        madvise((char *)(uintptr_t)c->map + c->map_dropped, to - c->map_dropped, MADV_DONTNEED);
    c->map_dropped = to;
    report_progress(c);
}

/* After the events array: the rest of the mapping is read through a window
 * of its own again, as after the parallel chunks (chrome_window_switch),
 * its lines counted from the mapping when a message needs one. */
static int window_unmap(chrome *c)
{
    tt_jwin *w = &c->w;
    size_t at = w->pos;
    tt_input *tail;
    char *buf;
    if (!(buf = malloc(WINDOW_KEPT + 1)))
        return oom(c);
    if (tt_input_open_mem((const char *)c->map + at, c->map_size - at, &tail, c->err)) {
        free(buf);
        return -1;
    }
    c->mapped = false;
    c->tail_in = tail;
    w->in = tail;
    w->data = buf;
    w->cap = WINDOW_KEPT;
    w->len = w->pos = 0;
    w->base = (int64_t)at;
    w->lines_origin = c->map;
    w->eof = false;
    return 0;
}

/* The thread budget of a load: its own, else the cores it may use. */
static unsigned load_threads(const tt_load_opts *opts)
{
    return opts->threads ? opts->threads : tt_parallel_cores();
}

/* Parse the events array; the window's pos is just after '['. In the bare
 * array form the closing ']' is optional (the Trace Event Format lets a
 * profiler append events and never close the array): there, data ending
 * after a complete event, a comma or whitespace is a complete trace. */
static int parse_events_in(chrome *c, bool bracket_optional)
{
    bool need_comma = false;
    if (c->good_events == 0) {
        /* a large plain file: most of the array in parallel chunks first */
        int64_t resume;
        int rc = chrome_chunks_run(c, c->w.in, c->w.base + (int64_t)c->w.pos,
                                   load_threads(c->opts), c->opts, &resume, &need_comma);
        if (rc < 0)
            return -1;
    }
    for (;;) {
        const char *p = c->w.data + c->w.pos, *end = c->w.data + c->w.len, *q;
        cev ev;
        p = js_skip_ws(p, end);
        if (p == end) {
            int rc;
            c->w.pos = (size_t)(p - c->w.data);   /* whitespace is not kept */
            rc = refill(c);
            if (rc < 0)
                return -1;
            if (rc == 0 && bracket_optional)
                return 0;
            if (rc == 0)
                return cut_off(c, c->w.data + c->w.len,
                               "unexpected end of data inside the events array (missing ']')");
            continue;
        }
        if (*p == ']') {
            c->w.pos = (size_t)(p + 1 - c->w.data);
            return 0;
        }
        if (need_comma) {
            if (*p != ',')
                return cut_off(c, p, "expected ',' or ']' after an event");
            p = js_skip_ws(p + 1, end);
            c->w.pos = (size_t)(p - c->w.data);
            need_comma = false;
            continue;   /* also accepts a trailing comma before ']' */
        }
        if (*p != '{')
            return cut_off(c, p, "expected an event object ('{')");
        c->w.pos = (size_t)(p - c->w.data);
        c->sc.status = JS_OK;
        c->sc.more_string = NULL;
        q = parse_event(c, p, end, &ev);
        if (c->mapped && (q ? (size_t)(q - p) > WINDOW_MAX
                            : c->sc.status == JS_MORE && (size_t)(end - p) >= WINDOW_MAX)) {
            /* larger than a read window may grow: fail as it fails, on
             * the first WINDOW_MAX bytes (too_large names the string
             * that runs past them) */
            c->sc.status = JS_OK;
            c->sc.more_string = NULL;
            q = parse_event(c, p, p + WINDOW_MAX, &ev);
        }
        if (!q) {
            int rc;
            if (c->err->code != TT_OK)
                return -1;
            if (c->sc.status == JS_ERROR)
                return cut_off(c, c->sc.err_at, c->sc.err_msg);
            if (c->w.len - c->w.pos >= WINDOW_MAX)
                return too_large(c, p);
            rc = refill(c);
            if (rc < 0)
                return -1;
            if (rc == 0)
                return cut_off(c, c->w.data + c->w.len, "unexpected end of data inside an event");
            continue;   /* parse the same event again with more data */
        }
        if (commit_event(c, &ev))
            return -1;
        c->w.pos = (size_t)(q - c->w.data);
        c->last_good = c->w.base + (int64_t)c->w.pos;
        c->good_events++;
        need_comma = true;
        if (c->mapped && c->w.pos - c->map_dropped >= MAP_STEP)
            map_step(c);
    }
}

static int parse_events(chrome *c, bool bracket_optional)
{
    int rc = parse_events_in(c, bracket_optional);
    if (rc == 0 && c->mapped)
        rc = window_unmap(c);
    return rc;
}

/* Read one complete metadata value at pos and attach it to tr->meta. */
static int parse_meta_value(chrome *c, const char *key, size_t keylen)
{
    for (;;) {
        const char *p = c->w.data + c->w.pos, *end = c->w.data + c->w.len, *q;
        c->sc.status = JS_OK;
        q = js_skip_value(&c->sc, p, end, c->w.eof);
        if (!q) {
            int rc;
            if (c->sc.status == JS_ERROR)
                return cut_off(c, c->sc.err_at, c->sc.err_msg);
            if (c->w.len - c->w.pos >= META_VALUE_MAX) {
                /* huge metadata (e.g. stack samples): skip it by parsing
                 * in place is not possible; refuse clearly instead */
                return fail_at(c, p, "metadata value too large (over 256 MB)");
            }
            rc = refill(c);
            if (rc < 0)
                return -1;
            if (rc == 0 && c->sc.status == JS_MORE)
                c->w.eof = true;
            continue;
        }
        {
            cJSON *v = cJSON_ParseWithLength(p, (size_t)(q - p));
            char kbuf[256];
            size_t kn = keylen < sizeof kbuf - 1 ? keylen : sizeof kbuf - 1;
            memcpy(kbuf, key, kn);
            kbuf[kn] = '\0';
            if (v) {
                if (strcmp(kbuf, "distributedInfo") == 0) {
                    cJSON *r = cJSON_GetObjectItemCaseSensitive(v, "rank");
                    if (cJSON_IsNumber(r) && r->valuedouble >= 0)
                        c->tr->rank = (int64_t)r->valuedouble;
                }
                cJSON_DeleteItemFromObjectCaseSensitive(c->tr->meta, kbuf);
                cJSON_AddItemToObject(c->tr->meta, kbuf, v);
            }
        }
        c->w.pos = (size_t)(q - c->w.data);
        return 0;
    }
}

/* Make sure at least n bytes after pos are buffered (fewer at end). */
static int ensure(chrome *c, size_t n)
{
    while (c->w.len - c->w.pos < n) {
        int rc = refill(c);
        if (rc <= 0)
            return rc;
    }
    return 1;
}

/* Skip whitespace at pos, refilling; returns the next byte or -1 at end
 * of data, -2 on error. */
static int peek_byte(chrome *c)
{
    for (;;) {
        const char *p = c->w.data + c->w.pos, *end = c->w.data + c->w.len;
        p = js_skip_ws(p, end);
        c->w.pos = (size_t)(p - c->w.data);
        if (p < end)
            return (unsigned char)*p;
        {
            int rc = refill(c);
            if (rc < 0)
                return -2;
            if (rc == 0)
                return -1;
        }
    }
}

static int parse_object_form(chrome *c)
{
    bool first = true;
    c->w.pos++;   /* '{' */
    for (;;) {
        int b = peek_byte(c);
        js_str key;
        const char *p, *q;
        char keybuf[256];
        size_t keylen;
        if (b == -2)
            return -1;
        if (b == -1)
            return cut_off(c, c->w.data + c->w.len, "unexpected end of data (missing '}')");
        if (b == '}') {
            c->w.pos++;
            break;
        }
        if (!first) {
            if (b != ',')
                return cut_off(c, c->w.data + c->w.pos, "expected ',' or '}' in the top-level object");
            c->w.pos++;
            if ((b = peek_byte(c)) == -2)
                return -1;
            if (b == -1)
                return cut_off(c, c->w.data + c->w.len, "unexpected end of data (missing '}')");
        }
        first = false;
        if (b != '"')
            return cut_off(c, c->w.data + c->w.pos, "expected a string key in the top-level object");
        for (;;) {
            p = c->w.data + c->w.pos;
            c->sc.status = JS_OK;
            q = js_scan_string(&c->sc, p, c->w.data + c->w.len, &key);
            if (q)
                break;
            {
                int rc = refill(c);
                if (rc < 0)
                    return -1;
                if (rc == 0)
                    return cut_off(c, c->w.data + c->w.len, "unexpected end of data inside a key");
            }
        }
        keylen = key.n < sizeof keybuf ? key.n : sizeof keybuf;
        memcpy(keybuf, key.s, keylen);
        c->w.pos = (size_t)(q - c->w.data);
        if ((b = peek_byte(c)) == -2)
            return -1;
        if (b != ':')
            return cut_off(c, c->w.data + (b == -1 ? c->w.len : c->w.pos), "expected ':' after a key");
        c->w.pos++;
        if ((b = peek_byte(c)) == -2)
            return -1;
        if (b == -1)
            return cut_off(c, c->w.data + c->w.len, "unexpected end of data after a key");
        if (keylen == 11 && memcmp(keybuf, "traceEvents", 11) == 0) {
            if (b != '[')
                return fail_at(c, c->w.data + c->w.pos, "\"traceEvents\" must be an array");
            c->w.pos++;
            c->saw_trace_events = true;
            c->last_good = c->w.base + (int64_t)c->w.pos;
            if (parse_events(c, false))
                return -1;
            if (c->info->dropped_bytes || c->tr->problems[TT_PROB_DROPPED_TAIL].count)
                return 0;   /* lenient: the rest is gone */
            c->last_good = c->w.base + (int64_t)c->w.pos;
        } else {
            if (parse_meta_value(c, keybuf, keylen))
                return -1;
            if (c->tr->problems[TT_PROB_DROPPED_TAIL].count)
                return 0;
        }
    }
    if (!c->saw_trace_events)
        return tt_error_set(c->err, TT_ERR_FORMAT,
                            "JSON object without a \"traceEvents\" array: not a Chrome trace");
    return 0;
}

static int expect_end(chrome *c)
{
    int b = peek_byte(c);
    if (b == -2)
        return -1;
    if (b != -1) {
        /* NUL padding left by a preallocated file is a cut-off, not junk */
        return cut_off(c, c->w.data + c->w.pos, "unexpected data after the end of the trace");
    }
    return 0;
}

/* Ascend PyTorch profiler traces (trace_view.json) put the NPU's tasks in
 * a process named "Ascend Hardware" without a category: they are device
 * kernels (or copies) for the GPU time breakdown and the rules
 * (analysis/classify.h), as kernel_details.csv says of the same tasks. */
static int ascend_categories(chrome *c)
{
    tt_trace *tr = c->tr;
    uint32_t kernel = 0, copy = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        tt_lane *ln = &tr->lanes[l];
        if (strncasecmp(tt_str(tr, tr->groups[ln->group].name), "Ascend Hardware", 15) != 0)
            continue;
        if (!kernel) {
            kernel = tt_trace_intern_cstr(tr, "kernel");
            copy = tt_trace_intern_cstr(tr, "gpu_memcpy");
            if (kernel == TT_STR_ERROR || copy == TT_STR_ERROR)
                return oom(c);
        }
        for (size_t i = 0; i < ln->n; i++) {
            tt_event *e = &ln->ev[i];
            if (e->cat == 0 && e->kind == TT_EV_SLICE)
                e->cat = strcasestr(tt_str(tr, e->name), "memcpy") ? copy : kernel;
        }
    }
    return 0;
}

static int chrome_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr,
                         tt_load_info *info, tt_error *err)
{
    chrome c;
    int rc = -1, b;
    memset(&c, 0, sizeof c);
    arg_filter_init(&c.argf);
    c.tr = tr;
    c.opts = opts;
    c.info = info;
    c.err = err;
    c.in = in;
    tt_u64map_init(&c.lanes);
    tt_u64map_init(&c.groups);
    tt_u64map_init(&c.async_map);
    tt_error_clear(err);
    if (tt_jwin_init(&c.w, in, WINDOW_INITIAL, WINDOW_MAX, err))
        goto out;
    if (ensure(&c, 3) < 0)
        goto out;
    if (c.w.len >= 3 && memcmp(c.w.data, "\xef\xbb\xbf", 3) == 0)
        c.w.pos = 3;   /* UTF-8 byte order mark */
    b = peek_byte(&c);
    if (b == -2)
        goto out;
    if (b == '{') {
        if (parse_object_form(&c))
            goto out;
    } else if (b == '[') {
        c.w.pos++;
        c.last_good = c.w.base + (int64_t)c.w.pos;
        if (parse_events(&c, true))
            goto out;
    } else {
        fail_at(&c, c.w.data + c.w.pos, "expected '{' or '[' at the start of a Chrome trace");
        goto out;
    }
    if (!tr->problems[TT_PROB_DROPPED_TAIL].count && expect_end(&c))
        goto out;
    if (tt_input_truncated(in)) {
        if (!opts->lenient) {
            tt_error_set(err, TT_ERR_FORMAT,
                         "compressed data ends early: the file is cut off (--lenient loads "
                         "the complete events)");
            goto out;
        }
        if (!tr->problems[TT_PROB_DROPPED_TAIL].count)
            tt_trace_problem(tr, TT_PROB_DROPPED_TAIL, "compressed data ends early");
    }
    if (match_begin_end(&c) || ascend_categories(&c))
        goto out;
    /* phase tally in first-seen order */
    for (int i = 0; i < c.n_ph_order; i++) {
        char ph = (char)c.ph_order[i];
        if (tt_trace_tally_phase(tr, &ph, 1, c.ph_count[c.ph_order[i]])) {
            oom(&c);
            goto out;
        }
    }
    report_progress(&c);
    if (c.tail_in || c.mapped)   /* the input itself was not read to its end */
        tr->source_bytes = c.w.base + (int64_t)c.w.len;
    rc = 0;
out:
    for (size_t i = 0; i < c.n_async; i++) {
        async_stack *s = &c.async[i];
        /* async begins never ended: mark them like unclosed B */
        for (size_t k = 0; rc == 0 && k < s->n; k++)
            if (push_open(&tr->lanes[s->lane], s->idx[k])) {
                rc = oom(&c);
                break;
            }
        free(s->idx);
    }
    c.n_async = 0;
    if (c.mapped)
        c.w.data = NULL;   /* the mapping's, unmapped by chrome_fini */
    tt_jwin_fini(&c.w);
    chrome_fini(&c);
    if (rc != 0 && err->code == TT_OK)
        tt_error_set(err, TT_ERR_FORMAT, "cannot decode the trace");
    return rc;
}

/* Content probe: JSON whose first object looks like a trace event, or an
 * object with "traceEvents". */
static int chrome_probe(const unsigned char *head, size_t n)
{
    size_t i = 0;
    if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        i++;
    if (i == n)
        return 0;
    if (head[i] == '[')
        return 50;
    if (head[i] == '{')
        return tt_probe_has(head, n, "\"traceEvents\"") ? 90 : 20;
    return 0;
}

const tt_decoder tt_decoder_chrome = {
    .name = "chrome-json",
    .description = "Chrome trace-event JSON (PyTorch/Kineto, Ascend, TensorFlow, viztracer)",
    .probe = chrome_probe,
    .decode = chrome_decode,
};
