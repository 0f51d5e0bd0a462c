/* app.c - the timeline application: life cycle, input dispatch, cursor and
 * selection, frame composition (see app.h, app_impl.h). */
#include "config.h"

#include "tui/app_impl.h"

#include "tui/ruler.h"
#include "util/num.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ life cycle */

/* The warning rules over every rank at once (the straggler rule compares
 * them); their times go on the job's axis. */
static int run_rules(tt_app *a, const tt_rules_config *cfg, tt_error *err)
{
    const tt_trace **tr = malloc(a->n_rk * sizeof *tr);
    tt_ns *off = malloc(a->n_rk * sizeof *off);
    int64_t *rank = malloc(a->n_rk * sizeof *rank);
    int rc = -1;
    if (!tr || !off || !rank) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < a->n_rk; i++) {
        tr[i] = a->rk[i].tr;
        off[i] = a->rk[i].off;
        rank[i] = a->rk[i].rank;
    }
    rc = tt_annview_run_job(&a->an, tr, off, a->multi ? rank : NULL, a->n_rk, a->job0, cfg, err);
out:
    free(tr);
    free(off);
    free(rank);
    return rc;
}

tt_app *tt_app_new(const tt_trace *tr, int cols, int rows, const tt_app_opts *opts,
                   tt_error *err)
{
    tt_app *a = calloc(1, sizeof *a);
    const char *mpath;
    const tt_view_def *m;
    tt_ns t0, t1;
    if (!a)
        goto oom;
    a->utf8 = opts && opts->utf8;
    a->gl = tt_theme_glyphs(a->utf8);
    if (opts && opts->title)
        tt_text_sanitize(opts->title, strlen(opts->title), a->title, sizeof a->title);
    tt_hits_init(&a->search);
    tt_hits_init(&a->occ);
    tt_rows_init(&a->list);
    tt_hilite_init(&a->hl);
    tt_laneset_init(&a->box.lanes);
    tt_sp_init(&a->stp);
    tt_ctview_init(&a->ctv);
    tt_annview_init(&a->an);
    tt_ms_init(&a->mst);
    tt_collview_init(&a->cv);
    tt_plist_init(&a->rpl);
    tt_plist_init(&a->cpl);
    tt_plist_init(&a->info);
    if (tt_app_ranks_init(a, tr, opts))
        goto oom;
    tt_details_init(&a->det, a->tr);
    /* several ranks: the marker sets of the first rank's file */
    mpath = a->multi ? a->rk[0].path : opts ? opts->path : NULL;
    if (tt_marks_init(&a->mk, mpath))
        goto oom;
    a->cols = cols > 0 ? cols : 1;
    a->rows = rows > 0 ? rows : 1;
    /* several ranks open on the combined view: the whole job at a glance */
    a->view = a->prev_view = a->multi ? TT_VIEW_JOB : TT_VIEW_RANK;
    m = tt_app_mode(a);
    a->label_want = m->label_want(a);
    tt_screen_layout_tabs(&a->scr, a->cols, a->rows, a->label_want, a->multi);
    m->bounds(a, &t0, &t1);
    tt_vp_init(&a->vp, t0, t1, a->scr.tl_w);
    if (m->open && m->open(a))
        goto oom;
    if (tt_app_rebuild_rows(a))
        goto oom;
    /* start on the first lane, cursor in the middle of the window */
    for (size_t i = 0; i < a->list.n; i++)
        if (a->list.v[i].kind == TT_ROW_LANE || a->list.v[i].kind == TT_ROW_RANK) {
            a->cur = i;
            break;
        }
    a->t_cur = tt_vp_time_mid(&a->vp, a->vp.cols / 2);
    tt_app_scroll_to_cursor(a);
    tt_app_hit(a);
    /* what the decoder had to say about the whole trace (a summary-only
     * neuron file, an export without kernels) is the first thing shown */
    if (!a->multi && a->tr->note[0])
        tt_app_message(a, false, "%s", a->tr->note);
    /* nothing to draw on the timeline: show what the trace does hold */
    if (!a->multi)
        tt_app_info_open_if_empty(a);
    if (opts && opts->rules) {
        tt_error rerr;
        tt_error_clear(&rerr);
        /* a rule that fails costs its annotations, not the view */
        if (run_rules(a, opts->rules, &rerr))
            tt_app_message(a, true, "warning rules failed: %s", rerr.what);
    }
    if (opts && opts->markers) {
        tt_error merr;
        tt_error_clear(&merr);
        /* the reason, if it fails, is in the status line */
        tt_app_load_markers(a, opts->markers, &merr);
    }
    return a;
oom:
    tt_app_free(a);
    tt_error_set(err, TT_ERR_NOMEM, "out of memory setting up the timeline view");
    return NULL;
}

