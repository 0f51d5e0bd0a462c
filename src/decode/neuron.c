/* neuron.c - AWS neuron-profile JSON (`neuron-profile view --output-format
 * json`) and its summary (`--output-format summary-json`).
 *
 * Layout (neuron-profile user guide): a top-level object with "summary"
 * (one object or a list of them: total_time in seconds, event_count,
 * nc_idx, nd_idx and many *_percent / *_count keys) and arrays of event
 * objects such as "instruction": {timestamp, duration (ns), label (the
 * engine), opcode, hlo_name, operands}. The JSON output of other event
 * kinds is not documented publicly; arrays are recognised by their name
 * and fields, with the names of the documented Parquet schema of the same
 * data (DmaPacketAggregated, CcOp, Throttle) accepted as aliases:
 *
 *   instruction  lane per engine "label" (TensorMatrix, Vector, Scalar,
 *                GpSimd, Sync, CC-core N); name = opcode; attributes
 *                opcode, layer = hlo_name, operand = operands
 *   *dma*        lane per queue (queue_name | queue | dma_queue); bytes from
 *                transfer_bytes | size | bytes; name "SRC -> DST" from
 *                source|src and dest|dst; operand = the tensor moved
 *                (variable | tensor | tensor_name), so repeated loads of one
 *                tensor can be found
 *   cc* / *collective*  lanes "CC-core ..." (label | cc_core | core)
 *   *throttl*    lane "Throttle", and a "Throttling" counter (%) from k/n
 *   other arrays of timed objects: one lane per array
 *   arrays of objects with a timestamp but no duration: counter series,
 *                one per numeric field
 * Anything else at the top level becomes metadata. Every event keeps its
 * whole source object as arguments.
 *
 * When the file carries no utilization or DMA counters, they are derived
 * per time bucket, as the neuron web viewer shows them under its timeline:
 * TensorMatrix utilization (% of the bucket the engine is busy), DMA
 * throughput (bytes moved per second, each transfer spread over its
 * duration) and pending DMA count (transfers in flight, averaged over the
 * bucket); they are marked derived.
 *
 * Streaming: the file is read through a window; each array element is
 * parsed in one pass into field spans, so memory stays proportional to the
 * model, not to the file.
 */
#include "config.h"

#include "decode/decode.h"
#include "decode/json_scan.h"
#include "decode/json_window.h"
#include "util/num.h"
#include "util/sort.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define WINDOW_INITIAL ((size_t)1 << 20)
/* One element or metadata value (so any string in it) must fit the
 * window: a stated limit, as in chrome.c, so that a small compressed file
 * holding one huge string fails clearly instead of taking gigabytes.
 * Whitespace between values is consumed before a refill and streams. */
#define WINDOW_MAX ((size_t)256 << 20)
#define WINDOW_MAX_TEXT "256 MB"
#define MAX_FIELDS 64
#define META_ELEMENTS_MAX 100000         /* metadata arrays are cut here */
#define PROGRESS_EVERY ((int64_t)4 << 20)
#define BUCKETS_TARGET 1000

/* ----------------------------------------------------------------- state */

typedef enum arr_kind { A_UNKNOWN = 0, A_META, A_INSTR, A_DMA, A_CC, A_THROTTLE, A_OTHER,
                        A_COUNTER } arr_kind;

typedef struct field {
    js_str key, val;
    char   type;   /* 's' string, 'n' number, 'o' anything else */
} field;

typedef struct span2 {
    tt_ns    s, e;
    int64_t  bytes;
} span2;

typedef struct neuron {
    tt_trace           *tr;
    const tt_load_opts *opts;
    tt_load_info       *info;
    tt_error           *err;
    tt_jwin             w;
    js_scanner          sc;
    uint32_t            group;
    char               *scratch;      /* unescaped strings */
    size_t              scratch_cap;
    /* intervals for the derived counters */
    span2              *tm, *dma;
    size_t              n_tm, cap_tm, n_dma, cap_dma;
    bool                have_util, have_thru, have_pending;   /* counters in the file */
    bool                tm_exact;     /* a lane named TensorMatrix was seen */
    uint64_t            events;
    int64_t             last_progress;
    bool                summary_seen, cut;
    int64_t             nc_idx, nd_idx;
} neuron;

static int oom(neuron *n)
{
    return tt_error_set(n->err, TT_ERR_NOMEM, "out of memory"), -1;
}

static void position(const neuron *n, const char *at, int64_t *off, int64_t *line, int64_t *col)
{
    tt_jwin_position(&n->w, at, off, line, col);
}

static int fail_at(neuron *n, const char *at, const char *msg)
{
    int64_t off, line, col;
    position(n, at, &off, &line, &col);
    return tt_error_at_line(n->err, TT_ERR_FORMAT, off, line, col, "%s", msg), -1;
}

/* The input ended inside a value: an error, or with --lenient the end of
 * what is loaded. Returns 1 when the caller should stop quietly. */
static int ended_early(neuron *n, const char *what)
{
    int64_t off, line, col;
    char msg[160];
    if (!n->opts->lenient) {
        snprintf(msg, sizeof msg, "the file ends inside %s: the trace is cut off (--lenient loads "
                 "the complete events)", what);
        return fail_at(n, n->w.data + n->w.pos, msg);   /* where the value starts */
    }
    position(n, n->w.data + n->w.pos, &off, &line, &col);
    n->info->dropped_bytes = n->w.base + (int64_t)n->w.len - off;
    n->info->dropped_events = 1;
    tt_trace_problem(n->tr, TT_PROB_DROPPED_TAIL, "the file ends inside %s (line %lld)", what,
                     (long long)line);
    n->cut = true;
    return 1;
}

