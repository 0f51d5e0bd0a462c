/* mode_job.c - the combined view as a mode of the lanes area (see
 * tt_view_def in app_impl.h): every rank's device lanes on the aligned
 * time axis, each rank under a summary row that folds (a->rfold), the
 * focus following the cursor's rank. A box over one rank's lanes gives
 * that rank's statistics, over several the statistics over ranks
 * (mstats.c). The ranks and their fold flags are the app's (rankact.c). */
#include "config.h"

#include "tui/app_impl.h"
#include "tui/table.h"
#include "tui/timefmt.h"
#include "util/num.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

static int job_open(tt_app *a)
{
    tt_app_job_folds(a);
    return 0;
}

/* The cursor on the lane it was on, or on the focused rank's row. */
static void job_arrive(tt_app *a, const tt_row *was, bool had)
{
    int64_t r = -1;
    if (had && was->kind == TT_ROW_LANE)
        r = tt_rows_find_rank(&a->list, (uint32_t)a->focus, was->lane, 0);
    if (r < 0)
        r = tt_rows_rank(&a->list, (uint32_t)a->focus);
    a->cur = r >= 0 ? (size_t)r : 0;
}

static void job_message(tt_app *a)
{
    tt_app_message(a, false, "all %zu ranks' device lanes on one time axis (aligned: %s); "
                             "Space folds a rank, C all, R back", a->n_rk, a->align);
}

static int job_build_rows(tt_app *a)
{
    return tt_rows_build_job(&a->list, a->rk, a->n_rk, a->base, a->n_glanes, a->rfold,
                             a->depth0);
}

static int64_t job_rank_row(const tt_app *a, size_t rank)
{
    return tt_rows_rank(&a->list, (uint32_t)rank);
}

static int64_t job_row_home(const tt_app *a, const tt_row *row)
{
    return job_rank_row(a, row->rank);
}

static bool *job_fold_flag(tt_app *a, const tt_row *row)
{
    return row->rank < a->n_rk ? &a->rfold[row->rank] : NULL;
}

static bool *job_folds(tt_app *a, size_t *n)
{
    *n = a->n_rk;
    return a->rfold;
}

static bool *job_lane_fold(tt_app *a, size_t rank, uint32_t lane)
{
    (void)lane;
    return &a->rfold[rank];
}

static bool job_shows_lane(const tt_app *a, uint32_t lane)
{
    return tt_vrank_is_dev(&a->rk[a->focus], lane);
}

static int job_label_want(const tt_app *a)
{
    char buf[600];
    int w = 0;
    for (size_t i = 0; i < a->n_rk; i++) {
        const tt_vrank *r = &a->rk[i];
        int x;
        snprintf(buf, sizeof buf, "rank %lld", (long long)r->rank);
        x = 4 + tt_grid_text_width(buf);
        if (x > w)
            w = x;
        for (size_t k = 0; k < r->n_dev; k++) {
            x = 3 + tt_grid_text_width(tt_vrank_lane_label(r, r->dev[k], buf, sizeof buf));
            if (x > w)
                w = x;
        }
    }
    return w > 40 ? 40 : w;
}

/* A rank's summary row: busy and communication over its device lanes. */
static void job_draw_row(tt_app *a, tt_grid *g, const tt_row *row, int x0, int y)
{
    if (row->kind == TT_ROW_RANK && row->rank < a->n_rk) {
        tt_vrank *r = &a->rk[row->rank];
        /* the unions are built the first time a summary lane is drawn; out
         * of memory only costs the lane */
        if (tt_vrank_busy(r) == 0)
            tt_tl_summary_row(&r->tl, g, x0, y, &r->busy, &r->comm);
    }
}

/* A lane row's label: the lane of the row's rank. */
static bool job_lane_label(const tt_app *a, const tt_row *row, char *out, size_t cap)
{
    if (row->rank >= a->n_rk)
        return false;
    tt_vrank_lane_label(&a->rk[row->rank], row->lane, out, cap);
    return true;
}

static void job_row_info(tt_app *a, const tt_row *row, char *out, size_t cap)
{
    out[0] = '\0';
    if (row->kind == TT_ROW_RANK && row->rank < a->n_rk) {
        tt_vrank *r = &a->rk[row->rank];
        tt_ns ws = a->vp.start + a->off - r->off, we = ws + a->vp.span, busy = 0, comm = 0;
        char off[48];
        if (tt_vrank_busy(r) == 0) {
            busy = tt_busy_in(&r->busy, ws, we);
            comm = tt_busy_in(&r->comm, ws, we);
        }
        snprintf(out, cap, "rank %lld%s%s%s%zu %slane%s%sin the window: busy %.1f%%, "
                           "communication %.1f%%%soffset %s%s%s",
                 (long long)r->rank, tt_tab_sep(a->utf8), r->file, tt_tab_sep(a->utf8), r->n_dev,
                 r->no_device ? "" : "device ", r->n_dev == 1 ? "" : "s", tt_tab_sep(a->utf8),
                 a->vp.span > 0 ? 100.0 * (double)busy / (double)a->vp.span : 0.0,
                 a->vp.span > 0 ? 100.0 * (double)comm / (double)a->vp.span : 0.0, tt_tab_sep(a->utf8),
                 tt_app_fmt_offset(off, sizeof off, r->off), tt_tab_sep(a->utf8),
                 a->rfold[row->rank] ? "folded (Space unfolds)" : "Space folds");
    }
}