void tt_app_free(tt_app *a)
{
    if (!a)
        return;
    tt_rows_fini(&a->list);
    if (a->tr)
        tt_details_fini(&a->det);
    tt_hits_fini(&a->search);
    tt_hits_fini(&a->occ);
    tt_hilite_fini(&a->hl);
    tt_laneset_fini(&a->box.lanes);
    tt_sp_fini(&a->stp);
    tt_ctview_fini(&a->ctv);
    tt_annview_fini(&a->an);
    tt_ms_fini(&a->mst);
    tt_collview_fini(&a->cv);
    tt_matrix_view_free(a);
    tt_app_sql_free(a);
    tt_plist_fini(&a->rpl);
    tt_plist_fini(&a->cpl);
    tt_app_info_fini(a);
    tt_marks_fini(&a->mk);
    tt_app_ranks_fini(a);
    free(a->rank);
    free(a);
}

size_t tt_app_memory(const tt_app *a)
{
    size_t m = sizeof *a + a->list.cap * sizeof *a->list.v +
               (size_t)a->list.n_lanes * sizeof *a->list.lane_row +
               a->cv.c.cap * sizeof *a->cv.c.v + a->cv.n * sizeof *a->cv.g;
    for (size_t i = 0; i < a->n_rk; i++)
        m += tt_vrank_memory(&a->rk[i]);
    return m;
}

void tt_app_size(const tt_app *a, int *cols, int *rows)
{
    *cols = a->cols;
    *rows = a->rows;
}

/* --------------------------------------------------------------- helpers */

void tt_app_message(tt_app *a, bool err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->msg_err = err;
}

const tt_row *tt_app_row(const tt_app *a)
{
    return a->cur < a->list.n ? &a->list.v[a->cur] : NULL;
}

int tt_app_panel_w(const tt_app *a)
{
    return a->cols - 4 >= 4 ? a->cols - 4 : 4;
}

int tt_app_panel_h(const tt_app *a)
{
    int h = a->scr.area_h, p;
    if (a->panel == TT_PANEL_NONE)
        return 0;
    /* no rows to show (a summary-only trace): the panel takes the area */
    if (h < 10 || a->list.n == 0)
        return h;
    /* half the screen; on tall terminals up to two thirds, so a long
     * breakdown shows more rows while the timeline stays in view */
    p = h / 2 + 1;
    return p > 24 ? (h * 2 / 3 > 24 ? h * 2 / 3 : 24) : p;
}

void tt_app_open_panel(tt_app *a, tt_panel p)
{
    if (p == TT_PANEL_DETAILS && a->panel != TT_PANEL_DETAILS)
        a->det.valid = false;
    a->panel = p;
    tt_app_scroll_to_cursor(a);
}

int64_t tt_app_row_index(const tt_app *a, const tt_row *row)
{
    switch ((tt_row_kind)row->kind) {
    case TT_ROW_LANE: {
        int64_t r = tt_rows_find_rank(&a->list, row->rank, row->lane, row->depth);
        /* a nested row hidden by D: its lane's first row; a folded lane:
         * its group's (or rank's) header */
        if (r < 0)
            r = tt_rows_find_rank(&a->list, row->rank, row->lane, 0);
        if (r >= 0)
            return r;
        return tt_app_mode(a)->row_home(a, row);
    }
    case TT_ROW_RANK:
        return tt_rows_rank(&a->list, row->rank);
    case TT_ROW_COLL:
        return row->lane < a->list.n ? (int64_t)row->lane : -1;
    case TT_ROW_GROUP:
        return tt_rows_group(&a->list, row->group);
    case TT_ROW_COUNTER:
        for (size_t i = 0; i < a->list.n; i++)
            if (a->list.v[i].kind == TT_ROW_COUNTER && a->list.v[i].counter == row->counter)
                return (int64_t)i;
        return tt_rows_group(&a->list, row->group);
    }
    return -1;
}

