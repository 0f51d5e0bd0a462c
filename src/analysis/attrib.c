/* attrib.c - nesting, self time and launch attribution (see attrib.h).
 *
 * Storage (attrib_store.h, at most a few bytes per event), built in O(n)
 * (two passes per lane, and one backward walk per host lane with device
 * time for the totals), or restored from a .ttz (tt_attrib_store_adopt):
 * - per event of a thread lane with nesting, one uint16 slot: a parent
 *   that is not the previous event, or the self time of the previous
 *   event when that is the parent (a first child's parent is its
 *   predecessor, a leaf's self time its duration: neither is stored);
 *   the few values that do not fit go to a sorted escape table;
 * - per event of a lane holding device events: its launcher as a global
 *   event number + 1 (0: none), decoded through the lanes' first numbers;
 * - per host lane with device time, a bitmap of the events that have
 *   some, ranked per 64-bit word, and per such event its device total as
 *   uint32 and one bit for "self == total" (the usual cases are self 0:
 *   a runtime call or an enclosing op, and self == total: the op that
 *   launched), the rest in small sorted tables;
 * - the reverse index (launcher -> device events) only when
 *   tt_attrib_launched() is first asked.
 */
#include "config.h"

#include "analysis/attrib.h"

#include "analysis/attrib_store.h"
#include "analysis/classify.h"
#include "util/bigalloc.h"
#include "util/grow.h"
#include "util/sort.h"
#include "util/u64map.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* String flags, per string id, for categories and names alike. */
enum {
    SF_KNOWN = 1u << 0,
    SF_DEV = 1u << 1,       /* as a category: device work */
    SF_RT_CAT = 1u << 2,    /* as a category: runtime/driver calls */
    SF_PY = 1u << 3,        /* as a category: Python frames */
    SF_RT_NAME = 1u << 4,   /* as a name: a runtime/driver entry point */
    SF__ALL = (1u << 5) - 1
};

typedef struct at_rev {
    uint32_t *launcher;    /* launcher index, sorted */
    tt_evref *dev;         /* the device event of each */
    size_t    n;
} at_rev;

struct tt_attrib {
    tt_trace_aux    aux;   /* first: the trace frees us through it */
    const tt_trace *tr;
    tt_attrib_store st;
    uint64_t       *base;  /* base[l]: global number of lane l's first event */
    size_t          bytes;
    pthread_mutex_t lock;  /* the lazy reverse index */
    int             rev_ready;
    at_rev         *rev;   /* per lane, once rev_ready */
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
    if (id < a->st.n_str && a->st.sflags[id])
        return a->st.sflags[id];
    return flags_compute(tt_str(a->tr, id));
}

static uint8_t sflags_fill(tt_attrib *a, uint32_t id)
{
    if (id >= a->st.n_str)
        return flags_compute(tt_str(a->tr, id));
    if (!a->st.sflags[id])
        a->st.sflags[id] = flags_compute(tt_str(a->tr, id));
    return a->st.sflags[id];
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

/* Position of key in the sorted keys[0..n), or -1. */
static ptrdiff_t find_u32(const uint32_t *keys, size_t n, uint32_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo] == key ? (ptrdiff_t)lo : -1;
}

/* The value of slot idx of a nested lane (attrib_store.h); UINT32_MAX
 * for an escaped self time too long to store. */
static uint32_t slot_get(const tt_attrib_lane_store *l, uint32_t idx)
{
    ptrdiff_t k;
    if (l->slot[idx] != TT_ATTRIB_SLOT_ESC)
        return l->slot[idx];
    k = find_u32(l->esc_idx, l->n_esc, idx);
    return k < 0 ? 0 : l->esc_val[k];   /* adopt checked: always found */
}

/* Is event i of a nested lane the first child of i - 1? */
static bool first_child(const tt_lane *ln, uint32_t i)
{
    return i > 0 && ln->ev[i].depth > 0 && ln->ev[i - 1].depth + 1 == ln->ev[i].depth;
}

/* Has event i of a nested lane a child (then i + 1 is its first)? */
static bool has_child(const tt_lane *ln, uint32_t i)
{
    return i + 1 < ln->n && ln->ev[i + 1].depth == ln->ev[i].depth + 1;
}

