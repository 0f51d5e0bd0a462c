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

/* Draw the ruler of the window at row y, columns [x0, x0 + vp->cols). */
void tt_ruler_draw(tt_grid *g, int x0, int y, const tt_viewport *vp, int64_t t0,
                   const tt_glyphs *gl);

#endif
