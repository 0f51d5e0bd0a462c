/* stats.h - selection statistics: what a time window over a set of lanes
 * holds. One engine for the terminal UI's box select and `tracetty report`.
 *
 * Definitions (all ns, exact int64):
 *   events          events in the selection (see select.h)
 *   total           sum of their durations
 *   total_clipped   sum of the parts of their durations inside the window
 *   busy            length of the union of their intervals inside the
 *                   window, per lane and over the whole lane set
 *   utilization     busy / window length (tt_stats_util)
 * Breakdown rows group the selection by a key (key.h) and give instances,
 * total, avg, median, min, max and sample stddev of the durations clipped to
 * the window (dist.h), and each group's share of the sum of the totals.
 * An empty window or lane set gives zeros, never an error.
 *
 * Cost: a large selection (most of the events of its lanes) is answered
 * from summary levels built on its first use (stats_fast.h, selsum.h): per
 * lane O(log n) plus the events it leaves out or clips, and per group a
 * k-th selection over sorted arrays, with the same numbers to the last
 * bit. Other selections walk their k events: per lane O(log n) for busy
 * and O(log n + k) to list them, the union over lanes merging the lanes'
 * intervals in O(k log lanes); a breakdown O(k) plus O(groups log groups).
 *
 * Library code: no I/O. Results are owned by the caller (x_free); they
 * copy every label they hold, so they outlive the trace.
 */
#ifndef TT_ANALYSIS_STATS_H
#define TT_ANALYSIS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/dist.h"
#include "analysis/key.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "util/arena.h"
#include "util/error.h"

/* busy / window as a fraction in [0, 1]; 0 for an empty window. */
double tt_stats_util(tt_ns busy, tt_ns window);

/* ------------------------------------------------------------ summary */

typedef struct tt_lane_stat {
    uint32_t lane;
    uint64_t events;
    tt_ns    total, total_clipped;
    tt_ns    busy;          /* union inside the window */
    tt_ns    first, last;   /* first start and last end, clipped to the
                               window (absolute); 0 when events == 0 */
} tt_lane_stat;

typedef struct tt_summary {
    tt_ns         from, to;       /* the window (absolute) */
    uint64_t      events;
    tt_ns         total, total_clipped;
    tt_ns         busy;           /* union over every selected lane */
    tt_ns         first, last;    /* over all lanes, clipped; 0 when no events */
    tt_lane_stat *lanes;          /* one per selected lane, in lane order */
    size_t        n_lanes;
} tt_summary;

/* Summary of a selection. 0, or non-zero with err set (out of memory). */
int tt_summary_compute(const tt_trace *tr, const tt_sel *sel, tt_summary **out, tt_error *err);
void tt_summary_free(tt_summary *s);   /* NULL is a no-op */

/* The same, always by walking the selection's events (the reference the
 * summary levels are tested against). */
int tt_summary_compute_walk(const tt_trace *tr, const tt_sel *sel, tt_summary **out,
                            tt_error *err);

/* ---------------------------------------------------------- breakdown */

typedef struct tt_brk_row {
    const char *label;   /* owned by the breakdown; "" for the none group */
    bool        none;    /* events without the key */
    uint32_t    id;      /* lane index (lane key) or string id (name,
                            category, opcode, layer); 0 for arguments */
    tt_dist     d;       /* of the clipped durations */
    double      share;   /* percent of the sum of all groups' totals */
} tt_brk_row;

typedef struct tt_breakdown {
    tt_key      key;
    tt_brk_row *rows;
    size_t      n;
    uint64_t    events;
    tt_ns       sum_total;   /* sum of the rows' totals (clipped) */
    tt_arena    arena;       /* labels */
} tt_breakdown;

/* Group the selection by key; rows sorted by tt_breakdown_sort(TOTAL, desc).
 * 0, or non-zero with err set (out of memory, unreadable arguments). */
int tt_breakdown_compute(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                         tt_breakdown **out, tt_error *err);
void tt_breakdown_free(tt_breakdown *b);   /* NULL is a no-op */

/* The same, always by walking the selection's events. */
int tt_breakdown_compute_walk(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                              tt_breakdown **out, tt_error *err);

typedef enum tt_brk_order {
    TT_BRK_TOTAL = 0,
    TT_BRK_COUNT,
    TT_BRK_AVG,
    TT_BRK_LABEL
} tt_brk_order;

/* Order rows by a column (ties: total desc, count desc, label, none last,
 * so the order is total). descending flips the primary column only. */
void tt_breakdown_sort(tt_breakdown *b, tt_brk_order by, bool descending);

/* The order of tt_breakdown_sort on the parts of two groups (distribution,
 * none flag, label), for tables that hold their rows elsewhere (the
 * multi-rank breakdown). <0, 0 or >0 like strcmp. */
int tt_brk_compare(const tt_dist *da, bool none_a, const char *la, const tt_dist *db,
                   bool none_b, const char *lb, tt_brk_order by, bool descending);

/* ------------------------------------------------------------- events */

/* The selection's events, lane by lane in the selection's lane order, each
 * lane by start (the lane's own order). *out is malloc'ed (caller frees;
 * NULL when none). 0, or non-zero with err set. */
int tt_sel_events(const tt_trace *tr, const tt_sel *sel, tt_evref **out, size_t *n,
                  tt_error *err);

#endif
