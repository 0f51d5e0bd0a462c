/* mode_colls.c - the collectives view as a mode of the lanes area (see
 * tt_view_def in app_impl.h): one row per collective matched across the
 * ranks (collview.c), Enter opens its per-rank panel, f fits it, / n N
 * find collectives by name, a box over collectives gives the statistics
 * over ranks (mstats.c). The collectives are matched the first time the
 * mode opens; a->cv owns them. */
#include "config.h"

#include "tui/app_impl.h"
#include "tui/table.h"
#include "tui/timefmt.h"
#include "util/num.h"
#include "util/relin.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

static int colls_open(tt_app *a)
{
    tt_error err;
    if (a->cv.built)
        return 0;
    if (a->cv_tried)
        return -1;
    a->cv_tried = true;
    tt_error_clear(&err);
    if (tt_collview_build(&a->cv, a->rk, a->n_rk, &err)) {
        tt_app_message(a, true, "cannot match the collectives: %s", err.what);
        return -1;
    }
    if (tt_collview_annotate(&a->cv, &a->an.a, a->base)) {
        tt_app_message(a, true, "out of memory");
        return -1;
    }
    return 0;
}

/* The collective around the time the cursor was at. */
static void colls_arrive(tt_app *a, const tt_row *was, bool had)
{
    (void)was;
    (void)had;
    if (a->cv.n) {
        size_t k = tt_collview_lower(&a->cv, a->t_cur + a->off);
        a->cur = k > 0 && (k == a->cv.n || a->cv.g[k - 1].e_last > a->t_cur + a->off) ? k - 1
                 : k < a->cv.n ? k : a->cv.n - 1;
    }
}

static void colls_message(tt_app *a)
{
    tt_app_message(a, false, "%zu collective%s matched across the ranks; Enter: per rank, "
                             "X back", a->cv.n, a->cv.n == 1 ? "" : "s");
}

static int colls_build_rows(tt_app *a)
{
    if (tt_rows_begin(&a->list, 0, NULL))
        return -1;
    for (size_t i = 0; i < a->cv.n; i++) {
        tt_row row = {TT_ROW_COLL, 0, 0, (uint32_t)i, 0, 0};
        if (tt_rows_push(&a->list, row))
            return -1;
    }
    return 0;
}

static bool colls_shows_lane(const tt_app *a, uint32_t lane)
{
    (void)a;
    (void)lane;
    return false;
}

static void colls_draw_row(tt_app *a, tt_grid *g, const tt_row *row, int x0, int y)
{
    if (row->kind != TT_ROW_COLL || row->lane >= a->cv.n)
        return;
    tt_collview_row(&a->cv, row->lane, a->rk, g, x0, y, &a->vp, a->off, a->gl);
    if (tt_app_xhl_on(a) && tt_app_coll_lit(a, row->lane))
        for (int x = x0; x < x0 + a->vp.cols && x < g->cols; x++)
            if (tt_grid_at(g, x, y)->cp != ' ')
                tt_grid_restyle(g, x, y, TT_R_HILITE, 0);
}

static int colls_label_want(const tt_app *a)
{
    char buf[600];
    int w = 0;
    for (size_t i = 0; i < a->cv.n; i++) {
        int x = 3 + tt_grid_text_width(tt_collview_label(&a->cv, &a->cv.g[i], buf,
                                                           sizeof buf));
        if (x > w)
            w = x;
    }
    return w > 40 ? 40 : w;
}

static void colls_row_info(tt_app *a, const tt_row *row, char *out, size_t cap)
{
    out[0] = '\0';
    if (row->kind == TT_ROW_COLL && row->lane < a->cv.n) {
        int64_t k = a->an.shown ? a->cv.g[row->lane].ann : -1;
        size_t o;
        tt_collview_status(&a->cv, row->lane, a->rk, a->utf8, out, cap);
        o = strlen(out);
        if (k >= 0 && o + 64 < cap)
            snprintf(out + o, cap - o, "%s! %s (! lists it)", tt_tab_sep(a->utf8), a->an.a.v[k].rule);
    }
}

