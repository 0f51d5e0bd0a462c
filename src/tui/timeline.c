/* timeline.c - lane rows and group summaries (see timeline.h). */
#include "config.h"

#include "tui/timeline.h"

#include "index/index.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

enum {
    K_EMPTY = 0,
    K_FULL,
    K_LEFT,
    K_RIGHT,
    K_SH1,
    K_SH2,
    K_SH3,
    K_SLIVER
};

typedef __int128 i128;

const char *tt_colorby_name(tt_colorby by)
{
    switch (by) {
    case TT_BY_NAME: return "name";
    case TT_BY_CAT: return "category";
    case TT_BY_OPCODE: return "opcode";
    case TT_BY_LAYER: return "layer";
    default: return "?";
    }
}

int tt_tl_init(tt_tl *t, const tt_trace *tr, const tt_levels *lv)
{
    memset(t, 0, sizeof *t);
    t->tr = tr;
    t->lv = lv;
    t->n_strings = tt_strtab_count(tr->strings);
    t->color_cache = malloc((size_t)t->n_strings + 1);
    t->tally = calloc((size_t)t->n_strings + 1, sizeof *t->tally);
    if (!t->color_cache || !t->tally) {
        tt_tl_fini(t);
        return -1;
    }
    memset(t->color_cache, 0xff, (size_t)t->n_strings + 1);
    return 0;
}

void tt_tl_fini(tt_tl *t)
{
    free(t->color_cache);
    free(t->tally);
    free(t->touched);
    free(t->dom);
    free(t->kind);
    free(t->hil);
    free(t->gb);
    free(t->gb_epoch);
    memset(t, 0, sizeof *t);
}

uint32_t tt_tl_key(const tt_trace *tr, const tt_event *e, tt_colorby by)
{
    switch (by) {
    case TT_BY_CAT: return e->cat;
    case TT_BY_OPCODE: return tt_event_opcode(tr, e);
    case TT_BY_LAYER: return tt_event_layer(tr, e);
    default: return e->name;
    }
}

uint8_t tt_tl_color(tt_tl *t, uint32_t key)
{
    uint8_t c;
    if (key >= t->n_strings)
        return TT_COLOR_NONE;
    c = t->color_cache[key];
    if (c == 0xff) {
        c = tt_theme_color_of(tt_str(t->tr, key), tt_strtab_len(t->tr->strings, key));
        t->color_cache[key] = c;
    }
    return c;
}

void tt_tl_tally_reset(tt_tl *t)
{
    for (size_t i = 0; i < t->n_touched; i++)
        t->tally[t->touched[i]] = 0;
    t->n_touched = 0;
}

static void tally(tt_tl *t, uint32_t key)
{
    if (key >= t->n_strings)
        return;
    if (t->tally[key]++ == 0) {
        if (t->n_touched == t->cap_touched) {
            size_t nc = t->cap_touched ? t->cap_touched * 2 : 64;
            uint32_t *nv = realloc(t->touched, nc * sizeof *nv);
            if (!nv) {
                t->tally[key] = 0;   /* legend loses an entry, nothing else */
                return;
            }
            t->touched = nv;
            t->cap_touched = nc;
        }
        t->touched[t->n_touched++] = key;
    }
}

static int ensure_scratch(tt_tl *t, int cols)
{
    if (cols <= t->scratch_cols)
        return 0;
    {
        int64_t *d = realloc(t->dom, (size_t)cols * sizeof *d);
        uint8_t *k;
        if (!d)
            return -1;
        t->dom = d;
        k = realloc(t->kind, (size_t)cols);
        if (!k)
            return -1;
        t->kind = k;
        k = realloc(t->hil, (size_t)cols);
        if (!k)
            return -1;
        t->hil = k;
    }
    t->scratch_cols = cols;
    return 0;
}

/* Index (in the row) of the event drawn in [a, b): entries [first, last)
 * touch the cell, mid is the lower bound of the cell's middle; sel_idx is
 * forced when it is among them. */
static int64_t dominant(const tt_level *l, size_t first, size_t last, size_t mid, tt_ns a,
                        tt_ns b, int64_t sel_idx)
{
    size_t count = last - first;
    size_t cand[4] = {first, first, first, first};
    int nc = 0;
    size_t best;
    tt_ns best_ov = -1;
    if (count == 0)
        return -1;
    if (sel_idx >= 0 && (size_t)sel_idx >= first && (size_t)sel_idx < last)
        return sel_idx;
    if (count <= 4) {
        for (size_t i = first; i < last; i++)
            cand[nc++] = i;
    } else {
        /* Many events: the widest of those at the two edges and around
         * the middle. A long event in a crowded cell overlaps one of
         * these points; among only tiny ones any is as good, and these
         * cost no search (the sweep found them already). */
        cand[nc++] = first;
        if (mid > first && mid - 1 < last)
            cand[nc++] = mid - 1;
        if (mid < last)
            cand[nc++] = mid;
        cand[nc++] = last - 1;
    }
    best = cand[0];
    for (int k = 0; k < nc; k++) {
        tt_ns s = tt_level_start(l, cand[k]), e = tt_level_end(l, cand[k]);
        tt_ns ov = (e < b ? e : b) - (s > a ? s : a);
        if (ov > best_ov) {
            best_ov = ov;
            best = cand[k];
        }
    }
    return (int64_t)best;
}