tt_evref tt_attrib_parent(const tt_attrib *a, tt_evref ev)
{
    const tt_attrib_lane_store *l = &a->st.lanes[ev.lane];
    const tt_lane *ln = &a->tr->lanes[ev.lane];
    uint32_t v;
    if (!l->slot || ev.idx == 0 || ln->ev[ev.idx].depth == 0)
        return TT_NO_EVENT;
    if (first_child(ln, ev.idx))
        return (tt_evref){ev.lane, ev.idx - 1};
    /* bounded here, not when a .ttz is adopted (attrib_store.h): a parent
     * is an earlier event of the lane, else there is none */
    if (l->slot[ev.idx] != TT_ATTRIB_SLOT_ESC)
        v = l->slot[ev.idx] && l->slot[ev.idx] <= ev.idx ? ev.idx - l->slot[ev.idx] : ev.idx;
    else
        v = slot_get(l, ev.idx);
    return v < ev.idx ? (tt_evref){ev.lane, v} : TT_NO_EVENT;
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
    const tt_attrib_lane_store *l = &a->st.lanes[ev.lane];
    const tt_lane *ln = &a->tr->lanes[ev.lane];
    const tt_event *e = &ln->ev[ev.idx];
    uint32_t v;
    if (ev_instant(e))
        return 0;
    if (!l->slot || !has_child(ln, ev.idx))
        return e->dur;   /* no children: nothing covered */
    v = slot_get(l, ev.idx + 1);
    return v != UINT32_MAX ? v : self_slow(a, ev);
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
    const tt_attrib_lane_store *l = &a->st.lanes[dev.lane];
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

/* Entry of event idx in the lane's device time, or -1. O(1). */
static ptrdiff_t sum_entry(const tt_attrib_lane_store *l, uint32_t idx)
{
    uint64_t w, below;
    if (!l->has)
        return -1;
    w = l->has[idx / 64];
    below = w & ((UINT64_C(1) << (idx % 64)) - 1);
    if (!((w >> (idx % 64)) & 1))
        return -1;
    return (ptrdiff_t)l->rank[idx / 64] + __builtin_popcountll(below);
}

static tt_ns sum_total(const tt_attrib_lane_store *l, uint32_t k)
{
    ptrdiff_t j;
    if (l->total[k] != UINT32_MAX)
        return l->total[k];
    j = find_u32(l->big_at, l->n_big, k);
    return j < 0 ? 0 : l->big_val[j];   /* adopt checked: always found */
}

tt_ns tt_attrib_device_self(const tt_attrib *a, tt_evref host)
{
    const tt_attrib_lane_store *l = &a->st.lanes[host.lane];
    ptrdiff_t k = sum_entry(l, host.idx), j;
    if (k < 0)
        return 0;
    if ((l->same[k / 64] >> (k % 64)) & 1)
        return sum_total(l, (uint32_t)k);
    j = find_u32(l->xs_at, l->n_xs, (uint32_t)k);
    return j < 0 ? 0 : l->xs_val[j];
}

tt_ns tt_attrib_device_total(const tt_attrib *a, tt_evref host)
{
    const tt_attrib_lane_store *l = &a->st.lanes[host.lane];
    ptrdiff_t k = sum_entry(l, host.idx);
    return k < 0 ? 0 : sum_total(l, (uint32_t)k);
}

bool tt_attrib_lane_is_device(const tt_attrib *a, uint32_t lane)
{
    return a->st.lanes[lane].device;
}

size_t tt_attrib_n_links(const tt_attrib *a) { return (size_t)a->st.n_links; }
size_t tt_attrib_n_device(const tt_attrib *a) { return (size_t)a->st.n_device; }
size_t tt_attrib_n_dangling(const tt_attrib *a) { return (size_t)a->st.n_dangling; }
bool tt_attrib_has_links(const tt_attrib *a) { return a->st.n_links > 0; }
size_t tt_attrib_memory(const tt_attrib *a) { return a->bytes; }
const tt_attrib_store *tt_attrib_store_of(const tt_attrib *a) { return &a->st; }

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

static void rev_free(tt_attrib *a)
{
    for (uint32_t li = 0; a->rev && li < a->tr->n_lanes; li++) {
        free(a->rev[li].launcher);
        free(a->rev[li].dev);
    }
    free(a->rev);
    a->rev = NULL;
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
    if (!(a->rev = calloc(tr->n_lanes ? tr->n_lanes : 1, sizeof *a->rev)))
        goto out;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t li = 0; li < tr->n_lanes; li++) {
            const tt_attrib_lane_store *dl = &a->st.lanes[li];
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
                    items[h.lane][a->rev[h.lane].n++] = (rev_item){h.idx, {li, i}};
            }
        }
        if (pass == 0)
            for (uint32_t li = 0; li < tr->n_lanes; li++)
                if (count[li] && !(items[li] = malloc(count[li] * sizeof **items)))
                    goto out;
    }
    for (uint32_t li = 0; li < tr->n_lanes; li++) {
        at_rev *l = &a->rev[li];
        if (!items[li])
            continue;
        if (tt_sort(items[li], l->n, sizeof *items[li], cmp_rev, NULL))
            goto out;
        l->launcher = malloc(l->n * sizeof *l->launcher);
        l->dev = malloc(l->n * sizeof *l->dev);
        if (!l->launcher || !l->dev)
            goto out;
        for (size_t k = 0; k < l->n; k++) {
            l->launcher[k] = items[li][k].launcher;
            l->dev[k] = items[li][k].dev;
        }
    }
    rc = 0;
