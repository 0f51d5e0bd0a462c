/* ctview.h - the call tree panel's content: the call tree of a box
 * (analysis/calltree.h), top-down or bottom-up, shown as an indented tree
 * of lines with columns (Calls, Host total, Host self, Dev total, Dev self)
 * or as an icicle: one row per depth, each node a run of cells as wide as
 * its share of the time, its name inside where it fits.
 *
 * The panel has one cursor node per tree (top-down, bottom-up): in the
 * tree it is the cursor line (a line per visible node, item kind
 * TT_CTV_LINE_NODE, tag = node), in the icicle the highlighted run; both
 * follow the same node. Nodes open and close (the tree shows the children
 * of open nodes); the icicle shows every node, whatever is open.
 *
 * Icicle widths: a node's weight is its host total (a device node's: its
 * device total; bottom-up: the self times). The icicle is zoomed on the
 * cursor's level: the cursor's callers are drawn full width, one row
 * each; the cursor and its siblings share the whole width by weight;
 * below, children share their parent's run by weight, scaled down to fit
 * it when they weigh more than it (kernels a short launch op queued), so
 * a child is never wider than its parent.
 *
 * Trace strings are sanitized before they reach the grid. Ownership: a
 * tt_ctview borrows the trace and owns its trees, lines and lane copy.
 * Library code: no I/O.
 */
#ifndef TT_TUI_CTVIEW_H
#define TT_TUI_CTVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/calltree.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "tui/grid.h"
#include "tui/plist.h"
#include "tui/theme.h"
#include "util/error.h"

enum { TT_CTV_LINE_NODE = 1 };

typedef struct tt_ctview {
    bool            valid;
    const tt_trace *tr;
    tt_laneset      lanes;
    tt_sel          sel;
    tt_calltree    *td, *bu;     /* bu: built on first use */
    bool            bottom_up;   /* which tree is shown */
    bool            icicle;      /* icicle instead of tree lines */
    uint8_t        *open[2];     /* per node of td, bu: children shown */
    uint32_t        cur[2];      /* cursor node of td, bu */
    tt_plist        pl;          /* the tree's lines */
    bool            built;       /* pl holds the lines for width, tree */
    int             width;
    int             ice_top;     /* icicle: first depth shown */
} tt_ctview;

void tt_ctview_init(tt_ctview *v);
void tt_ctview_fini(tt_ctview *v);

/* Build the top-down tree of a selection (the lanes are copied) and reset
 * the view onto it: the first two levels open, the cursor on the first
 * root. 0, or non-zero with err set. */
int tt_ctview_open(tt_ctview *v, const tt_trace *tr, const tt_sel *sel, tt_error *err);

/* The tree shown, and its cursor node (TT_CT_NONE when empty). */
const tt_calltree *tt_ctview_tree(const tt_ctview *v);
uint32_t tt_ctview_cur(const tt_ctview *v);

/* Show the other tree (building the bottom-up one the first time). */
int tt_ctview_toggle_bu(tt_ctview *v, tt_error *err);

/* Cursor moves by the tree's structure (the icicle's keys); false when
 * there is no such node. Opening the ancestors keeps the cursor on a
 * visible line. */
bool tt_ctview_go_parent(tt_ctview *v);
bool tt_ctview_go_child(tt_ctview *v);
bool tt_ctview_go_sibling(tt_ctview *v, int dir);

/* Open or close the cursor node; open or close every node. */
void tt_ctview_set_open(tt_ctview *v, bool open);
bool tt_ctview_is_open(const tt_ctview *v);
void tt_ctview_all(tt_ctview *v, bool open);

/* Lines of the tree view for a panel width (kept while nothing changed),
 * the plist's cursor on the cursor node. 0, or -1 on OOM. */
int tt_ctview_build(tt_ctview *v, int width, bool utf8);

/* After the plist's cursor moved (j k PgDn ...): the cursor node is the
 * picked line's. */
void tt_ctview_follow_lines(tt_ctview *v);

/* Scroll the icicle as little as needed to show the cursor node's depth
 * in a panel of inner_h rows (the last one is the numbers' line). Called
 * after every input, never by drawing, so the TUI and `render` agree. */
void tt_ctview_ice_scroll(tt_ctview *v, int inner_h);

/* The icicle in the box (x, y, w, h), border, title and hint included,
 * the cursor node's numbers on its last inner row. */
void tt_ctview_draw_icicle(tt_ctview *v, tt_grid *g, int x, int y, int w, int h,
                           const tt_glyphs *gl, bool utf8, const char *title, const char *hint);

/* One line of the cursor node's numbers ("name: 12 calls, host 1.2 ms ..."),
 * sanitized. */
void tt_ctview_node_text(const tt_ctview *v, uint32_t node, char *out, size_t cap);

#endif