static uint8_t classify(tt_ns cov_l, tt_ns cov_r, tt_ns a, tt_ns m, tt_ns b, size_t count)
{
    tt_ns wl = m - a, wr = b - m, wt = b - a, cov;
    if (cov_l < 0)
        cov_l = 0;
    if (cov_r < 0)
        cov_r = 0;
    if (cov_l > wl)
        cov_l = wl;
    if (cov_r > wr)
        cov_r = wr;
    cov = cov_l + cov_r;
    if (count == 0)
        return K_EMPTY;
    if (wt <= 0)
        return K_SLIVER;
    if ((i128)cov * 8 >= (i128)wt * 7)
        return K_FULL;
    if (wl > 0 && wr > 0) {
        if ((i128)cov_l * 4 >= (i128)wl * 3 && (i128)cov_r * 4 <= wr)
            return K_LEFT;
        if ((i128)cov_r * 4 >= (i128)wr * 3 && (i128)cov_l * 4 <= wl)
            return K_RIGHT;
    }
    if ((i128)cov * 16 < wt)
        return K_SLIVER;
    if ((i128)cov * 8 < (i128)wt * 3)
        return K_SH1;
    if ((i128)cov * 8 < (i128)wt * 5)
        return K_SH2;
    return K_SH3;
}

static uint32_t glyph_of(const tt_glyphs *gl, uint8_t k)
{
    switch (k) {
    case K_FULL: return gl->full;
    case K_LEFT: return gl->left;
    case K_RIGHT: return gl->right;
    case K_SH1: return gl->shade[0];
    case K_SH2: return gl->shade[1];
    case K_SH3: return gl->shade[2];
    case K_SLIVER: return gl->sliver;
    default: return ' ';
    }
}

static int64_t sel_index(const tt_tl *t, const tt_level *l, uint32_t lane, uint32_t depth)
{
    if (!t->has_sel || t->sel.lane != lane || t->sel.idx >= t->tr->lanes[lane].n)
        return -1;
    if (t->tr->lanes[lane].ev[t->sel.idx].depth != depth)
        return -1;
    return tt_level_find(l, t->sel.idx);
}

static void draw_name(tt_tl *t, tt_grid *g, int x, int y, int len, const tt_event *e,
                      bool sel, bool hil, uint8_t color)
{
    char safe[512];
    const char *raw = tt_str(t->tr, e->name);
    int w;
    tt_text_sanitize(raw, tt_strtab_len(t->tr->strings, e->name), safe, sizeof safe);
    if (!safe[0])
        return;
    w = tt_grid_text_width(safe);
    /* a cut name needs room to be recognizable; else the glyphs stay */
    if (w > len && len < 4)
        return;
    if (w < len)
        x += (len - w) / 2;   /* centered, as the web viewers do */
    tt_grid_text_fit(g, x, y, len, safe,
                     sel ? TT_R_SEL_NAME : hil ? TT_R_HILITE_NAME : TT_R_EV_NAME, color,
                     t->gl->ellipsis);
}