static void progress(neuron *n, bool force)
{
    int64_t pos = n->w.base + (int64_t)n->w.pos;
    if (!n->opts->progress || (!force && pos - n->last_progress < PROGRESS_EVERY))
        return;
    n->last_progress = pos;
    n->opts->progress(n->opts->progress_ctx, tt_input_file_pos(n->w.in),
                      tt_input_file_size(n->w.in), pos, n->events);
}

/* Next non-space byte (not consumed): the byte, -1 at end, -2 on error. */
static int peek(neuron *n)
{
    for (;;) {
        const char *p = js_skip_ws(n->w.data + n->w.pos, n->w.data + n->w.len);
        n->w.pos = (size_t)(p - n->w.data);
        if (n->w.pos < n->w.len)
            return (unsigned char)*p;
        {
            int rc = tt_jwin_refill(&n->w, n->err);
            if (rc < 0)
                return -2;
            if (rc == 0)
                return -1;
        }
    }
}

/* Run scan at the window position until it completes, refilling on MORE.
 * Returns 0 with *s and *e spanning what was consumed (valid until the next
 * refill), 1 when the file ended inside it (lenient stop), -1 on error. */
typedef const char *(*scan_fn)(neuron *n, const char *p, const char *end, bool at_eof, void *out);

static int scan(neuron *n, scan_fn fn, void *out, const char *what, const char **s)
{
    for (;;) {
        const char *p = n->w.data + n->w.pos, *q;
        n->sc.status = JS_OK;
        n->sc.more_string = NULL;
        q = fn(n, p, n->w.data + n->w.len, n->w.eof, out);
        if (q) {
            *s = p;
            n->w.pos = (size_t)(q - n->w.data);
            return 0;
        }
        if (n->sc.status == JS_ERROR)
            return fail_at(n, n->sc.err_at, n->sc.err_msg);
        if (n->w.eof)
            return ended_early(n, what);
        /* the value fills the largest window: name the string that makes
         * it so when there is one (at its opening quote), else the value */
        if (n->w.len - n->w.pos >= WINDOW_MAX) {
            char msg[120];
            if (n->sc.more_string)
                return fail_at(n, n->sc.more_string, "a string longer than " WINDOW_MAX_TEXT
                                                     " (the limit for one string value)");
            snprintf(msg, sizeof msg, "%s larger than " WINDOW_MAX_TEXT " (the limit for one value)",
                     what);
            return fail_at(n, p, msg);
        }
        if (tt_jwin_refill(&n->w, n->err) < 0)
            return -1;
    }
}

static const char *scan_string(neuron *n, const char *p, const char *end, bool at_eof, void *out)
{
    (void)at_eof;
    if (*p != '"') {
        n->sc.status = JS_ERROR;
        n->sc.err_at = p;
        n->sc.err_msg = "expected a string";
        return NULL;
    }
    return js_scan_string(&n->sc, p, end, out);
}

static const char *scan_value(neuron *n, const char *p, const char *end, bool at_eof, void *out)
{
    (void)out;
    return js_skip_value(&n->sc, p, end, at_eof);
}

static const char *more(neuron *n)
{
    n->sc.status = JS_MORE;
    return NULL;
}

static const char *bad(neuron *n, const char *at, const char *msg)
{
    n->sc.status = JS_ERROR;
    n->sc.err_at = at;
    n->sc.err_msg = msg;
    return NULL;
}

typedef struct flat {
    field f[MAX_FIELDS];
    int   n;
} flat;

/* One object, its top-level members collected as spans. */
static const char *scan_flat(neuron *n, const char *p, const char *end, bool at_eof, void *out)
{
    flat *o = out;
    o->n = 0;
    if (*p != '{')
        return bad(n, p, "expected an object");
    p = js_skip_ws(p + 1, end);
    if (p >= end)
        return more(n);
    if (*p == '}')
        return p + 1;
    for (;;) {
        field fl;
        if (*p != '"')
            return bad(n, p, "expected a member name in quotes");
        if (!(p = js_scan_string(&n->sc, p, end, &fl.key)))
            return NULL;
        p = js_skip_ws(p, end);
        if (p >= end)
            return more(n);
        if (*p != ':')
            return bad(n, p, "expected ':' after a member name");
        p = js_skip_ws(p + 1, end);
        if (p >= end)
            return more(n);
        if (*p == '"') {
            fl.type = 's';
            p = js_scan_string(&n->sc, p, end, &fl.val);
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            fl.type = 'n';
            p = js_scan_number(&n->sc, p, end, at_eof, &fl.val);
            if (p && !js_is_number(fl.val.s, fl.val.n))
                return bad(n, fl.val.s, "invalid number");
        } else {
            const char *b = p;
            fl.type = 'o';
            p = js_skip_value(&n->sc, p, end, at_eof);
            if (p) {
                fl.val.s = b;
                fl.val.n = (size_t)(p - b);
                fl.val.esc = false;
            }
        }
        if (!p)
            return NULL;
        if (o->n < MAX_FIELDS)
            o->f[o->n++] = fl;
        p = js_skip_ws(p, end);
        if (p >= end)
            return more(n);
        if (*p == '}')
            return p + 1;
        if (*p != ',')
            return bad(n, p, "expected ',' or '}' in an object");
        p = js_skip_ws(p + 1, end);
        if (p >= end)
            return more(n);
    }
}

/* ------------------------------------------------------------ fields */

static const field *get(const flat *o, const char *key)
{
    size_t k = strlen(key);
    for (int i = 0; i < o->n; i++)
        if (o->f[i].key.n == k && !o->f[i].key.esc && memcmp(o->f[i].key.s, key, k) == 0)
            return &o->f[i];
    return NULL;
}

static const field *get_any(const flat *o, const char *const *keys)
{
    for (int i = 0; keys[i]; i++) {
        const field *f = get(o, keys[i]);
        if (f && !(f->type == 'o' && f->val.n == 4 && memcmp(f->val.s, "null", 4) == 0))
            return f;
    }
    return NULL;
}

