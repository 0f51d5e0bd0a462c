/* attrib.c - nesting, self time and launch attribution (see attrib.h).
 *
 * Storage, built in O(n) (two passes per lane, and one backward walk
 * per host lane with device time for the totals):
 * - per event of a thread lane with nesting: its parent's index and its
 *   self time as uint32 (UINT32_MAX: too long, recomputed from the
 *   children); lanes without nesting store nothing (self = dur);
 * - per event of a lane holding device events: its launcher as a global
 *   event number + 1 (0: none), decoded through the lanes' first numbers;
 * - per host lane, the events with device time as a sorted sparse table
 *   (index, device self, device total), searched in O(log n);
 * - the reverse index (launcher -> device events) only when
 *   tt_attrib_launched() is first asked.
 */
#include "config.h"

#include "analysis/attrib.h"

#include "analysis/classify.h"
#include "util/grow.h"
#include "util/sort.h"
#include "util/u64map.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define SELF_BIG UINT32_MAX   /* self time does not fit: recompute */

/* String flags, per string id, for categories and names alike. */
enum {
    SF_KNOWN = 1u << 0,
    SF_DEV = 1u << 1,       /* as a category: device work */
    SF_RT_CAT = 1u << 2,    /* as a category: runtime/driver calls */
    SF_PY = 1u << 3,        /* as a category: Python frames */
    SF_RT_NAME = 1u << 4    /* as a name: a runtime/driver entry point */
};

typedef struct at_lane {
    uint32_t *parent;      /* NULL: no nesting on this lane */
    uint32_t *self;        /* NULL: no nesting (self = dur, instants 0) */
    uint32_t *launch;      /* NULL: no launch link; global number + 1 */
    bool      device;      /* the lane holds a device event */
    uint32_t *sum_idx;     /* sorted: events with device time */
    tt_ns    *sum_self, *sum_total;
    size_t    n_sum;
    uint32_t *rev_launcher;   /* lazy: launcher index, sorted */
    tt_evref *rev_dev;        /* the device event of each */
    size_t    n_rev;
} at_lane;

struct tt_attrib {
    tt_trace_aux    aux;   /* first: the trace frees us through it */
    const tt_trace *tr;
    uint8_t        *sflags;
    uint32_t        n_str;
    at_lane        *lanes;
    uint64_t       *base;  /* base[l]: global number of lane l's first event */
    size_t          n_links, n_device, n_dangling;
    size_t          bytes;
    pthread_mutex_t lock;  /* the lazy reverse index */
    int             rev_ready;
};

/* ------------------------------------------------------------ strings */

/* Runtime and driver API categories (exact, case-insensitive). */
static const char *const rt_cats[] = {
    "cuda_runtime", "cuda_driver", "runtime", "hip_runtime", "hip_driver", "cuda_api",
};

/* Runtime entry point name prefixes, each followed by an upper-case
 * letter (cudaLaunchKernel, cuLaunchKernel, hipLaunchKernel,
 * aclrtLaunchKernel): so "cudnn_convolution" or "cuda_graph" stay ops. */
static const char *const rt_prefixes[] = {"cuda", "cu", "hip", "aclrt", "hsa_", "zeCommand"};

static bool eq_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

static uint8_t flags_compute(const char *s)
{
    uint8_t f = SF_KNOWN;
    tt_cat_class c = tt_classify_category(s);
    if (c == TT_CAT_KERNEL || c == TT_CAT_MEMCPY || c == TT_CAT_MEMSET || c == TT_CAT_COLLECTIVE)
        f |= SF_DEV;
    for (size_t i = 0; i < sizeof rt_cats / sizeof rt_cats[0]; i++)
        if (eq_nocase(s, rt_cats[i]))
            f |= SF_RT_CAT;
    if (eq_nocase(s, "python_function"))
        f |= SF_PY;
    for (size_t i = 0; i < sizeof rt_prefixes / sizeof rt_prefixes[0]; i++) {
        size_t n = strlen(rt_prefixes[i]);
        if (!strncmp(s, rt_prefixes[i], n) &&
            (rt_prefixes[i][n - 1] == '_' || (s[n] >= 'A' && s[n] <= 'Z')))
            f |= SF_RT_NAME;
    }
    return f;
}

