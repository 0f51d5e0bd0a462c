/* grid.h - the off-screen cell grid every view draws into.
 *
 * A cell holds one character (a code point and its width: 1, or 2 for a
 * wide character whose right half is a continuation cell of width 0), a
 * semantic role (theme.h) and a palette entry for the roles that take one.
 * The grid is the single drawing surface of the timeline: term.c copies it
 * to curses, `tracetty render` prints it (tt_grid_print), tests compare it.
 *
 * Text written with tt_grid_text must already be sanitized (tt_text_sanitize:
 * valid UTF-8 without control characters); code points of width 0 are
 * dropped and wide characters that do not fit become a space, so the grid
 * never holds anything a terminal would act on.
 *
 * Ownership: tt_grid_new/tt_grid_free. Library code: prints only to the
 * FILE handed to tt_grid_print.
 */
#ifndef TT_TUI_GRID_H
#define TT_TUI_GRID_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tui/theme.h"

typedef struct tt_cell {
    uint32_t cp;      /* code point; 0 in the right half of a wide character */
    uint8_t  width;   /* 1 or 2; 0 for a continuation cell */
    uint8_t  role;    /* tt_role */
    uint8_t  color;   /* palette entry for palette roles */
    uint8_t  pad;
} tt_cell;

typedef struct tt_grid {
    int      cols, rows;
    tt_cell *cells;
} tt_grid;

/* A grid of cols x rows blank cells (0 x 0 allowed). NULL on OOM. */
tt_grid *tt_grid_new(int cols, int rows);
void tt_grid_free(tt_grid *g);   /* NULL is a no-op */

/* Resize (contents become blank). 0 or -1 on OOM (grid unchanged). */
int tt_grid_resize(tt_grid *g, int cols, int rows);

/* Every cell blank with the given role. */
void tt_grid_clear(tt_grid *g, uint8_t role);

static inline tt_cell *tt_grid_at(tt_grid *g, int x, int y)
{
    return &g->cells[(size_t)y * (size_t)g->cols + (size_t)x];
}

/* One width-1 glyph at (x, y); outside the grid is ignored. Overwriting
 * half of a wide character blanks its other half. */
void tt_grid_set(tt_grid *g, int x, int y, uint32_t cp, uint8_t role, uint8_t color);

/* Change the role (and color) of a cell, keeping its character. */
void tt_grid_restyle(tt_grid *g, int x, int y, uint8_t role, uint8_t color);

/* Fill w cells from (x, y) with a glyph. */
void tt_grid_fill(tt_grid *g, int x, int y, int w, uint32_t cp, uint8_t role, uint8_t color);

/* Sanitized text from (x, y), at most maxw columns (clipped to the grid).
 * Returns the columns written. */
int tt_grid_text(tt_grid *g, int x, int y, int maxw, const char *safe, uint8_t role,
                 uint8_t color);

/* Like tt_grid_text, but when the text is wider than maxw it is cut and
 * ends with the ellipsis glyph. */
int tt_grid_text_fit(tt_grid *g, int x, int y, int maxw, const char *safe, uint8_t role,
                     uint8_t color, uint32_t ellipsis);

/* Columns a sanitized text takes (as tt_grid_text would write it). */
int tt_grid_text_width(const char *safe);

/* Print the grid: one line per row, trailing blanks removed. With a color
 * depth other than TT_COLORS_NONE or with `ansi`, SGR sequences select
 * each cell's style (reset at the end of every line). Returns 0 or -1 on
 * a write error. */
int tt_grid_print(const tt_grid *g, FILE *f, bool ansi, tt_color_depth depth);

/* UTF-8 encoding of a code point (1..4 bytes, no NUL). */
int tt_grid_utf8(uint32_t cp, char *out);

#endif