/* Integer from a number or a numeric string, times 10^scale. */
static bool field_int(const field *f, int scale, int64_t *out)
{
    if (!f || (f->type != 'n' && f->type != 's') || f->val.esc)
        return false;
    return tt_parse_decimal_scaled(f->val.s, f->val.n, scale, out) == TT_NUM_OK;
}

static bool field_double(const field *f, double *out)
{
    if (!f || (f->type != 'n' && f->type != 's') || f->val.esc)
        return false;
    return tt_parse_double(f->val.s, f->val.n, out) == TT_NUM_OK;
}

/* Text of a field (strings unescaped, numbers as written) into the scratch
 * buffer; NULL when absent. Valid until the next call. */
static const char *field_text(neuron *n, const field *f, size_t *len)
{
    long got;
    if (!f || f->type == 'o')
        return NULL;
    if (f->val.n + 1 > n->scratch_cap) {
        size_t nc = n->scratch_cap ? n->scratch_cap : 256;
        char *nb;
        while (nc < f->val.n + 1)
            nc *= 2;
        nb = realloc(n->scratch, nc);
        if (!nb)
            return NULL;
        n->scratch = nb;
        n->scratch_cap = nc;
    }
    if (f->type == 's' && f->val.esc) {
        got = js_unescape(&n->sc, &f->val, n->scratch, n->scratch_cap);
        if (got < 0)
            return NULL;
    } else {
        memcpy(n->scratch, f->val.s, f->val.n);
        got = (long)f->val.n;
    }
    n->scratch[got] = '\0';
    *len = (size_t)got;
    return n->scratch;
}

static uint32_t intern_field(neuron *n, const field *f)
{
    size_t len;
    const char *s = field_text(n, f, &len);
    if (!f || f->type == 'o')
        return 0;
    if (!s)
        return TT_STR_ERROR;
    return tt_trace_intern(n->tr, s, len);
}

static bool key_has(const js_str *key, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= key->n; i++)
        if (strncasecmp(key->s + i, needle, m) == 0)
            return true;
    return false;
}

static bool key_is(const js_str *key, const char *lit)
{
    return key->n == strlen(lit) && strncasecmp(key->s, lit, key->n) == 0;
}

static const char *const k_time[] = {"timestamp", "start_ts", NULL};
static const char *const k_dur[] = {"duration", "duration_ns", NULL};
static const char *const k_end[] = {"end_ts", NULL};
static const char *const k_queue[] = {"queue_name", "queue", "dma_queue", "queue_id", NULL};
static const char *const k_bytes[] = {"transfer_bytes", "size", "bytes", "size_bytes", NULL};
static const char *const k_src[] = {"source", "src", NULL};
static const char *const k_dst[] = {"dest", "dst", "destination", NULL};
static const char *const k_tensor[] = {"variable", "tensor", "tensor_name", "variable_name", NULL};
static const char *const k_cc_lane[] = {"label", "cc_core", "core", NULL};
static const char *const k_name[] = {"opcode", "op", "name", "cc_type", "type", "label", NULL};

/* Kind of an array from its name and first element. */
static arr_kind classify(const js_str *key, const flat *o)
{
    if (!get_any(o, k_time))
        return A_META;
    if (!get_any(o, k_dur) && !get_any(o, k_end))
        return A_COUNTER;
    if (key_is(key, "instruction") || key_is(key, "instructions"))
        return A_INSTR;
    if (key_has(key, "dma"))
        return A_DMA;
    if (key_has(key, "throttl"))
        return A_THROTTLE;
    if ((key->n >= 2 && strncasecmp(key->s, "cc", 2) == 0) || key_has(key, "collective"))
        return A_CC;
    if (get(o, "opcode") && get(o, "label"))
        return A_INSTR;
    if (get_any(o, k_queue) && get_any(o, k_bytes))
        return A_DMA;
    return A_OTHER;
}

/* ------------------------------------------------------------- events */

static int push_span(span2 **a, size_t *n, size_t *cap, tt_ns s, tt_ns e, int64_t bytes)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        span2 *na = realloc(*a, nc * sizeof *na);
        if (!na)
            return -1;
        *a = na;
        *cap = nc;
    }
    (*a)[*n].s = s;
    (*a)[*n].e = e;
    (*a)[*n].bytes = bytes;
    (*n)++;
    return 0;
}

static uint32_t lane_named(neuron *n, const char *name, size_t len)
{
    uint32_t id = tt_trace_intern(n->tr, name, len), l;
    if (id == TT_STR_ERROR)
        return TT_NO_LANE;
    l = tt_trace_lane(n->tr, n->group, id, TT_LANE_THREAD);
    if (l != TT_NO_LANE)
        n->tr->lanes[l].name = id;
    return l;
}

/* A counter sample array element: every numeric field but the time and
 * indexes becomes a series named after the array. */
static int counter_element(neuron *n, const js_str *key, const flat *o, const char *raw)
{
    int64_t t;
    uint32_t name;
    (void)raw;
    if (!field_int(get_any(o, k_time), 0, &t) || !tt_time_ok(t))
        return 0;
    name = tt_trace_intern(n->tr, key->s, key->n);
    if (name == TT_STR_ERROR)
        return oom(n);
    for (int i = 0; i < o->n; i++) {
        const field *f = &o->f[i];
        double v;
        uint32_t k, c;
        if (f->type != 'n' || f == get_any(o, k_time) || key_has(&f->key, "_idx") ||
            !field_double(f, &v))
            continue;
        k = tt_trace_intern(n->tr, f->key.s, f->key.n);
        c = k == TT_STR_ERROR ? TT_NO_LANE : tt_trace_counter(n->tr, n->group, name, k);
        if (c == TT_NO_LANE || tt_trace_counter_push(n->tr, c, t, v))
            return oom(n);
        if (key_has(&f->key, "util") || key_has(key, "util"))
            n->have_util = true;
        if (key_has(&f->key, "throughput"))
            n->have_thru = true;
        if (key_has(&f->key, "pending") || key_has(key, "pending"))
            n->have_pending = true;
    }
    return 0;
}