static void job_title(const tt_app *a, char *out, size_t cap)
{
    snprintf(out, cap, "%zu ranks%s%s", a->n_rk, a->title[0] ? tt_tab_sep(a->utf8) : "", a->title);
}

typedef struct tally_item {
    const char *text;
    size_t      len;
    uint32_t    n;
    uint8_t     color;
} tally_item;

static int cmp_text(const void *pa, const void *pb)
{
    const tally_item *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->text, b->text, n);
    if (c)
        return c;
    return (a->len > b->len) - (a->len < b->len);
}

static int cmp_count(const void *pa, const void *pb)
{
    const tally_item *a = pa, *b = pb;
    if (a->n != b->n)
        return a->n > b->n ? -1 : 1;
    return cmp_text(pa, pb);
}

/* The combined view's legend: the glyphs of the summary lanes, then the
 * names covering most cells over every rank's lanes (merged by text). */
static void job_legend(tt_app *a, tt_grid *g, int x, int y)
{
    size_t n = 0, k = 0;
    tally_item *v;
    int cols = a->cols;
    char swatch[8];
    for (size_t i = 0; i < a->n_rk; i++)
        n += a->rk[i].tl.n_touched;
    x += tt_grid_text(g, x, y, cols - x, "busy", TT_R_LEGEND, 0) + 1;
    tt_grid_set(g, x, y, a->gl->full, TT_R_SUM_BUSY, 0);
    x += 2;
    x += tt_grid_text(g, x, y, cols - x, "comm", TT_R_LEGEND, 0) + 1;
    tt_grid_set(g, x, y, a->gl->comm, TT_R_SUM_COMM, 0);
    x += 3;
    v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return;
    for (size_t i = 0; i < a->n_rk; i++) {
        tt_tl *tl = &a->rk[i].tl;
        for (size_t j = 0; j < tl->n_touched; j++) {
            uint32_t id = tl->touched[j];
            v[k].text = tt_str(a->rk[i].tr, id);
            v[k].len = tt_strtab_len(a->rk[i].tr->strings, id);
            v[k].n = tl->tally[id];
            v[k].color = tt_tl_color(tl, id);
            k++;
        }
    }
    qsort(v, k, sizeof *v, cmp_text);
    n = 0;
    for (size_t i = 0; i < k; i++) {
        if (n && cmp_text(&v[n - 1], &v[i]) == 0)
            v[n - 1].n += v[i].n;
        else
            v[n++] = v[i];
    }
    qsort(v, n, sizeof *v, cmp_count);
    (void)swatch;
    for (size_t i = 0; i < n && i < 24 && x < cols - 4; i++) {
        char name[256], raw[256];
        size_t fit;
        int w;
        size_t len = v[i].len < sizeof raw - 1 ? v[i].len : sizeof raw - 1;
        memcpy(raw, v[i].text, len);
        raw[len] = '\0';
        if (len == 0)
            snprintf(name, sizeof name, "(no %s)", tt_colorby_name(a->by));
        else
            tt_text_sanitize(raw, len, name, sizeof name);
        w = tt_grid_text_width(name);
        if (w > 28 || x + 2 + w > cols) {
            int room = w > 28 ? 28 : cols - x - 2;
            if (room < 6)
                break;
            fit = tt_text_fit(name, room - 1, NULL);
            snprintf(name + fit, sizeof name - fit, "%s", a->utf8 ? "\xe2\x80\xa6" : "~");
        }
        tt_grid_set(g, x, y, a->gl->swatch, TT_R_SWATCH, v[i].color);
        x += 2;
        x += tt_grid_text(g, x, y, cols - x, name, TT_R_LEGEND, 0) + 2;
    }
    free(v);
}

static size_t job_hints(const tt_app *a, const tt_hint **out)
{
    static const tt_hint h[] = {{"Space", "fold"}, {"R", "rank tab"}, {"X", "collectives"}};
    (void)a;
    *out = h;
    return 3;
}