/* Flags of a string id: cached when the build met it, else computed. */
static uint8_t sflags(const tt_attrib *a, uint32_t id)
{
    if (id < a->n_str && a->sflags[id])
        return a->sflags[id];
    return flags_compute(tt_str(a->tr, id));
}

static uint8_t sflags_fill(tt_attrib *a, uint32_t id)
{
    if (id >= a->n_str)
        return flags_compute(tt_str(a->tr, id));
    if (!a->sflags[id])
        a->sflags[id] = flags_compute(tt_str(a->tr, id));
    return a->sflags[id];
}

static bool ev_device(const tt_attrib *a, const tt_event *e)
{
    return e->cat && (sflags(a, e->cat) & SF_DEV);
}

static bool ev_runtime(const tt_attrib *a, const tt_event *e)
{
    return (e->cat && (sflags(a, e->cat) & SF_RT_CAT)) || (sflags(a, e->name) & SF_RT_NAME);
}

static bool ev_python(const tt_attrib *a, const tt_event *e)
{
    return e->cat && (sflags(a, e->cat) & SF_PY);
}

static bool ev_instant(const tt_event *e)
{
    return e->kind != TT_EV_SLICE && e->kind != TT_EV_ASYNC;
}

/* ------------------------------------------------------------ queries */

static const tt_event *ev_at(const tt_attrib *a, tt_evref r)
{
    return tt_trace_event(a->tr, r);
}

tt_evref tt_attrib_parent(const tt_attrib *a, tt_evref ev)
{
    const at_lane *l = &a->lanes[ev.lane];
    if (!l->parent || l->parent[ev.idx] == UINT32_MAX)
        return TT_NO_EVENT;
    return (tt_evref){ev.lane, l->parent[ev.idx]};
}

/* One past the last descendant of ev on its lane. O(subtree). */
static uint32_t subtree_end(const tt_attrib *a, tt_evref ev)
{
    const tt_lane *ln = &a->tr->lanes[ev.lane];
    uint16_t d = ln->ev[ev.idx].depth;
    size_t j = ev.idx + 1;
    if (ln->kind != TT_LANE_THREAD)
        return (uint32_t)j;
    while (j < ln->n && ln->ev[j].depth > d)
        j++;
    return (uint32_t)j;
}

/* Self time from the direct children, for the few too long to store. */
static tt_ns self_slow(const tt_attrib *a, tt_evref ev)
{
    const tt_lane *ln = &a->tr->lanes[ev.lane];
    const tt_event *p = &ln->ev[ev.idx];
    tt_ns end = tt_event_end(p), covered = 0;
    uint32_t stop = subtree_end(a, ev);
    for (uint32_t j = ev.idx + 1; j < stop; j++) {
        const tt_event *c = &ln->ev[j];
        if (c->depth == p->depth + 1)
            covered += (tt_event_end(c) < end ? tt_event_end(c) : end) - c->start;
    }
    return p->dur - covered;
}

tt_ns tt_attrib_self(const tt_attrib *a, tt_evref ev)
{
    const at_lane *l = &a->lanes[ev.lane];
    const tt_event *e = ev_at(a, ev);
    if (ev_instant(e))
        return 0;
    if (!l->self)
        return e->dur;
    if (l->self[ev.idx] != SELF_BIG)
        return l->self[ev.idx];
    return self_slow(a, ev);
}

bool tt_attrib_is_device(const tt_attrib *a, tt_evref ev)
{
    return ev_device(a, ev_at(a, ev));
}

