/* hilite.h - highlighted events, as the timeline rows draw them.
 *
 * The highlight is the current set of found events: the matches of a
 * search, the events of a breakdown row of the statistics panel, or every
 * event of a name (`*`). They are kept as tt_hits (search.h: per lane, the
 * positions in time order, which `n`/`N` step through); for drawing, each
 * hit is turned once into its index in its row (levels.h), grouped by
 * depth, so a row asks "is any highlighted event among the entries
 * [first, last) of this cell" with one galloping search per cell. A
 * highlighted event thinner than a cell still colors its cell, at every
 * zoom.
 *
 * With several ranks a highlight may span them (a breakdown row of a box
 * over several ranks): each rank keeps its hits and its own tt_hilite, and
 * n/N count and step over all of them (tt_hits_count_before, tt_hits_has).
 *
 * Ownership: tt_hilite owns its arrays; it refers to no other object.
 * Library code: no I/O.
 */
#ifndef TT_TUI_HILITE_H
#define TT_TUI_HILITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "tui/levels.h"
#include "tui/search.h"

typedef struct tt_hilite {
    bool       valid;
    uint32_t   n_lanes;
    uint32_t **idx;   /* per lane: row indexes of its hits, by depth, each depth sorted */
    uint32_t **off;   /* per lane: depth d's indexes are idx[off[d], off[d+1]) */
    uint32_t  *n_depths;
} tt_hilite;

void tt_hilite_init(tt_hilite *h);
void tt_hilite_fini(tt_hilite *h);   /* also: no highlight */

/* Build from hits. 0, or -1 on OOM (then nothing is highlighted). */
int tt_hilite_build(tt_hilite *h, const tt_hits *hits, const tt_trace *tr, const tt_levels *lv);

/* Sorted row indexes of the highlighted events of (lane, depth). */
const uint32_t *tt_hilite_row(const tt_hilite *h, uint32_t lane, uint32_t depth, size_t *n);

/* How many hits start before t (inclusive: at or before t). O(lanes log n). */
uint64_t tt_hits_count_before(const tt_hits *h, const tt_trace *tr, tt_ns t, bool inclusive);

/* Is the event ev one of the hits? O(log n). */
bool tt_hits_has(const tt_hits *h, tt_evref ev);

/* First k >= from with v[k] >= x (n when none), galloping from `from`. */
size_t tt_hilite_lower(const uint32_t *v, size_t n, size_t from, uint32_t x);

#endif