/* Enter on a rank's row folds or unfolds it. */
static int job_enter(tt_app *a)
{
    const tt_row *row = tt_app_row(a);
    if (row && row->kind == TT_ROW_RANK) {
        bool *f = job_fold_flag(a, row);
        if (f) {
            *f = !*f;
            tt_app_rebuild_rows(a);
            tt_app_hit(a);
        }
    }
    return REDRAW;
}

/* A box over the combined view: over one rank's lanes that rank's own
 * statistics, over several ranks the statistics over ranks. */
static int job_box_confirm(tt_app *a)
{
    tt_error err;
    char w[48];
    tt_error_clear(&err);
    {
        /* one rank's lanes: that rank's own statistics */
        size_t first = a->n_rk, last = 0;
        for (size_t i = 0; i < a->n_rk; i++) {
            uint32_t b0 = a->base[i], b1 = b0 + a->rk[i].tr->n_lanes;
            for (size_t k = 0; k < a->box.lanes.n; k++)
                if (a->box.lanes.v[k] >= b0 && a->box.lanes.v[k] < b1) {
                    if (first == a->n_rk)
                        first = i;
                    last = i;
                    break;
                }
        }
        if (first == last && first < a->n_rk) {
            tt_vrank *r = &a->rk[first];
            uint32_t *local = malloc((a->box.lanes.n ? a->box.lanes.n : 1) * sizeof *local);
            tt_ns d = a->off - r->off;
            char ev[32];
            if (!local) {
                tt_app_message(a, true, "out of memory");
                return REDRAW;
            }
            for (size_t k = 0; k < a->box.lanes.n; k++)
                local[k] = a->box.lanes.v[k] - a->base[first];
            if (tt_sp_box(&a->stp, r->tr, a->box.from + d, a->box.to + d, local, a->box.lanes.n,
                          &err)) {
                free(local);
                tt_app_message(a, true, "cannot compute the box's statistics: %s", err.what);
                return REDRAW;
            }
            free(local);
            a->stp.origin = a->job0 - r->off;
            a->stp.path = r->path;
            a->stp_rank = first;
            tt_app_open_panel(a, TT_PANEL_STATS);
            snprintf(ev, sizeof ev, "%llu event%s", (unsigned long long)a->stp.sum->events,
                     a->stp.sum->events == 1 ? "" : "s");
            tt_app_message(a, false, "box of %s over %zu lane%s of rank %lld: %s (b by, o order, "
                                     "z zoom, e export)",
                           tt_fmt_dur(w, sizeof w, a->box.to - a->box.from, 3), a->box.lanes.n,
                           a->box.lanes.n == 1 ? "" : "s", (long long)r->rank, ev);
            return REDRAW;
        }
    }
    if (tt_ms_ranks(&a->mst, a->rk, a->n_rk, a->base, a->box.from + a->off, a->box.to + a->off,
                    a->box.lanes.v, a->box.lanes.n, &err)) {
        tt_app_message(a, true, "cannot compute the box's statistics: %s", err.what);
        return REDRAW;
    }
    a->mst.origin = a->job0;
    tt_app_open_panel(a, TT_PANEL_MSTATS);
    tt_app_message(a, false, "box of %s over %zu lanes of %zu ranks: %llu events (b by, o order, "
                             "z zoom, e export)",
                   tt_fmt_dur(w, sizeof w, a->box.to - a->box.from, 3), a->mst.n_lanes,
                   a->mst.n_r, (unsigned long long)a->mst.events);
    return REDRAW;
}

static int job_all_lanes(const tt_app *a, tt_laneset *out)
{
    out->n = 0;
    for (size_t i = 0; i < a->n_rk; i++)
        for (size_t k = 0; k < a->rk[i].n_dev; k++)
            if (tt_laneset_add(out, tt_app_glane(a, i, a->rk[i].dev[k])))
                return -1;
    return tt_laneset_finish(out);
}

const tt_view_def tt_mode_job = {
    .id = TT_VIEW_JOB,
    .name = "combined",
    .open = job_open,
    .arrive = job_arrive,
    .message = job_message,
    .build_rows = job_build_rows,
    .row_home = job_row_home,
    .bounds = tt_app_job_bounds,
    .fold_flag = job_fold_flag,
    .folds = job_folds,
    .lane_fold = job_lane_fold,
    .rank_row = job_rank_row,
    .shows_lane = job_shows_lane,
    .row_rank = tt_app_row_own_rank,
    .focus_follows_row = true,
    .label_want = job_label_want,
    .draw_row = job_draw_row,
    .lane_label = job_lane_label,
    .row_info = job_row_info,
    .title = job_title,
    .legend = job_legend,
    .legend_by = true,
    .hints = job_hints,
    .box_unit = "lane",
    .enter = job_enter,
    .box_confirm = job_box_confirm,
    .row_lanes = tt_app_rows_lanes_views,
    .all_lanes = job_all_lanes,
};