static int event_element(neuron *n, arr_kind kind, const js_str *key, const flat *o,
                         const char *raw, size_t raw_n, int64_t *bad_events)
{
    int64_t ts, dur, endv, v;
    uint32_t lane, nameid = 0, cat;
    tt_attr_tuple at = {0, 0, 0};
    tt_event *e;
    int64_t idx;
    char buf[320];
    size_t len;
    const char *s;

    if (!field_int(get_any(o, k_time), 0, &ts) || !tt_time_ok(ts)) {
        (*bad_events)++;
        tt_trace_problem(n->tr, TT_PROB_BAD_EVENT, "%.*s entry without a valid timestamp",
                         (int)(key->n > 40 ? 40 : key->n), key->s);
        return 0;
    }
    if (field_int(get_any(o, k_dur), 0, &dur) && dur <= TT_TIME_LIMIT) {
        /* duration given */
    } else if (field_int(get_any(o, k_end), 0, &endv) && endv >= ts && tt_time_ok(endv) &&
               endv - ts <= TT_TIME_LIMIT) {
        dur = endv - ts;
    } else {
        (*bad_events)++;
        tt_trace_problem(n->tr, TT_PROB_BAD_EVENT, "%.*s entry without a valid duration",
                         (int)(key->n > 40 ? 40 : key->n), key->s);
        return 0;
    }
    if (dur < 0) {
        tt_trace_problem(n->tr, TT_PROB_NEGATIVE_DURATION, "%.*s entry with duration %lld ns",
                         (int)(key->n > 40 ? 40 : key->n), key->s, (long long)dur);
        dur = 0;
    }

    switch (kind) {
    case A_INSTR: {
        const field *label = get(o, "label");
        s = field_text(n, label, &len);
        if (!s) {
            s = "instruction";
            len = strlen(s);
        }
        lane = lane_named(n, s, len);
        if (lane != TT_NO_LANE && strcasestr(s, "tensormatrix")) {
            n->tm_exact = true;
            if (push_span(&n->tm, &n->n_tm, &n->cap_tm, ts, ts + dur, 0))
                return oom(n);
        } else if (lane != TT_NO_LANE && !n->tm_exact && strncasecmp(s, "tensor", 6) == 0) {
            /* without a TensorMatrix row, the Tensor engine stands in */
            if (push_span(&n->tm, &n->n_tm, &n->cap_tm, ts, ts + dur, -1))
                return oom(n);
        }
        at.opcode = intern_field(n, get(o, "opcode"));
        at.layer = intern_field(n, get(o, "hlo_name"));
        at.operand = intern_field(n, get(o, "operands"));
        nameid = at.opcode ? at.opcode : intern_field(n, label);
        cat = tt_trace_intern_cstr(n->tr, "instruction");
        break;
    }
    case A_DMA: {
        const field *q = get_any(o, k_queue), *src = get_any(o, k_src), *dst = get_any(o, k_dst);
        s = field_text(n, q, &len);
        snprintf(buf, sizeof buf, "DMA %.*s", s ? (int)(len > 200 ? 200 : len) : 1, s ? s : "?");
        lane = lane_named(n, buf, strlen(buf));
        if (src && dst) {
            char a[128];
            s = field_text(n, src, &len);
            snprintf(a, sizeof a, "%.*s", s ? (int)(len > 100 ? 100 : len) : 1, s ? s : "?");
            s = field_text(n, dst, &len);
            snprintf(buf, sizeof buf, "%s -> %.*s", a, s ? (int)(len > 100 ? 100 : len) : 1,
                     s ? s : "?");
            nameid = tt_trace_intern_cstr(n->tr, buf);
        } else {
            nameid = intern_field(n, get_any(o, k_name));
            if (!nameid)
                nameid = tt_trace_intern_cstr(n->tr, "dma");
        }
        at.opcode = intern_field(n, get_any(o, (const char *const[]){"op", "opcode", NULL}));
        at.layer = intern_field(n, get(o, "hlo_name"));
        at.operand = intern_field(n, get_any(o, k_tensor));
        cat = tt_trace_intern_cstr(n->tr, "dma");
        break;
    }
    case A_CC: {
        const field *l = get_any(o, k_cc_lane);
        s = field_text(n, l, &len);
        if (s && strncasecmp(s, "cc", 2) == 0)
            snprintf(buf, sizeof buf, "%.*s", (int)(len > 200 ? 200 : len), s);
        else if (s)
            snprintf(buf, sizeof buf, "CC-core %.*s", (int)(len > 200 ? 200 : len), s);
        else
            snprintf(buf, sizeof buf, "CC-core");
        lane = lane_named(n, buf, strlen(buf));
        at.opcode = intern_field(n, get_any(o, (const char *const[]){"opcode", "op", "cc_type", NULL}));
        nameid = at.opcode ? at.opcode : intern_field(n, get_any(o, k_name));
        cat = tt_trace_intern_cstr(n->tr, "collective");
        break;
    }
    case A_THROTTLE: {
        int64_t k, nn;
        lane = lane_named(n, "Throttle", 8);
        /* "throttle <type>": the throttle rule finds events by that word */
        s = field_text(n, get_any(o, (const char *const[]){"type", "name", NULL}), &len);
        snprintf(buf, sizeof buf, "throttle%s%.*s", s ? " " : "", s ? (int)(len > 200 ? 200 : len) : 0,
                 s ? s : "");
        nameid = tt_trace_intern_cstr(n->tr, buf);
        cat = tt_trace_intern_cstr(n->tr, "throttle");
        if (field_int(get(o, "k"), 0, &k) && field_int(get(o, "n"), 0, &nn) && nn > 0 && k >= 0 &&
            k <= nn) {
            /* utilization limit k/n: throttling = 1 - k/n */
            uint32_t name = tt_trace_intern_cstr(n->tr, "Throttling");
            uint32_t unit = tt_trace_intern_cstr(n->tr, "%");
            uint32_t vk = tt_trace_intern_cstr(n->tr, "value");
            uint32_t c = tt_trace_counter(n->tr, n->group, name, vk);
            if (c == TT_NO_LANE || unit == TT_STR_ERROR ||
                tt_trace_counter_push(n->tr, c, ts, 100.0 * (1.0 - (double)k / (double)nn)) ||
                tt_trace_counter_push(n->tr, c, ts + dur, 0.0))
                return oom(n);
            n->tr->counters[c].unit = unit;
        }
        break;
    }
    default: {
        lane = lane_named(n, key->s, key->n);
        nameid = intern_field(n, get_any(o, k_name));
        if (!nameid)
            nameid = tt_trace_intern(n->tr, key->s, key->n);
        cat = tt_trace_intern(n->tr, key->s, key->n);
        break;
    }
    }
    if (lane == TT_NO_LANE || nameid == TT_STR_ERROR || cat == TT_STR_ERROR ||
        at.opcode == TT_STR_ERROR || at.layer == TT_STR_ERROR || at.operand == TT_STR_ERROR)
        return oom(n);
    if (!nameid)
        nameid = tt_trace_intern(n->tr, key->s, key->n);
    idx = tt_trace_push_event(n->tr, lane);
    if (idx < 0)
        return oom(n);
    e = &n->tr->lanes[lane].ev[idx];
    e->start = ts;
    e->dur = dur;
    e->name = nameid;
    e->cat = cat;
    e->kind = TT_EV_SLICE;
    if (at.opcode || at.layer || at.operand) {
        uint32_t id = tt_attrs_intern(n->tr->attrs, at);
        if (id == UINT32_MAX)
            return oom(n);
        e->attrs = id;
    }
    if (kind == A_DMA) {
        if (field_int(get_any(o, k_bytes), 0, &v) && v >= 0)
            e->bytes = v;
        if (push_span(&n->dma, &n->n_dma, &n->cap_dma, ts, ts + dur, e->bytes >= 0 ? e->bytes : 0))
            return oom(n);
    }
    {
        /* the whole source object, for the details view and --by arg: */
        uint32_t h = tt_args_add(n->tr->args, raw, raw_n, NULL, 0);
        if (!h)
            return oom(n);
        n->tr->lanes[lane].ev[idx].args = h;
    }
    n->events++;
    return 0;
}

