/* calltree.c - the call tree of a selection, top-down and bottom-up (see
 * calltree.h). The builder walks the selection lane by lane once: a stack
 * of the open events finds each event's parent among the selection's
 * events (the parent starts first, so it is on the stack), gives the
 * event its node (a hash of (parent node, name, device)) and takes its
 * clipped duration out of the parent's self time (a binary search finds
 * the parent when the stack does not hold it). Device events wait for
 * a second pass, when every host event has its node, and go under the
 * node of their launch op, found by a binary search in its lane's part of
 * the selection. */
#include "config.h"

#include "analysis/calltree.h"

#include "analysis/attrib.h"
#include "analysis/selfsum.h"
#include "util/grow.h"
#include "util/strtab.h"
#include "util/sort.h"
#include "util/u64map.h"

#include <stdlib.h>
#include <string.h>

/* Node key: (parent + 1) in the high bits, the device flag, the name. */
static uint64_t node_key(uint32_t parent, bool device, uint32_t name)
{
    return ((uint64_t)(parent == TT_CT_NONE ? 0 : parent + 1) << 33) |
           ((uint64_t)device << 32) | name;
}

/* The node (parent, name, device), created when new. TT_CT_NONE on OOM. */
static uint32_t node_get(tt_calltree *ct, tt_u64map *map, uint32_t parent, bool device,
                         uint32_t name)
{
    uint64_t key = node_key(parent, device, name);
    uint32_t *v = tt_u64map_get(map, key);
    tt_ctnode *nd;
    if (v)
        return *v;
    if (ct->n >= TT_CT_NONE - 1 || tt_grow_one((void **)&ct->v, &ct->cap, ct->n, sizeof *ct->v))
        return TT_CT_NONE;
    if (tt_u64map_put(map, key, (uint32_t)ct->n))
        return TT_CT_NONE;
    nd = &ct->v[ct->n];
    memset(nd, 0, sizeof *nd);
    nd->name = name;
    nd->parent = parent;
    nd->child = nd->next = TT_CT_NONE;
    nd->device = device;
    nd->depth = parent == TT_CT_NONE ? 0 : ct->v[parent].depth + 1;
    return (uint32_t)ct->n++;
}

tt_ns tt_calltree_weight(const tt_calltree *ct, uint32_t node)
{
    const tt_ctnode *nd = &ct->v[node];
    if (ct->bottom_up)
        return nd->device ? nd->dev_self : nd->host_self;
    return nd->device ? nd->dev_total : nd->host_total;
}

static int cmp_sib(const void *pa, const void *pb, void *ctx)
{
    const tt_calltree *ct = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    const tt_ctnode *x = &ct->v[a], *y = &ct->v[b];
    tt_ns wa, wb;
    int c;
    if (x->parent != y->parent)
        return x->parent == TT_CT_NONE ? -1 : y->parent == TT_CT_NONE ? 1
               : x->parent < y->parent ? -1 : 1;
    wa = tt_calltree_weight(ct, a);
    wb = tt_calltree_weight(ct, b);
    if (wa != wb)
        return wa > wb ? -1 : 1;
    c = strcmp(tt_str(ct->tr, x->name), tt_str(ct->tr, y->name));
    if (c)
        return c;
    return x->device - y->device;
}

/* Chain every node's children (and the roots) in weight order. */
static int link_siblings(tt_calltree *ct)
{
    uint32_t *ord;
    ct->root = TT_CT_NONE;
    if (ct->n == 0)
        return 0;
    if (!(ord = malloc(ct->n * sizeof *ord)))
        return -1;
    for (size_t i = 0; i < ct->n; i++) {
        ord[i] = (uint32_t)i;
        ct->v[i].child = ct->v[i].next = TT_CT_NONE;
    }
    if (tt_sort(ord, ct->n, sizeof *ord, cmp_sib, ct)) {
        free(ord);
        return -1;
    }
    /* backwards, so each is put in front of the ones that follow it */
    for (size_t i = ct->n; i-- > 0;) {
        tt_ctnode *nd = &ct->v[ord[i]];
        uint32_t *head = nd->parent == TT_CT_NONE ? &ct->root : &ct->v[nd->parent].child;
        nd->next = *head;
        *head = ord[i];
    }
    free(ord);
    return 0;
}

/* ------------------------------------------------------------- top-down */