int tt_tl_lane_row(tt_tl *t, tt_grid *g, int x0, int y, uint32_t lane, uint32_t depth)
{
    const tt_level *l = tt_levels_get(t->lv, lane, depth);
    const tt_viewport *vp = t->vp;
    int w = vp->cols;
    tt_ns a, cum_a;
    size_t lb_a, half = 1, n_hl = 0, j_hl = 0;
    int64_t sel_idx;
    const uint32_t *hl = NULL;
    if (!l || l->n == 0)
        return 0;
    if (ensure_scratch(t, w))
        return -1;
    sel_idx = sel_index(t, l, lane, depth);
    if (t->hl)
        hl = tt_hilite_row(t->hl, lane, depth, &n_hl);
    a = tt_vp_time(vp, 0);
    lb_a = tt_level_lower_bound(l, 0, a);
    cum_a = tt_level_cum_before(l, lb_a, a);
    for (int c = 0; c < w; c++) {
        tt_ns m = tt_vp_time_mid(vp, c), b = tt_vp_time(vp, c + 1);
        /* guess from the density so far: the next half cell holds about
         * as many entries as the last one */
        size_t lb_m = tt_level_lower_bound_near(l, lb_a, lb_a + half, m);
        size_t lb_b = tt_level_lower_bound_near(l, lb_m, lb_m + (lb_m - lb_a), b);
        tt_ns cum_m = tt_level_cum_before(l, lb_m, m);
        tt_ns cum_b = tt_level_cum_before(l, lb_b, b);
        size_t first, last;
        tt_level_range(l, lb_a, lb_b, a, &first, &last);
        t->dom[c] = dominant(l, first, last, lb_m, a, b, sel_idx);
        t->kind[c] = classify(cum_m - cum_a, cum_b - cum_m, a, m, b, last - first);
        t->hil[c] = 0;
        if (n_hl && last > first) {
            /* first never decreases along the row: gallop on */
            j_hl = tt_hilite_lower(hl, n_hl, j_hl, (uint32_t)first);
            t->hil[c] = j_hl < n_hl && hl[j_hl] < last;
        }
        half = (lb_b - lb_m + lb_m - lb_a) / 2;
        a = b;
        lb_a = lb_b;
        cum_a = cum_b;
    }
    for (int c = 0; c < w; c++) {
        const tt_event *e;
        uint32_t key;
        if (t->dom[c] < 0)
            continue;
        e = tt_level_ev(l, (size_t)t->dom[c]);
        key = tt_tl_key(t->tr, e, t->by);
        tally(t, key);
        tt_grid_set(g, x0 + c, y, glyph_of(t->gl, t->kind[c]),
                    t->dom[c] == sel_idx ? TT_R_SEL : t->hil[c] ? TT_R_HILITE : TT_R_EV,
                    tt_tl_color(t, key));
    }
    for (int c = 0; c < w;) {
        int r = c;
        if (t->kind[c] != K_FULL || t->dom[c] < 0) {
            c++;
            continue;
        }
        while (r + 1 < w && t->kind[r + 1] == K_FULL && t->dom[r + 1] == t->dom[c])
            r++;
        if (r > c) {
            const tt_event *e = tt_level_ev(l, (size_t)t->dom[c]);
            draw_name(t, g, x0 + c, y, r - c + 1, e, t->dom[c] == sel_idx, t->hil[c] != 0,
                      tt_tl_color(t, tt_tl_key(t->tr, e, t->by)));
        }
        c = r + 1;
    }
    return 0;
}

/* Ready t->gb for group `group` at the current viewport: its lanes'
 * boundaries TT_GB_UNSET until a column asks (group_before), so the row
 * and the legend's tally of a frame search each boundary of a lane once
 * instead of twice per column, and only for the lanes group_busiest
 * reaches. 0, or -1 when out of memory (the caller then searches). */
#define TT_GB_UNSET INT64_MIN
static int group_table(tt_tl *t, uint32_t group)
{
    const tt_group *gr = &t->tr->groups[group];
    const tt_viewport *vp = t->vp;
    size_t w = (size_t)vp->cols + 1;
    if (!t->gb || t->gb_cols != vp->cols) {
        tt_ns *nv = realloc(t->gb, ((size_t)t->tr->n_lanes * w + 1) * sizeof *nv);
        if (!nv)
            return -1;
        t->gb = nv;
        if (!t->gb_epoch) {
            t->gb_epoch = calloc((size_t)t->tr->n_groups + 1, sizeof *t->gb_epoch);
            if (!t->gb_epoch)
                return -1;
        }
        t->gb_cols = -1;   /* every group's lanes are stale */
    }
    if (t->gb_cols != vp->cols || t->gb_start != vp->start || t->gb_span != vp->span) {
        t->epoch++;
        t->gb_cols = vp->cols;
        t->gb_start = vp->start;
        t->gb_span = vp->span;
    }
    if (t->gb_epoch[group] != t->epoch) {
        tt_ns *bb = t->gb + (size_t)gr->first_lane * w;
        for (size_t i = 0; i < (size_t)gr->n_lanes * w; i++)
            bb[i] = TT_GB_UNSET;
        t->gb_epoch[group] = t->epoch;
    }
    return 0;
}

/* Busy time of the lane before boundary c (time at), memoized in bb. */
static tt_ns group_before(const tt_lane *ln, tt_ns *bb, int c, tt_ns at)
{
    if (bb[c] == TT_GB_UNSET)
        bb[c] = tt_index_busy_before(ln->ev, ln->n, at);
    return bb[c];
}

/* The lane of group gr busiest in column c = [a, b) (the first one
 * covering all of it, if any) and how long it is busy there; -1 when no
 * lane is. With table (group_table succeeded), each lane's value is
 * tt_index_busy's, as the difference of two memoized boundaries. */