/* ----------------------------------------------------------- metadata */

/* A complete JSON value, or NULL: cJSON alone stops at the end of the
 * first valid prefix ("1-2" reads as 1). */
static cJSON *parse_span(const char *s, size_t n)
{
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(s, n, &end, 0);
    if (v && end != s + n) {
        cJSON_Delete(v);
        v = NULL;
    }
    return v;
}

static int add_meta(neuron *n, const char *key, size_t keyn, cJSON *v)
{
    char k[256];
    snprintf(k, sizeof k, "%.*s", (int)(keyn > 255 ? 255 : keyn), key);
    cJSON_DeleteItemFromObjectCaseSensitive(n->tr->meta, k);
    if (!cJSON_AddItemToObject(n->tr->meta, k, v)) {
        cJSON_Delete(v);
        return oom(n);
    }
    return 0;
}

/* A core or device index from the summary; -1 unless a plausible one (a
 * huge double must not be converted: that is undefined behaviour). */
static int64_t core_index(const cJSON *v)
{
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1e6))
        return -1;
    return (int64_t)v->valuedouble;
}

/* A summary object: its keys go to the top level of the metadata; nc/nd
 * name the group. */
static int take_summary(neuron *n, cJSON *obj)
{
    cJSON *it, *next;
    for (it = obj->child; it; it = next) {
        next = it->next;
        if (!it->string)
            continue;
        if (strcmp(it->string, "nc_idx") == 0)
            n->nc_idx = core_index(it);
        if (strcmp(it->string, "nd_idx") == 0)
            n->nd_idx = core_index(it);
        cJSON_DetachItemViaPointer(obj, it);
        if (add_meta(n, it->string, strlen(it->string), it))
            return -1;
    }
    n->summary_seen = true;
    return 0;
}

static int meta_value(neuron *n, const js_str *key, cJSON *v)
{
    /* summary-json writes the summary keys at the top level */
    if (key_is(key, "total_time"))
        n->summary_seen = true;
    if (key_is(key, "nc_idx"))
        n->nc_idx = core_index(v);
    if (key_is(key, "nd_idx"))
        n->nd_idx = core_index(v);
    if (key_is(key, "summary")) {
        if (cJSON_IsObject(v)) {
            int rc = take_summary(n, v);
            cJSON_Delete(v);
            return rc;
        }
        if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 1 && cJSON_IsObject(v->child)) {
            int rc = take_summary(n, v->child);
            cJSON_Delete(v);
            return rc;
        }
        n->summary_seen = true;
    }
    return add_meta(n, key->s, key->n, v);
}

/* ---------------------------------------------------------- top level */