bool tt_attrib_is_runtime(const tt_attrib *a, tt_evref ev)
{
    return ev_runtime(a, ev_at(a, ev));
}

bool tt_attrib_is_python(const tt_attrib *a, tt_evref ev)
{
    return ev_python(a, ev_at(a, ev));
}

/* The lane of global event number g (binary search over the bases). */
static tt_evref from_global(const tt_attrib *a, uint64_t g)
{
    uint32_t lo = 0, hi = a->tr->n_lanes;   /* base[lo] <= g < base[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->base[mid] <= g)
            lo = mid;
        else
            hi = mid;
    }
    return (tt_evref){lo, (uint32_t)(g - a->base[lo])};
}

tt_evref tt_attrib_launcher(const tt_attrib *a, tt_evref dev)
{
    const at_lane *l = &a->lanes[dev.lane];
    if (!l->launch || !l->launch[dev.idx])
        return TT_NO_EVENT;
    return from_global(a, l->launch[dev.idx] - 1);
}

static tt_evref op_of(const tt_attrib *a, tt_evref launcher)
{
    tt_evref x = launcher;
    while (tt_evref_ok(x)) {
        const tt_event *e = ev_at(a, x);
        if (!ev_runtime(a, e) && !ev_python(a, e))
            return x;
        x = tt_attrib_parent(a, x);
    }
    return launcher;
}

tt_evref tt_attrib_launch_op(const tt_attrib *a, tt_evref dev)
{
    tt_evref l = tt_attrib_launcher(a, dev);
    return tt_evref_ok(l) ? op_of(a, l) : l;
}

/* Position of idx in the lane's sum table, or -1. */
static ptrdiff_t sum_find(const at_lane *l, uint32_t idx)
{
    size_t lo = 0, hi = l->n_sum;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->sum_idx[mid] < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n_sum && l->sum_idx[lo] == idx ? (ptrdiff_t)lo : -1;
}

tt_ns tt_attrib_device_self(const tt_attrib *a, tt_evref host)
{
    const at_lane *l = &a->lanes[host.lane];
    ptrdiff_t k = sum_find(l, host.idx);
    return k < 0 ? 0 : l->sum_self[k];
}

tt_ns tt_attrib_device_total(const tt_attrib *a, tt_evref host)
{
    const at_lane *l = &a->lanes[host.lane];
    ptrdiff_t k = sum_find(l, host.idx);
    return k < 0 ? 0 : l->sum_total[k];
}

bool tt_attrib_lane_is_device(const tt_attrib *a, uint32_t lane)
{
    return a->lanes[lane].device;
}

size_t tt_attrib_n_links(const tt_attrib *a) { return a->n_links; }
size_t tt_attrib_n_device(const tt_attrib *a) { return a->n_device; }
size_t tt_attrib_n_dangling(const tt_attrib *a) { return a->n_dangling; }
bool tt_attrib_has_links(const tt_attrib *a) { return a->n_links > 0; }
size_t tt_attrib_memory(const tt_attrib *a) { return a->bytes; }

/* ------------------------------------------------------ reverse index */

typedef struct rev_item {
    uint32_t launcher;
    tt_evref dev;
} rev_item;

static int cmp_rev(const void *pa, const void *pb, void *ctx)
{
    const rev_item *x = pa, *y = pb;
    (void)ctx;
    if (x->launcher != y->launcher)
        return x->launcher < y->launcher ? -1 : 1;
    if (x->dev.lane != y->dev.lane)
        return x->dev.lane < y->dev.lane ? -1 : 1;
    return x->dev.idx < y->dev.idx ? -1 : x->dev.idx > y->dev.idx;
}

/* Build every host lane's launcher -> device list. 0, or -1 on OOM. */
static int rev_build(tt_attrib *a)
{
    const tt_trace *tr = a->tr;
    size_t *count = calloc(tr->n_lanes ? tr->n_lanes : 1, sizeof *count);
    rev_item **items = calloc(tr->n_lanes ? tr->n_lanes : 1, sizeof *items);
    int rc = -1;
    if (!count || !items)
        goto out;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t li = 0; li < tr->n_lanes; li++) {
            const at_lane *dl = &a->lanes[li];
            if (!dl->launch)
                continue;
            for (uint32_t i = 0; i < tr->lanes[li].n; i++) {
                tt_evref h;
                if (!dl->launch[i])
                    continue;
                h = from_global(a, dl->launch[i] - 1);
                if (pass == 0)
                    count[h.lane]++;
                else
                    items[h.lane][a->lanes[h.lane].n_rev++] = (rev_item){h.idx, {li, i}};
            }
        }
        if (pass == 0)
            for (uint32_t li = 0; li < tr->n_lanes; li++)
                if (count[li] && !(items[li] = malloc(count[li] * sizeof **items)))
                    goto out;
    }
    for (uint32_t li = 0; li < tr->n_lanes; li++) {
        at_lane *l = &a->lanes[li];
        if (!items[li])
            continue;
        if (tt_sort(items[li], l->n_rev, sizeof *items[li], cmp_rev, NULL))
            goto out;
        l->rev_launcher = malloc(l->n_rev * sizeof *l->rev_launcher);
        l->rev_dev = malloc(l->n_rev * sizeof *l->rev_dev);
        if (!l->rev_launcher || !l->rev_dev)
            goto out;
        for (size_t k = 0; k < l->n_rev; k++) {
            l->rev_launcher[k] = items[li][k].launcher;
            l->rev_dev[k] = items[li][k].dev;
        }
    }
    rc = 0;
