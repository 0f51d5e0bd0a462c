/* boxact.c - box select, the statistics panel and name selection (see
 * app_impl.h, statpanel.h).
 *
 * A box is stretched from the cell it started on to the cursor's cell (by
 * keyboard: v, then any move; by mouse: a drag over the lanes), over the
 * rows in between. Its lanes are the lanes of those rows: a lane row adds
 * its lane, a folded group's header adds the group's lanes; a box over
 * only open group headers takes their groups. The window is kept in
 * nanoseconds, so the box stays on its times while the user zooms and pans.
 * Confirming computes the statistics once (statpanel.h) and opens the
 * panel.
 *
 * Lanes are kept as job-wide numbers (app_impl.h): the combined view's box
 * spans several ranks; a box over one rank's lanes gets that rank's
 * statistics panel, one over several ranks (or collectives) the panel of
 * mstats.h.
 */
#include "config.h"

#include "tui/app_impl.h"

#include "tui/boxexport.h"
#include "util/num.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

/* ------------------------------------------------------------- the box */

/* The lanes of rows [r0, r1] (see above); in the combined view a rank's
 * header stands for its device lanes as a group's header for its lanes. */
static int rows_lanes(const tt_app *a, size_t r0, size_t r1, tt_laneset *out)
{
    const tt_view_def *m = tt_app_mode(a);
    bool any = false;
    uint32_t base = tt_app_glane(a, a->focus, 0);
    int rc;
    out->n = 0;
    for (size_t r = r0; r <= r1 && r < a->list.n; r++) {
        const tt_row *row = &a->list.v[r];
        if (m->row_lanes) {
            /* an open rank's header counts only when nothing else does */
            if (m->row_lanes(a, row, row->kind == TT_ROW_RANK, out, &rc))
                any = true;
            if (rc)
                return -1;
            continue;
        }
        if (row->kind == TT_ROW_LANE) {
            if (tt_laneset_add(out, base + row->lane))
                return -1;
            any = true;
        } else if (row->kind == TT_ROW_GROUP && a->collapsed[row->group]) {
            const tt_group *g = &a->tr->groups[row->group];
            for (uint32_t l = g->first_lane; l < g->first_lane + g->n_lanes; l++)
                if (tt_laneset_add(out, base + l))
                    return -1;
            any = true;
        }
    }
    if (!any)
        for (size_t r = r0; r <= r1 && r < a->list.n; r++) {
            const tt_row *row = &a->list.v[r];
            if (m->row_lanes && row->kind == TT_ROW_RANK) {
                if (m->row_lanes(a, row, false, out, &rc) && rc)
                    return -1;
            } else if (row->kind == TT_ROW_GROUP) {
                const tt_group *g = &a->tr->groups[row->group];
                for (uint32_t l = g->first_lane; l < g->first_lane + g->n_lanes; l++)
                    if (tt_laneset_add(out, base + l))
                        return -1;
            }
        }
    return tt_laneset_finish(out);
}

/* The cursor's edges for the box: the exact time when the cursor is
 * still in the column of the time typed with `:` (so a box typed edge to
 * edge is that window to the nanosecond, as `report --window` takes it),
 * else the column's cell [col, col + 1). The column, not the cursor time:
 * j and k to stretch the box over more lanes move the cursor time into
 * the event under it, in the same column, and must not move the edge. */
static void cursor_edges(const tt_app *a, int64_t col, tt_ns *lo, tt_ns *hi)
{
    if (a->typed && tt_vp_col(&a->vp, a->t_typed) == col && !a->box.mouse) {
        *lo = *hi = a->t_typed;
        return;
    }
    *lo = tt_vp_time(&a->vp, col);
    *hi = tt_vp_time(&a->vp, col + 1);
}

/* Stretch the box from its first edges (a0, a1) to the cursor's (f0, f1)
 * on row `row`. Two exact edges at one instant make an empty window: the
 * box then covers the cursor's column. */
