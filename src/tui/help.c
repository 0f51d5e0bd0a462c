/* help.c - the help overlay (?): every key from the binding table, the
 * mouse, the search and go-to syntax, and what the glyphs mean. The manual
 * page's KEYS section says the same. */
#include "config.h"

#include "tui/app_impl.h"

#include <stdio.h>
#include <string.h>

typedef struct help_line {
    const char *label;   /* NULL for a section title */
    const char *text;
} help_line;

static const help_line extra[] = {
    {NULL, "Mouse (when the terminal reports it)"},
    {"click", "move the cursor there; on a group name: fold it"},
    {"wheel", "zoom in or out at the pointer"},
    {"S-wheel", "pan (also the horizontal wheel)"},
    {"drag", "on the ruler: zoom to that range"},
    {"drag", "over the lanes: box select, then its statistics"},
    {"dbl-click", "on an event: every event of its name (as *)"},
    {"right-click", "a marker at that time (as m)"},
    {"wheel", "over the names: scroll the rows"},
    {"click", "in the details panel: follow a link"},
    {"click", "in another panel: choose a line; double-click: as Enter"},
    {NULL, "Search (/)"},
    {"text", "event names containing the text, any case"},
    {"~regex", "extended regex (no \\1), any case: ~^nccl.*Reduce"},
    {"\\~text", "names containing text that starts with ~"},
    {"cat:text", "categories instead of names: cat:kernel, cat:~^gpu_mem"},
    {"n N", "next, previous match in time order (wraps around)"},
    {"T", "the longest match; again: the next longest"},
    {NULL, "Go to (:)"},
    {"12.5ms", "a time from the trace start: ns us ms s, a bare number is ns"},
    {"1ms..2ms", "zoom to a range (also 1ms-2ms)"},
    {"box edge", ":TIME then v, or :TIME while stretching: exactly that time"},
    {"sql SELECT", "SQL over the loaded traces (tracetty query's tables): rows in a panel"},
    {NULL, "In a prompt"},
    {"Enter Esc", "accept, cancel"},
    {"BS C-w C-u", "delete a character, a word, everything"},
    {"Up", "the previous text"},
    {"y n", "answer a question (quit with unsaved markers, ...)"},
    {NULL, "Statistics of a box"},
    {"numbers", "those of: tracetty report --window FROM:TO --lanes ... FILE"},
    {"Total", "the rows' time in the box, what nests in them included"},
    {"Self", "less what their direct children on their own thread cover"},
    {"Dev self", "device time they launched directly (empty: no links)"},
    {"Share", "of all rows' Self; the profiler's own span left out (empty)"},
    {"e", "one CSV file: the ops, lanes, transfers and gpu tables"},
    {NULL, "Marker sets"},
    {"file", "TRACE.markers.json beside the trace (else ~/.local/share)"},
    {"batch", "tracetty markers list TRACE; report --markers SET --between A:B"},
};

#define PUT(l, t) do { if (n < cap) { out[n].label = (l); out[n].text = (t); } n++; } while (0)

/* A table's own bindings under its section title, after line n; the
 * new count of lines. */
static size_t put_own(help_line *out, size_t cap, size_t n, const char *section,
                      const tt_binding *keys, size_t n_keys)
{
    if (!n_keys)
        return n;
    PUT("", "");
    PUT(NULL, section);
    for (size_t i = 0; i < n_keys; i++)
        if (keys[i].label)
            PUT(keys[i].label, keys[i].help);
    return n;
}

