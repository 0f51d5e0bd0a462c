/* index.h - per-lane interval index over events sorted by start.
 *
 * The sorted event array is read as an implicit complete binary tree, as in
 * Heng Li's cgranges: position i is the in-order slot of a node whose level
 * is the number of trailing 1 bits of i; each event's max_end holds the
 * maximum end of its subtree. busy_upto holds the length of the union of
 * events [0..i], so busy time over any window costs two binary searches.
 * The index lives inside the events (tt_event.max_end, .busy_upto): no
 * allocation, no pointers.
 *
 * Overlap: an event [s, s+d) overlaps [from, to) when s < to and s+d > from;
 * a zero-length event overlaps when from <= s < to.
 *
 * Library code: no allocation except growing the caller's buffer.
 */
#ifndef TT_INDEX_INDEX_H
#define TT_INDEX_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

/* Caller-owned growable buffer of event positions. */
typedef struct tt_idxbuf {
    uint32_t *v;
    size_t    n, cap;
} tt_idxbuf;

void tt_idxbuf_init(tt_idxbuf *b);
void tt_idxbuf_fini(tt_idxbuf *b);

/* Fill max_end and busy_upto. ev must be sorted by start. O(n): one
 * pass of tt_index_add(), then tt_index_finish(). */
void tt_index_build(tt_event *ev, size_t n);

/* The index built one event at a time, for a pass that does other work
 * on each event as it reads it (the .ttz reader's check of a reopened
 * lane, snapshot.c nest_index_span()): tt_index_add() for i = 0 .. n - 1
 * in order, then tt_index_finish(), fill what tt_index_build() fills.
 * Event i's busy_upto and leaf are set when it is added, and so is every
 * inner node whose range ends at i (its children are finished by then:
 * a post-order); the one node per level whose range runs past the end
 * is finished by tt_index_finish(). Inline: the pass reads millions of
 * events, each once. */
typedef struct tt_index_builder {
    tt_ns running_max;   /* the furthest end so far */
    tt_ns busy;          /* the union's length so far */
} tt_index_builder;

static inline void tt_index_builder_init(tt_index_builder *b)
{
    b->running_max = INT64_MIN;
    b->busy = 0;
}

/* Finish the node at level k over [i - 2^k + 1, i + 2^k - 1] (half:
 * 2^(k-1)) from its own end and its children's max_end, finished: the
 * left one's at i - half, and right_max, the right one's (for a node
 * whose range runs past the end, that of the first node of the right
 * child's left chain below n; INT64_MIN where there is none). */
static inline void tt_index_node(tt_event *ev, size_t i, size_t half, tt_ns right_max)
{
    tt_ns m = ev[i].start + ev[i].dur;
    if (ev[i - half].max_end > m)
        m = ev[i - half].max_end;
    if (right_max > m)
        m = right_max;
    ev[i].max_end = m;
}

static inline void tt_index_add(tt_index_builder *b, tt_event *ev, size_t i)
{
    tt_event *e = &ev[i];
    tt_ns s = e->start, end = s + e->dur;
    /* sorted by start: an event adds what lies beyond the furthest end
     * so far */
    tt_ns from = s > b->running_max ? s : b->running_max;
    if (end > from)
        b->busy += end - from;
    if (end > b->running_max)
        b->running_max = end;
    e->busy_upto = b->busy;
    /* a leaf, then the nodes whose range ends here: level k (node
     * i + 1 - 2^k) for each 2^k below the lowest set bit of i + 2 */
    if (i % 2 == 0) {
        e->max_end = end;
        if (i % 4 == 2)
            for (size_t w = 2, low = (i + 2) & (~(i + 2) + 1); w < low; w <<= 1)
                tt_index_node(ev, i + 1 - w, w / 2, ev[i + 1 - w / 2].max_end);
    }
}

/* After the last tt_index_add(): the nodes whose range runs past n. */
void tt_index_finish(tt_event *ev, size_t n);

/* Append, in increasing position order, the events overlapping [from, to).
 * O(log n + k). Returns 0, or -1 when the buffer cannot grow. */
int tt_index_overlap(const tt_event *ev, size_t n, tt_ns from, tt_ns to, tt_idxbuf *out);

/* Append the events containing t (stabbing query): s <= t < s+d, or s == t
 * for zero-length events. */
int tt_index_stab(const tt_event *ev, size_t n, tt_ns t, tt_idxbuf *out);

/* Position of the first event (lowest position) containing t, or -1. */
int64_t tt_index_first_at(const tt_event *ev, size_t n, tt_ns t);

/* Position of the deepest event containing t (ties: the latest start), or -1. */
int64_t tt_index_deepest_at(const tt_event *ev, size_t n, tt_ns t);

/* First position whose start is >= t (n when none). */
size_t tt_index_lower_bound(const tt_event *ev, size_t n, tt_ns t);

/* First position whose start is > t (n when none). */
size_t tt_index_upper_bound(const tt_event *ev, size_t n, tt_ns t);

/* Maximum end over positions [0..i]. O(log n). */
tt_ns tt_index_prefix_max_end(const tt_event *ev, size_t n, size_t i);

/* Length of the union of all events, clipped to [from, to). O(log n). */
tt_ns tt_index_busy(const tt_event *ev, size_t n, tt_ns from, tt_ns to);

/* Length of the union of the events clipped to (-inf, t): tt_index_busy
 * (from, to) is its value at to minus its value at from, so a caller that
 * needs many adjacent windows computes each boundary once. O(log n). */
tt_ns tt_index_busy_before(const tt_event *ev, size_t n, tt_ns t);

/* Navigation: position of the first event starting after t, or -1. */
int64_t tt_index_next_after(const tt_event *ev, size_t n, tt_ns t);

/* Navigation: position of the last event starting before t, or -1. */
int64_t tt_index_prev_before(const tt_event *ev, size_t n, tt_ns t);

#endif
