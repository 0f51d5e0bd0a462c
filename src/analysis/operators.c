/* operators.c - the host operators of a selection (see operators.h). */
#include "config.h"

#include "analysis/operators.h"

#include "index/index.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

/* Kineto's span of the whole capture: category "Trace" on the "Spans"
 * process (see operators.h). */
static bool is_capture_span(const tt_trace *tr, const tt_event *e)
{
    return e->cat && !strcmp(tt_str(tr, e->cat), "Trace");
}

/* Is r, a child of p on lane ln, p's only child? Instants do not count:
 * PyTorch's memory records inside an op are no events of their own there
 * ([memory] instants sit between an op and its child in Kineto's JSON).
 * Events of a lane are in start order, a parent before its children, so r
 * must be the first event after p that is not an instant, and nothing but
 * instants may start in p after r ends: such an event sits in p outside
 * r's subtree, under another child. */
static bool only_child(const tt_lane *ln, uint32_t p, uint32_t r)
{
    tt_ns r_end = tt_event_end(&ln->ev[r]), p_end = tt_event_end(&ln->ev[p]);
    size_t k;
    for (k = (size_t)p + 1; k < r; k++)
        if (ln->ev[k].kind != TT_EV_INSTANT)
            return false;
    k = r + 1 + tt_index_lower_bound(ln->ev + r + 1, ln->n - (r + 1), r_end);
    for (; k < ln->n && ln->ev[k].start < p_end; k++)
        if (ln->ev[k].kind != TT_EV_INSTANT)
            return false;
    return true;
}

/* The instance of lane event idx among out[from..n) (sorted by idx), or
 * SIZE_MAX. */
static size_t inst_find(const tt_op_inst *out, size_t from, size_t n, uint32_t idx)
{
    size_t lo = from, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (out[mid].ev.idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && out[lo].ev.idx == idx ? lo : SIZE_MAX;
}

/* Fold the redispatched operators of one lane (out[from..n), in lane
 * order) into their parents (operators.h), compacting the array; *n is
 * updated. into[] is scratch of n - from entries. */
static void fold_redispatches(const tt_trace *tr, const tt_attrib *a, tt_op_inst *out,
                              size_t from, size_t *n, size_t *into)
{
    const tt_lane *ln = &tr->lanes[out[from].ev.lane];
    size_t m = *n - from, w = from;
    for (size_t i = 0; i < m; i++) {
        tt_op_inst *o = &out[from + i];
        tt_evref p = tt_attrib_parent(a, o->ev);
        size_t lo, hi = i;
        into[i] = SIZE_MAX;
        if (!tt_evref_ok(p) || ln->ev[p.idx].name != ln->ev[o->ev.idx].name || !only_child(ln, p.idx, o->ev.idx))
            continue;
        /* the parent's instance: the lane's instances are sorted by idx */
        if ((lo = inst_find(out, from, from + hi, p.idx)) == SIZE_MAX)
            continue;   /* the parent is no operator (or not selected) */
        lo -= from;
        into[i] = into[lo] != SIZE_MAX ? into[lo] : lo;
        out[from + into[i]].hself_more += tt_attrib_self(a, o->ev) + o->hself_more;
        out[from + into[i]].dself_more += tt_attrib_device_self(a, o->ev) + o->dself_more;
    }
    for (size_t i = 0; i < m; i++)
        if (into[i] == SIZE_MAX)
            out[w++] = out[from + i];
    *n = w;
}

int tt_operators_collect(const tt_trace *tr, const tt_attrib *a, const tt_sel *sel,
                         tt_op_inst **out, size_t *n, tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel), cap = 0, *into = NULL, into_cap = 0;
    tt_idxbuf buf;
    tt_idxbuf_init(&buf);
    *out = NULL;
    *n = 0;
    for (size_t li = 0; li < nl; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        size_t from = *n;
        if (tt_attrib_lane_is_device(a, lane))
            continue;
        if (tt_sel_lane_events(tr, sel, lane, &buf))
            goto oom;
        for (size_t k = 0; k < buf.n; k++) {
            tt_evref r = {lane, buf.v[k]};
            const tt_event *e = &ln->ev[r.idx];
            if ((e->kind != TT_EV_SLICE && e->kind != TT_EV_ASYNC) || tt_attrib_is_python(a, r) ||
                is_capture_span(tr, e))
                continue;
            if (tt_grow_one((void **)out, &cap, *n, sizeof **out))
                goto oom;
            (*out)[(*n)++] = (tt_op_inst){r, 0, 0};
        }
        if (*n - from > 1) {
            if (*n - from > into_cap) {
                size_t *x = realloc(into, (*n - from) * sizeof *into);
                if (!x)
                    goto oom;
                into = x;
                into_cap = *n - from;
            }
            fold_redispatches(tr, a, *out, from, n, into);
        }
    }
    tt_idxbuf_fini(&buf);
    free(into);
    return 0;
oom:
    tt_idxbuf_fini(&buf);
    free(into);
    free(*out);
    *out = NULL;
    *n = 0;
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}