typedef struct build {
    const tt_trace  *tr;
    const tt_sel    *sel;
    const tt_attrib *at;
    tt_calltree     *ct;
    tt_u64map        map;
    size_t          *lane_first;   /* per lane: first slot, or SIZE_MAX */
    size_t          *lane_end;
    tt_ns           *self;         /* per slot: clipped self time */
    tt_ns           *cover;        /* per slot: its children's clipped union ends here */
    uint8_t         *dev;          /* per slot: a device event */
    size_t          *stk;          /* slots of the open events of the lane */
    size_t           n_stk, cap_stk;
} build;

/* Free the builder's scratch (not the tree). */
static void build_fini(build *b)
{
    tt_u64map_fini(&b->map);
    free(b->lane_first);
    free(b->lane_end);
    free(b->self);
    free(b->cover);
    free(b->dev);
    free(b->stk);
}

/* The slot of ev in the selection, or SIZE_MAX. O(log k). */
static size_t slot_of(const build *b, tt_evref ev)
{
    size_t lo, hi;
    if (!tt_evref_ok(ev) || ev.lane >= b->tr->n_lanes || b->lane_first[ev.lane] == SIZE_MAX)
        return SIZE_MAX;
    lo = b->lane_first[ev.lane];
    hi = b->lane_end[ev.lane];
    /* a lane whose events are all in (the full-range box): no search */
    if (b->ct->ev[hi - 1].idx - b->ct->ev[lo].idx == hi - 1 - lo)
        return ev.idx >= b->ct->ev[lo].idx && ev.idx <= b->ct->ev[hi - 1].idx
                   ? lo + (ev.idx - b->ct->ev[lo].idx)
                   : SIZE_MAX;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->ct->ev[mid].idx < ev.idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->lane_end[ev.lane] && b->ct->ev[lo].idx == ev.idx ? lo : SIZE_MAX;
}

/* The slot of the parent of the event at slot s (SIZE_MAX: none in the
 * selection). The parent is nearly always on the stack of open events,
 * usually on top; else a binary search finds it. */
static size_t parent_slot(build *b, tt_evref par)
{
    const tt_calltree *ct = b->ct;
    if (!tt_evref_ok(par)) {
        b->n_stk = 0;
        return SIZE_MAX;
    }
    for (size_t k = b->n_stk; k-- > 0;)
        if (ct->ev[b->stk[k]].idx == par.idx) {
            b->n_stk = k + 1;
            return b->stk[k];
        }
    return slot_of(b, par);
}

/* List the selection's events, lane by lane. */
static int list_events(build *b)
{
    tt_idxbuf buf;
    size_t nl = tt_sel_lane_count(b->tr, b->sel);
    tt_calltree *ct = b->ct;
    size_t cap = 0;
    int rc = 0;
    tt_idxbuf_init(&buf);
    for (size_t i = 0; i < nl && rc == 0; i++) {
        uint32_t lane = tt_sel_lane(b->sel, i);
        if (lane >= b->tr->n_lanes)
            continue;
        if (tt_sel_lane_events(b->tr, b->sel, lane, &buf)) {
            rc = -1;
            break;
        }
        if (buf.n == 0)
            continue;
        if (ct->n_ev + buf.n > cap) {
            size_t nc = cap ? cap : 1024;
            tt_evref *ne;
            while (nc < ct->n_ev + buf.n)
                nc *= 2;
            if (!(ne = realloc(ct->ev, nc * sizeof *ne))) {
                rc = -1;
                break;
            }
            ct->ev = ne;
            cap = nc;
        }
        b->lane_first[lane] = ct->n_ev;
        for (size_t k = 0; k < buf.n; k++)
            ct->ev[ct->n_ev++] = (tt_evref){lane, buf.v[k]};
        b->lane_end[lane] = ct->n_ev;
    }
    tt_idxbuf_fini(&buf);
    return rc;
}

