/* select.h - a selection: a time window and a set of lanes.
 *
 * The input of every statistic in this directory, shared by the terminal
 * UI's box select and `tracetty report`. An event [s, s+d) is in the
 * selection when it is on a selected lane and overlaps the window: s < to
 * and s+d > from; a zero-length event when from <= s < to, or s == to when
 * the window's end is inclusive (an open-ended window reaching the trace
 * end keeps the instants at the very end). An empty window (from == to)
 * holds nothing but, with an inclusive end, the instants at `to`.
 *
 * Lane sets are sorted lists of lane indexes. They come from "every lane",
 * from an explicit list (the UI) or from patterns: a comma-separated list of
 * shell globs (fnmatch(3); `\,` is a literal comma) matched against each
 * lane's full name "group / lane" as tt_lane_fullname() prints it.
 *
 * Windows as the user writes them ("FROM:TO", either end may be empty; times
 * take a unit, 1.5ms 300us 1200ns 2s, a bare number is ns) are offsets from
 * the trace start, resolved per trace by tt_sel_window().
 *
 * Library code: no I/O. Ownership: a tt_sel borrows its lane array.
 */
#ifndef TT_ANALYSIS_SELECT_H
#define TT_ANALYSIS_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "index/index.h"
#include "model/trace.h"
#include "util/error.h"

typedef struct tt_sel {
    tt_ns           from, to;       /* absolute ns; to >= from */
    bool            to_inclusive;   /* zero-length events at `to` count too */
    const uint32_t *lanes;          /* increasing lane indexes; NULL = every lane */
    size_t          n_lanes;        /* ignored when lanes is NULL */
} tt_sel;

/* Number of lanes a selection covers, and its i-th lane. */
static inline size_t tt_sel_lane_count(const tt_trace *tr, const tt_sel *sel)
{
    return sel->lanes ? sel->n_lanes : tr->n_lanes;
}
static inline uint32_t tt_sel_lane(const tt_sel *sel, size_t i)
{
    return sel->lanes ? sel->lanes[i] : (uint32_t)i;
}

/* Window length in ns. */
static inline tt_ns tt_sel_length(const tt_sel *sel)
{
    return sel->to - sel->from;
}

/* Clear buf and fill it with the positions of lane's events in the
 * selection's window, in increasing position (start) order.
 * O(log n + k). 0, or -1 on OOM. */
int tt_sel_lane_events(const tt_trace *tr, const tt_sel *sel, uint32_t lane, tt_idxbuf *buf);

/* A lane's events in a selection, in parts found by binary searches and
 * two stabbing queries instead of a walk (large selections, selsum.h):
 *   left    events starting before `from` and ending after it (clipped
 *           at from; they may be clipped at `to` too), by position
 *   [a, b)  the events starting in [from, to): all of them are in
 *   right   the positions of [a, b) that end after `to` (clipped at to)
 *   [z, c)  with an inclusive end, the zero-length events at `to`
 * left, [a, b) and [z, c) are, in this order, exactly the positions
 * tt_sel_lane_events() lists. Cost O(log n + |left| + |right|). */
typedef struct tt_sel_parts {
    size_t    a, b, z, c;
    tt_idxbuf left, right;
} tt_sel_parts;

void tt_sel_parts_init(tt_sel_parts *p);
void tt_sel_parts_fini(tt_sel_parts *p);

/* 0, or -1 on OOM. */
int tt_sel_lane_parts(const tt_trace *tr, const tt_sel *sel, uint32_t lane, tt_sel_parts *p);

/* Number of events in the parts. */
static inline size_t tt_sel_parts_count(const tt_sel_parts *p)
{
    return p->left.n + (p->b - p->a) + (p->c - p->z);
}

/* The part [*s, *t] of event e inside the window; *t == *s for a
 * zero-length event (or one touching the window's inclusive end). */
static inline void tt_sel_clip_range(const tt_sel *sel, const tt_event *e, tt_ns *s, tt_ns *t)
{
    *s = e->start > sel->from ? e->start : sel->from;
    *t = tt_event_end(e) < sel->to ? tt_event_end(e) : sel->to;
    if (*t < *s)
        *t = *s;
}

/* Length of the part of e inside the window (0 for zero-length events). */
static inline tt_ns tt_sel_clip(const tt_sel *sel, const tt_event *e)
{
    tt_ns s, t;
    tt_sel_clip_range(sel, e, &s, &t);
    return t - s;
}

/* ------------------------------------------------------------ windows */

typedef struct tt_window_spec {
    bool  has_from, has_to;
    tt_ns from, to;        /* offsets from the trace start */
} tt_window_spec;

/* Parse "FROM:TO", "FROM:", ":TO" or ":". Errors (TT_ERR_USAGE): no colon,
 * a time that does not parse, TO before FROM. */
int tt_window_parse(const char *s, tt_window_spec *w, tt_error *err);

/* Resolve a window for one trace: open ends are the trace start and end
 * (the end then inclusive); w may be NULL for the whole trace. A window
 * that ends before it starts after resolving (FROM beyond the end of this
 * trace) becomes empty at FROM. Leaves sel->lanes alone. */
void tt_sel_window(const tt_trace *tr, const tt_window_spec *w, tt_sel *sel);

/* ----------------------------------------------------------- lane sets */

typedef struct tt_laneset {
    uint32_t *v;
    size_t    n, cap;
} tt_laneset;

void tt_laneset_init(tt_laneset *s);
void tt_laneset_fini(tt_laneset *s);

/* Every lane of tr. 0, or -1 on OOM. */
int tt_laneset_all(const tt_trace *tr, tt_laneset *s);

/* Add one lane (any order; duplicates allowed until tt_laneset_finish). */
int tt_laneset_add(tt_laneset *s, uint32_t lane);

/* Sort and remove duplicates. 0, or -1 on OOM. */
int tt_laneset_finish(tt_laneset *s);

/* Check a pattern list without a trace: TT_ERR_USAGE for an empty list or an
 * empty item ("a,,b"). */
int tt_lane_patterns_check(const char *patterns, tt_error *err);

/* The lanes of tr whose full name matches any of the patterns, sorted.
 * Matching nothing is not an error (s->n == 0). */
int tt_laneset_match(const tt_trace *tr, const char *patterns, tt_laneset *s, tt_error *err);

/* Point sel at a lane set. */
static inline void tt_sel_lanes(tt_sel *sel, const tt_laneset *s)
{
    static const uint32_t none[1] = {0};
    sel->lanes = s->v ? s->v : none;   /* non-NULL: an empty set is not "every lane" */
    sel->n_lanes = s->n;
}

#endif
