/* ascend_join.c - kernel_details.csv rows as arguments of trace_view.json's
 * device events (see ascend_join.h).
 *
 * The key is the kernel's name and its start time to the ns. Both files
 * are written by the same profiler pass from the same task records, with
 * the same start in microseconds and three decimals, so the start read by
 * the Ascend CSV decoder (csv_ascend.c, the table is loaded with it) and
 * the one the Chrome decoder reads from "ts" are the same integer; the
 * name tells apart tasks that start together on different streams. The
 * table has no Stream-and-Task-Id pair the timeline always carries in the
 * same form, and matching by order would shift every row after one
 * missing task. Each row joins at most one event (the first in lane order
 * not joined yet), so duplicated rows stay apart.
 *
 * Then a second pass for the rows still unmatched: the HCCL collectives,
 * whose start the table cuts to three decimals where trace_view.json
 * rounds it (1 ns apart in the job_level1 sample of ../shared/traces-next:
 * 3 of rank 0's 191 rows, 1 of rank 1's). Such a row joins an event of
 * its name within +-1 ns not joined yet, only when exactly one exists:
 * with two, the key could pick a neighbouring task of the same name, and
 * the row stays unmatched. Rows left (a timeline cut shorter than the
 * table) are counted; `summary` shows the matched and unmatched counts.
 *
 * Merged arguments: the event's own members, then the row's columns that
 * the event lacks (an existing key wins, so no object has a key twice),
 * copied as text: numbers stay as the table wrote them.
 */
#include "config.h"

#include "decode/ascend_join.h"

#include "decode/decode.h"
#include "decode/json_scan.h"
#include "model/args.h"
#include "util/sort.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct row {
    tt_ns       start;
    const char *name;     /* in the table trace's strings */
    uint32_t    args;     /* handle in the table trace */
    bool        used;
} row;

static int cmp_row(const void *pa, const void *pb, void *ctx)
{
    const row *a = pa, *b = pb;
    (void)ctx;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* A member of an object text: [at, at + n), its key [key, key + klen). */
typedef struct member {
    const char *at, *key;
    size_t      n, klen;
} member;

/* The members of the object text [p, end), up to cap; the count, or -1
 * when it is not an object. */
static long members(const char *p, const char *end, member *m, size_t cap)
{
    js_scanner sc;
    long n = 0;
    memset(&sc, 0, sizeof sc);
    p = js_skip_ws(p, end);
    if (p >= end || *p != '{')
        return -1;
    p = js_skip_ws(p + 1, end);
    if (p < end && *p == '}')
        return 0;
    while (p < end) {
        js_str k;
        const char *at = p;
        if (*p != '"' || !(p = js_scan_string(&sc, p, end, &k)))
            return -1;
        p = js_skip_ws(p, end);
        if (p >= end || *p != ':')
            return -1;
        p = js_skip_ws(p + 1, end);
        if (!(p = js_skip_value(&sc, p, end, true)))
            return -1;
        if ((size_t)n < cap) {
            m[n].at = at;
            m[n].n = (size_t)(p - at);
            m[n].key = k.s;
            m[n].klen = k.n;
        }
        n++;
        p = js_skip_ws(p, end);
        if (p < end && *p == '}')
            return (size_t)n <= cap ? n : -1;
        if (p >= end || *p != ',')
            return -1;
        p = js_skip_ws(p + 1, end);
    }
    return -1;
}

typedef struct buf {
    char  *s;
    size_t n, cap;
} buf;

static int put(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t nc = (b->n + n + 1) * 2;
        char *ns = realloc(b->s, nc);
        if (!ns)
            return -1;
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    return 0;
}

#define MAX_MEMBERS 512

/* Event object a (may be empty) and row object r merged into out: 1 when
 * either is not an object this can merge (the event is then left alone),
 * -1 out of memory. */
static int merge(const char *a, size_t an, const char *r, size_t rn, buf *out, member *ma,
                 member *mr)
{
    long na = an ? members(a, a + an, ma, MAX_MEMBERS) : 0;
    long nr = members(r, r + rn, mr, MAX_MEMBERS);
    bool first = true;
    if (na < 0 || nr < 0)
        return 1;
    out->n = 0;
    if (put(out, "{", 1))
        return -1;
    for (long i = 0; i < na; i++) {
        if ((!first && put(out, ",", 1)) || put(out, ma[i].at, ma[i].n))
            return -1;
        first = false;
    }
    for (long k = 0; k < nr; k++) {
        bool dup = false;
        for (long i = 0; i < na && !dup; i++)
            dup = ma[i].klen == mr[k].klen && memcmp(ma[i].key, mr[k].key, ma[i].klen) == 0;
        if (dup)
            continue;
        if ((!first && put(out, ",", 1)) || put(out, mr[k].at, mr[k].n))
            return -1;
        first = false;
    }
    return put(out, "}", 1);
}

/* The table's rows, sorted by start then name. */
static row *table_rows(const tt_trace *t, size_t *n)
{
    row *v;
    size_t k = 0;
    *n = 0;
    if (!(v = malloc((t->n_events ? t->n_events : 1) * sizeof *v)))
        return NULL;
    for (uint32_t l = 0; l < t->n_lanes; l++)
        for (size_t i = 0; i < t->lanes[l].n && k < t->n_events; i++) {
            const tt_event *e = &t->lanes[l].ev[i];
            v[k].start = e->start;
            v[k].name = tt_str(t, e->name);
            v[k].args = e->args;
            v[k++].used = false;
        }
    tt_sort(v, k, sizeof *v, cmp_row, NULL);
    *n = k;
    return v;
}

/* The first unused row with this start and name, or NULL. */
static row *find_row(row *v, size_t n, tt_ns start, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].start < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && v[lo].start == start; lo++)
        if (!v[lo].used && strcmp(v[lo].name, name) == 0)
            return &v[lo];
    return NULL;
}

