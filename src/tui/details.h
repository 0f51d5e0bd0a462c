/* details.h - the details panel of the selected event.
 *
 * Every attribute of the event, its links (incoming and outgoing flows,
 * parent, children: each a line the user can follow with Enter) and its
 * arguments, decoded on demand from the compressed argument store
 * (tt_args_reader + cJSON) and flattened to "key.sub: value" lines. All
 * text is sanitized when the panel is built and long values wrap.
 *
 * Ownership: tt_details owns its lines and an argument reader; it borrows
 * the trace. Library code: no I/O.
 */
#ifndef TT_TUI_DETAILS_H
#define TT_TUI_DETAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/args.h"
#include "model/trace.h"
#include "tui/grid.h"
#include "tui/levels.h"

typedef struct tt_dline {
    char    *key;      /* sanitized, may be "" */
    char    *val;      /* sanitized */
    uint8_t  keyw;     /* key column width */
    uint8_t  role;     /* role of the value */
    bool     link;
    tt_evref target;
} tt_dline;

typedef struct tt_details {
    tt_dline      *v;
    size_t         n, cap;
    size_t         cur, top;
    bool           valid;
    tt_evref       ev;
    int            width;     /* inner width the lines were wrapped for */
    bool           last_cut;  /* building: the last value was cut short */
    tt_ns          origin;    /* times are shown from it (the trace start;
                                 with several ranks, the job's start) */
    tt_args_reader rd;
} tt_details;

void tt_details_init(tt_details *d, const tt_trace *tr);
void tt_details_fini(tt_details *d);

/* Build the lines of event ev for an inner width. 0 or -1 (OOM). The
 * cursor goes to the first link. */
int tt_details_build(tt_details *d, const tt_trace *tr, const tt_levels *lv, tt_evref ev,
                     int width);

/* Move the cursor by delta lines (clamped). */
void tt_details_move(tt_details *d, int64_t delta);

/* Scroll as little as needed to show the cursor in inner_h lines. The
 * app calls it after every input, so the scroll position depends only on
 * the inputs, never on when frames were drawn. */
void tt_details_scroll(tt_details *d, int inner_h);

/* The event the cursor line links to. */
bool tt_details_link(const tt_details *d, tt_evref *out);

/* Draw the panel (border included) in the box (x, y, w, h); scrolls to
 * keep the cursor visible. */
void tt_details_draw(tt_details *d, tt_grid *g, int x, int y, int w, int h,
                     const tt_glyphs *gl, const char *title);

/* Box border with a title, shared with the help overlay. */
void tt_panel_box(tt_grid *g, int x, int y, int w, int h, const tt_glyphs *gl,
                  const char *title, const char *hint);

#endif
