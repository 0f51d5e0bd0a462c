/* select.c - selections: window resolution, lane sets, events in a window
 * (see select.h). */
#include "config.h"

#include "analysis/select.h"

#include "util/num.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

int tt_sel_lane_events(const tt_trace *tr, const tt_sel *sel, uint32_t lane, tt_idxbuf *buf)
{
    const tt_lane *ln = &tr->lanes[lane];
    buf->n = 0;
    if (ln->n == 0)
        return 0;
    /* A lane wholly inside the window (the common full-range select):
     * every event is in, no tree walk needed. All starts are in [from, to)
     * and nothing ends after `to`; with an inclusive end, events starting
     * at `to` then have zero length and are in too. */
    if (ln->ev[0].start >= sel->from && sel->from < sel->to &&
        (ln->ev[ln->n - 1].start < sel->to ||
         (sel->to_inclusive && ln->ev[ln->n - 1].start == sel->to)) &&
        tt_index_prefix_max_end(ln->ev, ln->n, ln->n - 1) <= sel->to) {
        if (buf->cap < ln->n) {
            uint32_t *nv = realloc(buf->v, ln->n * sizeof *nv);
            if (!nv)
                return -1;
            buf->v = nv;
            buf->cap = ln->n;
        }
        for (size_t i = 0; i < ln->n; i++)
            buf->v[i] = (uint32_t)i;
        buf->n = ln->n;
        return 0;
    }
    if (tt_index_overlap(ln->ev, ln->n, sel->from, sel->to, buf))
        return -1;
    if (sel->to_inclusive) {
        /* Zero-length events at exactly `to` sort after every overlapping
         * event (those start before `to`), so appending keeps the order. */
        size_t i = tt_index_lower_bound(ln->ev, ln->n, sel->to);
        for (; i < ln->n && ln->ev[i].start == sel->to; i++) {
            if (ln->ev[i].dur != 0)
                continue;
            if (buf->n == buf->cap) {
                size_t nc = buf->cap ? buf->cap * 2 : 64;
                uint32_t *nv = realloc(buf->v, nc * sizeof *nv);
                if (!nv)
                    return -1;
                buf->v = nv;
                buf->cap = nc;
            }
            buf->v[buf->n++] = (uint32_t)i;
        }
    }
    return 0;
}

void tt_sel_parts_init(tt_sel_parts *p)
{
    p->a = p->b = p->z = p->c = 0;
    tt_idxbuf_init(&p->left);
    tt_idxbuf_init(&p->right);
}

void tt_sel_parts_fini(tt_sel_parts *p)
{
    tt_idxbuf_fini(&p->left);
    tt_idxbuf_fini(&p->right);
    tt_sel_parts_init(p);
}

/* Keep the positions of buf in [lo, hi) (order kept). */
static void keep_range(tt_idxbuf *buf, size_t lo, size_t hi)
{
    size_t w = 0;
    for (size_t i = 0; i < buf->n; i++)
        if (buf->v[i] >= lo && buf->v[i] < hi)
            buf->v[w++] = buf->v[i];
    buf->n = w;
}

int tt_sel_lane_parts(const tt_trace *tr, const tt_sel *sel, uint32_t lane, tt_sel_parts *p)
{
    const tt_lane *ln = &tr->lanes[lane];
    const tt_event *ev = ln->ev;
    size_t n = ln->n;
    p->left.n = p->right.n = 0;
    p->b = tt_index_lower_bound(ev, n, sel->to);
    p->a = p->b;
    p->z = p->c = p->b;
    if (n == 0)
        return 0;
    if (sel->from < sel->to) {
        p->a = tt_index_lower_bound(ev, n, sel->from);
        /* events before a are in when they reach past from: a stab at
         * from, which also lists events starting at from (dropped) */
        if (p->a > 0 && sel->from < INT64_MAX) {
            if (tt_index_overlap(ev, n, sel->from, sel->from + 1, &p->left))
                return -1;
            keep_range(&p->left, 0, p->a);
        }
        /* events of [a, b) running past to: a stab at to */
        if (p->b > p->a && sel->to < INT64_MAX) {
            size_t w = 0;
            if (tt_index_overlap(ev, n, sel->to, sel->to + 1, &p->right))
                return -1;
            keep_range(&p->right, p->a, p->b);
            for (size_t i = 0; i < p->right.n; i++)
                if (tt_event_end(&ev[p->right.v[i]]) > sel->to)
                    p->right.v[w++] = p->right.v[i];
            p->right.n = w;
        }
    }
    if (sel->to_inclusive) {
        /* events at `to` sort longest first: the zero-length ones last */
        size_t lo = p->b, hi = tt_index_upper_bound(ev, n, sel->to);
        p->c = hi;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ev[mid].dur != 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        p->z = lo;
    }
    return 0;
}

/* ------------------------------------------------------------ windows */

static int parse_time(const char *s, size_t n, tt_ns *out, const char *which, tt_error *err)
{
    char buf[64];
    if (n >= sizeof buf)
        return tt_error_set(err, TT_ERR_USAGE, "window: %s time is too long", which);
    memcpy(buf, s, n);
    buf[n] = '\0';
    switch (tt_parse_duration(buf, out)) {
    case TT_NUM_OK:
        *out = tt_time_clamp(*out);
        return 0;
    case TT_NUM_RANGE:
        return tt_error_set(err, TT_ERR_USAGE, "window: %s time '%s' is out of range", which,
                            buf);
    default:
        return tt_error_set(err, TT_ERR_USAGE,
                            "window: %s time '%s' is not a time (e.g. 1.5ms, 300us, 1200ns, 2s; "
                            "a bare number is ns)", which, buf);
    }
}

