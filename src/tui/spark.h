/* spark.h - counter tracks drawn as sparklines.
 *
 * A counter is a step function: each sample's value holds until the next
 * sample. A cell shows the largest value the function takes in its time
 * slice, on a scale from min(0, smallest value) to the largest value of the
 * whole series (the scale is printed in the row label), so bars do not jump
 * when panning. Maxima over many samples come from per-block maxima (64
 * samples a block), keeping a frame O(columns x (log n + 64)).
 *
 * Ownership: tt_sparks borrows the trace and owns the block maxima.
 * Library code: no I/O.
 */
#ifndef TT_TUI_SPARK_H
#define TT_TUI_SPARK_H

#include <stdbool.h>
#include <stdint.h>

#include "model/trace.h"
#include "tui/grid.h"
#include "tui/viewport.h"

typedef struct tt_sparks {
    const tt_trace *tr;
    double        **bmax;   /* per counter: max of each 64-sample block */
} tt_sparks;

tt_sparks *tt_sparks_new(const tt_trace *tr);   /* NULL on OOM */
void tt_sparks_free(tt_sparks *s);              /* NULL is a no-op */

/* Scale of a counter: [*lo, *hi] with hi > lo. */
void tt_spark_scale(const tt_counter *c, double *lo, double *hi);

/* Value at time t (the last sample at or before t); false before the
 * first sample. */
bool tt_spark_value_at(const tt_counter *c, tt_ns t, double *v);

/* Largest value over [a, b); false when the series has no value there. */
bool tt_spark_max(const tt_sparks *s, uint32_t counter, tt_ns a, tt_ns b, double *v);

/* Draw counter `counter` over the window at row y from column x0. */
void tt_spark_row(const tt_sparks *s, uint32_t counter, const tt_viewport *vp, tt_grid *g,
                  int x0, int y, const uint32_t spark[9]);

#endif
