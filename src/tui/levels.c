/* levels.c - per-depth rows of each lane (see levels.h). */
#include "config.h"

#include "tui/levels.h"

#include <stdlib.h>

tt_levels *tt_levels_new(const tt_trace *tr)
{
    tt_levels *l = calloc(1, sizeof *l);
    size_t deep = 0, o = 0;
    uint32_t n_lv = 0, k = 0;
    size_t *count = NULL;
    if (!l)
        return NULL;
    l->tr = tr;
    for (uint32_t i = 0; i < tr->n_lanes; i++) {
        n_lv += (uint32_t)tr->lanes[i].max_depth + 1;
        if (tr->lanes[i].max_depth > 0)
            deep += tr->lanes[i].n;
    }
    l->first = malloc(((size_t)tr->n_lanes + 1) * sizeof *l->first);
    l->depths = malloc(((size_t)tr->n_lanes + 1) * sizeof *l->depths);
    l->lv = calloc((size_t)n_lv + 1, sizeof *l->lv);
    l->pos = malloc((deep + 1) * sizeof *l->pos);
    l->cum = malloc((deep + 1) * sizeof *l->cum);
    count = calloc(65537, sizeof *count);
    if (!l->first || !l->depths || !l->lv || !l->pos || !l->cum || !count) {
        free(count);
        tt_levels_free(l);
        return NULL;
    }
    l->n_lv = n_lv;
    for (uint32_t i = 0; i < tr->n_lanes; i++) {
        const tt_lane *ln = &tr->lanes[i];
        uint32_t nd = (uint32_t)ln->max_depth + 1;
        l->first[i] = k;
        l->depths[i] = nd;
        if (nd == 1) {
            l->lv[k].ev = ln->ev;
            l->lv[k].pos = NULL;
            l->lv[k].cum = NULL;
            l->lv[k].n = ln->n;
            k++;
            continue;
        }
        /* counting sort of positions by depth keeps each depth in start order */
        for (uint32_t d = 0; d < nd; d++)
            count[d] = 0;
        for (size_t j = 0; j < ln->n; j++)
            count[ln->ev[j].depth]++;
        for (uint32_t d = 0; d < nd; d++) {
            tt_level *lv = &l->lv[k + d];
            lv->ev = ln->ev;
            lv->pos = l->pos + o;
            lv->cum = l->cum + o;
            lv->n = 0;
            o += count[d];
        }
        for (size_t j = 0; j < ln->n; j++) {
            tt_level *lv = &l->lv[k + ln->ev[j].depth];
            uint32_t *pos = (uint32_t *)lv->pos;
            tt_ns *cum = (tt_ns *)lv->cum;
            tt_ns prev = lv->n ? cum[lv->n - 1] : 0;
            pos[lv->n] = (uint32_t)j;
            cum[lv->n] = prev + ln->ev[j].dur;
            lv->n++;
        }
        k += nd;
    }
    free(count);
    return l;
}

void tt_levels_free(tt_levels *l)
{
    if (!l)
        return;
    free(l->first);
    free(l->depths);
    free(l->lv);
    free(l->pos);
    free(l->cum);
    free(l);
}

const tt_level *tt_levels_get(const tt_levels *l, uint32_t lane, uint32_t depth)
{
    if (lane >= l->tr->n_lanes || depth >= l->depths[lane])
        return NULL;
    return &l->lv[l->first[lane] + depth];
}

size_t tt_levels_memory(const tt_levels *l)
{
    size_t deep = 0;
    for (uint32_t i = 0; i < l->tr->n_lanes; i++)
        if (l->depths[i] > 1)
            deep += l->tr->lanes[i].n;
    return sizeof *l + (size_t)l->n_lv * sizeof(tt_level) +
           (size_t)l->tr->n_lanes * 2 * sizeof(uint32_t) +
           deep * (sizeof(uint32_t) + sizeof(tt_ns));
}

size_t tt_level_lower_bound(const tt_level *l, size_t from, tt_ns t)
{
    size_t lo = from, hi, step = 1;
    if (lo >= l->n || tt_level_start(l, lo) >= t)
        return lo < l->n ? lo : l->n;
    /* start(lo) < t: gallop to a bracket (lo, hi] with start(hi) >= t */
    for (;;) {
        hi = lo + step;
        if (hi >= l->n) {
            hi = l->n;
            break;
        }
        if (tt_level_start(l, hi) >= t)
            break;
        lo = hi;
        step *= 2;
    }
    /* invariant: start(lo) < t, start(hi) >= t or hi == n */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tt_level_start(l, mid) < t)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

size_t tt_level_lower_bound_near(const tt_level *l, size_t from, size_t g, tt_ns t)
{
    size_t lo, hi, step = 1;
    if (g <= from || g >= l->n)
        return tt_level_lower_bound(l, from, t);
    if (tt_level_start(l, g) < t)
        return tt_level_lower_bound(l, g, t);
    /* start(g) >= t: the answer is in (from - 1, g]; gallop back to a
     * bracket lo < answer <= hi with start(lo) < t */
    hi = g;
    for (;;) {
        if (hi - from <= step) {
            lo = from;
            if (tt_level_start(l, lo) >= t)
                return lo;
            break;
        }
        lo = hi - step;
        if (tt_level_start(l, lo) < t)
            break;
        hi = lo;
        step *= 2;
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tt_level_start(l, mid) < t)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

static inline tt_ns level_cum(const tt_level *l, size_t i)
{
    return l->cum ? l->cum[i] : l->ev[i].busy_upto;
}

tt_ns tt_level_cum_before(const tt_level *l, size_t lb, tt_ns t)
{
    tt_ns c, end;
    if (lb == 0)
        return 0;
    c = level_cum(l, lb - 1);
    end = tt_level_end(l, lb - 1);
    if (end > t)
        c -= end - t;
    return c;
}

int64_t tt_level_at(const tt_level *l, size_t from, tt_ns t)
{
    /* the candidate is the last entry starting at or before t */
    size_t ub = tt_level_lower_bound(l, from, t == INT64_MAX ? t : t + 1);
    const tt_event *e;
    if (ub == 0)
        return -1;
    e = tt_level_ev(l, ub - 1);
    if (e->start + e->dur > t || (e->dur == 0 && e->start == t))
        return (int64_t)(ub - 1);
    return -1;
}

int64_t tt_level_find(const tt_level *l, uint32_t pos)
{
    size_t lo = 0, hi = l->n;
    if (!l->pos)
        return pos < l->n ? (int64_t)pos : -1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->pos[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && l->pos[lo] == pos ? (int64_t)lo : -1;
}
