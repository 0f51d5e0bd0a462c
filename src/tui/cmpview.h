/* cmpview.h - the compare view: two traces stacked, A above B, on one
 * time axis, with a panel of the names whose time changed.
 *
 * Each half is a whole timeline view (app.h) of its trace: its own lanes,
 * rows, vertical scroll, selection, search, details, markers and warning
 * annotations, drawn into its part of the screen. The compare view owns
 * what the two share and keeps it in step after every input: the window
 * and the cursor time, on an axis where `time + offset` of each trace is
 * the same instant (the offsets come from the alignment, --align as for
 * ranks: start by default, so two runs start together). Keys go to the
 * half in focus (Tab moves it), except the compare view's own:
 *
 *   Tab      focus the other half
 *   P        the compare panel (open at start): the names by |delta|,
 *            for the whole traces or the last box
 *   Enter    (in the panel) highlight that name's events in both halves;
 *            n N then step through them in the half in focus
 *   K        (in the panel) its rows: ops, kernels, operators
 *   v Enter  a box over one half selects the same window in the other;
 *            the panel then compares the two windows
 *   ?        the compare view's help
 *
 * The panel's numbers are the diff engine's (analysis/diff.h, as
 * `tracetty diff --kind ops|kernels|operators`), so the view and the
 * command agree.
 *
 * Ownership: tt_cmp borrows both traces, their selections and the options
 * (all must outlive it) and owns the two halves and its panel. Library
 * code: no I/O except the marker sets the halves read and write.
 */
#ifndef TT_TUI_CMPVIEW_H
#define TT_TUI_CMPVIEW_H

#include <stdbool.h>

#include "analysis/select.h"
#include "model/trace.h"
#include "multi/rankset.h"
#include "rules/rules.h"
#include "tui/app.h"
#include "tui/grid.h"
#include "tui/input.h"
#include "util/error.h"

/* One side of the comparison. */
typedef struct tt_cmp_side {
    const tt_trace *tr;
    const tt_sel   *sel;    /* the region compared (a window of the trace);
                               NULL = the whole trace */
    const char     *name;   /* what it is, for its header (raw: sanitized here) */
    const char     *path;   /* its file; NULL = none */
} tt_cmp_side;

typedef struct tt_cmp_opts {
    bool                   utf8;
    const tt_rules_config *rules;     /* warning annotations of both; NULL = none */
    const char            *markers;   /* a marker set of A's file, shown on both
                                         halves at the aligned time; NULL = none */
    const tt_align_spec   *align;     /* NULL = start */
} tt_cmp_opts;

typedef struct tt_cmp tt_cmp;

/* The view of a (top) and b (bottom) on a cols x rows screen. NULL with
 * err set when out of memory or when the alignment finds no such event
 * on a side (TT_ERR_USAGE, naming the side). */
tt_cmp *tt_cmp_new(const tt_cmp_side *a, const tt_cmp_side *b, int cols, int rows,
                   const tt_cmp_opts *opts, tt_error *err);
void tt_cmp_free(tt_cmp *c);   /* NULL is a no-op */

/* One input event (key, mouse, resize): TT_REACT_ flags (app.h). */
int tt_cmp_input(tt_cmp *c, const tt_input *in);

/* Draw the frame (the grid is resized to the view's size). 0, or -1 when
 * memory runs out. */
int tt_cmp_draw(tt_cmp *c, tt_grid *g);

/* Bytes the half in focus asked to copy (y) since the last call; NULL. */
const char *tt_cmp_take_clip(tt_cmp *c, size_t *n);

#endif