static int parse_array(neuron *n, const js_str *key_in)
{
    char keybuf[256];
    js_str key;
    arr_kind kind = A_UNKNOWN;
    cJSON *meta = NULL;
    int64_t bad_events = 0, elements = 0;
    int c, rc;

    /* the key points into the window, which moves: keep a copy */
    key.n = key_in->n < sizeof keybuf ? key_in->n : sizeof keybuf - 1;
    memcpy(keybuf, key_in->s, key.n);
    keybuf[key.n] = '\0';
    key.s = keybuf;
    key.esc = false;

    n->w.pos++;   /* '[' */
    c = peek(n);
    if (c == ']') {
        n->w.pos++;
        return 0;
    }
    for (;;) {
        if (c == -2)
            return -1;
        if (c == -1) {
            rc = ended_early(n, "an array");
            cJSON_Delete(meta);
            return rc > 0 ? 1 : -1;
        }
        if (c == '{' && kind != A_META) {
            flat o;
            const char *s;
            rc = scan(n, scan_flat, &o, "an array element", &s);
            if (rc) {
                cJSON_Delete(meta);
                return rc;
            }
            if (kind == A_UNKNOWN) {
                kind = classify(&key, &o);
                if (kind == A_META) {
                    meta = cJSON_CreateArray();
                    if (!meta)
                        return oom(n);
                }
            }
            if (kind == A_META) {
                cJSON *v = parse_span(s, (size_t)(n->w.data + n->w.pos - s));
                if (!v) {
                    cJSON_Delete(meta);
                    return fail_at(n, s, "invalid JSON value");
                }
                cJSON_AddItemToArray(meta, v);
            } else if (kind == A_COUNTER) {
                if (counter_element(n, &key, &o, s))
                    return -1;
            } else if (event_element(n, kind, &key, &o, s, (size_t)(n->w.data + n->w.pos - s),
                                     &bad_events)) {
                return -1;
            }
            elements++;
            progress(n, false);
        } else {
            const char *s;
            rc = scan(n, scan_value, NULL, "an array element", &s);
            if (rc) {
                cJSON_Delete(meta);
                return rc;
            }
            if (kind == A_UNKNOWN) {
                kind = A_META;
                meta = cJSON_CreateArray();
                if (!meta)
                    return oom(n);
            }
            if (kind == A_META && elements < META_ELEMENTS_MAX) {
                cJSON *v = parse_span(s, (size_t)(n->w.data + n->w.pos - s));
                if (!v) {
                    cJSON_Delete(meta);
                    return fail_at(n, s, "invalid JSON value");
                }
                cJSON_AddItemToArray(meta, v);
            } else if (kind != A_META) {
                bad_events++;
                tt_trace_problem(n->tr, TT_PROB_BAD_EVENT, "%s entry that is not an object",
                                 keybuf);
            }
            elements++;
        }
        c = peek(n);
        if (c == ',') {
            n->w.pos++;
            c = peek(n);
            continue;
        }
        if (c == ']') {
            n->w.pos++;
            break;
        }
        if (c >= 0) {
            cJSON_Delete(meta);
            return fail_at(n, n->w.data + n->w.pos, "expected ',' or ']' in an array");
        }
    }
    if (kind != A_META && kind != A_UNKNOWN && kind != A_COUNTER) {
        char ph[300];
        snprintf(ph, sizeof ph, "%s", keybuf);
        if (tt_trace_tally_phase(n->tr, ph, strlen(ph), (uint64_t)(elements - bad_events)))
            return oom(n);
    }
    if (meta)
        return meta_value(n, &key, meta);
    return 0;
}

static int parse_top(neuron *n)
{
    int c = peek(n);
    if (c == -2)
        return -1;
    if (c == '[') {
        /* a bare list: summaries (summary-json of several cores) */
        js_str key = {"summary", 7, false};
        return parse_array(n, &key) < 0 ? -1 : 0;
    }
    if (c != '{')
        return c < 0 ? (tt_error_set(n->err, TT_ERR_FORMAT, "empty file"), -1)
                     : fail_at(n, n->w.data + n->w.pos, "expected '{' at the start of a "
                                                       "neuron-profile JSON file");
    n->w.pos++;
    c = peek(n);
    if (c == '}') {
        n->w.pos++;
        return 0;
    }
    for (;;) {
        js_str key;
        char keybuf[256];
        const char *s;
        int rc;
        if (c == -2)
            return -1;
        if (c == -1)
            return ended_early(n, "the top-level object") > 0 ? 0 : -1;
        rc = scan(n, scan_string, &key, "a member name", &s);
        if (rc)
            return rc > 0 ? 0 : -1;
        key.n = key.n < sizeof keybuf ? key.n : sizeof keybuf - 1;
        memcpy(keybuf, key.s, key.n);
        keybuf[key.n] = '\0';
        key.s = keybuf;
        c = peek(n);
        if (c != ':') {
            if (c == -1)
                return ended_early(n, "the top-level object") > 0 ? 0 : -1;
            return c == -2 ? -1 : fail_at(n, n->w.data + n->w.pos, "expected ':' after a member name");
        }
        n->w.pos++;
        c = peek(n);
        if (c == '[') {
            rc = parse_array(n, &key);
            if (rc < 0)
                return -1;
            if (rc > 0)
                return 0;
        } else if (c >= 0) {
            cJSON *v;
            rc = scan(n, scan_value, NULL, "a value", &s);
            if (rc)
                return rc > 0 ? 0 : -1;
            v = parse_span(s, (size_t)(n->w.data + n->w.pos - s));
            if (!v)
                return fail_at(n, s, "invalid JSON value");
            if (meta_value(n, &key, v))
                return -1;
        } else {
            return c == -2 ? -1 : (ended_early(n, "the top-level object") > 0 ? 0 : -1);
        }
        c = peek(n);
        if (c == ',') {
            n->w.pos++;
            c = peek(n);
            continue;
        }
        if (c == '}') {
            n->w.pos++;
            return 0;
        }
        if (c == -1)
            return ended_early(n, "the top-level object") > 0 ? 0 : -1;
        return c == -2 ? -1 : fail_at(n, n->w.data + n->w.pos, "expected ',' or '}'");
    }
}

/* ----------------------------------------------------- derived counters */