/* Number of lines: section titles, bindings, blank separators, extras. */
static size_t build(const tt_app *a, help_line *out, size_t cap)
{
    size_t n = 0;
    for (int s = 0; s < TT_SEC__COUNT; s++) {
        /* the keys of several ranks only when there are several */
        if (s >= TT_SEC_RANKS && !a->multi)
            continue;
        if (n)
            PUT("", "");
        PUT(NULL, tt_section_names[s]);
        for (size_t i = 0; i < tt_n_bindings; i++)
            if (tt_bindings[i].section == s && tt_bindings[i].label)
                PUT(tt_bindings[i].label, tt_bindings[i].help);
    }
    /* the panels that keep their own bindings (panels.c), and the
     * mode on screen when it keeps its own (modes.c) */
    for (size_t p = 0; tt_panel_at(p); p++)
        n = put_own(out, cap, n, tt_panel_at(p)->section, tt_panel_at(p)->keys,
                    tt_panel_at(p)->n_keys);
    n = put_own(out, cap, n, tt_app_mode(a)->section, tt_app_mode(a)->keys,
                tt_app_mode(a)->n_keys);
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        if (!extra[i].label)
            PUT("", "");
        PUT(extra[i].label, extra[i].text);
    }
    if (a->multi) {
        PUT("", "");
        PUT(NULL, "Several ranks (tracetty view DIR, or several files)");
        PUT("time", "counts from the job's start, every rank on one axis (--align)");
        PUT("tabs", "a rank's tab: its whole timeline; the header names its file");
        PUT("combined", "device lanes only; search and details: the cursor's rank");
        PUT("/ n N", "in the collectives view: collectives by name");
        PUT("markers", "on the job's axis; sets are the first rank's file's");
        PUT("batch", "tracetty report --kind collectives|ranks|gpu DIR");
    }
    PUT("", "");
    PUT(NULL, "Glyphs");
    PUT(a->utf8 ? "\xe2\x96\x88" : "#", "an event covers the cell");
    PUT(a->utf8 ? "\xe2\x96\x8c \xe2\x96\x90" : "] [", "an event ends, begins in the cell");
    PUT(a->utf8 ? "\xe2\x96\x91 \xe2\x96\x92 \xe2\x96\x93" : ". : *",
        "events cover a quarter, half, most of the cell");
    PUT(a->utf8 ? "\xe2\x96\x8f" : "|", "events shorter than the cell, or instants");
    PUT(a->utf8 ? "\xe2\x96\xbc \xe2\x94\xbc" : "v +", "the cursor, in the ruler and on its row");
    PUT(a->utf8 ? "[ ] \xc2\xb7 \xe2\x94\x83" : "[ ] ` #",
        "the box: its range, empty cells, its rows");
    PUT(a->utf8 ? "\xe2\x97\x86 \xe2\x94\x82" : "* |",
        "a marker: in the ruler (with its name), down the lanes");
    PUT("! ~", "an annotation: where it starts, its span on its lanes");
    if (a->multi) {
        PUT(a->utf8 ? "\xe2\x96\x88 \xe2\x95\x90" : "# =",
            "a rank's summary lane: busy device; communication (waiting) takes most");
        PUT(a->utf8 ? "\xe2\x94\x80 \xe2\x96\x88" : "- #",
            "a collective: ranks arriving (the spread), then all ranks in it");
        PUT("last rN", "the rank that arrived last at the collective");
        PUT("[5]", "in the tab bar: the rank or view on screen (a click shows a tab)");
    }
#undef PUT
    return n;
}

size_t tt_help_lines(const tt_app *a)
{
    return build(a, NULL, 0);
}

/* The box: from below the header to above the status line. */
static void help_box(const tt_app *a, int *y0, int *h)
{
    *y0 = a->scr.header_y >= 0 ? a->scr.header_y + 1 : 0;
    *h = (a->scr.status_y >= 0 ? a->scr.status_y : a->rows) - *y0;
}

int tt_help_inner_h(const tt_app *a)
{
    int y0, h;
    help_box(a, &y0, &h);
    return h - 2 > 1 ? h - 2 : 1;
}

void tt_help_draw(tt_app *a, tt_grid *g)
{
    help_line lines[256];
    size_t n = build(a, lines, sizeof lines / sizeof lines[0]);
    int y0, h, w = a->cols, inner, keyw = 12;
    help_box(a, &y0, &h);
    inner = h - 2;
    if (n > sizeof lines / sizeof lines[0])
        n = sizeof lines / sizeof lines[0];
    if (h < 3 || w < 10)
        return;
    tt_panel_box(g, 0, y0, w, h, a->gl, "Keys", "j k scroll  Esc close");
    for (int r = 0; r < inner && a->help_top + (size_t)r < n; r++) {
        const help_line *l = &lines[a->help_top + (size_t)r];
        int y = y0 + 1 + r;
        if (!l->label) {
            tt_grid_text_fit(g, 2, y, w - 4, l->text, TT_R_PANEL_TITLE, 0, a->gl->ellipsis);
            continue;
        }
        tt_grid_text_fit(g, 2, y, keyw, l->label, TT_R_PANEL_LINK, 0, a->gl->ellipsis);
        tt_grid_text_fit(g, 3 + keyw, y, w - 5 - keyw, l->text, TT_R_PANEL, 0, a->gl->ellipsis);
    }
    if (n > (size_t)inner && w > 16) {
        char pos[40];
        snprintf(pos, sizeof pos, " %zu-%zu/%zu ", a->help_top + 1,
                 a->help_top + (size_t)inner < n ? a->help_top + (size_t)inner : n, n);
        tt_grid_text(g, w - 2 - (int)strlen(pos), y0 + h - 1, (int)strlen(pos), pos,
                     TT_R_PANEL_BORDER, 0);
    }
}
