/* infoact.c - the info panel and the clipboard (see app_impl.h).
 *
 * I opens the trace's metadata (the focused rank's, in the views of
 * several ranks), F the selected event's full name wrapped, y copies that
 * name to the terminal's clipboard. The app never writes to the terminal:
 * y leaves the bytes in a->clip, and term.c sends them as an OSC 52
 * sequence after the next frame (tt_app_take_clip). Whether the clipboard
 * changes is the terminal's decision (xterm needs allowWindowOps, tmux
 * set-clipboard), so the message says so.
 */
#include "config.h"

#include "tui/app_impl.h"

#include "tui/infopanel.h"

#include <stdlib.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

/* Trace events in all lanes of the trace. */
static bool has_events(const tt_trace *tr)
{
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        if (tr->lanes[l].n)
            return true;
    return tr->n_counters > 0;
}

static void open_info(tt_app *a, tt_info_kind kind)
{
    a->info_kind = kind;
    a->info_tr = NULL;   /* build on the next sync */
    a->info.cur = a->info.top = 0;
    tt_app_open_panel(a, TT_PANEL_INFO);
}

int tt_act_info_meta(tt_app *a)
{
    open_info(a, TT_INFO_META);
    return REDRAW;
}

int tt_act_info_name(tt_app *a)
{
    if (!a->has_sel) {
        tt_app_message(a, false, "no event selected: move onto one");
        return REDRAW;
    }
    open_info(a, TT_INFO_NAME);
    a->info_ev = a->sel;
    a->info_src = a->tr;
    return REDRAW;
}

int tt_act_copy_name(tt_app *a)
{
    const tt_event *e;
    size_t n;
    char *copy;
    if (!a->has_sel) {
        tt_app_message(a, false, "no event selected: move onto one");
        return REDRAW;
    }
    e = tt_trace_event(a->tr, a->sel);
    n = tt_strtab_len(a->tr->strings, e->name);
    copy = malloc(n + 1);
    if (!copy) {
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    memcpy(copy, tt_str(a->tr, e->name), n);
    copy[n] = '\0';
    free(a->clip);
    a->clip = copy;
    a->clip_n = n;
    tt_app_message(a, false, "name copied with OSC 52 (%zu bytes), if the terminal allows it",
                   n);
    return REDRAW;
}

const char *tt_app_take_clip(tt_app *a, size_t *n)
{
    const char *c = a->clip;
    *n = a->clip_n;
    a->clip_n = 0;
    return c && *n ? c : NULL;
}

void tt_app_info_open_if_empty(tt_app *a)
{
    if (!has_events(a->tr) && tt_infopanel_has_meta(a->tr))
        open_info(a, TT_INFO_META);
}

/* The trace the panel shows: the event's own for a name (the focus may
 * have moved since), the focused rank's for the metadata. */
static const tt_trace *info_trace(const tt_app *a)
{
    return a->info_kind == TT_INFO_NAME ? a->info_src : a->tr;
}

int tt_app_info_sync(tt_app *a, int w)
{
    const tt_trace *tr = info_trace(a);
    if (a->info_tr == tr && a->info_width == w)
        return 0;
    tt_plist_clear(&a->info);
    a->info_tr = tr;
    a->info_width = w;
    if (a->info_kind == TT_INFO_NAME) {
        const tt_event *e = tt_trace_event(tr, a->info_ev);
        if (tt_infopanel_name(&a->info, tt_str(tr, e->name), tt_strtab_len(tr->strings, e->name),
                              w))
            return -1;
    } else if (tt_infopanel_meta(&a->info, tr, w)) {
        return -1;
    }
    tt_plist_clamp(&a->info);
    return 0;
}

void tt_app_info_draw(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    char title[300];
    if (a->info_kind == TT_INFO_NAME)
        snprintf(title, sizeof title, "Full name (%zu bytes)",
                 tt_strtab_len(a->info_src->strings,
                               tt_trace_event(a->info_src, a->info_ev)->name));
    else if (a->multi)
        snprintf(title, sizeof title, "Metadata of rank %lld", (long long)a->rk[a->focus].rank);
    else
        snprintf(title, sizeof title, "Metadata");
    tt_plist_draw(&a->info, g, 0, y, w, ph, a->gl, title,
                  a->info_kind == TT_INFO_NAME ? "y copy  Esc close" : "Esc close");
}

void tt_app_info_fini(tt_app *a)
{
    tt_plist_fini(&a->info);
    free(a->clip);
    a->clip = NULL;
    a->clip_n = 0;
}