static int record(tt_trace *tr, const char *csv_path, uint64_t rows, uint64_t matched)
{
    const char *b = strrchr(csv_path, '/');
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddStringToObject(o, "file", b ? b + 1 : csv_path) ||
        !cJSON_AddNumberToObject(o, "rows", (double)rows) ||
        !cJSON_AddNumberToObject(o, "matched", (double)matched) ||
        !cJSON_AddNumberToObject(o, "unmatched", (double)(rows - matched))) {
        cJSON_Delete(o);
        return -1;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(tr->meta, "kernel_details.csv");
    cJSON_AddItemToObject(tr->meta, "kernel_details.csv", o);
    return 0;
}

/* What joining one row to one event needs. */
typedef struct joiner {
    tt_trace       *tr;
    tt_args_reader  ra, rr;
    buf             out;
    member         *ma, *mr;
} joiner;

/* Join row r to event ev: 1 joined (r used), 0 left apart (the event's
 * arguments are no object the row can merge into), -1 out of memory. */
static int join_one(joiner *j, tt_event *ev, row *r)
{
    const char *a = NULL, *ax = NULL, *b, *bx;
    size_t an = 0, axn = 0, bn, bxn, objn;
    uint32_t h;
    int m;
    if (r->args == 0 || tt_args_read(&j->rr, r->args, &b, &bn, &bx, &bxn) || bn == 0) {
        /* a row without a column to add still matched its event */
        r->used = true;
        return 1;
    }
    if (ev->args && tt_args_read(&j->ra, ev->args, &a, &an, &ax, &axn))
        return 0;
    if ((m = merge(a, an, b, bn, &j->out, j->ma, j->mr)) != 0)
        return m < 0 ? -1 : 0;
    /* the reader's texts may point into the store's open block, which
     * adding to it can move: the extra text is copied out first, after
     * the merged object */
    objn = j->out.n;
    if (axn && put(&j->out, ax, axn))
        return -1;
    if (!(h = tt_args_add(j->tr->args, j->out.s, objn, axn ? j->out.s + objn : NULL, axn)))
        return -1;
    ev->args = h;
    r->used = true;
    return 1;
}

