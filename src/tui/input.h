/* input.h - input events of the timeline, shared by the terminal and by
 * `tracetty render --keys`.
 *
 * A key is a Unicode code point (printable characters and control
 * characters: 3 is Ctrl-C) or one of the named keys below. Mouse actions
 * are events of their own carrying a cell position; the application turns
 * them into the same actions the keys trigger. term.c produces these from
 * curses and xterm SGR mouse reports; tt_keys_parse() produces them from
 * the --keys text:
 *
 *   characters stand for themselves; named keys are written in angle
 *   brackets: <Enter> <Esc> <Tab> <S-Tab> <BS> <Del> <Space> <lt> (a '<')
 *   <Up> <Down> <Left> <Right> <S-Up> <S-Down> <S-Left> <S-Right>
 *   <Home> <End> <PgUp> <PgDn> <C-a> .. <C-z>;
 *   mouse at a 0-based cell: <Click:X,Y> <Press:X,Y> <Drag:X,Y>
 *   <Release:X,Y> <WheelUp:X,Y> <WheelDown:X,Y> <S-WheelUp:X,Y>
 *   <S-WheelDown:X,Y> <WheelLeft:X,Y> <WheelRight:X,Y>, the right button
 *   <RClick:X,Y>, and a double click <DClick:X,Y> (press, release, second
 *   press, release);
 *   a terminal resize: <Resize:COLSxROWS>.
 * Token names are case-insensitive.
 *
 * Library code: no I/O.
 */
#ifndef TT_TUI_INPUT_H
#define TT_TUI_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

enum {
    TT_KEY_NONE = 0,
    TT_KEY_BASE = 0x110000,   /* above every code point */
    TT_KEY_UP = TT_KEY_BASE,
    TT_KEY_DOWN,
    TT_KEY_LEFT,
    TT_KEY_RIGHT,
    TT_KEY_S_UP,
    TT_KEY_S_DOWN,
    TT_KEY_S_LEFT,
    TT_KEY_S_RIGHT,
    TT_KEY_HOME,
    TT_KEY_END,
    TT_KEY_PGUP,
    TT_KEY_PGDN,
    TT_KEY_DEL,
    TT_KEY_BACKSPACE,
    TT_KEY_ENTER,
    TT_KEY_ESC,
    TT_KEY_TAB,
    TT_KEY_BTAB,
    TT_KEY__END
};

#define TT_KEY_CTRL(c) ((uint32_t)((c) & 0x1f))

typedef enum tt_input_kind {
    TT_IN_KEY = 0,
    TT_IN_MOUSE,
    TT_IN_RESIZE
} tt_input_kind;

typedef enum tt_mouse_action {
    TT_MOUSE_PRESS = 0,
    TT_MOUSE_DRAG,
    TT_MOUSE_RELEASE,
    TT_MOUSE_WHEEL_UP,
    TT_MOUSE_WHEEL_DOWN,
    TT_MOUSE_WHEEL_LEFT,
    TT_MOUSE_WHEEL_RIGHT,
    TT_MOUSE_DOUBLE      /* the second left press of a double click (term.c
                            times it; the app stays free of clocks) */
} tt_mouse_action;

enum {
    TT_MOD_SHIFT = 1,
    TT_MOD_META = 2,
    TT_MOD_CTRL = 4
};

typedef struct tt_input {
    uint8_t  kind;     /* tt_input_kind */
    uint8_t  action;   /* tt_mouse_action */
    uint8_t  button;   /* 0 left, 1 middle, 2 right */
    uint8_t  mods;     /* TT_MOD_* */
    uint32_t key;      /* TT_IN_KEY: code point or TT_KEY_* */
    int      x, y;     /* mouse cell (0-based); resize: cols, rows */
} tt_input;

static inline tt_input tt_input_key(uint32_t key)
{
    tt_input in = {TT_IN_KEY, 0, 0, 0, key, 0, 0};
    return in;
}

/* Parse a --keys text into *out (malloc'd, caller frees) and *n. On an
 * unknown or malformed token returns non-zero with err set (the column of
 * the token is in err->column). */
int tt_keys_parse(const char *text, tt_input **out, size_t *n, tt_error *err);

/* Display name of a key for the help ("Enter", "S-Tab", "C-l", "w"). */
const char *tt_key_name(uint32_t key, char *buf, size_t n);

#endif