int tt_window_parse(const char *s, tt_window_spec *w, tt_error *err)
{
    const char *colon = strchr(s, ':');
    memset(w, 0, sizeof *w);
    if (!colon)
        return tt_error_set(err, TT_ERR_USAGE,
                            "window '%s': expected FROM:TO (either side may be empty)", s);
    if (strchr(colon + 1, ':'))
        return tt_error_set(err, TT_ERR_USAGE, "window '%s': more than one ':'", s);
    if (colon > s) {
        if (parse_time(s, (size_t)(colon - s), &w->from, "start", err))
            return TT_ERR_USAGE;
        w->has_from = true;
    }
    if (colon[1]) {
        if (parse_time(colon + 1, strlen(colon + 1), &w->to, "end", err))
            return TT_ERR_USAGE;
        w->has_to = true;
    }
    if (w->has_from && w->has_to && w->to < w->from)
        return tt_error_set(err, TT_ERR_USAGE, "window '%s' ends before it starts", s);
    return 0;
}

void tt_sel_window(const tt_trace *tr, const tt_window_spec *w, tt_sel *sel)
{
    sel->from = tr->t0;
    sel->to = tr->t1;
    sel->to_inclusive = true;
    if (w && w->has_from)
        sel->from = tt_sat_add(tr->t0, w->from);
    if (w && w->has_to) {
        sel->to = tt_sat_add(tr->t0, w->to);
        sel->to_inclusive = false;
    }
    if (sel->to < sel->from) {
        sel->to = sel->from;
        sel->to_inclusive = false;
    }
}

/* ----------------------------------------------------------- lane sets */

void tt_laneset_init(tt_laneset *s)
{
    s->v = NULL;
    s->n = s->cap = 0;
}

void tt_laneset_fini(tt_laneset *s)
{
    free(s->v);
    tt_laneset_init(s);
}

int tt_laneset_add(tt_laneset *s, uint32_t lane)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 16;
        uint32_t *nv = realloc(s->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = nc;
    }
    s->v[s->n++] = lane;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int tt_laneset_finish(tt_laneset *s)
{
    size_t w = 0;
    if (s->n > 1)
        qsort(s->v, s->n, sizeof *s->v, cmp_u32);
    for (size_t i = 0; i < s->n; i++)
        if (w == 0 || s->v[i] != s->v[w - 1])
            s->v[w++] = s->v[i];
    s->n = w;
    return 0;
}

int tt_laneset_all(const tt_trace *tr, tt_laneset *s)
{
    s->n = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        if (tt_laneset_add(s, l))
            return -1;
    return 0;
}

/* Split a pattern list at unescaped commas; calls fn(item, ctx) with each
 * item NUL-terminated (backslashes kept for fnmatch). Returns the first
 * non-zero fn result, or -1 on OOM. */
static int each_pattern(const char *patterns, int (*fn)(const char *, void *), void *ctx)
{
    size_t n = strlen(patterns);
    char *item = malloc(n + 1);
    size_t k = 0;
    int rc = 0;
    if (!item)
        return -1;
    for (size_t i = 0; i <= n && rc == 0; i++) {
        if (i == n || patterns[i] == ',') {
            item[k] = '\0';
            rc = fn(item, ctx);
            k = 0;
        } else if (patterns[i] == '\\' && i + 1 < n) {
            item[k++] = patterns[i++];
            item[k++] = patterns[i];
        } else {
            item[k++] = patterns[i];
        }
    }
    free(item);
    return rc;
}

static int check_item(const char *item, void *ctx)
{
    (void)ctx;
    return *item ? 0 : 1;
}

int tt_lane_patterns_check(const char *patterns, tt_error *err)
{
    int rc;
    if (!*patterns)
        return tt_error_set(err, TT_ERR_USAGE, "lane pattern is empty");
    rc = each_pattern(patterns, check_item, NULL);
    if (rc < 0)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (rc)
        return tt_error_set(err, TT_ERR_USAGE, "lane pattern '%s' has an empty item", patterns);
    return 0;
}

typedef struct match_ctx {
    const tt_trace *tr;
    tt_laneset     *s;
    unsigned char  *hit;    /* per lane: already added */
    char          **names;  /* per lane: full name, built once */
} match_ctx;

static int match_item(const char *item, void *ctx)
{
    match_ctx *m = ctx;
    for (uint32_t l = 0; l < m->tr->n_lanes; l++) {
        if (m->hit[l] || fnmatch(item, m->names[l], 0) != 0)
            continue;
        m->hit[l] = 1;
        if (tt_laneset_add(m->s, l))
            return -1;
    }
    return 0;
}

int tt_laneset_match(const tt_trace *tr, const char *patterns, tt_laneset *s, tt_error *err)
{
    match_ctx m = {tr, s, NULL, NULL};
    int rc = 0;
    if (tt_lane_patterns_check(patterns, err))
        return TT_ERR_USAGE;
    s->n = 0;
    m.hit = calloc(tr->n_lanes ? tr->n_lanes : 1, 1);
    m.names = calloc(tr->n_lanes ? tr->n_lanes : 1, sizeof *m.names);
    if (!m.hit || !m.names) {
        rc = -1;
        goto out;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        char buf[600];
        tt_lane_fullname(tr, l, buf, sizeof buf);
        if (!(m.names[l] = strdup(buf))) {
            rc = -1;
            goto out;
        }
    }
    rc = each_pattern(patterns, match_item, &m);
    if (rc == 0)
        tt_laneset_finish(s);
out:
    if (m.names)
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            free(m.names[l]);
    free(m.names);
    free(m.hit);
    if (rc)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return 0;
}
