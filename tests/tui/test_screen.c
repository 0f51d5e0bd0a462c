/* test_screen.c - what the timeline screen shows, read back from the cell
 * grid the app draws (the grid `render` prints and the TUI copies), on the
 * demo trace and the test traces:
 *   - the header keeps its fields (file, format, window, zoom) at 80
 *     columns, cutting a long file name in its middle first, and gives
 *     way field by field down to 20 columns;
 *   - the legend counts the events of folded groups;
 *   - a marker's line shows on every row of the lanes, busy or not (a
 *     name's character stays, in the marker's color);
 *   - the ruler's tick labels stay whole and apart from the glyphs drawn
 *     over the ruler (cursor, annotations, box brackets, markers) at every
 *     cursor position, and a box's brackets both show after a mouse drag.
 */
#include "config.h"

#include "../tap.h"
#include "decode/decode.h"
#include "rules/rules.h"
#include "tui/app.h"
#include "tui/grid.h"
#include "tui/input.h"
#include "util/text.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

static char demo[4096], basic[4096];

/* A frame of trace tr at cols x rows after keys (NULL with a diagnostic on
 * failure). */
static tt_grid *frame(const tt_trace *tr, int cols, int rows, const char *title, bool utf8,
                      bool rules, const char *keys)
{
    tt_rules_config cfg;
    tt_app_opts o;
    tt_error err;
    tt_input *in = NULL;
    size_t n = 0;
    tt_app *a;
    tt_grid *g = NULL;
    memset(&o, 0, sizeof o);
    o.title = title;
    o.utf8 = utf8;
    tt_rules_config_defaults(&cfg);
    o.rules = rules ? &cfg : NULL;
    tt_error_clear(&err);
    if (tt_keys_parse(keys, &in, &n, &err)) {
        diag("keys %s: %s", keys, err.what);
        return NULL;
    }
    a = tt_app_new(tr, cols, rows, &o, &err);
    if (a) {
        for (size_t i = 0; i < n; i++)
            tt_app_input(a, &in[i]);
        g = tt_grid_new(cols, rows);
        if (g && tt_app_draw(a, g)) {
            tt_grid_free(g);
            g = NULL;
        }
    }
    if (!g)
        diag("cannot draw %dx%d after %s", cols, rows, keys);
    tt_app_free(a);
    free(in);
    return g;
}

/* Row y as text (cap >= 4 * cols + 1). */
static char *row_text(const tt_grid *g, int y, char *out)
{
    size_t n = 0;
    for (int x = 0; x < g->cols; x++) {
        const tt_cell *c = &g->cells[(size_t)y * (size_t)g->cols + (size_t)x];
        if (c->width)
            n += (size_t)tt_grid_utf8(c->cp, out + n);
    }
    out[n] = '\0';
    return out;
}

static int find_row(const tt_grid *g, const char *prefix)
{
    char buf[4096];
    for (int y = 0; y < g->rows; y++)
        if (strncmp(row_text(g, y, buf), prefix, strlen(prefix)) == 0)
            return y;
    return -1;
}

static const tt_cell *cell(const tt_grid *g, int x, int y)
{
    return &g->cells[(size_t)y * (size_t)g->cols + (size_t)x];
}

/* ---------------------------------------------------------------- header */

static void test_header(const tt_trace *tr)
{
    static const char *title = "resnet50_workers0.pt.trace.json.gz";
    char h[4096], keys[64];
    tt_grid *g = frame(tr, 80, 24, title, true, false, "");
    if (g) {
        row_text(g, 0, h);
        ok(strstr(h, "chrome-json") != NULL, "80 columns: the header names the format: %s", h);
        ok(strstr(h, "\xc3\x97" "1.0") != NULL, "and the zoom");
        ok(strstr(h, "0 ms \xe2\x80\x93 300 ms (299.735 ms)") != NULL, "and the window");
        ok(strstr(h, "resnet50") != NULL && strstr(h, "\xe2\x80\xa6") != NULL &&
               strstr(h, "json.gz") != NULL,
           "and the file name, cut in its middle");
        tt_grid_free(g);
    }
    /* far in: long window ends and a large zoom factor */
    memset(keys, 'w', 30);
    keys[30] = '\0';
    g = frame(tr, 80, 24, title, true, false, keys);
    if (g) {
        const char *x;
        row_text(g, 0, h);
        x = strstr(h, "\xc3\x97");
        ok(strstr(h, "chrome-json") != NULL, "zoomed in: the format stays: %s", h);
        ok(x && x[2] >= '1' && x[2] <= '9', "and the zoom factor");
        ok(strstr(h, "res") != NULL && strstr(h, "gz") != NULL, "and some of the file name");
        ok(strstr(h, "s (") != NULL && strstr(h, "s)") != NULL, "and the window's width");
        tt_grid_free(g);
    }
    g = frame(tr, 80, 24, title, false, false, keys);
    if (g) {
        row_text(g, 0, h);
        ok(strstr(h, "chrome-json") != NULL && strstr(h, "~") != NULL && strstr(h, " x") != NULL,
           "the same in ASCII: %s", h);
        tt_grid_free(g);
    }
    /* narrower and narrower: something sensible down to 20 columns */
    for (int cols = 200; cols >= 20; cols -= 5) {
        bool good = true;
        for (int z = 0; z < 2 && good; z++) {
            g = frame(tr, cols, cols < 30 ? 6 : 24, title, true, false, z ? keys : "");
            if (!g) {
                good = false;
                break;
            }
            row_text(g, 0, h);
            /* the window's start is always there, after one blank */
            good = h[0] == ' ' && (strstr(h, " 0 ms") || strstr(h, " 1") || strstr(h, " 2"));
            if (!good)
                diag("%d columns: %s", cols, h);
            tt_grid_free(g);
        }
        if (!good) {
            ok(0, "the header shows the window at %d columns", cols);
            break;
        }
        if (cols == 20)
            ok(1, "the header shows the window from 200 down to 20 columns");
    }
    g = frame(tr, 20, 6, title, true, false, "");
    if (g) {
        is_str(row_text(g, 0, h), " 0 ms \xe2\x80\x93 300 ms  \xc3\x97" "1.0",
               "20 columns: the window and the zoom");
        tt_grid_free(g);
    }
}

