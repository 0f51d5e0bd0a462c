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

/* Fill max_end and busy_upto. ev must be sorted by start. O(n). */
void tt_index_build(tt_event *ev, size_t n);

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
