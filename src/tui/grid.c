/* grid.c - off-screen cell grid (see grid.h). */
#include "config.h"

#include "tui/grid.h"

#include "util/text.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

tt_grid *tt_grid_new(int cols, int rows)
{
    tt_grid *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    if (tt_grid_resize(g, cols, rows)) {
        free(g);
        return NULL;
    }
    return g;
}

void tt_grid_free(tt_grid *g)
{
    if (!g)
        return;
    free(g->cells);
    free(g);
}

int tt_grid_resize(tt_grid *g, int cols, int rows)
{
    size_t n;
    tt_cell *c;
    if (cols < 0)
        cols = 0;
    if (rows < 0)
        rows = 0;
    n = (size_t)cols * (size_t)rows;
    c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return -1;
    free(g->cells);
    g->cells = c;
    g->cols = cols;
    g->rows = rows;
    tt_grid_clear(g, TT_R_DEFAULT);
    return 0;
}

void tt_grid_clear(tt_grid *g, uint8_t role)
{
    size_t n = (size_t)g->cols * (size_t)g->rows;
    for (size_t i = 0; i < n; i++) {
        g->cells[i].cp = ' ';
        g->cells[i].width = 1;
        g->cells[i].role = role;
        g->cells[i].color = 0;
        g->cells[i].pad = 0;
    }
}

/* Before overwriting (x, y): a wide character losing one half is blanked. */
static void break_wide(tt_grid *g, int x, int y)
{
    tt_cell *c = tt_grid_at(g, x, y);
    if (c->width == 0 && x > 0) {
        tt_cell *l = tt_grid_at(g, x - 1, y);
        l->cp = ' ';
        l->width = 1;
    } else if (c->width == 2 && x + 1 < g->cols) {
        tt_cell *r = tt_grid_at(g, x + 1, y);
        r->cp = ' ';
        r->width = 1;
    }
}

void tt_grid_set(tt_grid *g, int x, int y, uint32_t cp, uint8_t role, uint8_t color)
{
    tt_cell *c;
    if (x < 0 || y < 0 || x >= g->cols || y >= g->rows)
        return;
    break_wide(g, x, y);
    c = tt_grid_at(g, x, y);
    c->cp = cp;
    c->width = 1;
    c->role = role;
    c->color = color;
}

void tt_grid_restyle(tt_grid *g, int x, int y, uint8_t role, uint8_t color)
{
    tt_cell *c;
    if (x < 0 || y < 0 || x >= g->cols || y >= g->rows)
        return;
    c = tt_grid_at(g, x, y);
    c->role = role;
    c->color = color;
}

void tt_grid_fill(tt_grid *g, int x, int y, int w, uint32_t cp, uint8_t role, uint8_t color)
{
    for (int i = 0; i < w; i++)
        tt_grid_set(g, x + i, y, cp, role, color);
}

/* Width of a code point as the terminal will show it; -1 for a character
 * the locale cannot print (drawn as '?'). */
static int cp_width(uint32_t cp)
{
    int w;
    if (cp < 0x80)
        return cp >= 0x20 && cp < 0x7f ? 1 : -1;
    w = wcwidth((wchar_t)cp);
    return w;
}

int tt_grid_text_width(const char *safe)
{
    const unsigned char *p = (const unsigned char *)safe;
    size_t n = strlen(safe);
    int w = 0;
    while (n > 0) {
        uint32_t cp;
        size_t k = tt_utf8_decode(p, n, &cp);
        int cw;
        if (k == 0) {
            k = 1;
            cp = '?';
        }
        cw = cp_width(cp);
        w += cw < 0 ? 1 : cw;
        p += k;
        n -= k;
    }
    return w;
}

int tt_grid_text(tt_grid *g, int x, int y, int maxw, const char *safe, uint8_t role,
                 uint8_t color)
{
    const unsigned char *p = (const unsigned char *)safe;
    size_t n = strlen(safe);
    int used = 0;
    if (y < 0 || y >= g->rows)
        return 0;
    if (x + maxw > g->cols)
        maxw = g->cols - x;
    while (n > 0 && used < maxw) {
        uint32_t cp;
        size_t k = tt_utf8_decode(p, n, &cp);
        int cw;
        if (k == 0) {
            k = 1;
            cp = '?';
        }
        p += k;
        n -= k;
        cw = cp_width(cp);
        if (cw == 0)
            continue;   /* combining marks and other zero-width characters */
        if (cw < 0) {
            cp = '?';
            cw = 1;
        }
        if (x + used < 0) {
            used += cw;
            continue;
        }
        if (cw == 2) {
            tt_cell *c;
            if (used + 2 > maxw) {
                tt_grid_set(g, x + used, y, ' ', role, color);
                used++;
                break;
            }
            tt_grid_set(g, x + used, y, ' ', role, color);
            tt_grid_set(g, x + used + 1, y, ' ', role, color);
            c = tt_grid_at(g, x + used, y);
            c->cp = cp;
            c->width = 2;
            c = tt_grid_at(g, x + used + 1, y);
            c->cp = 0;
            c->width = 0;
            used += 2;
        } else {
            tt_grid_set(g, x + used, y, cp, role, color);
            used++;
        }
    }
    return used;
}

int tt_grid_text_fit(tt_grid *g, int x, int y, int maxw, const char *safe, uint8_t role,
                     uint8_t color, uint32_t ellipsis)
{
    int w;
    if (maxw <= 0)
        return 0;
    w = tt_grid_text_width(safe);
    if (w <= maxw)
        return tt_grid_text(g, x, y, maxw, safe, role, color);
    w = tt_grid_text(g, x, y, maxw - 1, safe, role, color);
    tt_grid_set(g, x + w, y, ellipsis, role, color);
    return w + 1;
}

int tt_grid_utf8(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

int tt_grid_print(const tt_grid *g, FILE *f, bool ansi, tt_color_depth depth)
{
    char sgr[64], u[4];
    for (int y = 0; y < g->rows; y++) {
        const tt_cell *row = &g->cells[(size_t)y * (size_t)g->cols];
        int end = g->cols;
        int last_role = -1, last_color = -1;
        if (!ansi) {
            while (end > 0 && row[end - 1].cp == ' ')
                end--;
        }
        for (int x = 0; x < end; x++) {
            const tt_cell *c = &row[x];
            if (c->width == 0)
                continue;
            if (ansi && (c->role != last_role || c->color != last_color)) {
                fputs(tt_theme_sgr(tt_theme_style(depth, c->role, c->color), sgr, sizeof sgr), f);
                last_role = c->role;
                last_color = c->color;
            }
            fwrite(u, 1, (size_t)tt_grid_utf8(c->cp, u), f);
        }
        if (ansi)
            fputs("\033[0m", f);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
