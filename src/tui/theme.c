/* theme.c - roles, palette, styles and glyphs (see theme.h). */
#include "config.h"

#include "tui/theme.h"

#include "util/hash.h"

#include <stdio.h>
#include <string.h>

/* 24 well separated entries of the xterm 6x6x6 cube, as (r, g, b) levels
 * 0..5: color number 16 + 36r + 6g + b. */
static const uint8_t pal_rgb[TT_PALETTE_SIZE][3] = {
    {0, 2, 5}, {5, 2, 0}, {1, 4, 1}, {4, 1, 4}, {0, 4, 4}, {5, 1, 1},
    {4, 4, 0}, {2, 2, 5}, {3, 5, 2}, {5, 3, 4}, {1, 3, 3}, {5, 4, 2},
    {3, 1, 5}, {2, 4, 0}, {0, 3, 2}, {4, 2, 1}, {1, 2, 4}, {4, 4, 5},
    {3, 3, 1}, {0, 5, 3}, {5, 2, 3}, {2, 3, 5}, {3, 2, 2}, {1, 5, 5},
};

static int16_t pal256(uint8_t c)
{
    if (c >= TT_PALETTE_SIZE)
        return 246;
    return (int16_t)(16 + 36 * pal_rgb[c][0] + 6 * pal_rgb[c][1] + pal_rgb[c][2]);
}

/* Black or white text, whichever reads better on the entry. */
static int16_t pal256_text(uint8_t c)
{
    double l;
    if (c >= TT_PALETTE_SIZE)
        return 16;
    l = 0.299 * pal_rgb[c][0] + 0.587 * pal_rgb[c][1] + 0.114 * pal_rgb[c][2];
    return l >= 2.4 ? 16 : 231;
}

/* 8 colors: red green yellow blue magenta cyan; white for "none". */
static int16_t pal8(uint8_t c)
{
    if (c >= TT_PALETTE_SIZE)
        return 7;
    return (int16_t)(1 + c % 6);
}

static int16_t pal8_text(uint8_t c)
{
    int16_t bg = pal8(c);
    return (bg == 2 || bg == 3 || bg == 6 || bg == 7) ? 0 : 7;
}

typedef struct role_style {
    int16_t  fg256, bg256;
    uint16_t a256;
    int16_t  fg8, bg8;
    uint16_t a8;
    uint16_t amono;
} role_style;

#define B TT_A_BOLD
#define R TT_A_REVERSE
#define U TT_A_UNDERLINE
#define D TT_A_DIM

/* Palette roles (EV, EV_NAME, SWATCH, EV_BOX, EV_ANN, EV_MARKER) take their
 * foreground (and EV_NAME and EV_MARKER their background) from the palette
 * entry in tt_theme_style. */