out:
    for (uint32_t li = 0; items && li < tr->n_lanes; li++)
        free(items[li]);
    free(items);
    free(count);
    if (rc)
        rev_free(a);
    return rc;
}

int tt_attrib_launched(const tt_attrib *ca, tt_evref host, bool anywhere, tt_evref **out,
                       size_t *n, size_t *cap)
{
    tt_attrib *a = (tt_attrib *)ca;   /* only the lazy index is written */
    const at_rev *l;
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
    l = &a->rev[host.lane];
    hi = l->n;
    while (lo < hi) {   /* first launcher >= host.idx */
        size_t mid = lo + (hi - lo) / 2;
        if (l->launcher[mid] < host.idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    stop = subtree_end(a, host);
    for (size_t k = lo; k < l->n && l->launcher[k] < stop; k++) {
        if (!anywhere) {
            tt_evref op = op_of(a, (tt_evref){host.lane, l->launcher[k]});
            if (op.idx != host.idx)
                continue;
        }
        if (tt_grow_one((void **)out, cap, *n, sizeof **out))
            return -1;
        (*out)[(*n)++] = l->dev[k];
    }
    return 0;
}

/* -------------------------------------------------------------- build */

void tt_attrib_store_free(tt_attrib_store *st)
{
    free(st->arena);   /* then every lane array was in it */
    for (uint32_t li = 0; !st->arena && st->lanes && li < st->n_lanes; li++) {
        tt_attrib_lane_store *l = &st->lanes[li];
        free(l->slot);
        free(l->esc_idx);
        free(l->esc_val);
        free(l->launch);
        free(l->has);
        free(l->rank);
        free(l->total);
        free(l->same);
        free(l->big_at);
        free(l->big_val);
        free(l->xs_at);
        free(l->xs_val);
    }
    free(st->lanes);
    free(st->sflags);
    memset(st, 0, sizeof *st);
}

static void attrib_free(tt_trace_aux *aux)
{
    tt_attrib *a = (tt_attrib *)aux;
    rev_free(a);
    tt_attrib_store_free(&a->st);
    pthread_mutex_destroy(&a->lock);
    free(a->base);
    free(a);
}

/* Bytes held by the store (what tt_attrib_memory() reports), and the
 * lanes' first global numbers. */
static size_t store_bytes(const tt_attrib *a)
{
    const tt_attrib_store *st = &a->st;
    size_t b = sizeof *a + st->n_str + st->n_lanes * (sizeof *st->lanes + sizeof *a->base);
    for (uint32_t li = 0; li < st->n_lanes; li++) {
        const tt_attrib_lane_store *l = &st->lanes[li];
        size_t n = a->tr->lanes[li].n;
        if (l->slot)
            b += n * sizeof *l->slot + l->n_esc * (sizeof *l->esc_idx + sizeof *l->esc_val);
        if (l->launch)
            b += n * sizeof *l->launch;
        if (l->has)
            b += (n + 63) / 64 * (sizeof *l->has + sizeof *l->rank) +
                 l->n_sum * sizeof *l->total + (l->n_sum + 63) / 64 * sizeof *l->same +
                 l->n_big * (sizeof *l->big_at + sizeof *l->big_val) +
                 l->n_xs * (sizeof *l->xs_at + sizeof *l->xs_val);
    }
    return b;
}

/* A growable (key, value) table, filled in key order. */
typedef struct kv_grow {
    uint32_t *key;
    void     *val;
    size_t    n, cap_k, cap_v;
} kv_grow;

static int kv_add(kv_grow *g, uint32_t key, const void *val, size_t vsize)
{
    if (tt_grow_one((void **)&g->key, &g->cap_k, g->n, sizeof *g->key) ||
        tt_grow_one(&g->val, &g->cap_v, g->n, vsize))
        return -1;
    g->key[g->n] = key;
    memcpy((char *)g->val + g->n * vsize, val, vsize);
    g->n++;
    return 0;
}

/* Slot i of a nested lane: small when it fits (< TT_ATTRIB_SLOT_ESC),
 * else an escape holding full. */
static int slot_put(tt_attrib_lane_store *l, kv_grow *esc, uint32_t i, uint64_t small,
                    uint32_t full)
{
    if (small < TT_ATTRIB_SLOT_ESC) {
        l->slot[i] = (uint16_t)small;
        return 0;
    }
    l->slot[i] = TT_ATTRIB_SLOT_ESC;
    return kv_add(esc, i, &full, sizeof full);
}

/* Slots of a thread lane with nesting (attrib_store.h). covered and
 * parent: room for the lane's events. 0, or -1 on OOM. */
static int build_nesting(tt_attrib *a, uint32_t li, tt_ns *covered, uint32_t *parent)
{
    const tt_lane *ln = &a->tr->lanes[li];
    tt_attrib_lane_store *l = &a->st.lanes[li];
    kv_grow esc = {0};
    uint32_t *stack;   /* event index per depth, on the row stack */
    if (!tt_attrib_lane_nested(ln))
        return 0;
    l->slot = malloc(ln->n * sizeof *l->slot);
    stack = malloc(((size_t)ln->max_depth + 1) * sizeof *stack);
    if (!l->slot || !stack) {
        free(stack);
        return -1;
    }
    memset(covered, 0, ln->n * sizeof *covered);
    for (uint32_t i = 0; i < ln->n; i++) {
        const tt_event *e = &ln->ev[i];
        uint16_t d = e->depth;
        stack[d] = i;
        if (d > 0) {
            uint32_t p = stack[d - 1];
            tt_ns pend = tt_event_end(&ln->ev[p]), end = tt_event_end(e);
            parent[i] = p;
            covered[p] += (end < pend ? end : pend) - e->start;
        }
    }
    free(stack);
    for (uint32_t i = 0; i < ln->n; i++) {
        int rc = 0;
        if (ln->ev[i].depth == 0) {
            l->slot[i] = 0;
        } else if (first_child(ln, i)) {   /* the self time of i - 1 */
            const tt_event *p = &ln->ev[i - 1];
            tt_ns s = ev_instant(p) ? 0 : p->dur - covered[i - 1];
            uint64_t u = s >= 0 && s < (tt_ns)UINT32_MAX ? (uint64_t)s : UINT32_MAX;
            rc = slot_put(l, &esc, i, u, (uint32_t)u);
        } else {   /* the distance to the parent */
            rc = slot_put(l, &esc, i, i - parent[i], parent[i]);
        }
        if (rc) {
            free(esc.key);
            free(esc.val);
            return -1;
        }
    }
    l->esc_idx = esc.key;
    l->esc_val = esc.val;
    l->n_esc = (uint32_t)esc.n;
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

/* Whether evref x comes before y in flows_by_to's order (lane, then
 * index). */
static bool evref_before(tt_evref x, tt_evref y)
{
    return x.lane != y.lane ? x.lane < y.lane : x.idx < y.idx;
}

/* tt_trace_flows_to(tr, ev, first) for events asked in (lane, index)
 * order, flows_by_to's own: *cur, where the last search ended, only moves
 * forward. launch_pass asks it of every device event, and a binary search
 * each (17 steps at 1M events, each a cache miss) was most of a count. */
static size_t flows_to_next(const tt_trace *tr, tt_evref ev, size_t *cur, size_t *first)
{
    size_t k = *cur, end;
    while (k < tr->n_flows && evref_before(tr->flows[tr->flows_by_to[k]].to, ev))
        k++;
    for (end = k; end < tr->n_flows && !evref_before(ev, tr->flows[tr->flows_by_to[end]].to);
         end++)
        ;
    *cur = *first = k;
    return end - k;
}

/* The host launcher of device event (li, i) from flows into it, or its
 * correlation id; events are asked in (lane, index) order, *flow_cur
 * following them in flows_by_to. *oom is set when out of memory. */
static tt_evref find_launcher(tt_attrib *a, corr_index *corr, uint32_t li, uint32_t i,
                              size_t *flow_cur, bool *dangling, bool *oom)
{
    const tt_trace *tr = a->tr;
    tt_evref ev = {li, i};
    size_t first, nf = flows_to_next(tr, ev, flow_cur, &first);
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
static void total_propagate(const tt_attrib *a, uint32_t li, tt_ns *dtotal)
{
    if (!a->st.lanes[li].slot)
        return;
    for (uint32_t i = (uint32_t)a->tr->lanes[li].n; i-- > 0;) {
        tt_evref p = tt_attrib_parent(a, (tt_evref){li, i});
        if (tt_evref_ok(p))
            dtotal[p.idx] += dtotal[i];
    }
}

/* A host lane's dense device sums as its stored tables. 0, or -1. */
static int sums_store(tt_attrib_lane_store *l, size_t n, const tt_ns *dself, const tt_ns *dtotal)
{
    size_t words = (n + 63) / 64, k = 0;
    kv_grow big = {0}, xs = {0};
    for (size_t i = 0; i < n; i++)
        k += dself[i] || dtotal[i];
    l->has = calloc(words ? words : 1, sizeof *l->has);
    l->rank = malloc((words ? words : 1) * sizeof *l->rank);
    l->total = malloc((k ? k : 1) * sizeof *l->total);
    l->same = calloc((k + 63) / 64 ? (k + 63) / 64 : 1, sizeof *l->same);
    if (!l->has || !l->rank || !l->total || !l->same)
        return -1;
    for (size_t i = 0; i < n; i++) {
        uint32_t e = l->n_sum;
        if (i % 64 == 0)
            l->rank[i / 64] = e;
        if (!dself[i] && !dtotal[i])
            continue;
        l->has[i / 64] |= UINT64_C(1) << (i % 64);
        l->total[e] = dtotal[i] >= 0 && dtotal[i] < (tt_ns)UINT32_MAX ? (uint32_t)dtotal[i]
                                                                       : UINT32_MAX;
        if ((l->total[e] == UINT32_MAX && kv_add(&big, e, &dtotal[i], sizeof dtotal[i])) ||
            (dself[i] && dself[i] != dtotal[i] && kv_add(&xs, e, &dself[i], sizeof dself[i])))
            goto oom;
        if (dself[i] && dself[i] == dtotal[i])
            l->same[e / 64] |= UINT64_C(1) << (e % 64);
        l->n_sum++;
    }
    l->big_at = big.key;
    l->big_val = big.val;
    l->n_big = (uint32_t)big.n;
    l->xs_at = xs.key;
    l->xs_val = xs.val;
    l->n_xs = (uint32_t)xs.n;
    return 0;
oom:
    free(big.key);
    free(big.val);
    free(xs.key);
    free(xs.val);
    return -1;
}

/* The lanes' first global numbers; -1 past 4 billion events (launchers
 * are stored as uint32). */
static int base_fill(tt_attrib *a, uint32_t nl)
{
    for (uint32_t li = 0; li < nl; li++)
        a->base[li + 1] = a->base[li] + a->tr->lanes[li].n;
    return a->base[nl] >= UINT32_MAX ? -1 : 0;
}

/* What a build and a count share: the tables (string flags, per-lane
 * stores, the lanes' first global numbers) and the flags of every
 * category and name met, so the passes after never compute one twice.
 * 0, or -1 with err. */
static int build_begin(tt_attrib *a, tt_error *err)
{
    const tt_trace *tr = a->tr;
    uint32_t nl = tr->n_lanes;
    a->st.n_lanes = nl;
    a->st.n_str = tt_strtab_count(tr->strings);
    a->st.sflags = calloc(a->st.n_str ? a->st.n_str : 1, 1);
    a->st.lanes = calloc(nl ? nl : 1, sizeof *a->st.lanes);
    a->base = calloc((size_t)nl + 1, sizeof *a->base);
    if (!a->st.sflags || !a->st.lanes || !a->base)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (base_fill(a, nl))
        return tt_error_set(err, TT_ERR_NOMEM, "attribution: more than 4 billion events");
    for (uint32_t li = 0; li < nl; li++) {
        const tt_lane *ln = &tr->lanes[li];
        for (uint32_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            if (e->cat)
                sflags_fill(a, e->cat);
            sflags_fill(a, e->name);
        }
    }
    return 0;
}

/* The launcher of every device event, counted into a->st (n_device,
 * n_links, n_dangling). With dself and dtotal (a build), each link is
 * also stored and its device time added to its hosts' dense sums; with
 * NULL (tt_attrib_count) nothing else is touched. 0, or -1 on OOM. */
static int launch_pass(tt_attrib *a, corr_index *corr, tt_ns **dself, tt_ns **dtotal)
{
    const tt_trace *tr = a->tr;
    size_t flow_cur = 0;   /* find_launcher's place in flows_by_to */
    for (uint32_t li = 0; li < tr->n_lanes; li++) {
        const tt_lane *ln = &tr->lanes[li];
        tt_attrib_lane_store *l = &a->st.lanes[li];
        for (uint32_t i = 0; i < ln->n; i++) {
            const tt_event *e = &ln->ev[i];
            tt_evref h;
            bool dangling, oom = false;
            if (!ev_device(a, e))
                continue;
            a->st.n_device++;
            l->device = true;
            h = find_launcher(a, corr, li, i, &flow_cur, &dangling, &oom);
            if (oom)
                return -1;
            a->st.n_dangling += dangling;
            if (!tt_evref_ok(h))
                continue;
            a->st.n_links++;
            if (!dself)
                continue;
            if (!l->launch && !(l->launch = calloc(ln->n, sizeof *l->launch)))
                return -1;
            l->launch[i] = (uint32_t)(a->base[h.lane] + h.idx + 1);
            if (!dself[h.lane]) {
                /* touched at random over the whole lane: huge pages */
                dself[h.lane] = tt_bigcalloc(tr->lanes[h.lane].n * sizeof **dself);
                dtotal[h.lane] = tt_bigcalloc(tr->lanes[h.lane].n * sizeof **dtotal);
                if (!dself[h.lane] || !dtotal[h.lane])
                    return -1;
            }
            add_link(a, h, e->dur, dself, dtotal);
        }
    }
    return 0;
}

static int build(tt_attrib *a, tt_error *err)
{
    const tt_trace *tr = a->tr;
    uint32_t nl = tr->n_lanes;
    size_t maxn = 1;
    tt_ns *covered = NULL, **dself = NULL, **dtotal = NULL;
    uint32_t *parent = NULL;
    corr_index corr;
    int rc = -1;
    tt_u64map_init(&corr.map);
    corr.built = false;
    if (build_begin(a, err))
        goto out;
    dself = calloc(nl ? nl : 1, sizeof *dself);
    dtotal = calloc(nl ? nl : 1, sizeof *dtotal);
    if (!dself || !dtotal)
        goto oom;
    for (uint32_t li = 0; li < nl; li++)
        if (tr->lanes[li].n > maxn)
            maxn = tr->lanes[li].n;
    if (!(covered = malloc(maxn * sizeof *covered)) || !(parent = malloc(maxn * sizeof *parent)))
        goto oom;
    /* nesting, then the launchers of device events and their hosts' sums */
    for (uint32_t li = 0; li < nl; li++)
        if (build_nesting(a, li, covered, parent))
            goto oom;
    if (launch_pass(a, &corr, dself, dtotal))
        goto oom;
    /* the dense sums become the stored tables */
    for (uint32_t li = 0; li < nl; li++) {
        if (!dself[li])
            continue;
        total_propagate(a, li, dtotal[li]);
        if (sums_store(&a->st.lanes[li], tr->lanes[li].n, dself[li], dtotal[li]))
            goto oom;
        free(dself[li]);
        free(dtotal[li]);
        dself[li] = dtotal[li] = NULL;
    }
    a->bytes = store_bytes(a);
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
    free(parent);
    tt_u64map_fini(&corr.map);
    return rc;
}

/* ------------------------------------------------------ from a .ttz */

/* Counts for the checks of an adopted store, which go over every slot,
 * launcher and total of a restore: eight or four at a time where SSE2 is
 * (a scalar compare and add per element was half of a restore's checks). */

/* How many of v[0..n) are UINT16_MAX. */
static size_t count_u16_max(const uint16_t *v, size_t n)
{
    size_t c = 0, i = 0;
#ifdef __SSE2__
    const __m128i all = _mm_set1_epi16(-1);
    while (n - i >= 8) {
        /* 16-bit counters: at most 65535 steps before they are added up */
        size_t steps = (n - i) / 8 < 65535 ? (n - i) / 8 : 65535;
        __m128i acc = _mm_setzero_si128();
        uint16_t lane[8];
        for (size_t s = 0; s < steps; s++, i += 8)
            acc = _mm_sub_epi16(acc, _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(v + i)), all));
        _mm_storeu_si128((__m128i *)lane, acc);
        for (int k = 0; k < 8; k++)
            c += lane[k];
    }
#endif
    for (; i < n; i++)
        c += v[i] == UINT16_MAX;
    return c;
}

/* How many of v[0..n) are `value`; whether any is above `limit`
 * (*above). */
static size_t count_u32(const uint32_t *v, size_t n, uint32_t value, uint32_t limit, bool *above)
{
    size_t c = 0, i = 0;
    bool over = false;
#ifdef __SSE2__
    /* unsigned order through the signed compare: both sides biased */
    const __m128i bias = _mm_set1_epi32(INT32_MIN), want = _mm_set1_epi32((int32_t)value);
    const __m128i lim = _mm_xor_si128(_mm_set1_epi32((int32_t)limit), bias);
    __m128i acc = _mm_setzero_si128(), gt = _mm_setzero_si128();
    uint32_t lane[4];
    for (; n - i >= 4; i += 4) {
        __m128i x = _mm_loadu_si128((const __m128i *)(v + i));
        acc = _mm_sub_epi32(acc, _mm_cmpeq_epi32(x, want));
        gt = _mm_or_si128(gt, _mm_cmpgt_epi32(_mm_xor_si128(x, bias), lim));
    }
    _mm_storeu_si128((__m128i *)lane, acc);
    for (int k = 0; k < 4; k++)
        c += lane[k];
    over = _mm_movemask_epi8(gt) != 0;
#endif
    for (; i < n; i++) {
        c += v[i] == value;
        over |= v[i] > limit;
    }
    *above = over;
    return c;
}

/* What is wrong with lane li of an adopted store, or NULL. Counts its
 * links into *links and fills its rank words. */
static const char *lane_check(const tt_lane *ln, tt_attrib_lane_store *l, uint64_t n_events,
                              uint64_t *links)
{
    uint32_t n = (uint32_t)ln->n;
    if (!l->slot != !tt_attrib_lane_nested(ln) || (!l->slot && l->n_esc))
        return "nesting of a lane that has none, or none of one that has";
    if (l->slot) {
        /* the escapes: sorted, each of an escaped slot, every escaped slot
         * has one. The slots themselves are not checked against the
         * depths (that would touch every event, as much as the rest of a
         * reopen): a parent is bounded where it is read (an earlier event
         * of the lane), and any self time is safe to return. */
        _Static_assert(TT_ATTRIB_SLOT_ESC == UINT16_MAX, "escape counted as UINT16_MAX");
        if (count_u16_max(l->slot, n) != l->n_esc)
            return "escapes do not match their slots";
        for (uint32_t k = 0; k < l->n_esc; k++)
            if (l->esc_idx[k] >= n || (k && l->esc_idx[k] <= l->esc_idx[k - 1]) ||
                l->slot[l->esc_idx[k]] != TT_ATTRIB_SLOT_ESC)
                return "escapes out of order";
    }
    if (l->launch) {
        if (!l->device)
            return "launch links on a lane without device events";
        bool above;
        size_t none = count_u32(l->launch, n, 0,
                                n_events < UINT32_MAX ? (uint32_t)n_events : UINT32_MAX, &above);
        if (above)
            return "launcher out of range";
        *links += n - none;
    }
    if (l->has) {
        size_t words = ((size_t)n + 63) / 64;
        uint64_t cnt = 0, e = 0;
        for (size_t w = 0; w < words; w++) {
            l->rank[w] = (uint32_t)cnt;
            cnt += (uint64_t)__builtin_popcountll(l->has[w]);
        }
        if ((n % 64 && l->has[words - 1] >> (n % 64)) || cnt != l->n_sum)
            return "device time entries do not match their events";
        if (l->n_sum % 64 && l->same[(l->n_sum - 1) / 64] >> (l->n_sum % 64))
            return "device self bits past the entries";
        for (uint32_t j = 0; j < l->n_big; j++)
            if (l->big_at[j] >= l->n_sum || (j && l->big_at[j] <= l->big_at[j - 1]) ||
                l->total[l->big_at[j]] != UINT32_MAX)
                return "long device totals out of order";
        bool above;
        e = count_u32(l->total, l->n_sum, UINT32_MAX, UINT32_MAX, &above);
        if (e != l->n_big)
            return "long device totals missing";
        for (uint32_t j = 0; j < l->n_xs; j++)
            if (l->xs_at[j] >= l->n_sum || (j && l->xs_at[j] <= l->xs_at[j - 1]) ||
                ((l->same[l->xs_at[j] / 64] >> (l->xs_at[j] % 64)) & 1))
                return "device self times out of order";
    } else if (l->n_sum || l->n_big || l->n_xs) {
        return "device time entries of no lane";
    }
    return NULL;
}

/* What is wrong with an adopted store, or NULL; fills the rank words. */
static const char *store_check(tt_attrib *a)
{
    const tt_trace *tr = a->tr;
    tt_attrib_store *st = &a->st;
    uint64_t links = 0;
    if (st->n_lanes != tr->n_lanes || st->n_str != tt_strtab_count(tr->strings))
        return "lane or string count";
    for (uint32_t i = 0; i < st->n_str; i++)
        if (st->sflags[i] && (!(st->sflags[i] & SF_KNOWN) || st->sflags[i] > SF__ALL))
            return "string flags";
    for (uint32_t li = 0; li < st->n_lanes; li++) {
        const char *why = lane_check(&tr->lanes[li], &st->lanes[li], a->base[tr->n_lanes], &links);
        if (why)
            return why;
    }
    if (links != st->n_links || st->n_links > st->n_device || st->n_dangling > st->n_device ||
        st->n_device > tr->n_events)
        return "counts";
    return NULL;
}

/* A new, empty attribution of tr; NULL on OOM. */
static tt_attrib *attrib_new(const tt_trace *tr)
{
    tt_attrib *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->tr = tr;
    a->aux.free_fn = attrib_free;
    if (pthread_mutex_init(&a->lock, NULL)) {
        free(a);
        return NULL;
    }
    return a;
}

/* Make a tr's attribution unless another thread was first: the one
 * published. */
static const tt_attrib *publish(const tt_trace *tr, tt_attrib *a)
{
    tt_trace *mtr = (tt_trace *)tr;   /* only the aux slot is written */
    tt_trace_aux *expected = NULL;
    if (__atomic_compare_exchange_n(&mtr->aux_attrib, &expected, &a->aux, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return a;
    attrib_free(&a->aux);   /* another thread was first */
    return (const tt_attrib *)expected;
}

int tt_attrib_store_adopt(const tt_trace *tr, tt_attrib_store *st, const char **why)
{
    tt_attrib *a;
    *why = NULL;
    if (__atomic_load_n(&tr->aux_attrib, __ATOMIC_ACQUIRE)) {
        tt_attrib_store_free(st);
        return 1;
    }
    if (!(a = attrib_new(tr)) || !(a->base = calloc((size_t)tr->n_lanes + 1, sizeof *a->base))) {
        tt_attrib_store_free(st);
        if (a)
            attrib_free(&a->aux);
        return -2;
    }
    a->st = *st;
    memset(st, 0, sizeof *st);
    *why = base_fill(a, tr->n_lanes) ? "more than 4 billion events" : store_check(a);
    if (*why) {
        attrib_free(&a->aux);
        return -1;
    }
    a->bytes = store_bytes(a);
    return publish(tr, a) == a ? 0 : 1;
}

const tt_attrib *tt_attrib_get(const tt_trace *tr, tt_error *err)
{
    tt_trace_aux *cur = __atomic_load_n(&tr->aux_attrib, __ATOMIC_ACQUIRE);
    tt_attrib *a;
    if (cur)
        return (const tt_attrib *)cur;
    if (!(a = attrib_new(tr))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (build(a, err)) {
        attrib_free(&a->aux);
        return NULL;
    }
    return publish(tr, a);
}

int tt_attrib_count(const tt_trace *tr, tt_attrib_counts *out, tt_error *err)
{
    const tt_attrib *cur =
        (const tt_attrib *)__atomic_load_n(&tr->aux_attrib, __ATOMIC_ACQUIRE);
    tt_attrib *a;
    corr_index corr;
    int rc;
    if (cur) {   /* built already, or restored from a .ttz */
        out->n_device = (size_t)cur->st.n_device;
        out->n_links = (size_t)cur->st.n_links;
        out->n_dangling = (size_t)cur->st.n_dangling;
        return 0;
    }
    if (!(a = attrib_new(tr)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    tt_u64map_init(&corr.map);
    corr.built = false;
    rc = build_begin(a, err);
    if (!rc && launch_pass(a, &corr, NULL, NULL))
        rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (!rc) {
        out->n_device = (size_t)a->st.n_device;
        out->n_links = (size_t)a->st.n_links;
        out->n_dangling = (size_t)a->st.n_dangling;
    }
    tt_u64map_fini(&corr.map);
    attrib_free(&a->aux);
    return rc;
}
