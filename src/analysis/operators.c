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
        out[from + into[i]].hself += o->hself;
        out[from + into[i]].dself += o->dself;
    }
    for (size_t i = 0; i < m; i++)
        if (into[i] == SIZE_MAX)
            out[w++] = out[from + i];
    *n = w;
}

/* Is e, an event of a host lane, an operator (operators.h)? */
static bool is_operator(const tt_trace *tr, const tt_attrib *a, tt_evref r, const tt_event *e)
{
    return (e->kind == TT_EV_SLICE || e->kind == TT_EV_ASYNC) && !tt_attrib_is_python(a, r) &&
           !is_capture_span(tr, e);
}

static bool lane_has_python(const tt_attrib *a, uint32_t lane, const tt_lane *ln)
{
    for (size_t k = 0; k < ln->n; k++)
        if (tt_attrib_is_python(a, (tt_evref){lane, (uint32_t)k}))
            return true;
    return false;
}

/* The times of the instances out[from..n) of a lane holding Python frames,
 * from PyTorch's op tree of the whole lane (operators.h); redispatches
 * folded, *n updated. Async slices are not in PyTorch's tree: they keep
 * the attribution's times. 0, or -1 on OOM. */
static int op_tree_times(const tt_trace *tr, const tt_attrib *a, tt_op_inst *out, size_t from,
                         size_t *n)
{
    uint32_t lane = out[from].ev.lane;
    const tt_lane *ln = &tr->lanes[lane];
    /* per lane position: its node in the tree, or UINT32_MAX */
    uint32_t *node = malloc(ln->n * sizeof *node);
    /* per node: lane position, parent node, children, times, absorber */
    uint32_t *pos = malloc(ln->n * sizeof *pos), *parent = malloc(ln->n * sizeof *parent);
    uint32_t *kids = calloc(ln->n ? ln->n : 1, sizeof *kids), *into = malloc(ln->n * sizeof *into);
    tt_ns *hself = malloc(ln->n * sizeof *hself), *dself = malloc(ln->n * sizeof *dself);
    tt_ns *dtotal = malloc(ln->n * sizeof *dtotal);
    uint32_t *stack = malloc(ln->n * sizeof *stack);
    size_t nn = 0, depth = 0, w = from;
    int rc = -1;
    if (!node || !pos || !parent || !kids || !into || !hself || !dself || !dtotal || !stack)
        goto out;
    for (size_t k = 0; k < ln->n; k++) {
        tt_evref r = {lane, (uint32_t)k};
        const tt_event *e = &ln->ev[k];
        node[k] = UINT32_MAX;
        if (e->kind != TT_EV_SLICE || !is_operator(tr, a, r, e))
            continue;
        /* _populate_cpu_children: the innermost open node that wholly
         * contains e is its parent; a node e starts after or outlasts
         * can be no later event's parent either */
        while (depth) {
            const tt_event *t = &ln->ev[pos[stack[depth - 1]]];
            if (e->start >= tt_event_end(t) || tt_event_end(e) > tt_event_end(t))
                depth--;
            else
                break;
        }
        pos[nn] = (uint32_t)k;
        parent[nn] = depth ? stack[depth - 1] : UINT32_MAX;
        if (depth)
            kids[stack[depth - 1]]++;
        hself[nn] = e->dur;
        dself[nn] = tt_attrib_device_self(a, r);
        dtotal[nn] = dself[nn];
        into[nn] = UINT32_MAX;
        node[k] = (uint32_t)nn;
        stack[depth++] = (uint32_t)nn++;
    }
    /* children after parents: totals up the tree in reverse */
    for (size_t i = nn; i-- > 0;)
        if (parent[i] != UINT32_MAX) {
            hself[parent[i]] -= ln->ev[pos[i]].dur;
            dtotal[parent[i]] += dtotal[i];
        }
    /* redispatches (EventList._remove_dup_nodes), parents first */
    for (size_t i = 0; i < nn; i++) {
        uint32_t p = parent[i];
        if (p == UINT32_MAX || kids[p] != 1 || ln->ev[pos[p]].name != ln->ev[pos[i]].name)
            continue;
        into[i] = into[p] != UINT32_MAX ? into[p] : p;
        hself[into[i]] += hself[i];
        dself[into[i]] += dself[i];
    }
    for (size_t i = from; i < *n; i++) {
        tt_op_inst o = out[i];
        uint32_t x = node[o.ev.idx];
        if (x != UINT32_MAX) {
            if (into[x] != UINT32_MAX)
                continue;   /* folded into its parent */
            o.hself = hself[x];
            o.dself = dself[x];
            o.dtotal = tt_attrib_is_runtime(a, o.ev) ? 0 : dtotal[x];
        }
        out[w++] = o;
    }
    *n = w;
    rc = 0;
out:
    free(node);
    free(pos);
    free(parent);
    free(kids);
    free(into);
    free(hself);
    free(dself);
    free(dtotal);
    free(stack);
    return rc;
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
            if (!is_operator(tr, a, r, e))
                continue;
            if (tt_grow_one((void **)out, &cap, *n, sizeof **out))
                goto oom;
            (*out)[(*n)++] = (tt_op_inst){
                r, tt_attrib_self(a, r), tt_attrib_device_self(a, r),
                tt_attrib_is_runtime(a, r) ? 0 : tt_attrib_device_total(a, r)};
        }
        if (*n > from && lane_has_python(a, lane, ln)) {
            if (op_tree_times(tr, a, *out, from, n))
                goto oom;
        } else if (*n - from > 1) {
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