static int cmp_span(const void *pa, const void *pb, void *ctx)
{
    const span2 *a = pa, *b = pb;
    (void)ctx;
    return a->s < b->s ? -1 : a->s > b->s;
}

/* 1, 2 or 5 times a power of ten, at least x. */
static int64_t nice_ceil(int64_t x)
{
    int64_t p = 1;
    while (p < x / 10 + 1 && p <= INT64_MAX / 10)
        p *= 10;
    for (;;) {
        if (p >= x)
            return p;
        if (2 * p >= x)
            return 2 * p;
        if (5 * p >= x)
            return 5 * p;
        if (p > INT64_MAX / 10)
            return p;
        p *= 10;
    }
}

typedef struct buckets {
    tt_ns   t0, width;
    size_t  n;
    double *v;
} buckets;

/* Add `amount` per ns of [s, e) into the buckets it covers. */
static void spread(buckets *b, tt_ns s, tt_ns e, double per_ns)
{
    size_t i;
    if (e <= s)
        return;
    i = (size_t)((s - b->t0) / b->width);
    for (; i < b->n; i++) {
        tt_ns bs = b->t0 + (tt_ns)i * b->width, be = bs + b->width;
        tt_ns lo = s > bs ? s : bs, hi = e < be ? e : be;
        if (lo >= e)
            break;
        if (hi > lo)
            b->v[i] += per_ns * (double)(hi - lo);
    }
}

static int emit_counter(neuron *n, const char *name, const char *unit, const buckets *b,
                        tt_ns t_end, double scale_by_width)
{
    tt_trace *tr = n->tr;
    uint32_t nm = tt_trace_intern_cstr(tr, name), vk = tt_trace_intern_cstr(tr, "value");
    uint32_t un = tt_trace_intern_cstr(tr, unit), c;
    if (nm == TT_STR_ERROR || vk == TT_STR_ERROR || un == TT_STR_ERROR)
        return oom(n);
    c = tt_trace_counter(tr, n->group, nm, vk);
    if (c == TT_NO_LANE)
        return oom(n);
    tr->counters[c].unit = un;
    tr->counters[c].derived = true;
    for (size_t i = 0; i < b->n; i++) {
        tt_ns bs = b->t0 + (tt_ns)i * b->width;
        tt_ns w = bs + b->width > t_end ? t_end - bs : b->width;
        double v = w > 0 ? b->v[i] * scale_by_width / (double)w : 0.0;
        if (tt_trace_counter_push(tr, c, bs, v))
            return oom(n);
    }
    /* close the step at the end of the data */
    if (tt_trace_counter_push(tr, c, t_end, 0.0))
        return oom(n);
    return 0;
}

static int derive_counters(neuron *n)
{
    tt_ns t0 = INT64_MAX, t1 = INT64_MIN;
    buckets b;
    int rc = 0;
    bool want_util = !n->have_util && n->n_tm > 0;
    bool want_dma = n->n_dma > 0 && (!n->have_thru || !n->have_pending);
    if (!want_util && !want_dma)
        return 0;
    for (uint32_t l = 0; l < n->tr->n_lanes; l++) {
        const tt_lane *ln = &n->tr->lanes[l];
        if (ln->group != n->group)
            continue;
        for (size_t i = 0; i < ln->n; i++) {
            if (ln->ev[i].start < t0)
                t0 = ln->ev[i].start;
            if (tt_event_end(&ln->ev[i]) > t1)
                t1 = tt_event_end(&ln->ev[i]);
        }
    }
    if (t0 >= t1)
        return 0;
    b.t0 = t0;
    b.width = nice_ceil((t1 - t0 + BUCKETS_TARGET - 1) / BUCKETS_TARGET);
    if (b.width < 1)
        b.width = 1;
    b.n = (size_t)((t1 - t0 + b.width - 1) / b.width);
    b.v = calloc(b.n + 1, sizeof *b.v);
    if (!b.v)
        return oom(n);

    if (want_util) {
        /* union of the TensorMatrix busy intervals, by bucket (exact
         * TensorMatrix rows win over a plain Tensor engine stand-in) */
        size_t k = 0;
        tt_ns cs = 0, ce = INT64_MIN;
        for (size_t i = 0; i < n->n_tm; i++)
            if (!n->tm_exact || n->tm[i].bytes == 0)
                n->tm[k++] = n->tm[i];
        n->n_tm = k;
        tt_sort(n->tm, n->n_tm, sizeof *n->tm, cmp_span, NULL);
        for (size_t i = 0; i < n->n_tm; i++) {
            if (n->tm[i].s > ce) {
                if (ce > cs)
                    spread(&b, cs, ce, 1.0);
                cs = n->tm[i].s;
                ce = n->tm[i].e;
            } else if (n->tm[i].e > ce) {
                ce = n->tm[i].e;
            }
        }
        if (ce > cs)
            spread(&b, cs, ce, 1.0);
        rc = emit_counter(n, "TensorMatrix Utilization", "%", &b, t1, 100.0);
        memset(b.v, 0, b.n * sizeof *b.v);
    }
    if (rc == 0 && want_dma && !n->have_thru) {
        for (size_t i = 0; i < n->n_dma; i++) {
            const span2 *d = &n->dma[i];
            if (d->e > d->s) {
                spread(&b, d->s, d->e, (double)d->bytes / (double)(d->e - d->s));
            } else {
                size_t at = (size_t)((d->s - b.t0) / b.width);
                if (at < b.n)
                    b.v[at] += (double)d->bytes;
            }
        }
        /* bytes per bucket / bucket seconds */
        rc = emit_counter(n, "DMA Throughput", "B/s", &b, t1, 1e9);
        memset(b.v, 0, b.n * sizeof *b.v);
    }
    if (rc == 0 && want_dma && !n->have_pending) {
        for (size_t i = 0; i < n->n_dma; i++)
            spread(&b, n->dma[i].s, n->dma[i].e, 1.0);
        rc = emit_counter(n, "Pending DMA Count", "", &b, t1, 1.0);
    }
    free(b.v);
    return rc;
}

