/* hilite.c - highlighted events by row (see hilite.h). */
#include "config.h"

#include "tui/hilite.h"

#include <stdlib.h>
#include <string.h>

void tt_hilite_init(tt_hilite *h)
{
    memset(h, 0, sizeof *h);
}

void tt_hilite_fini(tt_hilite *h)
{
    for (uint32_t l = 0; l < h->n_lanes; l++) {
        if (h->idx)
            free(h->idx[l]);
        if (h->off)
            free(h->off[l]);
    }
    free(h->idx);
    free(h->off);
    free(h->n_depths);
    tt_hilite_init(h);
}

int tt_hilite_build(tt_hilite *h, const tt_hits *hits, const tt_trace *tr, const tt_levels *lv)
{
    tt_hilite_fini(h);
    h->n_lanes = tr->n_lanes;
    h->idx = calloc((size_t)h->n_lanes + 1, sizeof *h->idx);
    h->off = calloc((size_t)h->n_lanes + 1, sizeof *h->off);
    h->n_depths = calloc((size_t)h->n_lanes + 1, sizeof *h->n_depths);
    if (!h->idx || !h->off || !h->n_depths)
        goto oom;
    for (uint32_t l = 0; l < h->n_lanes && l < hits->n_lanes; l++) {
        const tt_event *ev = tr->lanes[l].ev;
        uint32_t nd = (uint32_t)tr->lanes[l].max_depth + 1;
        size_t k = hits->n[l];
        uint32_t *off;
        if (k == 0)
            continue;
        off = calloc((size_t)nd + 2, sizeof *off);
        h->idx[l] = malloc(k * sizeof **h->idx);
        h->off[l] = off;
        if (!off || !h->idx[l])
            goto oom;
        h->n_depths[l] = nd;
        /* counting sort by depth; positions are increasing, and within a
         * depth the row order is the position order, so each depth's
         * indexes come out sorted */
        for (size_t i = 0; i < k; i++)
            off[ev[hits->pos[l][i]].depth + 1]++;
        for (uint32_t d = 0; d < nd; d++)
            off[d + 1] += off[d];
        {
            uint32_t *fill = malloc(((size_t)nd + 1) * sizeof *fill);
            if (!fill)
                goto oom;
            memcpy(fill, off, ((size_t)nd + 1) * sizeof *fill);
            for (size_t i = 0; i < k; i++) {
                uint32_t pos = hits->pos[l][i], d = ev[pos].depth;
                const tt_level *row = tt_levels_get(lv, l, d);
                int64_t r = row ? tt_level_find(row, pos) : -1;
                /* every event is in its depth's row; -1 cannot happen for a
                 * finalized trace, but a hole must not break the order */
                h->idx[l][fill[d]++] = r >= 0 ? (uint32_t)r : 0;
            }
            free(fill);
        }
    }
    h->valid = true;
    return 0;
oom:
    tt_hilite_fini(h);
    return -1;
}

const uint32_t *tt_hilite_row(const tt_hilite *h, uint32_t lane, uint32_t depth, size_t *n)
{
    *n = 0;
    if (!h->valid || lane >= h->n_lanes || !h->idx[lane] || depth >= h->n_depths[lane])
        return NULL;
    *n = h->off[lane][depth + 1] - h->off[lane][depth];
    return h->idx[lane] + h->off[lane][depth];
}

size_t tt_hilite_lower(const uint32_t *v, size_t n, size_t from, uint32_t x)
{
    size_t lo = from, step = 1, hi;
    if (lo >= n || v[lo] >= x)
        return lo;
    /* gallop: v[lo] < x */
    while (lo + step < n && v[lo + step] < x) {
        lo += step;
        step *= 2;
    }
    hi = lo + step < n ? lo + step : n;
    lo++;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t tt_hits_count_before(const tt_hits *h, const tt_trace *tr, tt_ns t, bool inclusive)
{
    uint64_t below = 0;
    for (uint32_t l = 0; l < h->n_lanes && l < tr->n_lanes; l++) {
        const tt_event *ev = tr->lanes[l].ev;
        size_t lo = 0, hi = h->n[l];
        /* positions ascend, and so do their starts */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            tt_ns s = ev[h->pos[l][mid]].start;
            if (s < t || (inclusive && s == t))
                lo = mid + 1;
            else
                hi = mid;
        }
        below += lo;
    }
    return below;
}

bool tt_hits_has(const tt_hits *h, tt_evref ev)
{
    size_t lo = 0, hi;
    if (ev.lane >= h->n_lanes)
        return false;
    hi = h->n[ev.lane];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->pos[ev.lane][mid] < ev.idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < h->n[ev.lane] && h->pos[ev.lane][lo] == ev.idx;
}