static void colls_title(const tt_app *a, char *out, size_t cap)
{
    snprintf(out, cap, "collectives of %zu ranks%s%s", a->n_rk, a->title[0] ? tt_tab_sep(a->utf8) : "",
             a->title);
}

static void colls_legend(tt_app *a, tt_grid *g, int x, int y)
{
    int cols = a->cols;
    x += tt_grid_text(g, x, y, cols - x, "arriving", TT_R_LEGEND, 0) + 1;
    tt_grid_set(g, x, y, a->gl->spread, TT_R_COLL_SPREAD, 0);
    x += 3;
    x += tt_grid_text(g, x, y, cols - x, "all ranks in", TT_R_LEGEND, 0) + 1;
    tt_grid_set(g, x, y, a->gl->full, TT_R_EV, 0);
    x += 3;
    tt_grid_text(g, x, y, cols - x, "last rN: the rank that arrived last", TT_R_LEGEND, 0);
}

static size_t colls_hints(const tt_app *a, const tt_hint **out)
{
    static const tt_hint h[] = {{"Enter", "per rank"}, {"f", "zoom"}, {"X", "back"}};
    (void)a;
    *out = h;
    return 3;
}

/* Enter on a collective: its per-rank panel. */
static int colls_enter(tt_app *a)
{
    const tt_row *row = tt_app_row(a);
    if (row && row->kind == TT_ROW_COLL && row->lane < a->cv.n) {
        a->cpl_group = row->lane;
        a->cpl_built = false;
        a->cpl.cur = a->cpl.top = 0;
        a->panel = TT_PANEL_NONE;
        tt_app_open_panel(a, TT_PANEL_COLL);
        /* on the first rank's line: Enter acts at once, and the lines
         * above the table (notes, the batch command) are not in the way */
        if (tt_app_panels_sync(a, tt_app_panel_w(a)) == 0)
            tt_plist_goto_kind(&a->cpl, TT_CV_LINE_RANK);
    }
    return REDRAW;
}

/* f: the collective under the cursor fills the window. */
static int colls_fit(tt_app *a)
{
    const tt_row *row = tt_app_row(a);
    if (row && row->kind == TT_ROW_COLL && row->lane < a->cv.n) {
        const tt_cgroup *c = &a->cv.g[row->lane];
        tt_ns s = c->t_first - a->off, e = c->e_last - a->off, pad = (e - s) / 8;
        tt_vp_show_range(&a->vp, s - pad, e + pad);
        a->t_cur = s + (e - s) / 2;
        tt_app_cursor_into_view(a);
        return tt_app_after_view_change(a);
    }
    tt_app_message(a, false, "move to a collective first (j k)");
    return REDRAW;
}

static int colls_find(tt_app *a, const char *pat, int dir, bool from_next)
{
    tt_relin *re = NULL;
    bool is_re = pat[0] == '~';
    const char *text = pat;
    size_t n = a->cv.n, start;
    char low[512];
    if (n == 0) {
        tt_app_message(a, false, "no collectives to search");
        return REDRAW;
    }
    if (pat[0] == '\\' && pat[1] == '~')
        text = pat + 1;
    if (is_re) {
        tt_error rerr;
        tt_error_clear(&rerr);
        re = pat[1] ? tt_relin_compile(pat + 1, TT_RELIN_ICASE, &rerr) : NULL;
        if (!re) {
            tt_app_message(a, true, "bad regular expression %s",
                           pat[1] ? rerr.what : "(empty)");
            return REDRAW;
        }
    } else {
        size_t k = 0;
        for (; text[k] && k + 1 < sizeof low; k++)
            low[k] = (char)(text[k] >= 'A' && text[k] <= 'Z' ? text[k] - 'A' + 'a' : text[k]);
        low[k] = '\0';
    }
    start = a->cur < n ? a->cur : 0;
    for (size_t step = from_next ? 1 : 0; step <= n; step++) {
        size_t i = dir > 0 ? (start + step) % n : (start + n - step % n) % n;
        const char *name = tt_collview_name(&a->cv, &a->cv.g[i]);
        bool hit;
        if (is_re) {
            hit = tt_relin_match(re, name, strlen(name));
        } else {
            char lname[1024];
            size_t k = 0;
            for (; name[k] && k + 1 < sizeof lname; k++)
                lname[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] - 'A' + 'a' : name[k]);
            lname[k] = '\0';
            hit = strstr(lname, low) != NULL;
        }
        if (hit) {
            char label[600], safe[600];
            a->cur = i;
            tt_app_scroll_to_cursor(a);
            tt_app_hit(a);
            tt_collview_label(&a->cv, &a->cv.g[i], label, sizeof label);
            tt_text_sanitize(pat, strlen(pat), safe, sizeof safe);
            tt_app_message(a, false, "collective %s (row %zu of %zu) matches '%s'", label, i + 1,
                           n, safe);
            tt_relin_free(re);
            return REDRAW;
        }
    }
    tt_relin_free(re);
    {
        char safe[600];
        tt_text_sanitize(pat, strlen(pat), safe, sizeof safe);
        tt_app_message(a, false, "no collective matches '%s'", safe);
    }
    return REDRAW;
}