/* ---------------------------------------------------------------- entry */

static int neuron_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                         tt_error *err)
{
    neuron n;
    int rc = -1;
    uint32_t gkey;
    memset(&n, 0, sizeof n);
    n.tr = tr;
    n.opts = opts;
    n.info = info;
    n.err = err;
    n.nc_idx = n.nd_idx = -1;
    if (tt_jwin_init(&n.w, in, WINDOW_INITIAL, WINDOW_MAX, err))
        return -1;
    gkey = tt_trace_intern_cstr(tr, "neuron");
    n.group = gkey == TT_STR_ERROR ? TT_NO_LANE : tt_trace_group(tr, gkey);
    if (n.group == TT_NO_LANE) {
        oom(&n);
        goto out;
    }
    if (tt_jwin_refill(&n.w, err) < 0)
        goto out;
    if (n.w.len >= 3 && memcmp(n.w.data, "\xef\xbb\xbf", 3) == 0)
        n.w.pos = 3;
    if (parse_top(&n))
        goto out;
    if (!n.cut) {
        int c = peek(&n);
        if (c == -2)
            goto out;
        if (c >= 0) {
            fail_at(&n, n.w.data + n.w.pos, "unexpected data after the end of the JSON document");
            goto out;
        }
        if (tt_input_truncated(in)) {
            if (!opts->lenient) {
                tt_error_set(err, TT_ERR_FORMAT, "compressed data ends early: the file is cut off "
                                                 "(--lenient loads the complete events)");
                goto out;
            }
            tt_trace_problem(tr, TT_PROB_DROPPED_TAIL, "compressed data ends early");
        }
    }
    {
        /* name the core the profile ran on */
        char name[64], labels[64];
        tt_group *g = &tr->groups[n.group];
        if (n.nc_idx >= 0)
            snprintf(name, sizeof name, "NeuronCore %lld", (long long)n.nc_idx);
        else
            snprintf(name, sizeof name, "NeuronCore");
        g->name = tt_trace_intern_cstr(tr, name);
        if (n.nd_idx >= 0) {
            snprintf(labels, sizeof labels, "NeuronDevice %lld", (long long)n.nd_idx);
            g->labels = tt_trace_intern_cstr(tr, labels);
        }
        if (g->name == TT_STR_ERROR || g->labels == TT_STR_ERROR) {
            oom(&n);
            goto out;
        }
    }
    if (derive_counters(&n))
        goto out;
    if (n.events == 0 && !n.cut)
        snprintf(tr->note, sizeof tr->note, "%s",
                 n.summary_seen ? "neuron-profile summary only: no events to show (the full "
                                  "timeline is in `neuron-profile view --output-format json`)"
                                : "no timed events in this neuron-profile JSON");
    progress(&n, true);
    rc = 0;
out:
    tt_jwin_fini(&n.w);
    free(n.scratch);
    free(n.tm);
    free(n.dma);
    return rc;
}

/* ---------------------------------------------------------------- probe */

/* Whether a top-level object in head has an array of entries the decoder
 * classifies as neuron events (instructions, DMA, collectives, throttling:
 * timestamp and duration, with neuron's array names or fields). Members
 * are walked in order, as far as the head goes: a file that starts with a
 * large "dma" array (keys in alphabetical order) shows neither
 * "instruction" nor "summary" in its head. */
static bool probe_entries(const unsigned char *head, size_t len)
{
    const char *p = (const char *)head, *end = p + len;
    neuron n;
    flat o;
    memset(&n, 0, sizeof n);
    p = js_skip_ws(p, end);
    if (p == end || *p != '{')
        return false;
    p = js_skip_ws(p + 1, end);
    while (p < end && *p == '"') {
        js_str key;
        if (!(p = js_scan_string(&n.sc, p, end, &key)))
            return false;
        p = js_skip_ws(p, end);
        if (p == end || *p != ':')
            return false;
        p = js_skip_ws(p + 1, end);
        if (p < end && *p == '[') {
            const char *q = js_skip_ws(p + 1, end);
            if (q < end && *q == '{' && scan_flat(&n, q, end, false, &o)) {
                arr_kind k = classify(&key, &o);
                if (k == A_INSTR || k == A_DMA || k == A_CC || k == A_THROTTLE)
                    return true;
            }
        }
        if (!(p = js_skip_value(&n.sc, p, end, false)))
            return false;   /* past the head, or not JSON */
        p = js_skip_ws(p, end);
        if (p == end || *p != ',')
            return false;
        p = js_skip_ws(p + 1, end);
    }
    return false;
}

static int neuron_probe(const unsigned char *head, size_t n)
{
#define HAS(lit) tt_probe_has(head, n, "\"" lit "\"")
    size_t i = 0;
    int score = 0;
    while (i < n && isspace(head[i]))
        i++;
    if (i == n || (head[i] != '{' && head[i] != '[') || HAS("traceEvents"))
        score = 0;
    else if (HAS("instruction") && (HAS("timestamp") || HAS("summary")))
        score = 98;
    else if ((HAS("summary") && HAS("timestamp") && HAS("duration")) || probe_entries(head, n))
        score = 95;
    /* summary-json: a flat object of profile metrics */
    else if (HAS("total_time") &&
             (HAS("neuroncore_cycle_count") || tt_probe_has(head, n, "_engine_") ||
              HAS("nc_idx") || HAS("profiler_version") || HAS("dma_transfer_count")))
        score = 90;
    return score;
#undef HAS
}

const tt_decoder tt_decoder_neuron = {
    .name = "neuron-json",
    .description = "AWS neuron-profile JSON (view --output-format json / summary-json)",
    .probe = neuron_probe,
    .decode = neuron_decode,
};