/* ---------------------------------------------------------------- legend */

static void test_legend(const tt_trace *tr)
{
    char l[4096];
    tt_grid *g = frame(tr, 80, 24, "demo.json", true, false, "C");
    int y;
    if (!g)
        return;
    y = find_row(g, "by name:");
    ok(y > 0, "the legend is drawn with every group folded");
    if (y > 0) {
        row_text(g, y, l);
        ok(strstr(l, "no events in view") == NULL && strstr(l, "ProfilerStep") != NULL,
           "and names what the folded groups hold: %s", l);
    }
    tt_grid_free(g);
}

/* ---------------------------------------------------------------- markers */

/* The first timeline column: the one after the separator of the lanes'
 * labels. */
static int timeline_x(const tt_grid *g)
{
    for (int x = 0; x < g->cols; x++)
        if (cell(g, x, 2)->role == TT_R_SEP)
            return x + 1;
    return -1;
}

static void test_marker_lines(const tt_trace *tr)
{
    const tt_glyphs *gl = tt_theme_glyphs(true);
    /* typed times: m on an event would put both on its start */
    tt_grid *g = frame(tr, 80, 24, "t", true, false, ":146ms<Enter>m:150ms<Enter>mwwww");
    int x0, legend, cols[2], nc = 0, rows = 0, on_events = 0, missing = 0;
    if (!g)
        return;
    x0 = timeline_x(g);
    legend = find_row(g, "by name:");
    /* a marker's glyph, or the cursor's mark over it before its name */
    for (int x = x0; x >= 0 && x + 1 < g->cols && nc < 2; x++)
        if (cell(g, x, 1)->cp == gl->marker ||
            (cell(g, x, 1)->role == TT_R_RULER_MARK && cell(g, x + 1, 1)->role == TT_R_MARKER))
            cols[nc++] = x;
    is_i64(nc, 2, "two markers in the ruler");
    for (int i = 0; i < nc; i++)
        for (int y = 2; y < legend; y++) {
            const tt_cell *c = cell(g, cols[i], y);
            rows++;
            /* the cursor's cell is drawn last, over anything */
            if (c->cp != gl->marker_line && c->role != TT_R_MARKER && c->role != TT_R_CURSOR)
                missing++;
            else if (c->role == TT_R_EV_MARKER && c->color <= TT_COLOR_NONE)
                on_events++;
        }
    ok(rows > 10 && missing == 0, "the markers' lines cross every row (%d of %d missing)",
       missing, rows);
    ok(on_events > 0, "over events too, on the event's color (%d cells)", on_events);
    tt_grid_free(g);
}

/* ---------------------------------------------------------------- ruler */

static bool label_char(uint32_t cp)
{
    return (cp >= '0' && cp <= '9') || cp == '.' || cp == '-' || cp == 'n' || cp == 'u' ||
           cp == 'm' || cp == 's' || cp == ' ';
}

/* Every tick label in the ruler row y is whole ("0.2 ms", "140 ms") with a
 * tick or a blank before it and a blank, a tick or the edge after it (or
 * an annotation's mark): no overlay glyph inside or before it, none but
 * that after it. Returns NULL or what is wrong. */
