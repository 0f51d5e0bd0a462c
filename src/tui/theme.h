/* theme.h - what the timeline looks like: semantic roles, the palette for
 * event colors, glyph sets, and the styles each role gets at each color
 * depth (256 colors, 8 colors, monochrome).
 *
 * Views draw roles, never colors; term.c turns styles into curses
 * attributes and color pairs, and `render --ansi` into SGR sequences, so the
 * two front ends cannot disagree. Event colors come from a stable hash of
 * the grouping text (name, category, ...), so a name keeps its color across
 * runs and machines.
 *
 * Library code: no I/O.
 */
#ifndef TT_TUI_THEME_H
#define TT_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tt_role {
    TT_R_DEFAULT = 0,
    TT_R_HEADER,        /* top bar */
    TT_R_HEADER_KEY,    /* emphasized part of the top bar */
    TT_R_RULER,         /* tick marks and labels */
    TT_R_RULER_MARK,    /* cursor mark in the ruler */
    TT_R_RULER_DRAG,    /* range being dragged on the ruler */
    TT_R_LABEL,         /* lane names */
    TT_R_LABEL_CUR,     /* label of the cursor row */
    TT_R_GROUP,         /* group (process/device) header */
    TT_R_GROUP_CUR,
    TT_R_SEP,           /* the line between labels and timeline */
    TT_R_SUMMARY,       /* group activity summary */
    TT_R_EV,            /* event glyph, colored by the palette entry */
    TT_R_EV_NAME,       /* event name over its color */
    TT_R_SEL,           /* glyphs of the selected event */
    TT_R_SEL_NAME,
    TT_R_CURSOR,        /* the cursor cell */
    TT_R_CURCOL,        /* the cursor column across other rows */
    TT_R_COUNTER,       /* sparkline */
    TT_R_COUNTER_LABEL,
    TT_R_LEGEND,
    TT_R_SWATCH,        /* legend color swatch, palette entry */
    TT_R_STATUS,
    TT_R_STATUS_KEY,    /* key names in the hints */
    TT_R_MSG,
    TT_R_ERR,
    TT_R_PROMPT,
    TT_R_PANEL,
    TT_R_PANEL_BORDER,
    TT_R_PANEL_TITLE,
    TT_R_PANEL_KEY,     /* field names */
    TT_R_PANEL_LINK,    /* selectable links */
    TT_R_PANEL_CUR,     /* the line under the panel cursor */
    TT_R_RULER_BOX,     /* the box's time range in the ruler */
    TT_R_BOX,           /* empty cells and marks of the box */
    TT_R_EV_BOX,        /* event glyph inside the box, palette entry */
    TT_R_HILITE,        /* glyphs of highlighted events (search, breakdown row) */
    TT_R_HILITE_NAME,
    TT_R_MARKER,        /* marker line, glyph and label */
    TT_R_EV_MARKER,     /* marker line over an event: on its palette entry */
    TT_R_ANN_ERR,       /* annotation marks by severity: ruler and labels */
    TT_R_ANN_WARN,
    TT_R_ANN_INFO,
    TT_R_RULER_ANN,     /* an annotated span in the ruler */
    TT_R_ANN_SPAN,      /* empty cells of an annotated span on its lanes */
    TT_R_EV_ANN,        /* event glyph inside an annotated span, palette entry */
    TT_R_TAB,           /* the rank tabs (several ranks) */
    TT_R_TAB_CUR,       /* the tab on screen */
    TT_R_SUM_BUSY,      /* a rank's summary lane: busy device (combined view) */
    TT_R_SUM_COMM,      /* ... cells where communication takes most of it */
    TT_R_COLL_SPREAD,   /* a collective from its first to its last arrival */
    TT_R_COLL_NOTE,     /* the note after a collective's bar (its last rank) */
    TT_R__COUNT
} tt_role;

/* Palette entries for event colors; TT_COLOR_NONE is the neutral color of
 * events whose grouping key is empty. */
#define TT_PALETTE_SIZE 24
#define TT_COLOR_NONE TT_PALETTE_SIZE

typedef enum tt_color_depth {
    TT_COLORS_NONE = 0,   /* monochrome: attributes only */
    TT_COLORS_8,
    TT_COLORS_256
} tt_color_depth;

enum {
    TT_A_BOLD = 1,
    TT_A_REVERSE = 2,
    TT_A_UNDERLINE = 4,
    TT_A_DIM = 8
};

/* A concrete style: colors are terminal color numbers, -1 = default. */
typedef struct tt_style {
    int16_t  fg, bg;
    uint16_t attrs;
} tt_style;

tt_style tt_theme_style(tt_color_depth depth, tt_role role, uint8_t color);

/* SGR escape sequence ("\033[0;1;38;5;33m") selecting style s. Returns buf. */
char *tt_theme_sgr(tt_style s, char *buf, size_t n);

/* Palette entry of a grouping text: stable across runs; TT_COLOR_NONE for
 * the empty text. */
uint8_t tt_theme_color_of(const char *s, size_t n);

/* Glyphs: Unicode block elements in a UTF-8 locale, ASCII otherwise. */
typedef struct tt_glyphs {
    uint32_t full, left, right, shade[3], sliver;
    uint32_t cursor, curcol, mark, tick;
    uint32_t fold_open, fold_closed, row_mark;
    uint32_t ellipsis, vline, hline, tl, tr, bl, br;
    uint32_t spark[9];   /* 0 = nothing, 8 = full */
    uint32_t swatch;
    uint32_t arrow_in, arrow_out;
    uint32_t box_fill, box_edge;        /* empty cells of the box; label separator */
    uint32_t marker, marker_line;       /* marker in the ruler; its line over the lanes */
    uint32_t ann_mark, ann_fill;        /* annotation in the ruler; empty annotated cells */
    uint32_t chosen;                    /* a chosen line in a panel */
    uint32_t comm;                      /* summary lane: communication */
    uint32_t spread;                    /* collective: first to last arrival */
} tt_glyphs;

const tt_glyphs *tt_theme_glyphs(bool utf8);

#endif