/* One lane: parents, self times, and (with nodes) host nodes. */
static int walk_lane(build *b, uint32_t lane, bool nodes)
{
    tt_calltree *ct = b->ct;
    const tt_lane *ln = &b->tr->lanes[lane];
    b->n_stk = 0;
    for (size_t s = b->lane_first[lane]; s < b->lane_end[lane]; s++) {
        tt_evref ev = ct->ev[s];
        const tt_event *e = &ln->ev[ev.idx];
        size_t ps = parent_slot(b, tt_attrib_parent(b->at, ev));
        tt_ns cs, ce;
        tt_sel_clip_range(b->sel, e, &cs, &ce);
        b->self[s] = ce - cs;
        b->cover[s] = cs;
        if (ps != SIZE_MAX) {
            /* the part of the child the parent's earlier children did not
             * cover: they come in start order, so the union is a running
             * end */
            tt_ns ps0, pe, c0, c1;
            tt_sel_clip_range(b->sel, &ln->ev[ct->ev[ps].idx], &ps0, &pe);
            c0 = cs > b->cover[ps] ? cs : b->cover[ps];
            c1 = ce < pe ? ce : pe;
            if (c1 > c0) {
                b->self[ps] -= c1 - c0;
                b->cover[ps] = c1;
            }
        }
        b->dev[s] = tt_attrib_is_device(b->at, ev);
        if (!nodes) {
            /* self times only */
        } else if (!b->dev[s]) {
            uint32_t pn = TT_CT_NONE, nd;
            if (ps != SIZE_MAX && !b->dev[ps])
                pn = ct->node[ps];
            if ((nd = node_get(ct, &b->map, pn, false, e->name)) == TT_CT_NONE)
                return -1;
            ct->node[s] = nd;
        } else {
            ct->node[s] = TT_CT_NONE;   /* the second pass */
        }
        if (b->n_stk >= 4096)
            b->n_stk = 0;   /* a degenerate lane: the binary search answers */
        if (tt_grow_one((void **)&b->stk, &b->cap_stk, b->n_stk, sizeof *b->stk))
            return -1;
        b->stk[b->n_stk++] = s;
    }
    return 0;
}

/* The device events: under their launch op, else their lane parent. In
 * slot order, so a device parent has its node before its children. */
static int place_device(build *b)
{
    tt_calltree *ct = b->ct;
    for (size_t s = 0; s < ct->n_ev; s++) {
        tt_evref ev = ct->ev[s];
        uint32_t pn = TT_CT_NONE, nd;
        size_t ps;
        if (!b->dev[s])
            continue;
        ps = slot_of(b, tt_attrib_launch_op(b->at, ev));
        if (ps == SIZE_MAX)
            ps = slot_of(b, tt_attrib_parent(b->at, ev));
        if (ps != SIZE_MAX)
            pn = ct->node[ps];
        nd = node_get(ct, &b->map, pn, true, tt_trace_event(b->tr, ev)->name);
        if (nd == TT_CT_NONE)
            return -1;
        ct->node[s] = nd;
    }
    return 0;
}

static void add_times(build *b)
{
    tt_calltree *ct = b->ct;
    for (size_t s = 0; s < ct->n_ev; s++) {
        tt_ctnode *nd = &ct->v[ct->node[s]];
        tt_ns clip = tt_sel_clip(b->sel, tt_trace_event(b->tr, ct->ev[s]));
        nd->calls++;
        if (nd->device) {
            nd->dev_self += clip;
        } else {
            nd->host_total += clip;
            nd->host_self += b->self[s];
        }
    }
    /* children come after their parents: one backward pass adds up */
    for (size_t i = ct->n; i-- > 0;) {
        tt_ctnode *nd = &ct->v[i];
        /* a host node's dev_self comes from its device children, whose
         * totals it already has */
        if (nd->device)
            nd->dev_total += nd->dev_self;
        if (nd->parent != TT_CT_NONE) {
            tt_ctnode *p = &ct->v[nd->parent];
            p->dev_total += nd->dev_total;
            if (nd->device && !p->device)
                p->dev_self += nd->dev_self;
        }
    }
}