int tt_app_lanes_h(const tt_app *a)
{
    int h = a->scr.area_h - tt_app_panel_h(a);
    return h > 0 ? h : 0;
}

void tt_app_scroll_to_cursor(tt_app *a)
{
    size_t lh = (size_t)tt_app_lanes_h(a);
    if (a->list.n == 0) {
        a->cur = a->top = 0;
        return;
    }
    if (a->cur >= a->list.n)
        a->cur = a->list.n - 1;
    if (lh == 0) {
        a->top = a->cur;
        return;
    }
    if (a->top + lh > a->list.n)
        a->top = a->list.n > lh ? a->list.n - lh : 0;
    if (a->cur < a->top)
        a->top = a->cur;
    if (a->cur >= a->top + lh)
        a->top = a->cur - lh + 1;
}

void tt_app_relayout(tt_app *a)
{
    size_t n, h;
    tt_screen_layout_tabs(&a->scr, a->cols, a->rows, a->label_want, a->multi);
    if (a->vp.cols != a->scr.tl_w)
        tt_vp_set_cols(&a->vp, a->scr.tl_w);
    tt_app_scroll_to_cursor(a);
    tt_app_cursor_into_view(a);
    n = tt_help_lines(a);
    h = (size_t)tt_help_inner_h(a);
    if (a->help_top + h > n)
        a->help_top = n > h ? n - h : 0;
}

int64_t tt_app_group_home(const tt_app *a, const tt_row *row)
{
    return tt_rows_group(&a->list, row->group);
}

int tt_app_rebuild_rows(tt_app *a)
{
    tt_row was = {0, 0, 0, 0, 0, 0};
    bool had = a->cur < a->list.n;
    int64_t r = -1;
    if (had)
        was = a->list.v[a->cur];
    if (tt_app_mode(a)->build_rows(a)) {
        a->list.n = 0;
        a->cur = a->top = 0;
        tt_app_message(a, true, "out of memory");
        return -1;
    }
    if (had) {
        if (was.kind == TT_ROW_LANE) {
            r = tt_rows_find_rank(&a->list, was.rank, was.lane, a->depth0 ? 0 : was.depth);
        } else if (was.kind == TT_ROW_COUNTER) {
            for (size_t i = 0; i < a->list.n; i++)
                if (a->list.v[i].kind == TT_ROW_COUNTER && a->list.v[i].counter == was.counter)
                    r = (int64_t)i;
        } else if (was.kind == TT_ROW_COLL && was.lane < a->list.n) {
            r = (int64_t)was.lane;
        }
        if (r < 0)
            r = tt_app_mode(a)->row_home(a, &was);
    }
    a->cur = r >= 0 ? (size_t)r : 0;
    tt_app_scroll_to_cursor(a);
    return 0;
}

int64_t tt_app_cursor_col(const tt_app *a)
{
    int64_t c = tt_vp_col(&a->vp, a->t_cur);
    if (c < 0)
        c = 0;
    if (c >= a->vp.cols)
        c = a->vp.cols - 1;
    return c;
}

void tt_app_cursor_into_view(tt_app *a)
{
    tt_ns lo = a->vp.start, hi = a->vp.start + a->vp.span - 1;
    if (a->t_cur < lo || a->t_cur > hi) {
        a->t_cur = a->t_cur < lo ? tt_vp_time_mid(&a->vp, 0)
                                 : tt_vp_time_mid(&a->vp, a->vp.cols - 1);
        tt_app_hit(a);
    }
}