static const role_style styles[TT_R__COUNT] = {
    [TT_R_DEFAULT]       = {-1, -1, 0, -1, -1, 0, 0},
    [TT_R_HEADER]        = {253, 236, 0, 7, 4, 0, R},
    [TT_R_HEADER_KEY]    = {81, 236, B, 3, 4, B, R | B},
    [TT_R_RULER]         = {245, -1, 0, -1, -1, 0, 0},
    [TT_R_RULER_MARK]    = {226, -1, B, 3, -1, B, B},
    [TT_R_RULER_DRAG]    = {231, 24, B, 7, 4, B, R},
    [TT_R_LABEL]         = {250, -1, 0, -1, -1, 0, 0},
    [TT_R_LABEL_CUR]     = {231, 238, B, -1, -1, R | B, R | B},
    [TT_R_GROUP]         = {117, -1, B, 6, -1, B, B},
    [TT_R_GROUP_CUR]     = {117, 238, B, 6, -1, R | B, R | B},
    [TT_R_SEP]           = {240, -1, 0, -1, -1, 0, 0},
    [TT_R_SUMMARY]       = {243, -1, 0, 7, -1, 0, D},
    [TT_R_EV]            = {-1, -1, 0, -1, -1, 0, 0},
    [TT_R_EV_NAME]       = {-1, -1, 0, -1, -1, 0, R},
    [TT_R_SEL]           = {231, -1, B, 7, -1, B, B},
    [TT_R_SEL_NAME]      = {16, 231, B, 0, 7, B, R | B | U},
    [TT_R_CURSOR]        = {16, 226, B, 0, 3, B, R | B | U},
    [TT_R_CURCOL]        = {239, -1, 0, -1, -1, D, D},
    [TT_R_COUNTER]       = {114, -1, 0, 2, -1, 0, 0},
    [TT_R_COUNTER_LABEL] = {151, -1, 0, 2, -1, 0, 0},
    [TT_R_LEGEND]        = {250, -1, 0, -1, -1, 0, 0},
    [TT_R_SWATCH]        = {-1, -1, 0, -1, -1, 0, 0},
    [TT_R_STATUS]        = {252, 236, 0, 7, 4, 0, R},
    [TT_R_STATUS_KEY]    = {229, 236, B, 3, 4, B, R | B},
    [TT_R_MSG]           = {229, 236, 0, 3, 4, B, R},
    [TT_R_ERR]           = {203, 236, B, 1, 7, B, R | B},
    [TT_R_PROMPT]        = {231, 236, B, 7, 4, B, R | B},
    [TT_R_PANEL]         = {252, 235, 0, -1, -1, 0, 0},
    [TT_R_PANEL_BORDER]  = {244, 235, 0, 6, -1, 0, 0},
    [TT_R_PANEL_TITLE]   = {81, 235, B, 6, -1, B, B},
    [TT_R_PANEL_KEY]     = {245, 235, 0, -1, -1, D, D},
    [TT_R_PANEL_LINK]    = {117, 235, U, 6, -1, U, U},
    [TT_R_PANEL_CUR]     = {16, 117, B, 0, 6, 0, R},
    [TT_R_RULER_BOX]     = {231, 25, B, 7, 4, B, R},
    [TT_R_BOX]           = {111, 17, 0, 6, 4, 0, D},
    [TT_R_EV_BOX]        = {-1, 17, 0, -1, 4, 0, U},
    [TT_R_HILITE]        = {231, 127, B, 7, 5, B, B | U},
    [TT_R_HILITE_NAME]   = {231, 127, B | U, 7, 5, B | U, R | B | U},
    [TT_R_MARKER]        = {213, -1, B, 5, -1, B, B},
    [TT_R_EV_MARKER]     = {-1, -1, B, -1, -1, B, R | B},
    [TT_R_ANN_ERR]       = {196, -1, B, 1, -1, B, B | R},
    [TT_R_ANN_WARN]      = {214, -1, B, 3, -1, B, B},
    [TT_R_ANN_INFO]      = {81, -1, 0, 6, -1, 0, 0},
    [TT_R_RULER_ANN]     = {214, -1, U, 3, -1, U, U},
    [TT_R_ANN_SPAN]      = {214, 52, 0, 3, 1, 0, D},
    [TT_R_EV_ANN]        = {-1, 52, 0, -1, 1, 0, U},
    [TT_R_TAB]           = {248, 235, 0, 7, -1, 0, 0},
    [TT_R_TAB_CUR]       = {16, 81, B, 0, 6, B, R | B},
    [TT_R_SUM_BUSY]      = {71, -1, 0, 2, -1, 0, 0},
    [TT_R_SUM_COMM]      = {208, -1, B, 1, -1, B, B},
    [TT_R_COLL_SPREAD]   = {214, -1, 0, 3, -1, 0, D},
    [TT_R_COLL_NOTE]     = {203, -1, B, 1, -1, B, B},
};

#undef B
#undef R
#undef U
#undef D

tt_style tt_theme_style(tt_color_depth depth, tt_role role, uint8_t color)
{
    tt_style s = {-1, -1, 0};
    const role_style *rs = &styles[(unsigned)role < TT_R__COUNT ? role : 0];
    switch (depth) {
    case TT_COLORS_NONE:
        s.attrs = rs->amono;
        return s;
    case TT_COLORS_8:
        s.fg = rs->fg8;
        s.bg = rs->bg8;
        s.attrs = rs->a8;
        if (role == TT_R_EV || role == TT_R_SWATCH || role == TT_R_EV_BOX ||
            role == TT_R_EV_ANN) {
            s.fg = pal8(color);
        } else if (role == TT_R_EV_NAME || role == TT_R_EV_MARKER) {
            s.fg = pal8_text(color);
            s.bg = pal8(color);
        }
        return s;
    case TT_COLORS_256:
        s.fg = rs->fg256;
        s.bg = rs->bg256;
        s.attrs = rs->a256;
        if (role == TT_R_EV || role == TT_R_SWATCH || role == TT_R_EV_BOX ||
            role == TT_R_EV_ANN) {
            s.fg = pal256(color);
        } else if (role == TT_R_EV_NAME || role == TT_R_EV_MARKER) {
            s.fg = pal256_text(color);
            s.bg = pal256(color);
        }
        return s;
    }
    return s;
}

