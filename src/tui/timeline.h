/* timeline.h - drawing the rows of the lanes area into the grid.
 *
 * A lane row (one depth of one lane) is swept left to right; each cell
 * asks its row (levels.h) for the coverage of its two half cells and for
 * the events touching it, all by galloping searches, so a row costs
 * O(columns x log n) whatever the zoom. The cell's glyph shows coverage
 * with sub-cell resolution (full, left or right half, three shades, a
 * sliver for events thinner than a cell); its color is the dominant event's:
 * the one covering most of the cell among all the events touching it when
 * there are at most four, else among those at its two edges and around its
 * middle, which the sweep has found already (a long event in a crowded
 * cell overlaps one of those points; among tiny ones any is as good). An
 * event whose cells run four columns or more carries its name over them
 * (fewer when the whole name fits).
 *
 * Group header rows show the group's activity: the largest busy fraction
 * of its lanes per cell, from the interval index. A folded group's cells
 * count for the legend by the event of that busiest lane.
 *
 * The same dominant-event rule answers "what is under this cell" (tt_tl_hit),
 * so what the user selects is what is drawn.
 *
 * Highlighted events (hilite.h) color every cell that holds one, whatever
 * the dominant event is, so a match thinner than a cell still shows.
 *
 * Library code: no I/O. Ownership: tt_tl holds borrowed pointers and
 * scratch owned by whoever calls tt_tl_init/tt_tl_fini.
 */
#ifndef TT_TUI_TIMELINE_H
#define TT_TUI_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/trace.h"
#include "tui/busy.h"
#include "tui/grid.h"
#include "tui/hilite.h"
#include "tui/levels.h"
#include "tui/theme.h"
#include "tui/viewport.h"

/* What decides an event's color. */
typedef enum tt_colorby {
    TT_BY_NAME = 0,
    TT_BY_CAT,
    TT_BY_OPCODE,
    TT_BY_LAYER,
    TT_BY__COUNT
} tt_colorby;

const char *tt_colorby_name(tt_colorby by);

typedef struct tt_tl {
    const tt_trace   *tr;
    const tt_levels  *lv;
    const tt_viewport *vp;
    const tt_glyphs  *gl;
    tt_colorby        by;
    bool              has_sel;
    tt_evref          sel;
    const tt_hilite  *hl;          /* highlighted events, or NULL */
    /* palette entry per string id, 0xff = not computed yet */
    uint8_t          *color_cache;
    uint32_t          n_strings;
    /* legend: cells per grouping key drawn this frame */
    uint32_t         *tally;
    uint32_t         *touched;
    size_t            n_touched, cap_touched;
    /* per-column scratch */
    int64_t          *dom;
    uint8_t          *kind;
    uint8_t          *hil;
    int               scratch_cols;
    /* group rows: each lane's busy time before every column boundary,
     * gb[lane * (cols + 1) + c], filled on demand for the viewport
     * (gb_cols, gb_start, gb_span); a group's lanes are reset when the
     * group is first drawn at it (gb_epoch[group] != epoch), so a
     * frame's row and legend tally of a group share the searches */
    tt_ns            *gb;
    uint64_t         *gb_epoch;
    uint64_t          epoch;
    int               gb_cols;
    tt_ns             gb_start, gb_span;
} tt_tl;

int tt_tl_init(tt_tl *t, const tt_trace *tr, const tt_levels *lv);
void tt_tl_fini(tt_tl *t);

/* Grouping key (string id) of an event. */
uint32_t tt_tl_key(const tt_trace *tr, const tt_event *e, tt_colorby by);

/* Palette entry of a grouping key. */
uint8_t tt_tl_color(tt_tl *t, uint32_t key);

/* Forget the legend counts (start of a frame). */
void tt_tl_tally_reset(tt_tl *t);

/* Draw one lane row at row y, timeline starting at column x0. Returns 0
 * or -1 when scratch memory cannot grow. */
int tt_tl_lane_row(tt_tl *t, tt_grid *g, int x0, int y, uint32_t lane, uint32_t depth);

/* Draw a group's activity summary at row y. */
void tt_tl_group_row(tt_tl *t, tt_grid *g, int x0, int y, uint32_t group);

/* Count a folded group's cells for the legend, as its lanes would count
 * if they were drawn: per cell, the key of the event drawn (depth 0) on
 * the lane busiest there. */
void tt_tl_group_tally(tt_tl *t, uint32_t group);

/* A rank's summary lane (combined view) at row y: per cell, how much of it
 * `all` (the union of the rank's device work) covers, in the glyphs of an
 * event row (full, half, shades, sliver). Cells where communication
 * (`comm`) takes half of that busy time or more show the communication
 * glyph in its own role: ranks that wait for a slow one show long runs of
 * it, the slow rank almost none. */
void tt_tl_summary_row(const tt_tl *t, tt_grid *g, int x0, int y, const tt_busy *all,
                       const tt_busy *comm);

/* Lane position of the event drawn at column col of (lane, depth), or -1. */
int64_t tt_tl_hit(const tt_tl *t, uint32_t lane, uint32_t depth, int64_t col);

#endif