static void box_update(tt_app *a, int64_t col, tt_ns f0, tt_ns f1, size_t row)
{
    int64_t ar = tt_app_row_index(a, &a->box.anchor);
    size_t r0, r1;
    a->box.from = a->box.a0 < f0 ? a->box.a0 : f0;
    a->box.to = a->box.a1 > f1 ? a->box.a1 : f1;
    if (a->box.to <= a->box.from) {
        tt_ns c0 = tt_vp_time(&a->vp, col), c1 = tt_vp_time(&a->vp, col + 1);
        a->box.from = c0 < a->box.from ? c0 : a->box.from;
        a->box.to = c1 > a->box.to ? c1 : a->box.to;
    }
    if (ar < 0)
        ar = (int64_t)row;
    r0 = (size_t)ar < row ? (size_t)ar : row;
    r1 = (size_t)ar < row ? row : (size_t)ar;
    if (rows_lanes(a, r0, r1, &a->box.lanes))
        tt_app_message(a, true, "out of memory");
}

void tt_box_follow(tt_app *a)
{
    int64_t col = tt_app_cursor_col(a);
    tt_ns f0, f1;
    if (!a->list.n)
        return;
    cursor_edges(a, col, &f0, &f1);
    box_update(a, col, f0, f1, a->cur);
}

int tt_act_box_start(tt_app *a)
{
    const tt_row *row = tt_app_row(a);
    int64_t col = tt_app_cursor_col(a);
    if (!row) {
        tt_app_message(a, false, "no rows to select");
        return REDRAW;
    }
    /* the move keys stretch the box, not a panel's cursor: the panel
     * closes (confirming opens the box's statistics) */
    if (a->panel != TT_PANEL_NONE) {
        a->panel = TT_PANEL_NONE;
        tt_app_scroll_to_cursor(a);
    }
    a->box.shown = a->box.selecting = true;
    a->box.mouse = false;
    a->box.anchor = *row;
    cursor_edges(a, col, &a->box.a0, &a->box.a1);
    box_update(a, col, a->box.a0, a->box.a1, a->cur);
    tt_app_message(a, false, "box: move to stretch it (h l j k, S-arrows; w s zoom), "
                             "Enter confirms, Esc cancels");
    return REDRAW;
}

void tt_box_mouse_drag(tt_app *a, int col, size_t row)
{
    if (!a->box.selecting) {
        a->box.shown = a->box.selecting = a->box.mouse = true;
        a->box.anchor = a->list.v[a->press_row < a->list.n ? a->press_row : 0];
        a->box.a0 = tt_vp_time(&a->vp, a->press_col);
        a->box.a1 = tt_vp_time(&a->vp, a->press_col + 1);
    }
    /* the cursor follows the pointer */
    a->cur = row;
    a->t_cur = tt_vp_time_mid(&a->vp, col);
    tt_app_hit(a);
    box_update(a, col, tt_vp_time(&a->vp, col), tt_vp_time(&a->vp, col + 1), row);
}

/* Compute the statistics of the box as it is and open the panel. */
static int open_box_stats(tt_app *a)
{
    tt_error err;
    char w[48], ev[32];
    uint32_t base = tt_app_glane(a, a->focus, 0), *local = a->box.lanes.v;
    int rc;
    if (tt_app_mode(a)->box_confirm)
        return tt_app_mode(a)->box_confirm(a);
    tt_error_clear(&err);
    /* the focused trace's own lane numbers */
    if (base > 0) {
        if (!(local = malloc((a->box.lanes.n ? a->box.lanes.n : 1) * sizeof *local))) {
            tt_app_message(a, true, "out of memory");
            return REDRAW;
        }
        for (size_t i = 0; i < a->box.lanes.n; i++)
            local[i] = a->box.lanes.v[i] - base;
    }
    rc = tt_sp_box(&a->stp, a->tr, a->box.from, a->box.to, local, a->box.lanes.n, &err);
    if (local != a->box.lanes.v)
        free(local);
    if (rc) {
        tt_app_message(a, true, "cannot compute the box's statistics: %s", err.what);
        return REDRAW;
    }
    a->stp.origin = a->origin;
    a->stp.path = a->rk[a->focus].path;
    a->stp_rank = a->focus;
    tt_app_open_panel(a, TT_PANEL_STATS);
    snprintf(ev, sizeof ev, "%llu event%s", (unsigned long long)a->stp.sum->events,
             a->stp.sum->events == 1 ? "" : "s");
    tt_app_message(a, false, "box of %s over %zu lane%s: %s (b by, o order, z zoom, "
                             "e export)",
                   tt_fmt_dur(w, sizeof w, a->box.to - a->box.from, 3), a->box.lanes.n,
                   a->box.lanes.n == 1 ? "" : "s", ev);
    return REDRAW;
}