char *tt_theme_sgr(tt_style s, char *buf, size_t n)
{
    size_t o = 0;
    o += (size_t)snprintf(buf + o, n - o, "\033[0");
    if (s.attrs & TT_A_BOLD)
        o += (size_t)snprintf(buf + o, n > o ? n - o : 0, ";1");
    if (s.attrs & TT_A_DIM)
        o += (size_t)snprintf(buf + o, n > o ? n - o : 0, ";2");
    if (s.attrs & TT_A_UNDERLINE)
        o += (size_t)snprintf(buf + o, n > o ? n - o : 0, ";4");
    if (s.attrs & TT_A_REVERSE)
        o += (size_t)snprintf(buf + o, n > o ? n - o : 0, ";7");
    if (s.fg >= 0)
        o += (size_t)snprintf(buf + o, n > o ? n - o : 0, s.fg < 8 ? ";3%d" : ";38;5;%d", s.fg);
    if (s.bg >= 0)
        o += (size_t)snprintf(buf + o, n > o ? n - o : 0, s.bg < 8 ? ";4%d" : ";48;5;%d", s.bg);
    snprintf(buf + o, n > o ? n - o : 0, "m");
    return buf;
}

uint8_t tt_theme_color_of(const char *s, size_t n)
{
    if (n == 0)
        return TT_COLOR_NONE;
    /* a fixed seed: the color of a name is part of the user interface */
    return (uint8_t)(tt_hash_bytes(s, n, 0x7472616365747479ULL) % TT_PALETTE_SIZE);
}

static const tt_glyphs glyphs_utf8 = {
    .full = 0x2588, .left = 0x258C, .right = 0x2590,
    .shade = {0x2591, 0x2592, 0x2593}, .sliver = 0x258F,
    .cursor = 0x253C, .curcol = 0x250A, .mark = 0x25BC, .tick = 0x2502,
    .fold_open = 0x25BE, .fold_closed = 0x25B8, .row_mark = '>',
    .ellipsis = 0x2026, .vline = 0x2502, .hline = 0x2500,
    .tl = 0x250C, .tr = 0x2510, .bl = 0x2514, .br = 0x2518,
    .spark = {' ', 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588},
    .swatch = 0x2588, .arrow_in = 0x2190, .arrow_out = 0x2192,
    .box_fill = 0x00B7, .box_edge = 0x2503, .marker = 0x25C6, .marker_line = 0x2502,
    .ann_mark = '!', .ann_fill = '~', .chosen = 0x2022,
    .comm = 0x2550, .spread = 0x2500,
};

static const tt_glyphs glyphs_ascii = {
    .full = '#', .left = ']', .right = '[',
    .shade = {'.', ':', '*'}, .sliver = '|',
    .cursor = '+', .curcol = ':', .mark = 'v', .tick = '|',
    .fold_open = '-', .fold_closed = '+', .row_mark = '>',
    .ellipsis = '~', .vline = '|', .hline = '-',
    .tl = '+', .tr = '+', .bl = '+', .br = '+',
    .spark = {' ', '_', '.', '-', '~', '=', '+', '*', '#'},
    .swatch = '#', .arrow_in = '<', .arrow_out = '>',
    .box_fill = '`', .box_edge = '#', .marker = '*', .marker_line = '|',
    /* not '~': that ends a cut label here (the ellipsis); '^' points up
     * at the span's '!' in the ruler and means nothing else */
    .ann_mark = '!', .ann_fill = '^', .chosen = '*',
    .comm = '=', .spread = '-',
};

const tt_glyphs *tt_theme_glyphs(bool utf8)
{
    return utf8 ? &glyphs_utf8 : &glyphs_ascii;
}
