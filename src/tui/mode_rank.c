/* mode_rank.c - one trace, or one rank's tab, as a mode of the lanes area
 * (see tt_view_def in app_impl.h): the focused trace's groups and lanes,
 * groups folding (a->collapsed). Most of its behaviour is the timeline's
 * own (the NULL hooks: app.c, actions.c, boxact.c and bars.c draw lanes,
 * select events, fit and box them); this file says what differs. Leaving
 * it keeps the tab's cursor and scroll in the rank's record (rankact.c). */
#include "config.h"

#include "tui/app_impl.h"
#include "tui/table.h"

#include <stdio.h>

static void rank_leave(tt_app *a)
{
    tt_vrank *r = &a->rk[a->focus];
    r->cur = a->cur;
    r->top = a->top;
    r->visited = true;
}

static int rank_build_rows(tt_app *a)
{
    if (tt_rows_build(&a->list, a->tr, a->collapsed, a->depth0))
        return -1;
    tt_rows_set_rank(&a->list, (uint32_t)a->focus);
    return 0;
}

static void rank_bounds(const tt_app *a, tt_ns *t0, tt_ns *t1)
{
    *t0 = a->tr->t0;
    *t1 = a->tr->t1;
}

static bool *rank_fold_flag(tt_app *a, const tt_row *row)
{
    return &a->collapsed[row->group];
}

static bool *rank_folds(tt_app *a, size_t *n)
{
    *n = a->tr->n_groups;
    return a->collapsed;
}

/* Only the focused trace's groups fold here. */
static bool *rank_lane_fold(tt_app *a, size_t rank, uint32_t lane)
{
    if (rank != a->focus)
        return NULL;
    return &a->collapsed[a->rk[rank].tr->lanes[lane].group];
}

static size_t rank_row_rank(const tt_app *a, const tt_row *row)
{
    (void)row;
    return a->focus;
}

static void rank_title(const tt_app *a, char *out, size_t cap)
{
    if (!a->multi)
        snprintf(out, cap, "%s", a->title);
    else
        snprintf(out, cap, "rank %lld%s%s", (long long)a->rk[a->focus].rank, tt_tab_sep(a->utf8),
                 a->rk[a->focus].file);
}

/* One trace: none of its own (bars.c's); a rank's tab: the ranks' keys. */
static size_t rank_hints(const tt_app *a, const tt_hint **out)
{
    static const tt_hint h[] = {{"< >", "ranks"}, {"R", "all ranks"}, {"X", "collectives"}};
    if (!a->multi)
        return 0;
    *out = h;
    return 3;
}

static int rank_all_lanes(const tt_app *a, tt_laneset *out)
{
    out->n = 0;
    for (uint32_t l = 0; l < a->tr->n_lanes; l++)
        if (tt_laneset_add(out, tt_app_glane(a, a->focus, l)))
            return -1;
    return tt_laneset_finish(out);
}

const tt_view_def tt_mode_rank = {
    .id = TT_VIEW_RANK,
    .name = "timeline",
    .leave = rank_leave,
    .build_rows = rank_build_rows,
    .row_home = tt_app_group_home,
    .bounds = rank_bounds,
    .fold_flag = rank_fold_flag,
    .folds = rank_folds,
    .lane_fold = rank_lane_fold,
    .row_rank = rank_row_rank,
    .label_want = tt_bars_label_want,
    .title = rank_title,
    .legend_by = true,
    .hints = rank_hints,
    .box_unit = "lane",
    .all_lanes = rank_all_lanes,
};