int tt_box_mouse_release(tt_app *a)
{
    return tt_act_box_confirm(a);
}

int tt_act_box_confirm(tt_app *a)
{
    a->box.selecting = a->box.mouse = false;
    if (a->box.lanes.n == 0) {
        a->box.shown = false;
        tt_app_message(a, false, "the box holds no lane (only counters): nothing to count");
        return REDRAW;
    }
    return open_box_stats(a);
}

int tt_act_box_cancel(tt_app *a)
{
    a->box.shown = a->box.selecting = a->box.mouse = false;
    tt_app_message(a, false, "box cancelled");
    return REDRAW;
}

int tt_box_select(tt_app *a, tt_ns from, tt_ns to, const uint32_t *lanes, size_t n)
{
    a->box.lanes.n = 0;
    for (size_t i = 0; i < n; i++)
        if (tt_laneset_add(&a->box.lanes, lanes[i])) {
            tt_app_message(a, true, "out of memory");
            return REDRAW;
        }
    if (tt_laneset_finish(&a->box.lanes)) {
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    a->box.from = from;
    a->box.to = to;
    a->box.shown = true;
    a->box.selecting = a->box.mouse = false;
    return tt_act_box_confirm(a);
}

int tt_act_box_reopen(tt_app *a)
{
    if (!a->box.shown || a->box.selecting) {
        tt_app_message(a, false, "no box: v starts one at the cursor, or drag over the lanes");
        return REDRAW;
    }
    /* the focused trace's statistics of this very box: open them again */
    if (!tt_app_mode(a)->box_confirm && a->stp.valid && a->stp.kind == TT_SP_BOX &&
        a->stp_rank == a->focus && a->stp.sel.from == a->box.from &&
        a->stp.sel.to == a->box.to) {
        tt_app_open_panel(a, TT_PANEL_STATS);
        return REDRAW;
    }
    return open_box_stats(a);
}

static bool box_has(const tt_laneset *ls, uint32_t x)
{
    size_t lo = 0, hi = ls->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ls->v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ls->n && ls->v[lo] == x;
}

bool tt_box_row_in(const tt_app *a, const tt_row *row)
{
    const tt_laneset *ls = &a->box.lanes;
    const tt_group *g;
    uint32_t first, n_in = 0, base;
    if (!a->box.shown)
        return false;
    if (row->kind == TT_ROW_COLL)
        return box_has(ls, row->lane);
    if (row->kind == TT_ROW_RANK) {
        /* a rank's header: its device lanes in the box, wholly (or, folded,
         * at all) */
        const tt_vrank *r = &a->rk[row->rank];
        for (size_t k = 0; k < r->n_dev; k++)
            n_in += box_has(ls, tt_app_glane(a, row->rank, r->dev[k]));
        if (n_in == 0)
            return false;
        return a->rfold[row->rank] || n_in == r->n_dev;
    }
    base = tt_app_glane(a, tt_app_mode(a)->row_rank(a, row), 0);
    if (row->kind == TT_ROW_LANE)
        return box_has(ls, base + row->lane);
    /* a header or a counter: when its group is in the box, wholly (or,
     * folded, at all) */
    g = &a->tr->groups[row->group];
    first = base + g->first_lane;
    for (size_t i = 0; i < ls->n; i++)
        if (ls->v[i] >= first && ls->v[i] < first + g->n_lanes)
            n_in++;
    if (n_in == 0)
        return false;
    if (row->kind == TT_ROW_GROUP && a->collapsed[row->group])
        return true;
    return n_in == g->n_lanes;
}

int tt_act_clear(tt_app *a)
{
    if (a->box.shown) {
        a->box.shown = a->box.selecting = false;
        tt_app_message(a, false, "box removed (V would have shown its statistics again)");
        return REDRAW;
    }
    if (a->has_search) {
        tt_hits_fini(&a->search);
        a->has_search = false;
        a->search_gen++;
        tt_app_message(a, false, "highlight cleared");
    }
    return REDRAW;
}

/* ------------------------------------------------------- name selection */

static void name_safe(const tt_app *a, uint32_t id, char *out, size_t n, int maxw)
{
    size_t fit;
    tt_text_sanitize(tt_str(a->tr, id), tt_strtab_len(a->tr->strings, id), out, n);
    fit = tt_text_fit(out, maxw, NULL);
    if (fit < strlen(out))
        snprintf(out + fit, n - fit, "%s", a->utf8 ? "\xe2\x80\xa6" : "~");
}

int tt_same_name_of(tt_app *a, tt_evref ev)
{
    const tt_event *e = tt_trace_event(a->tr, ev);
    tt_hits hits;
    tt_error err;
    char name[200], desc[300];
    uint64_t total;
    tt_hits_init(&hits);
    tt_error_clear(&err);
    if (tt_hits_build_name(&hits, a->tr, e->name)) {
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    if (tt_sp_name(&a->stp, a->tr, e->name, &hits, &err)) {
        tt_hits_fini(&hits);
        tt_app_message(a, true, "cannot compute the statistics: %s", err.what);
        return REDRAW;
    }
    a->stp.origin = a->origin;
    a->stp.path = a->rk[a->focus].path;
    a->stp_rank = a->focus;
    total = hits.total;
    name_safe(a, e->name, name, sizeof name, 60);
    snprintf(desc, sizeof desc, "for the name '%s'", name);
    tt_app_set_hits(a, &hits, name, desc);
    tt_app_open_panel(a, TT_PANEL_STATS);
    tt_app_message(a, false, "%llu event%s named '%s' highlighted: n N step through them",
                   (unsigned long long)total, total == 1 ? "" : "s", name);
    return REDRAW;
}

int tt_act_same_name(tt_app *a)
{
    if (!a->has_sel) {
        tt_app_message(a, false, "no event under the cursor: * takes the name of the selected "
                                 "event");
        return REDRAW;
    }
    return tt_same_name_of(a, a->sel);
}

/* ---------------------------------------------------- statistics panel */

int tt_act_sp_key(tt_app *a)
{
    tt_error err;
    tt_error_clear(&err);
    if (a->stp.kind != TT_SP_BOX) {
        tt_app_message(a, false, "a name selection has one name: b groups a box");
        return REDRAW;
    }
    if (tt_sp_cycle_key(&a->stp, &err)) {
        tt_app_message(a, true, "cannot group the box: %s", err.what);
        return REDRAW;
    }
    return REDRAW;
}

int tt_act_sp_order(tt_app *a)
{
    if (a->stp.kind != TT_SP_BOX) {
        tt_app_message(a, false, "a name selection has one row: o sorts a box's breakdown");
        return REDRAW;
    }
    tt_sp_cycle_order(&a->stp);
    return REDRAW;
}

/* The statistics' times are on their rank's clock: d moves them to the
 * focused one. */
static tt_ns sp_shift(const tt_app *a)
{
    return a->stp_rank < a->n_rk ? a->rk[a->stp_rank].off - a->off : 0;
}

int tt_act_sp_zoom(tt_app *a)
{
    tt_ns from, to;
    if (!a->stp.valid)
        return REDRAW;
    if (a->stp.kind == TT_SP_BOX) {
        from = a->stp.sel.from;
        to = a->stp.sel.to;
    } else {
        from = a->stp.nfirst;
        to = a->stp.nlast;
    }
    from += sp_shift(a);
    to += sp_shift(a);
    tt_vp_show_range(&a->vp, from, to > from ? to : from + 1);
    if (a->t_cur < from || a->t_cur >= to)
        a->t_cur = from + (to - from) / 2;
    tt_app_hit(a);
    return tt_app_after_view_change(a);
}

int tt_act_sp_export(tt_app *a)
{
    char def[4096];
    if (!a->stp.valid || a->stp.kind != TT_SP_BOX) {
        tt_app_message(a, false, "e writes a box's tables: select a box first (v, or drag)");
        return REDRAW;
    }
    /* beside the rank's trace, named after the box's times on screen */
    tt_box_export_default(a->rk[a->stp_rank].path, a->stp.sel.from - a->stp.origin,
                          a->stp.sel.to - a->stp.origin, def, sizeof def);
    tt_app_ask_text(a, TT_ASK_EXPORT, "write the tables to: ", def);
    return REDRAW;
}

int tt_box_text(tt_app *a, tt_ask ask, const char *text)
{
    tt_error err;
    size_t n = 2 + (a->stp.xfer != NULL) + a->stp.has_gpu;
    (void)ask;
    tt_error_clear(&err);
    if (!text[0]) {
        tt_app_message(a, false, "nothing written: no file name");
        return REDRAW;
    }
    if (!a->stp.valid || a->stp.kind != TT_SP_BOX)
        return REDRAW;
    if (tt_box_export(text, a->stp.tr, &a->stp.sel, &a->stp.key, a->stp.xfer != NULL,
                      a->stp.has_gpu, &err)) {
        tt_app_message(a, true, "%s: %s", text, err.what);
        return REDRAW;
    }
    tt_app_message(a, false, "%s: written, %zu tables (ops, lanes%s%s)", text, n,
                   a->stp.xfer ? ", transfers" : "", a->stp.has_gpu ? ", gpu" : "");
    return REDRAW;
}

/* A lane of the statistics panel's rank. */
static int go_to_lane(tt_app *a, uint32_t lane)
{
    size_t rank = a->stp_rank < a->n_rk ? a->stp_rank : a->focus;
    bool *fold = tt_app_mode(a)->lane_fold ? tt_app_mode(a)->lane_fold(a, rank, lane) : NULL;
    int64_t r;
    if (fold && *fold) {
        *fold = false;
        tt_app_rebuild_rows(a);
    }
    r = tt_rows_find_rank(&a->list, (uint32_t)rank, lane, 0);
    if (r >= 0) {
        a->cur = (size_t)r;
        tt_app_scroll_to_cursor(a);
        tt_app_hit(a);
    }
    return REDRAW;
}

int tt_act_sp_enter(tt_app *a)
{
    const tt_pline *l = tt_plist_picked(&a->stp.pl);
    const tt_brk_row *r;
    tt_hits hits;
    tt_evref to;
    char label[200], desc[400];
    const char *kt;
    if (!l) {
        tt_app_message(a, false, "move to a breakdown row (j k) to highlight its events, or to "
                                 "a lane to go there");
        return REDRAW;
    }
    if (l->kind == TT_SP_LINE_LANE)
        return go_to_lane(a, (uint32_t)l->tag);
    if (a->stp_rank != a->focus) {
        /* the highlight is the focused rank's: focus the box's rank */
        const tt_view_def *m = tt_app_mode(a);
        int64_t row = m->rank_row ? m->rank_row(a, a->stp_rank) : -1;
        if (row < 0) {
            tt_app_message(a, false, "the box's rank is not on screen");
            return REDRAW;
        }
        a->cur = (size_t)row;
        tt_app_scroll_to_cursor(a);
        tt_app_hit(a);
    }
    r = &a->stp.brk->rows[l->tag];
    tt_hits_init(&hits);
    if (tt_sp_row_hits(&a->stp, (size_t)l->tag, &hits)) {
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    if (r->none)
        snprintf(label, sizeof label, "(none)");
    else
        tt_text_sanitize(r->label, strlen(r->label), label, sizeof label);
    kt = a->stp.key.kind == TT_KEY_OPCODE ? "opcode"
         : a->stp.key.kind == TT_KEY_CAT  ? "category"
         : a->stp.key.kind == TT_KEY_LAYER ? "layer"
                                          : "name";
    snprintf(desc, sizeof desc, "for %s '%s' in the box", kt, label);
    tt_app_set_hits(a, &hits, label, desc);
    /* the first of them in the box: n N go on from there */
    if (tt_hits_step(&a->search, a->tr, NULL, a->stp.sel.from, 1, &to))
        tt_app_select(a, to);
    tt_app_message(a, false, "%llu event%s of %s '%s' in the box highlighted: n N step "
                             "through them", (unsigned long long)a->search.total,
                   a->search.total == 1 ? "" : "s", kt, label);
    return REDRAW;
}

int tt_act_sp_marks(tt_app *a)
{
    if (!a->stp.valid || a->stp.kind != TT_SP_BOX)
        return tt_act_mark_drop(a);
    tt_mark_at(a, a->stp.sel.from + sp_shift(a));
    tt_mark_at(a, a->stp.sel.to + sp_shift(a));
    {
        char f[48], t[48];
        tt_app_message(a, false, "markers at the box's edges, %s and %s (' lists, renames and "
                                 "saves them)",
                       tt_fmt_dur(f, sizeof f, a->stp.sel.from - a->stp.origin, 6),
                       tt_fmt_dur(t, sizeof t, a->stp.sel.to - a->stp.origin, 6));
    }
    return REDRAW;
}
