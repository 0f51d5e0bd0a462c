/* plist.h - a panel of text lines with a cursor line.
 *
 * The statistics, markers and annotations panels are lists of prepared
 * lines: each line is sanitized text with a role, an optional lead (the
 * first columns in another role, e.g. a severity), and, for the lines a
 * key acts on (a breakdown row, a marker, a set, an annotation), the kind
 * and index of the item it shows. The owner rebuilds the lines when what
 * they show or the panel width changes; the cursor and scroll position
 * survive a rebuild (clamped), and move only on input, never on drawing,
 * so the TUI and `render --keys` agree.
 *
 * Ownership: tt_plist owns its lines. Library code: no I/O.
 */
#ifndef TT_TUI_PLIST_H
#define TT_TUI_PLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/grid.h"
#include "tui/theme.h"

typedef struct tt_pline {
    char   *text;       /* sanitized, owned */
    uint8_t role;
    uint8_t lead_w;     /* columns drawn in lead_role, 0 = none */
    uint8_t lead_role;
    bool    pick;       /* an item line: keys act on it */
    bool    cont;       /* continues the line above (wrapped text): the
                           cursor skips it and lights it with its head */
    int     kind;       /* item kind, defined by the panel */
    int64_t tag;        /* item index */
} tt_pline;

typedef struct tt_plist {
    tt_pline *v;
    size_t    n, cap;
    size_t    cur, top;
} tt_plist;

void tt_plist_init(tt_plist *p);
void tt_plist_fini(tt_plist *p);

/* Drop the lines, keeping the cursor and scroll position for the next
 * build (tt_plist_clamp puts them back in range). */
void tt_plist_clear(tt_plist *p);

/* Append a line (text is sanitized here). Returns the new line or NULL on
 * OOM. */
tt_pline *tt_plist_add(tt_plist *p, uint8_t role, const char *text);

/* The same, printf-style; the formatted text is sanitized too. */
tt_pline *tt_plist_addf(tt_plist *p, uint8_t role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Long text over as many lines of `width` columns as it needs, broken at
 * spaces where possible (sanitized here). 0 or -1 on OOM. */
int tt_plist_wrap(tt_plist *p, uint8_t role, const char *text, int width);

/* An item (pick: kind and tag) or a plain line (!pick) whose text wraps
 * over as many lines of `width` columns as it needs, the lines after the
 * first indented by `indent` columns and marked cont, so the cursor moves
 * over the whole as one line. Returns the first line (for its lead), or
 * NULL on OOM. */
tt_pline *tt_plist_wrap_item(tt_plist *p, uint8_t role, bool pick, int kind, int64_t tag,
                             const char *text, int width, int indent);

/* Append an item line. */
tt_pline *tt_plist_item(tt_plist *p, uint8_t role, int kind, int64_t tag, const char *text);

/* Keep cur and top inside the lines. */
void tt_plist_clamp(tt_plist *p);

/* Move the cursor by delta lines (clamped); it never rests on a cont
 * line: a move forward goes on to the next head, one back to its head. */
void tt_plist_move(tt_plist *p, int64_t delta);

/* Put the cursor on the first item line of a kind (false when none). */
bool tt_plist_goto_kind(tt_plist *p, int kind);

/* Put the cursor on the item line (kind, tag) (false when none). */
bool tt_plist_goto_item(tt_plist *p, int kind, int64_t tag);

/* Scroll as little as needed to show the cursor in inner_h lines. */
void tt_plist_scroll(tt_plist *p, int inner_h);

/* The cursor line when it is an item line, else NULL. */
const tt_pline *tt_plist_picked(const tt_plist *p);

/* Draw in the box (x, y, w, h) with a border, a title and a key hint. */
void tt_plist_draw(tt_plist *p, tt_grid *g, int x, int y, int w, int h, const tt_glyphs *gl,
                   const char *title, const char *hint);

#endif