static void tl_setup(tt_app *a)
{
    /* the other ranks draw on their own clocks: the window shifted by the
     * difference of the offsets, nothing selected, highlighted only by a
     * highlight over several ranks */
    for (size_t i = 0; i < a->n_rk; i++) {
        tt_vrank *r = &a->rk[i];
        r->vp = a->vp;
        if (i != a->focus)
            tt_vp_shift(&r->vp, a->off - r->off);
        r->tl.vp = &r->vp;
        r->tl.gl = a->gl;
        r->tl.by = a->by;
        r->tl.has_sel = false;
        r->tl.hl = i != a->focus ? tt_app_rank_hl(a, i) : NULL;
    }
    a->tl->vp = &a->vp;
    a->tl->has_sel = a->has_sel;
    a->tl->sel = a->sel;
    if (a->has_search) {
        if (!a->hl.valid || a->hl_gen != a->search_gen) {
            /* out of memory only costs the highlight */
            if (tt_hilite_build(&a->hl, &a->search, a->tr, a->lv) == 0)
                a->hl_gen = a->search_gen;
        }
        if (a->hl.valid && a->hl_gen == a->search_gen)
            a->tl->hl = &a->hl;
    }
}

void tt_app_hit(tt_app *a)
{
    const tt_row *row = tt_app_row(a);
    int64_t col, pos;
    /* in the combined view the focus is the rank of the cursor's row */
    if (row && tt_app_mode(a)->focus_follows_row && row->rank != a->focus)
        tt_app_focus(a, row->rank);
    if (!row || row->kind != TT_ROW_LANE) {
        a->has_sel = false;
        return;
    }
    tl_setup(a);
    col = tt_app_cursor_col(a);
    pos = tt_tl_hit(a->tl, row->lane, row->depth, col);
    if (pos < 0) {
        a->has_sel = false;
        return;
    }
    a->sel.lane = row->lane;
    a->sel.idx = (uint32_t)pos;
    a->has_sel = true;
    {
        /* keep the cursor time inside the event, within the same cell, so
         * zooming keeps it under the cursor */
        const tt_event *e = tt_trace_event(a->tr, a->sel);
        tt_ns ca = tt_vp_time(&a->vp, col), cb = tt_vp_time(&a->vp, col + 1);
        tt_ns lo = e->start > ca ? e->start : ca;
        tt_ns hi = tt_event_end(e) < cb ? tt_event_end(e) : cb;
        if (hi <= lo)
            a->t_cur = lo;
        else if (a->t_cur < lo || a->t_cur >= hi)
            a->t_cur = lo + (hi - lo) / 2;
    }
}

void tt_app_select(tt_app *a, tt_evref ev)
{
    const tt_event *e = tt_trace_event(a->tr, ev);
    tt_ns s = e->start, en = tt_event_end(e), vs, ve;
    int64_t r;
    bool rebuild = false;
    const tt_view_def *m = tt_app_mode(a);
    bool *fold;
    if (m->shows_lane && !m->shows_lane(a, ev.lane)) {
        /* not a lane this view shows: the rank's own tab shows every lane */
        tt_app_refocus_select(a, a->focus, ev);
        return;
    }
    fold = m->lane_fold ? m->lane_fold(a, a->focus, ev.lane) : NULL;
    if (fold && *fold) {
        *fold = false;
        rebuild = true;
    }
    if (a->depth0 && e->depth > 0) {
        a->depth0 = false;
        rebuild = true;
        tt_app_message(a, false, "showing nested events again (D toggles)");
    }
    if (rebuild)
        tt_app_rebuild_rows(a);
    r = tt_rows_find_rank(&a->list, (uint32_t)a->focus, ev.lane, e->depth);
    if (r >= 0) {
        a->cur = (size_t)r;
        tt_app_scroll_to_cursor(a);
    }
    vs = a->vp.start;
    ve = a->vp.start + a->vp.span;
    if (en <= vs || s >= ve || (e->dur == 0 && s < vs)) {
        if (e->dur < a->vp.span)
            tt_vp_set_start(&a->vp, s + e->dur / 2 - a->vp.span / 2);
        else
            tt_vp_set_start(&a->vp, s - a->vp.span / 10);
        vs = a->vp.start;
        ve = a->vp.start + a->vp.span;
    }
    {
        tt_ns lo = s > vs ? s : vs, hi = en < ve ? en : ve;
        if (hi > lo)
            a->t_cur = lo + (hi - lo) / 2;
        else
            a->t_cur = s < vs ? vs : s >= ve ? ve - 1 : s;
    }
    a->has_sel = true;
    a->sel = ev;
}

