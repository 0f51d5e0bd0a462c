/* index.c - implicit augmented interval tree over a sorted array
 * (see index.h). */
#include "config.h"

#include "index/index.h"

#include <stdlib.h>

/* Subtrees at or below this level are scanned linearly: a handful of
 * contiguous 64-byte records is cheaper to read than to branch over. */
#define SCAN_LEVEL 3

void tt_idxbuf_init(tt_idxbuf *b)
{
    b->v = NULL;
    b->n = b->cap = 0;
}

void tt_idxbuf_fini(tt_idxbuf *b)
{
    free(b->v);
    tt_idxbuf_init(b);
}

static int idxbuf_push(tt_idxbuf *b, uint32_t i)
{
    if (b->n == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 64;
        uint32_t *nv = realloc(b->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        b->v = nv;
        b->cap = nc;
    }
    b->v[b->n++] = i;
    return 0;
}

/* Level of the root: largest k with 2^k <= n. */
static int root_level(size_t n)
{
    int k = 0;
    while (((size_t)2 << k) <= n)
        k++;
    return k;
}

void tt_index_build(tt_event *ev, size_t n)
{
    tt_index_builder b;
    size_t i = 0;
    tt_index_builder_init(&b);
    /* two at a time: the compiler then knows which is the leaf */
    for (; i + 1 < n; i += 2) {
        tt_index_add(&b, ev, i);
        tt_index_add(&b, ev, i + 1);
    }
    if (i < n)
        tt_index_add(&b, ev, i);
    tt_index_finish(ev, n);
}

void tt_index_finish(tt_event *ev, size_t n)
{
    int top = n ? root_level(n) : 0;
    /* level k's nodes are 2^(k+1) apart; only its last can run past n */
    for (int k = 1; k <= top; k++) {
        size_t w = (size_t)1 << k, half = w / 2, last = w - 1 + (n - w) / (2 * w) * (2 * w);
        size_t r = last + half, step = half;
        if (last + w - 1 < n)
            continue;   /* whole: finished by tt_index_add() */
        /* the right child is missing: the existing part of its range
         * [last + 1, n - 1] is covered by the first node of its left-child
         * chain that exists (finished at a lower level) */
        while (r >= n && step > 1) {
            step >>= 1;
            r -= step;
        }
        tt_index_node(ev, last, half, r < n ? ev[r].max_end : INT64_MIN);
    }
}

static inline int overlaps(const tt_event *e, tt_ns from, tt_ns to)
{
    if (e->start >= to)
        return 0;
    if (e->dur == 0)
        return e->start >= from;
    return e->start + e->dur > from;
}

typedef struct walk_frame {
    size_t i;
    int    k;
    int    left_done;
} walk_frame;

/* In-order walk of the subtrees that can hold events overlapping
 * [from, to); calls visit(ctx, position) in increasing position order and
 * stops when it returns non-zero. Returns that value, or 0. */
static int index_walk(const tt_event *ev, size_t n, tt_ns from, tt_ns to,
                      int (*visit)(void *, uint32_t), void *ctx)
{
    walk_frame st[66];
    int sp = 0, rc;
    if (n == 0 || from >= to)
        return 0;
    st[sp++] = (walk_frame){((size_t)1 << root_level(n)) - 1, root_level(n), 0};
    while (sp > 0) {
        walk_frame *f = &st[sp - 1];
        size_t i = f->i;
        int k = f->k;
        if (i >= n) {
            /* Missing node: only its left subtree can exist. */
            sp--;
            if (k > 0)
                st[sp++] = (walk_frame){i - ((size_t)1 << (k - 1)), k - 1, 0};
            continue;
        }
        if (!f->left_done) {
            /* max_end >= from keeps zero-length events that sit at from. */
            if (ev[i].max_end < from) {
                sp--;
                continue;
            }
            if (k <= SCAN_LEVEL) {
                size_t lo = i + 1 - ((size_t)1 << k);
                size_t hi = i + ((size_t)1 << k) - 1;
                sp--;
                if (hi >= n)
                    hi = n - 1;
                for (size_t j = lo; j <= hi; j++) {
                    if (ev[j].start >= to)
                        break;
                    if (overlaps(&ev[j], from, to) && (rc = visit(ctx, (uint32_t)j)))
                        return rc;
                }
                continue;
            }
            f->left_done = 1;
            st[sp++] = (walk_frame){i - ((size_t)1 << (k - 1)), k - 1, 0};
            continue;
        }
        /* left subtree done: this node, then the right subtree */
        sp--;
        if (ev[i].start >= to)
            continue;   /* right subtree starts even later */
        if (overlaps(&ev[i], from, to) && (rc = visit(ctx, (uint32_t)i)))
            return rc;
        st[sp++] = (walk_frame){i + ((size_t)1 << (k - 1)), k - 1, 0};
    }
    return 0;
}

static int visit_push(void *ctx, uint32_t i)
{
    return idxbuf_push(ctx, i) ? -1 : 0;
}

int tt_index_overlap(const tt_event *ev, size_t n, tt_ns from, tt_ns to, tt_idxbuf *out)
{
    return index_walk(ev, n, from, to, visit_push, out) < 0 ? -1 : 0;
}

int tt_index_stab(const tt_event *ev, size_t n, tt_ns t, tt_idxbuf *out)
{
    if (t == INT64_MAX)
        return 0;
    return tt_index_overlap(ev, n, t, t + 1, out);
}

typedef struct first_ctx {
    int64_t pos;
} first_ctx;

static int visit_first(void *ctx, uint32_t i)
{
    ((first_ctx *)ctx)->pos = i;
    return 1;
}

int64_t tt_index_first_at(const tt_event *ev, size_t n, tt_ns t)
{
    first_ctx c = {-1};
    if (t == INT64_MAX)
        return -1;
    index_walk(ev, n, t, t + 1, visit_first, &c);
    return c.pos;
}

typedef struct deepest_ctx {
    const tt_event *ev;
    int64_t         pos;
} deepest_ctx;

static int visit_deepest(void *ctx, uint32_t i)
{
    deepest_ctx *c = ctx;
    if (c->pos < 0 || c->ev[i].depth >= c->ev[c->pos].depth)
        c->pos = i;
    return 0;
}

int64_t tt_index_deepest_at(const tt_event *ev, size_t n, tt_ns t)
{
    deepest_ctx c = {ev, -1};
    if (t == INT64_MAX)
        return -1;
    index_walk(ev, n, t, t + 1, visit_deepest, &c);
    return c.pos;
}

size_t tt_index_lower_bound(const tt_event *ev, size_t n, tt_ns t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ev[mid].start < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t tt_index_upper_bound(const tt_event *ev, size_t n, tt_ns t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ev[mid].start <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

tt_ns tt_index_prefix_max_end(const tt_event *ev, size_t n, size_t j)
{
    tt_ns acc = INT64_MIN;
    int k;
    size_t i;
    if (n == 0)
        return INT64_MIN;
    if (j >= n)
        j = n - 1;
    k = root_level(n);
    i = ((size_t)1 << k) - 1;
    for (;;) {
        if (i >= n || j < i) {
            if (k == 0)
                break;
            i -= (size_t)1 << (k - 1);
        } else {
            /* the whole left subtree and i itself lie within [0..j] */
            tt_ns e = ev[i].start + ev[i].dur;
            if (e > acc)
                acc = e;
            if (k > 0) {
                size_t l = i - ((size_t)1 << (k - 1));
                if (ev[l].max_end > acc)
                    acc = ev[l].max_end;
            }
            if (k == 0 || i == j)
                break;
            i += (size_t)1 << (k - 1);
        }
        k--;
    }
    return acc;
}

/* Length of the union of events clipped to (-inf, t), given j, the upper
 * bound of t. */
static tt_ns busy_before_at(const tt_event *ev, size_t n, size_t j, tt_ns t)
{
    tt_ns m, b;
    if (j == 0)
        return 0;
    j--;
    b = ev[j].busy_upto;
    m = tt_index_prefix_max_end(ev, n, j);
    /* Everything in [t, m) is covered: the event reaching m starts <= t. */
    if (m > t)
        b -= m - t;
    return b;
}

static tt_ns busy_before(const tt_event *ev, size_t n, tt_ns t)
{
    return busy_before_at(ev, n, tt_index_upper_bound(ev, n, t), t);
}

tt_ns tt_index_busy(const tt_event *ev, size_t n, tt_ns from, tt_ns to)
{
    if (n == 0 || from >= to)
        return 0;
    return busy_before(ev, n, to) - busy_before(ev, n, from);
}

tt_ns tt_index_busy_before(const tt_event *ev, size_t n, tt_ns t)
{
    return busy_before(ev, n, t);
}

int64_t tt_index_next_after(const tt_event *ev, size_t n, tt_ns t)
{
    size_t i = tt_index_upper_bound(ev, n, t);
    return i < n ? (int64_t)i : -1;
}

int64_t tt_index_prev_before(const tt_event *ev, size_t n, tt_ns t)
{
    size_t i = tt_index_lower_bound(ev, n, t);
    return i > 0 ? (int64_t)i - 1 : -1;
}