/* An event of the timeline: its lane and index, and whether a row joined it. */
typedef struct evref {
    tt_ns       start;
    const char *name;
    size_t      pos;      /* in lane order: the tie-break */
    uint32_t    lane;
    size_t      i;
    bool        used;
} evref;

static int cmp_ev(const void *pa, const void *pb, void *ctx)
{
    const evref *a = pa, *b = pb;
    (void)ctx;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The second pass: each row still unmatched joins the one event of its
 * name not joined yet whose start is within 1 ns of its own, when there
 * is exactly one such event (two would leave the choice to chance). */
static int join_near(joiner *j, row *v, size_t n, evref *ev, size_t ne, uint64_t *matched)
{
    tt_sort(ev, ne, sizeof *ev, cmp_ev, NULL);
    for (size_t k = 0; k < n; k++) {
        size_t lo = 0, hi = ne, pick = 0, cands = 0;
        if (v[k].used)
            continue;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ev[mid].start < v[k].start - 1)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < ne && ev[lo].start <= v[k].start + 1; lo++)
            if (!ev[lo].used && strcmp(ev[lo].name, v[k].name) == 0) {
                pick = lo;
                cands++;
            }
        if (cands == 1) {
            int rc = join_one(j, &j->tr->lanes[ev[pick].lane].ev[ev[pick].i], &v[k]);
            if (rc < 0)
                return -1;
            if (rc > 0) {
                ev[pick].used = true;
                (*matched)++;
            }
        }
    }
    return 0;
}

int tt_ascend_join(tt_trace *tr, const char *csv_path, tt_ascend_join_stats *st,
                   tt_error *err)
{
    tt_load_opts lo;
    tt_trace *t = NULL;
    tt_error e;
    row *v = NULL;
    evref *ev = NULL;
    size_t n = 0, ne = 0;
    uint64_t matched = 0;
    joiner j;
    int rc = -1;

    memset(&lo, 0, sizeof lo);
    lo.format = "ascend-csv";
    lo.threads = 1;
    tt_error_clear(&e);
    if (tt_load(csv_path, &lo, &t, NULL, &e)) {
        char msg[sizeof err->what];
        tt_error_format(&e, csv_path, msg, sizeof msg);
        return tt_error_set(err, e.code, "%s", msg), -1;
    }
    memset(&j, 0, sizeof j);
    j.tr = tr;
    tt_args_reader_init(&j.ra, tr->args);
    tt_args_reader_init(&j.rr, t->args);
    v = table_rows(t, &n);
    j.ma = malloc(MAX_MEMBERS * sizeof *j.ma);
    j.mr = malloc(MAX_MEMBERS * sizeof *j.mr);
    ev = malloc((tr->n_events ? tr->n_events : 1) * sizeof *ev);
    if (!v || !j.ma || !j.mr || !ev)
        goto oom;
    /* first the exact key: each event, in lane order, takes the first
     * unused row of its start and name */
    for (uint32_t l = 0; l < tr->n_lanes && n; l++) {
        tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n && ne < tr->n_events; i++) {
            row *r = find_row(v, n, ln->ev[i].start, tt_str(tr, ln->ev[i].name));
            int got = r ? join_one(&j, &ln->ev[i], r) : 0;
            if (got < 0)
                goto oom;
            ev[ne].start = ln->ev[i].start;
            ev[ne].name = tt_str(tr, ln->ev[i].name);
            ev[ne].pos = ne;
            ev[ne].lane = l;
            ev[ne].i = i;
            ev[ne++].used = got > 0;
            matched += got > 0;
        }
    }
    if (matched < n && join_near(&j, v, n, ev, ne, &matched))
        goto oom;
    if (record(tr, csv_path, n, matched))
        goto oom;
    if (st) {
        st->rows = n;
        st->matched = matched;
    }
    rc = 0;
    goto out;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
out:
    tt_args_reader_fini(&j.ra);
    tt_args_reader_fini(&j.rr);
    free(j.out.s);
    free(j.ma);
    free(j.mr);
    free(ev);
    free(v);
    tt_trace_free(t);
    return rc;
}
