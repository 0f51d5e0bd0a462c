/* input.c - the --keys syntax and key names (see input.h). */
#include "config.h"

#include "tui/input.h"

#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    uint32_t    key;
} named_keys[] = {
    {"Enter", TT_KEY_ENTER},     {"CR", TT_KEY_ENTER},         {"Return", TT_KEY_ENTER},
    {"Esc", TT_KEY_ESC},         {"Tab", TT_KEY_TAB},          {"S-Tab", TT_KEY_BTAB},
    {"BS", TT_KEY_BACKSPACE},    {"Backspace", TT_KEY_BACKSPACE},
    {"Del", TT_KEY_DEL},         {"Space", ' '},               {"lt", '<'},
    {"Up", TT_KEY_UP},           {"Down", TT_KEY_DOWN},        {"Left", TT_KEY_LEFT},
    {"Right", TT_KEY_RIGHT},     {"S-Up", TT_KEY_S_UP},        {"S-Down", TT_KEY_S_DOWN},
    {"S-Left", TT_KEY_S_LEFT},   {"S-Right", TT_KEY_S_RIGHT},  {"Home", TT_KEY_HOME},
    {"End", TT_KEY_END},         {"PgUp", TT_KEY_PGUP},        {"PgDn", TT_KEY_PGDN},
};

static const struct {
    const char *name;
    uint8_t     action;
    uint8_t     mods;
    uint8_t     button;
    int         click;   /* 1: press + release; 2: a double click */
} mouse_tokens[] = {
    {"Click", TT_MOUSE_PRESS, 0, 0, 1},
    {"RClick", TT_MOUSE_PRESS, 0, 2, 1},
    {"DClick", TT_MOUSE_PRESS, 0, 0, 2},
    {"Press", TT_MOUSE_PRESS, 0, 0, 0},
    {"Drag", TT_MOUSE_DRAG, 0, 0, 0},
    {"Release", TT_MOUSE_RELEASE, 0, 0, 0},
    {"WheelUp", TT_MOUSE_WHEEL_UP, 0, 0, 0},
    {"WheelDown", TT_MOUSE_WHEEL_DOWN, 0, 0, 0},
    {"S-WheelUp", TT_MOUSE_WHEEL_UP, TT_MOD_SHIFT, 0, 0},
    {"S-WheelDown", TT_MOUSE_WHEEL_DOWN, TT_MOD_SHIFT, 0, 0},
    {"WheelLeft", TT_MOUSE_WHEEL_LEFT, 0, 0, 0},
    {"WheelRight", TT_MOUSE_WHEEL_RIGHT, 0, 0, 0},
};

typedef struct inbuf {
    tt_input *v;
    size_t    n, cap;
} inbuf;

static int push(inbuf *b, tt_input in)
{
    if (b->n == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 32;
        tt_input *nv = realloc(b->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        b->v = nv;
        b->cap = nc;
    }
    b->v[b->n++] = in;
    return 0;
}

/* Parse "X,Y" (non-negative integers) completely. */
static int parse_xy(const char *s, size_t n, int *x, int *y, char sep)
{
    long v[2] = {0, 0};
    int k = 0, digits = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (v[k] > 100000)
                return -1;
            v[k] = v[k] * 10 + (c - '0');
            digits++;
        } else if ((c == sep || (sep == 'x' && c == 'X')) && k == 0 && digits) {
            k = 1;
            digits = 0;
        } else {
            return -1;
        }
    }
    if (k != 1 || !digits)
        return -1;
    *x = (int)v[0];
    *y = (int)v[1];
    return 0;
}

static int parse_token(const char *tok, size_t n, inbuf *b)
{
    char name[64];
    const char *colon = memchr(tok, ':', n);
    size_t nl = colon ? (size_t)(colon - tok) : n;
    if (nl == 0 || nl >= sizeof name)
        return -1;
    memcpy(name, tok, nl);
    name[nl] = '\0';
    if (!colon) {
        for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
            if (strcasecmp(name, named_keys[i].name) == 0)
                return push(b, tt_input_key(named_keys[i].key)) ? -2 : 0;
        /* C-x: control characters */
        if (nl == 3 && (name[0] == 'C' || name[0] == 'c') && name[1] == '-') {
            char c = name[2];
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            if (c >= 'a' && c <= 'z')
                return push(b, tt_input_key(TT_KEY_CTRL(c))) ? -2 : 0;
        }
        return -1;
    }
    if (strcasecmp(name, "Resize") == 0) {
        tt_input in = {TT_IN_RESIZE, 0, 0, 0, 0, 0, 0};
        if (parse_xy(colon + 1, n - nl - 1, &in.x, &in.y, 'x') || in.x < 1 || in.y < 1 ||
            in.x > 10000 || in.y > 10000)
            return -1;
        return push(b, in) ? -2 : 0;
    }
    for (size_t i = 0; i < sizeof mouse_tokens / sizeof mouse_tokens[0]; i++) {
        tt_input in = {TT_IN_MOUSE, 0, 0, 0, 0, 0, 0};
        if (strcasecmp(name, mouse_tokens[i].name) != 0)
            continue;
        if (parse_xy(colon + 1, n - nl - 1, &in.x, &in.y, ','))
            return -1;
        in.action = mouse_tokens[i].action;
        in.mods = mouse_tokens[i].mods;
        in.button = mouse_tokens[i].button;
        if (push(b, in))
            return -2;
        if (mouse_tokens[i].click) {
            in.action = TT_MOUSE_RELEASE;
            if (push(b, in))
                return -2;
        }
        if (mouse_tokens[i].click == 2) {
            /* what term.c makes of the second press of a double click */
            in.action = TT_MOUSE_DOUBLE;
            if (push(b, in))
                return -2;
            in.action = TT_MOUSE_RELEASE;
            if (push(b, in))
                return -2;
        }
        return 0;
    }
    return -1;
}