static const char *ruler_bad(const tt_grid *g, int y, const tt_glyphs *gl)
{
    static char why[1200];
    char m[1024];
    int x0 = timeline_x(g), n = 0;
    if (x0 < 0)
        return "no timeline";
    /* the row as classes: T tick, A an annotation's mark, G another
     * overlay glyph or a marker's name, else the label character itself */
    for (int x = x0; x < g->cols && n < (int)sizeof m - 1; x++) {
        const tt_cell *c = cell(g, x, y);
        if (c->cp == gl->tick)
            m[n++] = 'T';
        else if (c->cp == gl->ann_mark)
            m[n++] = 'A';
        else if (c->role == TT_R_MARKER || c->role == TT_R_RULER_MARK || !label_char(c->cp))
            m[n++] = 'G';
        else
            m[n++] = (char)c->cp;
    }
    m[n] = '\0';
    for (int i = 0; i < n;) {
        int j = i, k;
        if (m[i] == ' ' || m[i] == 'T' || m[i] == 'G' || m[i] == 'A') {
            i++;
            continue;
        }
        /* a number, one blank, a unit */
        while (j < n && ((m[j] >= '0' && m[j] <= '9') || m[j] == '.' || m[j] == '-'))
            j++;
        k = j + 1;
        if (j == i || m[j] != ' ' ||
            !(strncmp(m + k, "ns", 2) == 0 || strncmp(m + k, "us", 2) == 0 ||
              strncmp(m + k, "ms", 2) == 0 || m[k] == 's')) {
            snprintf(why, sizeof why, "a broken label at column %d: [%s]", x0 + i, m);
            return why;
        }
        k += m[k] == 's' ? 1 : 2;
        if ((i > 0 && m[i - 1] != 'T' && m[i - 1] != ' ') || (k < n && m[k] != ' ' && m[k] != 'T' && m[k] != 'A')) {
            snprintf(why, sizeof why, "a glyph against the label at column %d: [%s]", x0 + i, m);
            return why;
        }
        i = k;
    }
    return NULL;
}

/* Walk the cursor over the whole window (steps of one column), checking
 * the ruler at each position. */
static void cursor_walk(const tt_trace *tr, int cols, int rows, bool utf8, bool rules,
                        const char *before, const char *what)
{
    const tt_glyphs *gl = tt_theme_glyphs(utf8);
    char keys[2048], *p;
    const char *bad = NULL;
    int steps = 0;
    snprintf(keys, sizeof keys, "%s<Home>", before);
    p = keys + strlen(keys);
    for (int i = 0; i <= cols && !bad; i++) {
        tt_grid *g;
        p[0] = '\0';
        g = frame(tr, cols, rows, "t", utf8, rules, keys);
        if (!g)
            return;
        bad = ruler_bad(g, 1, gl);
        tt_grid_free(g);
        steps++;
        if ((size_t)(p - keys) + 8 < sizeof keys) {
            strcpy(p, "l");
            p++;
        }
    }
    ok(!bad, "%s: tick labels whole at every cursor position (%d)%s%s", what, steps,
       bad ? ": " : "", bad ? bad : "");
}

static void test_ruler(const tt_trace *demo_tr, const tt_trace *basic_tr)
{
    const tt_glyphs *gl;
    char r[4096];
    tt_grid *g;
    /* the cursor: <Home> puts it in the window's first column */
    cursor_walk(demo_tr, 80, 12, true, false, "", "demo, UTF-8");
    cursor_walk(demo_tr, 80, 12, false, false, "", "demo, ASCII");
    cursor_walk(demo_tr, 120, 12, false, false, "www", "demo zoomed in, ASCII");
    /* with the warning annotations' marks */
    cursor_walk(demo_tr, 80, 12, true, true, "", "demo with annotations");
    cursor_walk(basic_tr, 80, 12, false, true, "", "basic with annotations, ASCII");
    /* markers and their names */
    cursor_walk(demo_tr, 80, 12, false, false, "mlllllllllllllm", "demo with two markers");
    /* a box drawn by the mouse ends where the cursor is: both brackets
     * still show */
    gl = tt_theme_glyphs(true);
    g = frame(basic_tr, 100, 30, "t", true, false,
              "<Press:30,4><Drag:45,6><Drag:60,11><Release:60,11>");
    if (g) {
        const char *bad = ruler_bad(g, 1, gl);
        row_text(g, 1, r);
        ok(strchr(r, '[') && strchr(r, ']') && strstr(r, "\xe2\x96\xbc"),
           "a box by mouse: '[', ']' and the cursor mark in the ruler: %s", r);
        ok(!bad, "and the labels are whole%s%s", bad ? ": " : "", bad ? bad : "");
        tt_grid_free(g);
    }
}

int main(void)
{
    const char *src = getenv("srcdir");
    tt_trace *dtr = NULL, *btr = NULL;
    tt_error err;
    if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "en_US.UTF-8"))
        return tap_skip_all("no UTF-8 locale");
    tt_text_set_utf8(true);
    snprintf(demo, sizeof demo, "%s/samples/demo.json", src ? src : ".");
    snprintf(basic, sizeof basic, "%s/tests/data/tui/basic.json", src ? src : ".");
    tt_error_clear(&err);
    if (tt_load(demo, NULL, &dtr, NULL, &err) || tt_load(basic, NULL, &btr, NULL, &err)) {
        tt_trace_free(dtr);
        return tap_skip_all("no samples/demo.json or tests/data/tui/basic.json");
    }
    test_header(dtr);
    test_legend(dtr);
    test_marker_lines(dtr);
    test_ruler(dtr, btr);
    tt_trace_free(dtr);
    tt_trace_free(btr);
    return tap_done();
}