/* ----------------------------------------------------------------- input */

static void details_sync(tt_app *a);

static int dispatch(tt_app *a, const tt_input *in)
{
    switch ((tt_input_kind)in->kind) {
    case TT_IN_RESIZE:
        a->cols = in->x > 0 ? in->x : 1;
        a->rows = in->y > 0 ? in->y : 1;
        a->drag = false;
        tt_app_relayout(a);
        return TT_REACT_REDRAW | TT_REACT_FULL;
    case TT_IN_MOUSE:
        return tt_app_mouse(a, in);
    case TT_IN_KEY:
        if (in->key == TT_KEY_CTRL('c'))
            return TT_REACT_QUIT;
        if (a->mode != TT_MODE_MAIN)
            return tt_app_prompt_key(a, in->key);
        a->msg[0] = '\0';
        return tt_app_key(a, in->key);
    }
    return TT_REACT_NONE;
}

int tt_app_input(tt_app *a, const tt_input *in)
{
    int react = dispatch(a, in);
    /* the keyboard box follows the cursor, whatever moved it */
    if (a->box.selecting && !a->box.mouse)
        tt_box_follow(a);
    details_sync(a);
    return react;
}

/* ------------------------------------------------------------------ draw */

static int draw_rows(tt_app *a, tt_grid *g)
{
    int rc = 0, lh = tt_app_lanes_h(a);
    const tt_screen *s = &a->scr;
    for (int i = 0; i < lh; i++) {
        size_t r = a->top + (size_t)i;
        int y = s->area_y + i;
        const tt_row *row;
        if (r >= a->list.n)
            break;
        row = &a->list.v[r];
        if (s->label_w > 0) {
            tt_bars_label(a, g, row, y, r == a->cur);
            tt_grid_set(g, s->label_w, y, a->gl->vline, TT_R_SEP, 0);
        }
        switch ((tt_row_kind)row->kind) {
        case TT_ROW_GROUP:
            tt_tl_group_row(a->tl, g, s->tl_x, y, row->group);
            break;
        case TT_ROW_LANE:
            /* a row of another rank (combined view): its own colors and
             * clock */
            if (tt_tl_lane_row(row->rank < a->n_rk ? &a->rk[row->rank].tl : a->tl, g, s->tl_x, y,
                               row->lane, row->depth))
                rc = -1;
            break;
        case TT_ROW_COUNTER:
            tt_spark_row(a->sp, row->counter, &a->vp, g, s->tl_x, y, a->gl->spark);
            break;
        case TT_ROW_RANK:
        case TT_ROW_COLL:
            if (tt_app_mode(a)->draw_row)
                tt_app_mode(a)->draw_row(a, g, row, s->tl_x, y);
            break;
        }
    }
    tt_overlay_rows(a, g);
    /* the cursor: its cell, and a faint line through its column */
    {
        int x = s->tl_x + (int)tt_app_cursor_col(a);
        for (int i = 0; i < lh; i++) {
            size_t r = a->top + (size_t)i;
            int y = s->area_y + i;
            tt_cell *c;
            if (r >= a->list.n || x >= g->cols)
                break;
            c = tt_grid_at(g, x, y);
            if (r == a->cur) {
                if (c->cp == ' ' || c->width != 1)
                    tt_grid_set(g, x, y, a->gl->cursor, TT_R_CURSOR, 0);
                else
                    tt_grid_restyle(g, x, y, TT_R_CURSOR, 0);
            } else if (c->cp == ' ' && c->width == 1) {
                tt_grid_set(g, x, y, a->gl->curcol, TT_R_CURCOL, 0);
            }
        }
    }
    return rc;
}

