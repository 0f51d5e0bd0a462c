/* ruler.h - the time ruler above the lanes.
 *
 * Ticks fall on round times relative to the trace start: steps of 1, 2 or
 * 5 x 10^k ns, the smallest step whose labels fit between ticks. Labels
 * use one unit for the whole ruler (the unit of the largest visible time)
 * with as many decimals as the step needs.
 *
 * Library code: no I/O.
 */
#ifndef TT_TUI_RULER_H
#define TT_TUI_RULER_H

#include <stdint.h>

#include "tui/grid.h"
#include "tui/viewport.h"

typedef struct tt_ruler_scale {
    int64_t step;      /* ns between ticks */
    int64_t unit;      /* 1, 1e3, 1e6 or 1e9 */
    int     decimals;
} tt_ruler_scale;

/* Tick spacing for the window (t0 = trace start). */
tt_ruler_scale tt_ruler_choose(const tt_viewport *vp, int64_t t0);

/* Draw the ruler of the window at row y, columns [x0, x0 + vp->cols)
 * (blanked first). */
void tt_ruler_draw(tt_grid *g, int x0, int y, const tt_viewport *vp, int64_t t0,
                   const tt_glyphs *gl);

/* The same, keeping the labels clear of the columns where taken[c] is
 * non-zero (vp->cols entries; NULL = none), which overlays are about to
 * take: 1 for a glyph (the cursor mark, a marker, the box's edges), 2 for
 * text (a marker's name). Nothing lands inside a label nor right before or
 * after one. A label that would touch one moves right by up to two
 * columns (one when a glyph replaces its tick, none when text does), or
 * is left out; its tick stays (an overlay may replace it). */
void tt_ruler_draw_around(tt_grid *g, int x0, int y, const tt_viewport *vp, int64_t t0,
                          const tt_glyphs *gl, const uint8_t *taken);

#endif
