/* layout.c - rows of the lanes area and screen regions (see layout.h). */
#include "config.h"

#include "tui/layout.h"

#include <stdlib.h>

void tt_rows_init(tt_rows *r)
{
    r->v = NULL;
    r->n = r->cap = 0;
    r->lane_row = NULL;
    r->n_lanes = 0;
    r->base = NULL;
}

void tt_rows_fini(tt_rows *r)
{
    free(r->v);
    free(r->lane_row);
    tt_rows_init(r);
}

static int push(tt_rows *r, tt_row row)
{
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 64;
        tt_row *nv = realloc(r->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        r->v = nv;
        r->cap = nc;
    }
    r->v[r->n++] = row;
    return 0;
}

int tt_rows_begin(tt_rows *r, uint32_t n_lanes, const uint32_t *base)
{
    if (r->n_lanes != n_lanes || !r->lane_row) {
        int64_t *lr = realloc(r->lane_row, ((size_t)n_lanes + 1) * sizeof *lr);
        if (!lr)
            return -1;
        r->lane_row = lr;
        r->n_lanes = n_lanes;
    }
    r->n = 0;
    r->base = base;
    for (uint32_t l = 0; l < n_lanes; l++)
        r->lane_row[l] = -1;
    return 0;
}

int tt_rows_push(tt_rows *r, tt_row row)
{
    if (row.kind == TT_ROW_LANE && row.depth == 0) {
        uint64_t slot = (r->base ? r->base[row.rank] : 0) + (uint64_t)row.lane;
        if (slot < r->n_lanes)
            r->lane_row[slot] = (int64_t)r->n;
    }
    return push(r, row);
}

void tt_rows_set_rank(tt_rows *r, uint32_t rank)
{
    for (size_t i = 0; i < r->n; i++)
        r->v[i].rank = rank;
}

int tt_rows_build(tt_rows *r, const tt_trace *tr, const bool *collapsed, bool depth0)
{
    uint32_t c = 0;
    if (tt_rows_begin(r, tr->n_lanes, NULL))
        return -1;
    for (uint32_t g = 0; g < tr->n_groups; g++) {
        const tt_group *gr = &tr->groups[g];
        tt_row row = {TT_ROW_GROUP, 0, g, 0, 0, 0};
        if (push(r, row))
            return -1;
        /* counters are sorted by group: skip to this group's */
        while (c < tr->n_counters && tr->counters[c].group < g)
            c++;
        if (collapsed && collapsed[g]) {
            while (c < tr->n_counters && tr->counters[c].group == g)
                c++;
            continue;
        }
        for (uint32_t l = gr->first_lane; l < gr->first_lane + gr->n_lanes; l++) {
            uint32_t nd = depth0 ? 1 : (uint32_t)tr->lanes[l].max_depth + 1;
            r->lane_row[l] = (int64_t)r->n;
            for (uint32_t d = 0; d < nd; d++) {
                tt_row lr = {TT_ROW_LANE, (uint16_t)d, g, l, 0, 0};
                if (push(r, lr))
                    return -1;
            }
        }
        for (; c < tr->n_counters && tr->counters[c].group == g; c++) {
            tt_row cr = {TT_ROW_COUNTER, 0, g, 0, c, 0};
            if (push(r, cr))
                return -1;
        }
    }
    return 0;
}

int64_t tt_rows_find(const tt_rows *r, uint32_t lane, uint32_t depth)
{
    int64_t base;
    if (r->base)
        return -1;   /* several ranks: say which (tt_rows_find_rank) */
    if (lane >= r->n_lanes || (base = r->lane_row[lane]) < 0)
        return -1;
    if ((size_t)base + depth >= r->n)
        return -1;
    {
        const tt_row *row = &r->v[base + depth];
        if (row->kind != TT_ROW_LANE || row->lane != lane || row->depth != depth)
            return -1;
    }
    return base + depth;
}

int64_t tt_rows_find_rank(const tt_rows *r, uint32_t rank, uint32_t lane, uint32_t depth)
{
    uint64_t slot;
    int64_t first;
    if (!r->base)
        return tt_rows_find(r, lane, depth);
    slot = (uint64_t)r->base[rank] + lane;
    if (slot >= r->n_lanes || (first = r->lane_row[slot]) < 0)
        return -1;
    if ((size_t)first + depth >= r->n)
        return -1;
    {
        const tt_row *row = &r->v[first + depth];
        if (row->kind != TT_ROW_LANE || row->rank != rank || row->lane != lane ||
            row->depth != depth)
            return -1;
    }
    return first + depth;
}

int64_t tt_rows_rank(const tt_rows *r, uint32_t rank)
{
    /* rank headers come in rank order, each before its lanes */
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->v[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < r->n && r->v[lo].rank == rank && r->v[lo].kind == TT_ROW_RANK)
        return (int64_t)lo;
    return -1;
}

int64_t tt_rows_group(const tt_rows *r, uint32_t group)
{
    /* few groups, rows in group order: binary search on the group field */
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->v[mid].group < group)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < r->n && r->v[lo].group == group && r->v[lo].kind == TT_ROW_GROUP)
        return (int64_t)lo;
    return -1;
}

void tt_screen_layout(tt_screen *s, int cols, int rows, int label_want)
{
    tt_screen_layout_tabs(s, cols, rows, label_want, false);
}

void tt_screen_layout_tabs(tt_screen *s, int cols, int rows, int label_want, bool tabs)
{
    int y = 0, bottom;
    s->cols = cols > 0 ? cols : 0;
    s->rows = rows > 0 ? rows : 0;
    s->header_y = s->tabs_y = s->ruler_y = s->legend_y = -1;
    s->status_y = s->rows > 0 ? s->rows - 1 : -1;
    if (s->rows >= 4)
        s->header_y = y++;
    if (tabs && s->rows >= 12)
        s->tabs_y = y++;
    if (s->rows >= 3)
        s->ruler_y = y++;
    bottom = s->status_y >= 0 ? s->status_y : 0;
    if (s->rows >= 10) {
        s->legend_y = s->rows - 2;
        bottom = s->legend_y;
    }
    s->area_y = y;
    s->area_h = bottom > y ? bottom - y : 0;
    s->label_w = 0;
    if (s->cols >= 40) {
        int w = label_want < 8 ? 8 : label_want;
        if (w > s->cols / 3)
            w = s->cols / 3;
        s->label_w = w;
    }
    s->tl_x = s->label_w ? s->label_w + 1 : 0;
    s->tl_w = s->cols - s->tl_x;
    if (s->tl_w < 1)
        s->tl_w = 1;
}