static void draw_ruler(tt_app *a, tt_grid *g)
{
    const tt_screen *s = &a->scr;
    if (s->ruler_y < 0)
        return;
    tt_ruler_draw(g, s->tl_x, s->ruler_y, &a->vp, a->origin, a->gl);
    tt_overlay_ruler(a, g);
    if (a->drag) {
        int x0 = a->drag_x0 < a->drag_x1 ? a->drag_x0 : a->drag_x1;
        int x1 = a->drag_x0 < a->drag_x1 ? a->drag_x1 : a->drag_x0;
        for (int x = x0; x <= x1; x++)
            tt_grid_restyle(g, s->tl_x + x, s->ruler_y, TT_R_RULER_DRAG, 0);
    }
    tt_grid_set(g, s->tl_x + (int)tt_app_cursor_col(a), s->ruler_y, a->gl->mark,
                TT_R_RULER_MARK, 0);
    if (s->label_w > 0) {
        /* the label column says how far apart the ticks are */
        char step[40], text[64];
        tt_ruler_scale sc = tt_ruler_choose(&a->vp, a->origin);
        tt_fmt_dur(step, sizeof step, sc.step, 3);
        snprintf(text, sizeof text, " tick %s", step);
        tt_grid_text_fit(g, 0, s->ruler_y, s->label_w, text, TT_R_RULER, 0, a->gl->ellipsis);
    }
}

/* Keep the details panel's lines in step with the selection and width.
 * Done after every input, not only when drawing, so that the panel's
 * cursor moves the same whether or not a frame was drawn in between (the
 * TUI draws between keys, `render` only at the end). */
static void details_sync(tt_app *a)
{
    int w = a->cols - 4, inner = tt_app_panel_h(a) - 2, lw = tt_app_panel_w(a);
    bool same;
    size_t keep;
    const tt_panel_def *pd = tt_panel_get(a->panel);
    tt_plist *pl = NULL;
    /* the other panels: lines for this width, scrolled to their cursor.
     * Built at every size, even one too narrow to draw them: the keys act
     * on these lines, and lines left from before a change (a deleted set)
     * would point at items that are gone. */
    if (pd && pd->sync && pd->sync(a, lw))
        tt_app_message(a, true, "out of memory");
    if (pd && pd->list)
        pl = pd->list(a);
    if (pl)
        tt_plist_scroll(pl, inner);
    if (a->panel != TT_PANEL_DETAILS || !a->has_sel || w < 4)
        return;
    if (!a->det.valid || a->det.width != w || a->det.ev.lane != a->sel.lane ||
        a->det.ev.idx != a->sel.idx) {
        same = a->det.valid && a->det.ev.lane == a->sel.lane && a->det.ev.idx == a->sel.idx;
        keep = a->det.cur;
        a->det.origin = a->origin;
        if (tt_details_build(&a->det, a->tr, a->lv, a->sel, w))
            tt_app_message(a, true, "out of memory");
        if (same && keep < a->det.n)
            a->det.cur = keep;
    }
    tt_details_scroll(&a->det, tt_app_panel_h(a) - 2);
}

static void draw_panel(tt_app *a, tt_grid *g)
{
    int ph = tt_app_panel_h(a), y = a->scr.area_y + tt_app_lanes_h(a), w = a->cols;
    const tt_panel_def *pd = tt_panel_get(a->panel);
    if (ph < 2 || w < 8 || !pd)
        return;
    details_sync(a);
    pd->draw(a, g, y, w, ph);
}

int tt_app_draw(tt_app *a, tt_grid *g)
{
    int rc = 0;
    if ((g->cols != a->cols || g->rows != a->rows) && tt_grid_resize(g, a->cols, a->rows))
        return -1;
    tt_grid_clear(g, TT_R_DEFAULT);
    tl_setup(a);
    for (size_t i = 0; i < a->n_rk; i++)
        tt_tl_tally_reset(&a->rk[i].tl);
    tt_bars_header(a, g);
    if (a->scr.tabs_y >= 0)
        tt_app_tabs_draw(a, g);
    if (tt_app_mode(a)->draw_area) {
        rc = tt_app_mode(a)->draw_area(a, g);
    } else {
        draw_ruler(a, g);
        rc = draw_rows(a, g);
    }
    tt_bars_legend(a, g);
    if (a->panel != TT_PANEL_NONE)
        draw_panel(a, g);
    if (a->help)
        tt_help_draw(a, g);
    tt_bars_status(a, g);
    return rc;
}