/* / in the collectives view finds collectives by name */
static void colls_search(tt_app *a, const char *pat)
{
    snprintf(a->cv_pat, sizeof a->cv_pat, "%s", pat);
    colls_find(a, pat, 1, false);
}

static int colls_search_step(tt_app *a, int dir)
{
    if (!a->cv_pat[0]) {
        tt_app_message(a, false, "no search yet: press / and type a collective's name");
        return REDRAW;
    }
    return colls_find(a, a->cv_pat, dir, true);
}

/* A box over collectives: the statistics over ranks of those collectives. */
static int colls_box_confirm(tt_app *a)
{
    tt_error err;
    char w[48];
    tt_error_clear(&err);
    if (tt_ms_colls(&a->mst, a->rk, a->n_rk, &a->cv, a->box.from + a->off, a->box.to + a->off,
                    a->box.lanes.v, a->box.lanes.n, &err)) {
        tt_app_message(a, true, "cannot compute the box's statistics: %s", err.what);
        return REDRAW;
    }
    a->mst.origin = a->job0;
    tt_app_open_panel(a, TT_PANEL_MSTATS);
    tt_app_message(a, false, "box of %s: %zu collective%s (Enter: a rank's tab or a "
                             "highlight, e export)",
                   tt_fmt_dur(w, sizeof w, a->box.to - a->box.from, 3), a->mst.n_colls,
                   a->mst.n_colls == 1 ? "" : "s");
    return REDRAW;
}

static int colls_all_lanes(const tt_app *a, tt_laneset *out)
{
    out->n = 0;
    for (size_t i = 0; i < a->cv.n; i++)
        if (tt_laneset_add(out, (uint32_t)i))
            return -1;
    return tt_laneset_finish(out);
}

const tt_view_def tt_mode_colls = {
    .id = TT_VIEW_COLLS,
    .name = "collectives",
    .open = colls_open,
    .arrive = colls_arrive,
    .message = colls_message,
    .build_rows = colls_build_rows,
    .row_home = tt_app_group_home,
    .bounds = tt_app_job_bounds,
    .no_fold = "a collective's row does not fold",
    .no_fold_all = "the collectives view has nothing to fold",
    .shows_lane = colls_shows_lane,
    .row_rank = tt_app_row_own_rank,
    .label_want = colls_label_want,
    .draw_row = colls_draw_row,
    .row_info = colls_row_info,
    .title = colls_title,
    .legend = colls_legend,
    .hints = colls_hints,
    .box_unit = "collective",
    .enter = colls_enter,
    .fit = colls_fit,
    .search = colls_search,
    .search_step = colls_search_step,
    .box_confirm = colls_box_confirm,
    .row_lanes = tt_app_rows_lanes_views,
    .all_lanes = colls_all_lanes,
};