static int64_t group_busiest(tt_tl *t, const tt_group *gr, bool table, int c, tt_ns a, tt_ns b,
                             tt_ns *busy)
{
    int64_t best_lane = -1;
    tt_ns best = 0;
    size_t w = (size_t)t->vp->cols + 1;
    for (uint32_t l = gr->first_lane; l < gr->first_lane + gr->n_lanes; l++) {
        const tt_lane *ln = &t->tr->lanes[l];
        tt_ns v;
        if (!table)
            v = tt_index_busy(ln->ev, ln->n, a, b);
        else if (ln->n == 0 || a >= b)
            v = 0;
        else {
            tt_ns *bb = t->gb + (size_t)l * w;
            v = group_before(ln, bb, c + 1, b) - group_before(ln, bb, c, a);
        }
        if (v > best) {
            best = v;
            best_lane = l;
        }
        if (best >= b - a)
            break;
    }
    *busy = best;
    return best_lane;
}

void tt_tl_group_row(tt_tl *t, tt_grid *g, int x0, int y, uint32_t group)
{
    const tt_group *gr = &t->tr->groups[group];
    const tt_viewport *vp = t->vp;
    bool table = group_table(t, group) == 0;
    for (int c = 0; c < vp->cols; c++) {
        tt_ns a = tt_vp_time(vp, c), b = tt_vp_time(vp, c + 1), best, wt = b - a;
        uint8_t k;
        group_busiest(t, gr, table, c, a, b, &best);
        if (best <= 0 || wt <= 0)
            continue;
        if ((i128)best * 8 >= (i128)wt * 7)
            k = K_FULL;
        else if ((i128)best * 8 >= (i128)wt * 5)
            k = K_SH3;
        else if ((i128)best * 8 >= (i128)wt * 3)
            k = K_SH2;
        else
            k = K_SH1;
        tt_grid_set(g, x0 + c, y, glyph_of(t->gl, k), TT_R_SUMMARY, 0);
    }
}

void tt_tl_group_tally(tt_tl *t, uint32_t group)
{
    const tt_group *gr = &t->tr->groups[group];
    bool table = group_table(t, group) == 0;
    for (int c = 0; c < t->vp->cols; c++) {
        tt_ns a = tt_vp_time(t->vp, c), b = tt_vp_time(t->vp, c + 1), busy;
        int64_t lane = group_busiest(t, gr, table, c, a, b, &busy), i;
        if (lane < 0 || busy <= 0)
            continue;
        i = tt_tl_hit(t, (uint32_t)lane, 0, c);
        if (i >= 0)
            tally(t, tt_tl_key(t->tr, &t->tr->lanes[lane].ev[i], t->by));
    }
}

void tt_tl_summary_row(const tt_tl *t, tt_grid *g, int x0, int y, const tt_busy *all,
                       const tt_busy *comm)
{
    const tt_viewport *vp = t->vp;
    tt_ns a = tt_vp_time(vp, 0), ca = tt_busy_before(all, a), ka = tt_busy_before(comm, a);
    for (int c = 0; c < vp->cols; c++) {
        tt_ns m = tt_vp_time_mid(vp, c), b = tt_vp_time(vp, c + 1);
        tt_ns cm = tt_busy_before(all, m), cb = tt_busy_before(all, b);
        tt_ns kb = tt_busy_before(comm, b), busy = cb - ca;
        uint8_t k = classify(cm - ca, cb - cm, a, m, b, busy > 0);
        if (k != K_EMPTY) {
            bool talk = (i128)(kb - ka) * 2 >= (i128)busy;
            if (talk && k != K_SLIVER)
                tt_grid_set(g, x0 + c, y, t->gl->comm, TT_R_SUM_COMM, 0);
            else
                tt_grid_set(g, x0 + c, y, glyph_of(t->gl, k), talk ? TT_R_SUM_COMM : TT_R_SUM_BUSY,
                            0);
        }
        a = b;
        ca = cb;
        ka = kb;
    }
}

int64_t tt_tl_hit(const tt_tl *t, uint32_t lane, uint32_t depth, int64_t col)
{
    const tt_level *l = tt_levels_get(t->lv, lane, depth);
    tt_ns a, b;
    size_t lb_a, lb_m, lb_b, first, last;
    int64_t i;
    if (!l || l->n == 0 || col < 0 || col >= t->vp->cols)
        return -1;
    a = tt_vp_time(t->vp, col);
    b = tt_vp_time(t->vp, col + 1);
    lb_a = tt_level_lower_bound(l, 0, a);
    lb_m = tt_level_lower_bound(l, lb_a, tt_vp_time_mid(t->vp, col));
    lb_b = tt_level_lower_bound(l, lb_m, b);
    tt_level_range(l, lb_a, lb_b, a, &first, &last);
    i = dominant(l, first, last, lb_m, a, b, sel_index(t, l, lane, depth));
    return i < 0 ? -1 : (int64_t)tt_level_pos(l, (size_t)i);
}