int tt_keys_parse(const char *text, tt_input **out, size_t *n, tt_error *err)
{
    inbuf b = {NULL, 0, 0};
    const unsigned char *p = (const unsigned char *)text;
    size_t len = strlen(text), i = 0;
    *out = NULL;
    *n = 0;
    while (i < len) {
        if (p[i] == '<') {
            const char *close = memchr(text + i + 1, '>', len - i - 1);
            int rc;
            char shown[80];
            if (!close) {
                free(b.v);
                tt_text_sanitize(text + i, len - i > 40 ? 40 : len - i, shown, sizeof shown);
                tt_error_set(err, TT_ERR_USAGE,
                             "unterminated key token '%s' (write <lt> for a '<')", shown);
                err->column = (int64_t)i + 1;
                return -1;
            }
            rc = parse_token(text + i + 1, (size_t)(close - text) - i - 1, &b);
            if (rc) {
                size_t tl = (size_t)(close - text) - i + 1;
                free(b.v);
                if (rc == -2)
                    return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                tt_text_sanitize(text + i, tl > 60 ? 60 : tl, shown, sizeof shown);
                tt_error_set(err, TT_ERR_USAGE, "unknown key token '%s' at character %zu",
                             shown, i + 1);
                err->column = (int64_t)i + 1;
                return -1;
            }
            i = (size_t)(close - text) + 1;
            continue;
        }
        {
            uint32_t cp;
            size_t k = tt_utf8_decode(p + i, len - i, &cp);
            uint32_t key;
            if (k == 0) {
                free(b.v);
                tt_error_set(err, TT_ERR_USAGE, "invalid UTF-8 in keys at character %zu", i + 1);
                err->column = (int64_t)i + 1;
                return -1;
            }
            key = cp;
            /* raw control characters mean what a terminal sends for them */
            if (cp == '\r' || cp == '\n')
                key = TT_KEY_ENTER;
            else if (cp == '\t')
                key = TT_KEY_TAB;
            else if (cp == 0x1b)
                key = TT_KEY_ESC;
            else if (cp == 0x7f || cp == 0x08)
                key = TT_KEY_BACKSPACE;
            if (push(&b, tt_input_key(key))) {
                free(b.v);
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            }
            i += k;
        }
    }
    *out = b.v;
    *n = b.n;
    return 0;
}

const char *tt_key_name(uint32_t key, char *buf, size_t n)
{
    static const char *const names[] = {
        [TT_KEY_UP - TT_KEY_BASE] = "Up",         [TT_KEY_DOWN - TT_KEY_BASE] = "Down",
        [TT_KEY_LEFT - TT_KEY_BASE] = "Left",     [TT_KEY_RIGHT - TT_KEY_BASE] = "Right",
        [TT_KEY_S_UP - TT_KEY_BASE] = "S-Up",     [TT_KEY_S_DOWN - TT_KEY_BASE] = "S-Down",
        [TT_KEY_S_LEFT - TT_KEY_BASE] = "S-Left", [TT_KEY_S_RIGHT - TT_KEY_BASE] = "S-Right",
        [TT_KEY_HOME - TT_KEY_BASE] = "Home",     [TT_KEY_END - TT_KEY_BASE] = "End",
        [TT_KEY_PGUP - TT_KEY_BASE] = "PgUp",     [TT_KEY_PGDN - TT_KEY_BASE] = "PgDn",
        [TT_KEY_DEL - TT_KEY_BASE] = "Del",       [TT_KEY_BACKSPACE - TT_KEY_BASE] = "BS",
        [TT_KEY_ENTER - TT_KEY_BASE] = "Enter",   [TT_KEY_ESC - TT_KEY_BASE] = "Esc",
        [TT_KEY_TAB - TT_KEY_BASE] = "Tab",       [TT_KEY_BTAB - TT_KEY_BASE] = "S-Tab",
    };
    if (key >= TT_KEY_BASE && key < TT_KEY__END) {
        snprintf(buf, n, "%s", names[key - TT_KEY_BASE]);
    } else if (key == ' ') {
        snprintf(buf, n, "Space");
    } else if (key > 0 && key < 0x20) {
        snprintf(buf, n, "C-%c", (char)('a' + key - 1));
    } else if (key < 0x80) {
        snprintf(buf, n, "%c", (char)key);
    } else {
        snprintf(buf, n, "U+%04X", (unsigned)key);
    }
    return buf;
}