out:
    for (uint32_t li = 0; items && li < tr->n_lanes; li++)
        free(items[li]);
    free(items);
    free(count);
    if (rc)
        for (uint32_t li = 0; li < tr->n_lanes; li++) {
            free(a->lanes[li].rev_launcher);
            free(a->lanes[li].rev_dev);
            a->lanes[li].rev_launcher = NULL;
            a->lanes[li].rev_dev = NULL;
            a->lanes[li].n_rev = 0;
        }
    return rc;
}

int tt_attrib_launched(const tt_attrib *ca, tt_evref host, bool anywhere, tt_evref **out,
                       size_t *n, size_t *cap)
{
    tt_attrib *a = (tt_attrib *)ca;   /* only the lazy index is written */
    const at_lane *l;
    size_t lo = 0, hi;
    uint32_t stop;
    if (!__atomic_load_n(&a->rev_ready, __ATOMIC_ACQUIRE)) {
        int rc = 0;
        pthread_mutex_lock(&a->lock);
        if (!a->rev_ready) {
            rc = rev_build(a);
            if (!rc)
                __atomic_store_n(&a->rev_ready, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&a->lock);
        if (rc)
            return -1;
    }
    l = &a->lanes[host.lane];
    hi = l->n_rev;
    while (lo < hi) {   /* first launcher >= host.idx */
        size_t mid = lo + (hi - lo) / 2;
        if (l->rev_launcher[mid] < host.idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    stop = subtree_end(a, host);
    for (size_t k = lo; k < l->n_rev && l->rev_launcher[k] < stop; k++) {
        if (!anywhere) {
            tt_evref op = op_of(a, (tt_evref){host.lane, l->rev_launcher[k]});
            if (op.idx != host.idx)
                continue;
        }
        if (tt_grow_one((void **)out, cap, *n, sizeof **out))
            return -1;
        (*out)[(*n)++] = l->rev_dev[k];
    }
    return 0;
}

/* -------------------------------------------------------------- build */

static void attrib_free(tt_trace_aux *aux)
{
    tt_attrib *a = (tt_attrib *)aux;
    for (uint32_t li = 0; a->lanes && li < a->tr->n_lanes; li++) {
        at_lane *l = &a->lanes[li];
        free(l->parent);
        free(l->self);
        free(l->launch);
        free(l->sum_idx);
        free(l->sum_self);
        free(l->sum_total);
        free(l->rev_launcher);
        free(l->rev_dev);
    }
    pthread_mutex_destroy(&a->lock);
    free(a->lanes);
    free(a->base);
    free(a->sflags);
    free(a);
}

/* Parents and self times of a thread lane with nesting. tmp: room for
 * the lane's events. 0, or -1 on OOM. */
static int build_nesting(tt_attrib *a, uint32_t li, tt_ns *covered)
{
    const tt_lane *ln = &a->tr->lanes[li];
    at_lane *l = &a->lanes[li];
    uint32_t *stack;   /* event index per depth, on the row stack */
    if (ln->kind != TT_LANE_THREAD || ln->max_depth == 0 || !ln->n)
        return 0;
    l->parent = malloc(ln->n * sizeof *l->parent);
    l->self = malloc(ln->n * sizeof *l->self);
    stack = malloc(((size_t)ln->max_depth + 1) * sizeof *stack);
    if (!l->parent || !l->self || !stack) {
        free(stack);
        return -1;
    }
    a->bytes += ln->n * (sizeof *l->parent + sizeof *l->self);
    memset(covered, 0, ln->n * sizeof *covered);
    for (uint32_t i = 0; i < ln->n; i++) {
        const tt_event *e = &ln->ev[i];
        uint16_t d = e->depth;
        stack[d] = i;
        if (d == 0) {
            l->parent[i] = UINT32_MAX;
        } else {
            uint32_t p = stack[d - 1];
            tt_ns pend = tt_event_end(&ln->ev[p]), end = tt_event_end(e);
            l->parent[i] = p;
            covered[p] += (end < pend ? end : pend) - e->start;
        }
    }
    for (uint32_t i = 0; i < ln->n; i++) {
        const tt_event *e = &ln->ev[i];
        tt_ns s = ev_instant(e) ? 0 : e->dur - covered[i];
        l->self[i] = s >= 0 && s < (tt_ns)SELF_BIG ? (uint32_t)s : SELF_BIG;
    }
    free(stack);
    return 0;
}

/* The host events by correlation id, built when a device event first
 * needs it (a trace whose flows all land on the call with the device
 * event's id never does: hashing every call cost a third of the build). */
typedef struct corr_index {
    tt_u64map map;
    bool      built;
} corr_index;

/* 0, or -1 when out of memory. */
static int corr_build(tt_attrib *a, corr_index *c)
{
    const tt_trace *tr = a->tr;
    c->built = true;
    for (uint32_t li = 0; li < tr->n_lanes; li++) {
        const tt_lane *ln = &tr->lanes[li];
        for (uint32_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            uint32_t *g;
            if (!e->corr || ev_device(a, e))
                continue;
            g = tt_u64map_get(&c->map, e->corr);
            /* a runtime call wins over any other event with the id, and a
             * later one over an earlier: of nested calls with one id
             * (nsys: cudaMemcpy around cudaMemcpy_v3020) the innermost, as
             * the correlation flows bind */
            if ((!g || !ev_runtime(a, tt_trace_event(tr, from_global(a, *g))) ||
                 ev_runtime(a, e)) &&
                tt_u64map_put(&c->map, e->corr, (uint32_t)(a->base[li] + i)))
                return -1;
        }
    }
    return 0;
}

/* The host call with device event e's id, or NULL. *oom on OOM. */
static const uint32_t *corr_find(tt_attrib *a, corr_index *c, const tt_event *e, bool *oom)
{
    if (!e->corr)
        return NULL;
    if (!c->built && corr_build(a, c)) {
        *oom = true;
        return NULL;
    }
    return tt_u64map_get(&c->map, e->corr);
}

/* The host launcher of device event (li, i) from flows into it, or its
 * correlation id. *oom is set when out of memory. */
static tt_evref find_launcher(tt_attrib *a, corr_index *corr, uint32_t li, uint32_t i,
                              bool *dangling, bool *oom)
{
    const tt_trace *tr = a->tr;
    tt_evref ev = {li, i};
    size_t first, nf = tt_trace_flows_to(tr, ev, &first);
    const tt_event *e = &tr->lanes[li].ev[i];
    const uint32_t *g;
    *dangling = false;
    for (size_t k = 0; k < nf; k++) {
        const tt_flow *f = &tr->flows[tr->flows_by_to[first + k]];
        const tt_event *src;
        if (!tt_evref_ok(f->from) || ev_device(a, (src = tt_trace_event(tr, f->from))))
            continue;
        /* a flow start bound to another call than the one with the
         * device event's id (Kineto: a zero-length cudaPeekAtLastError
         * at the launch's time is the deepest slice there): the id */
        if (e->corr && src->corr != e->corr && (g = corr_find(a, corr, e, oom)))
            return from_global(a, *g);
        return f->from;
    }
    if ((g = corr_find(a, corr, e, oom)))
        return from_global(a, *g);
    *dangling = e->corr != 0;
    return TT_NO_EVENT;
}

/* Add one link's device time to the host lane's dense sums. The total
 * goes to the launcher only; total_propagate() then carries it to every
 * ancestor in one pass, so a deep stack (improperly nested ranges make
 * staircases thousands deep) costs O(n), not O(depth) per link. */
static void add_link(tt_attrib *a, tt_evref launcher, tt_ns dur, tt_ns **dself, tt_ns **dtotal)
{
    tt_evref op = op_of(a, launcher);
    dself[op.lane][op.idx] += dur;
    dtotal[launcher.lane][launcher.idx] += dur;
}

/* Device totals from each event's own links to all its ancestors: a
 * parent always precedes its children on the lane, so one backward walk
 * adds every finished subtree to its parent. */
static void total_propagate(const at_lane *l, size_t n, tt_ns *dtotal)
{
    if (!l->parent)
        return;
    for (size_t i = n; i-- > 0;)
        if (l->parent[i] != UINT32_MAX)
            dtotal[l->parent[i]] += dtotal[i];
}

static int build(tt_attrib *a, tt_error *err)
{
    const tt_trace *tr = a->tr;
    uint32_t nl = tr->n_lanes;
    size_t maxn = 1;
    tt_ns *covered = NULL, **dself = NULL, **dtotal = NULL;
    corr_index corr;
    int rc = -1;
    tt_u64map_init(&corr.map);
    corr.built = false;
    a->n_str = tt_strtab_count(tr->strings);
    a->sflags = calloc(a->n_str ? a->n_str : 1, 1);
    a->lanes = calloc(nl ? nl : 1, sizeof *a->lanes);
    a->base = calloc((size_t)nl + 1, sizeof *a->base);
    dself = calloc(nl ? nl : 1, sizeof *dself);
    dtotal = calloc(nl ? nl : 1, sizeof *dtotal);
    if (!a->sflags || !a->lanes || !a->base || !dself || !dtotal)
        goto oom;
    a->bytes = sizeof *a + a->n_str + nl * (sizeof *a->lanes + sizeof *a->base);
    for (uint32_t li = 0; li < nl; li++) {
        a->base[li + 1] = a->base[li] + tr->lanes[li].n;
        if (tr->lanes[li].n > maxn)
            maxn = tr->lanes[li].n;
    }
    if (a->base[nl] >= UINT32_MAX) {
        rc = tt_error_set(err, TT_ERR_NOMEM, "attribution: more than 4 billion events");
        goto out;
    }
    if (!(covered = malloc(maxn * sizeof *covered)))
        goto oom;
    /* pass 1: string flags, nesting */
    for (uint32_t li = 0; li < nl; li++) {
        const tt_lane *ln = &tr->lanes[li];
        for (uint32_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            if (e->cat)
                sflags_fill(a, e->cat);
            sflags_fill(a, e->name);
        }
        if (build_nesting(a, li, covered))
            goto oom;
    }
    /* pass 2: launchers of device events, the sums of their hosts */
    for (uint32_t li = 0; li < nl; li++) {
        const tt_lane *ln = &tr->lanes[li];
        at_lane *l = &a->lanes[li];
        for (uint32_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            tt_evref h;
            bool dangling, oom = false;
            if (!ev_device(a, e))
                continue;
            a->n_device++;
            l->device = true;
            h = find_launcher(a, &corr, li, i, &dangling, &oom);
            if (oom)
                goto oom;
            a->n_dangling += dangling;
            if (!tt_evref_ok(h))
                continue;
            if (!l->launch) {
                if (!(l->launch = calloc(ln->n, sizeof *l->launch)))
                    goto oom;
                a->bytes += ln->n * sizeof *l->launch;
            }
            l->launch[i] = (uint32_t)(a->base[h.lane] + h.idx + 1);
            a->n_links++;
            if (!dself[h.lane]) {
                dself[h.lane] = calloc(tr->lanes[h.lane].n, sizeof **dself);
                dtotal[h.lane] = calloc(tr->lanes[h.lane].n, sizeof **dtotal);
                if (!dself[h.lane] || !dtotal[h.lane])
                    goto oom;
            }
            add_link(a, h, e->dur, dself, dtotal);
        }
    }
    /* the dense sums become sparse tables */
    for (uint32_t li = 0; li < nl; li++) {
        at_lane *l = &a->lanes[li];
        size_t k = 0, n = tr->lanes[li].n;
        if (!dself[li])
            continue;
        total_propagate(l, n, dtotal[li]);
        for (size_t i = 0; i < n; i++)
            k += dself[li][i] || dtotal[li][i];
        l->sum_idx = malloc((k ? k : 1) * sizeof *l->sum_idx);
        l->sum_self = malloc((k ? k : 1) * sizeof *l->sum_self);
        l->sum_total = malloc((k ? k : 1) * sizeof *l->sum_total);
        if (!l->sum_idx || !l->sum_self || !l->sum_total)
            goto oom;
        for (size_t i = 0; i < n; i++)
            if (dself[li][i] || dtotal[li][i]) {
                l->sum_idx[l->n_sum] = (uint32_t)i;
                l->sum_self[l->n_sum] = dself[li][i];
                l->sum_total[l->n_sum++] = dtotal[li][i];
            }
        a->bytes += k * (sizeof *l->sum_idx + 2 * sizeof *l->sum_self);
        free(dself[li]);
        free(dtotal[li]);
        dself[li] = dtotal[li] = NULL;
    }
    rc = 0;
    goto out;
oom:
    rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
out:
    for (uint32_t li = 0; dself && li < nl; li++) {
        free(dself[li]);
        free(dtotal[li]);
    }
    free(dself);
    free(dtotal);
    free(covered);
    tt_u64map_fini(&corr.map);
    return rc;
}

const tt_attrib *tt_attrib_get(const tt_trace *tr, tt_error *err)
{
    tt_trace *mtr = (tt_trace *)tr;   /* only the aux slot is written */
    tt_trace_aux *cur = __atomic_load_n(&mtr->aux_attrib, __ATOMIC_ACQUIRE), *expected = NULL;
    tt_attrib *a;
    if (cur)
        return (const tt_attrib *)cur;
    if (!(a = calloc(1, sizeof *a))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    a->tr = tr;
    a->aux.free_fn = attrib_free;
    if (pthread_mutex_init(&a->lock, NULL)) {
        free(a);
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (build(a, err)) {
        attrib_free(&a->aux);
        return NULL;
    }
    if (__atomic_compare_exchange_n(&mtr->aux_attrib, &expected, &a->aux, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return a;
    attrib_free(&a->aux);   /* another thread was first */
    return (const tt_attrib *)expected;
}