int tt_calltree_build(const tt_trace *tr, const tt_sel *sel, tt_calltree **out, tt_error *err)
{
    build b;
    tt_calltree *ct = calloc(1, sizeof *ct);
    int rc = -1;
    memset(&b, 0, sizeof b);
    tt_u64map_init(&b.map);
    *out = NULL;
    if (!ct)
        goto oom;
    ct->tr = tr;
    ct->root = TT_CT_NONE;
    b.tr = tr;
    b.sel = sel;
    b.ct = ct;
    if (!(b.at = tt_attrib_get(tr, err)))
        goto fail;
    ct->has_links = tt_attrib_has_links(b.at);
    b.lane_first = malloc((tr->n_lanes ? tr->n_lanes : 1) * sizeof *b.lane_first);
    b.lane_end = malloc((tr->n_lanes ? tr->n_lanes : 1) * sizeof *b.lane_end);
    if (!b.lane_first || !b.lane_end)
        goto oom;
    for (size_t i = 0; i < tr->n_lanes; i++)
        b.lane_first[i] = b.lane_end[i] = SIZE_MAX;
    if (list_events(&b))
        goto oom;
    if (ct->n_ev) {
        ct->node = malloc(ct->n_ev * sizeof *ct->node);
        b.self = malloc(ct->n_ev * sizeof *b.self);
        b.cover = malloc(ct->n_ev * sizeof *b.cover);
        b.dev = malloc(ct->n_ev);
        if (!ct->node || !b.self || !b.cover || !b.dev)
            goto oom;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        if (b.lane_first[l] != SIZE_MAX && walk_lane(&b, l, true))
            goto oom;
    if (place_device(&b))
        goto oom;
    add_times(&b);
    if (link_siblings(ct))
        goto oom;
    *out = ct;
    ct = NULL;
    rc = 0;
    goto fail;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory building the call tree");
fail:
    tt_calltree_free(ct);
    build_fini(&b);
    return rc;
}

/* ----------------------------------------------------------- self sums */

/* Does the lane hold an event the window clips? */
static bool lane_clipped(const build *b, uint32_t lane)
{
    for (size_t s = b->lane_first[lane]; s < b->lane_end[lane]; s++) {
        const tt_event *e = tt_trace_event(b->tr, b->ct->ev[s]);
        if (e->start < b->sel->from || tt_event_end(e) > b->sel->to)
            return true;
    }
    return false;
}

/* Does the window hold every event of each selected lane? */
static bool holds_whole_lanes(const tt_trace *tr, const tt_sel *sel)
{
    if (tt_sel_lane_count(tr, sel) == 0)
        return false;
    for (size_t li = 0; li < tt_sel_lane_count(tr, sel); li++)
        if (!tt_selfsum_covers(tr, sel, tt_sel_lane(sel, li)))
            return false;
    return true;
}

int tt_calltree_self_by(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                        const uint32_t *ids, size_t n, tt_ns *host, tt_ns *dev, tt_error *err)
{
    build b;
    tt_calltree ct;
    int32_t *row = NULL;
    size_t n_ids = key->kind == TT_KEY_LANE ? tr->n_lanes : tt_strtab_count(tr->strings);
    int rc = -1;
    memset(&b, 0, sizeof b);
    memset(&ct, 0, sizeof ct);
    for (size_t i = 0; i < n; i++)
        host[i] = dev[i] = 0;
    if (key->kind == TT_KEY_ARG) {
        tt_error_set(err, TT_ERR_USAGE, "self times by an argument are not kept");
        return -1;
    }
    b.tr = tr;
    b.sel = sel;
    b.ct = &ct;
    if (!(b.at = tt_attrib_get(tr, err)))
        return -1;
    row = malloc((n_ids ? n_ids : 1) * sizeof *row);
    b.lane_first = malloc((tr->n_lanes ? tr->n_lanes : 1) * sizeof *b.lane_first);
    b.lane_end = malloc((tr->n_lanes ? tr->n_lanes : 1) * sizeof *b.lane_end);
    if (!row || !b.lane_first || !b.lane_end)
        goto oom;
    for (size_t i = 0; i < n_ids; i++)
        row[i] = -1;
    for (size_t i = 0; i < n; i++)
        if (ids[i] < n_ids)
            row[ids[i]] = (int32_t)i;
    if (holds_whole_lanes(tr, sel)) {
        /* the full-range box: the sums kept per lane, no walk (unless
         * they decline: rc 1) */
        if ((rc = tt_selfsum_add(tr, sel, key->kind, row, n_ids, host, dev, err)) <= 0)
            goto out;
        rc = -1;
    }
    for (size_t i = 0; i < tr->n_lanes; i++)
        b.lane_first[i] = b.lane_end[i] = SIZE_MAX;
    if (list_events(&b))
        goto oom;
    if (ct.n_ev) {
        b.self = malloc(ct.n_ev * sizeof *b.self);
        b.cover = malloc(ct.n_ev * sizeof *b.cover);
        b.dev = malloc(ct.n_ev);
        if (!b.self || !b.cover || !b.dev)
            goto oom;
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        if (b.lane_first[l] == SIZE_MAX)
            continue;
        if (lane_clipped(&b, l)) {
            if (walk_lane(&b, l, false))
                goto oom;
            continue;
        }
        /* nothing clipped: the self times attrib.h keeps */
        for (size_t s = b.lane_first[l]; s < b.lane_end[l]; s++) {
            b.self[s] = tt_attrib_self(b.at, ct.ev[s]);
            b.dev[s] = tt_attrib_is_device(b.at, ct.ev[s]);
        }
    }
    for (size_t s = 0; s < ct.n_ev; s++) {
        const tt_event *e = tt_trace_event(tr, ct.ev[s]);
        uint32_t id = key->kind == TT_KEY_LANE ? ct.ev[s].lane : tt_key_string_id(tr, key, e);
        size_t ls;
        if (id < n_ids && row[id] >= 0)
            host[row[id]] += b.self[s];
        if (!b.dev[s] || (ls = slot_of(&b, tt_attrib_launch_op(b.at, ct.ev[s]))) == SIZE_MAX)
            continue;
        e = tt_trace_event(tr, ct.ev[ls]);
        id = key->kind == TT_KEY_LANE ? ct.ev[ls].lane : tt_key_string_id(tr, key, e);
        if (id < n_ids && row[id] >= 0)
            dev[row[id]] += tt_sel_clip(sel, tt_trace_event(tr, ct.ev[s]));
    }
    rc = 0;
    goto out;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory summing self times");
out:
    free(row);
    free(ct.ev);
    build_fini(&b);
    return rc;
}

/* ------------------------------------------------------------ bottom-up */

/* Does the top-down node's name occur among its ancestors? */
static bool nested_in_itself(const tt_calltree *td, uint32_t i)
{
    const tt_ctnode *nd = &td->v[i];
    for (uint32_t p = nd->parent; p != TT_CT_NONE; p = td->v[p].parent)
        if (td->v[p].name == nd->name && td->v[p].device == nd->device)
            return true;
    return false;
}

int tt_calltree_bottom_up(const tt_calltree *td, tt_calltree **out, tt_error *err)
{
    tt_calltree *bu = calloc(1, sizeof *bu);
    tt_u64map map;
    tt_u64map_init(&map);
    *out = NULL;
    if (!bu)
        goto oom;
    bu->tr = td->tr;
    bu->bottom_up = true;
    bu->has_links = td->has_links;
    bu->td = td;
    bu->root = TT_CT_NONE;
    for (size_t i = 0; i < td->n; i++) {
        const tt_ctnode *t = &td->v[i];
        bool once = !nested_in_itself(td, (uint32_t)i);
        uint32_t b = TT_CT_NONE;
        /* the node, then its callers, outwards */
        for (uint32_t c = (uint32_t)i; c != TT_CT_NONE; c = td->v[c].parent) {
            tt_ctnode *nd;
            b = node_get(bu, &map, b, td->v[c].device, td->v[c].name);
            if (b == TT_CT_NONE)
                goto oom;
            nd = &bu->v[b];
            nd->calls += t->calls;
            nd->host_self += t->host_self;
            nd->dev_self += t->dev_self;
            if (once) {
                nd->host_total += t->host_total;
                nd->dev_total += t->dev_total;
            }
        }
    }
    if (link_siblings(bu))
        goto oom;
    tt_u64map_fini(&map);
    *out = bu;
    return 0;
oom:
    tt_u64map_fini(&map);
    tt_calltree_free(bu);
    tt_error_set(err, TT_ERR_NOMEM, "out of memory building the bottom-up call tree");
    return -1;
}

void tt_calltree_free(tt_calltree *ct)
{
    if (!ct)
        return;
    free(ct->v);
    free(ct->ev);
    free(ct->node);
    free(ct);
}

/* --------------------------------------------------------------- instances */

/* Does top-down node t's path, read upwards, start with bottom-up node
 * b's path read from its root down? */
static bool bu_matches(const tt_calltree *bu, uint32_t b, const tt_calltree *td, uint32_t t)
{
    uint32_t chain[64];
    size_t n = 0;
    for (uint32_t c = b; c != TT_CT_NONE; c = bu->v[c].parent) {
        if (n == sizeof chain / sizeof chain[0])
            return false;
        chain[n++] = c;
    }
    /* chain[n-1] is the root: the callee */
    while (n-- > 0) {
        const tt_ctnode *x = &bu->v[chain[n]];
        if (t == TT_CT_NONE || td->v[t].name != x->name || td->v[t].device != x->device)
            return false;
        t = td->v[t].parent;
    }
    return true;
}

int tt_calltree_instances(const tt_calltree *ct, uint32_t node, tt_evref **out, size_t *n,
                          size_t *cap)
{
    const tt_calltree *td = ct->bottom_up ? ct->td : ct;
    uint8_t *want = NULL;
    if (node >= ct->n)
        return 0;
    if (ct->bottom_up) {
        if (!(want = calloc(td->n ? td->n : 1, 1)))
            return -1;
        for (size_t t = 0; t < td->n; t++)
            want[t] = bu_matches(ct, node, td, (uint32_t)t);
    }
    for (size_t s = 0; s < td->n_ev; s++) {
        uint32_t nd = td->node[s];
        if (want ? !want[nd] : nd != node)
            continue;
        if (tt_grow_one((void **)out, cap, *n, sizeof **out)) {
            free(want);
            return -1;
        }
        (*out)[(*n)++] = td->ev[s];
    }
    free(want);
    return 0;
}
