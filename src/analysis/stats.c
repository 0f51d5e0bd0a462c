/* stats.c - summary, breakdown and event list of a selection (see stats.h). */
#include "config.h"

#include "analysis/stats.h"

#include "analysis/intervals.h"
#include "analysis/stats_fast.h"
#include "index/index.h"
#include "util/sort.h"
#include "util/strtab.h"

#include <stdlib.h>
#include <string.h>

double tt_stats_util(tt_ns busy, tt_ns window)
{
    return window > 0 ? (double)busy / (double)window : 0.0;
}

static int nomem(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
}

/* ------------------------------------------------------------ summary */

void tt_summary_free(tt_summary *s)
{
    if (!s)
        return;
    free(s->lanes);
    free(s);
}

int tt_summary_compute(const tt_trace *tr, const tt_sel *sel, tt_summary **out, tt_error *err)
{
    int r = tt_summary_fast(tr, sel, false, out, err);
    if (r)
        return r < 0 ? TT_ERR_NOMEM : 0;
    return tt_summary_compute_walk(tr, sel, out, err);
}

int tt_summary_compute_walk(const tt_trace *tr, const tt_sel *sel, tt_summary **out,
                            tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel);
    tt_summary *s = calloc(1, sizeof *s);
    tt_idxbuf buf;
    tt_ivals all;
    int rc = 0;

    *out = NULL;
    tt_idxbuf_init(&buf);
    tt_ivals_init(&all);
    if (!s || !(s->lanes = calloc(nl ? nl : 1, sizeof *s->lanes))) {
        tt_summary_free(s);
        return nomem(err);
    }
    s->from = sel->from;
    s->to = sel->to;
    s->n_lanes = nl;
    for (size_t li = 0; li < nl; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        tt_lane_stat *ls = &s->lanes[li];
        ls->lane = lane;
        if (tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = -1;
            break;
        }
        ls->busy = tt_index_busy(ln->ev, ln->n, sel->from, sel->to);
        for (size_t k = 0; k < buf.n; k++) {
            const tt_event *e = &ln->ev[buf.v[k]];
            tt_ns cs, ce;
            tt_sel_clip_range(sel, e, &cs, &ce);
            ls->total += e->dur;
            ls->total_clipped += ce - cs;
            if (k == 0 || cs < ls->first)
                ls->first = cs;
            if (k == 0 || ce > ls->last)
                ls->last = ce;
            if (tt_ivals_push(&all, cs, ce)) {
                rc = -1;
                break;
            }
        }
        if (rc)
            break;
        ls->events = buf.n;
        if (ls->events) {
            if (s->events == 0 || ls->first < s->first)
                s->first = ls->first;
            if (s->events == 0 || ls->last > s->last)
                s->last = ls->last;
        }
        s->events += ls->events;
        s->total += ls->total;
        s->total_clipped += ls->total_clipped;
    }
    if (rc == 0 && tt_ivals_normalize(&all))
        rc = -1;
    s->busy = tt_ivals_length(&all);
    tt_ivals_fini(&all);
    tt_idxbuf_fini(&buf);
    if (rc) {
        tt_summary_free(s);
        return nomem(err);
    }
    *out = s;
    return 0;
}

/* ---------------------------------------------------------- breakdown */

void tt_breakdown_free(tt_breakdown *b)
{
    if (!b)
        return;
    free(b->rows);
    tt_arena_fini(&b->arena);
    free(b);
}

int tt_gid_map_reserve(uint32_t **map, size_t *n, uint32_t gid)
{
    size_t nn = *n ? *n : 256;
    uint32_t *nm;
    if (gid < *n)
        return 0;
    while (nn <= gid)
        nn *= 2;
    if (!(nm = realloc(*map, nn * sizeof *nm)))
        return -1;
    memset(nm + *n, 0, (nn - *n) * sizeof *nm);
    *map = nm;
    *n = nn;
    return 0;
}

/* Growable arrays used while grouping. */
typedef struct grouping {
    uint32_t *slot_of;    /* group id -> slot + 1, 0 = not seen */
    size_t    n_ids;
    uint32_t *slot_gid;   /* slot -> group id */
    uint64_t *slot_n;     /* slot -> events */
    size_t    n_slots, cap_slots;
    uint32_t *ev_slot;    /* per selected event */
    int64_t  *ev_dur;
    size_t    n_ev, cap_ev;
} grouping;

static void grouping_fini(grouping *g)
{
    free(g->slot_of);
    free(g->slot_gid);
    free(g->slot_n);
    free(g->ev_slot);
    free(g->ev_dur);
}

/* Record one event of group gid with value v. 0, or -1 on OOM. */
static int grouping_add(grouping *g, uint32_t gid, int64_t v)
{
    uint32_t slot;
    if (tt_gid_map_reserve(&g->slot_of, &g->n_ids, gid))
        return -1;
    if (g->slot_of[gid] == 0) {
        if (g->n_slots == g->cap_slots) {
            size_t nc = g->cap_slots ? g->cap_slots * 2 : 64;
            uint32_t *a = realloc(g->slot_gid, nc * sizeof *a);
            uint64_t *b;
            if (!a)
                return -1;
            g->slot_gid = a;
            b = realloc(g->slot_n, nc * sizeof *b);
            if (!b)
                return -1;
            g->slot_n = b;
            g->cap_slots = nc;
        }
        g->slot_gid[g->n_slots] = gid;
        g->slot_n[g->n_slots] = 0;
        g->slot_of[gid] = (uint32_t)++g->n_slots;
    }
    slot = g->slot_of[gid] - 1;
    g->slot_n[slot]++;
    if (g->n_ev == g->cap_ev) {
        size_t nc = g->cap_ev ? g->cap_ev * 2 : 1024;
        uint32_t *a = realloc(g->ev_slot, nc * sizeof *a);
        int64_t *b;
        if (!a)
            return -1;
        g->ev_slot = a;
        b = realloc(g->ev_dur, nc * sizeof *b);
        if (!b)
            return -1;
        g->ev_dur = b;
        g->cap_ev = nc;
    }
    g->ev_slot[g->n_ev] = slot;
    g->ev_dur[g->n_ev] = v;
    g->n_ev++;
    return 0;
}

/* Scatter the values slot by slot and compute each slot's distribution.
 * dist[] has n_slots entries. 0, or -1 on OOM. */
static int grouping_dists(grouping *g, tt_dist *dist)
{
    size_t *off = malloc((g->n_slots + 1) * sizeof *off);
    int64_t *vals = malloc((g->n_ev ? g->n_ev : 1) * sizeof *vals);
    if (!off || !vals) {
        free(off);
        free(vals);
        return -1;
    }
    off[0] = 0;
    for (size_t s = 0; s < g->n_slots; s++)
        off[s + 1] = off[s] + g->slot_n[s];
    for (size_t i = 0; i < g->n_ev; i++)
        vals[off[g->ev_slot[i]]++] = g->ev_dur[i];
    /* off[s] now ends slot s; its start is the previous end */
    for (size_t s = 0, start = 0; s < g->n_slots; s++) {
        tt_dist_compute(vals + start, off[s] - start, &dist[s]);
        start = off[s];
    }
    free(off);
    free(vals);
    return 0;
}

int tt_brk_compare(const tt_dist *da, bool none_a, const char *la, const tt_dist *db,
                   bool none_b, const char *lb, tt_brk_order by, bool descending)
{
    int c = 0;
    switch (by) {
    case TT_BRK_COUNT:
        c = (da->n > db->n) - (da->n < db->n);
        break;
    case TT_BRK_AVG:
        c = (da->avg > db->avg) - (da->avg < db->avg);
        break;
    case TT_BRK_LABEL:
        if (none_a != none_b)
            return none_a ? 1 : -1;   /* the none group stays last */
        c = strcmp(la, lb);
        break;
    case TT_BRK_TOTAL:
        c = (da->total > db->total) - (da->total < db->total);
        break;
    }
    if (c)
        return descending ? -c : c;
    if (da->total != db->total)
        return da->total > db->total ? -1 : 1;
    if (da->n != db->n)
        return da->n > db->n ? -1 : 1;
    if (none_a != none_b)
        return none_a ? 1 : -1;
    return strcmp(la, lb);
}

static int cmp_row(const tt_brk_row *a, const tt_brk_row *b, tt_brk_order by, bool desc)
{
    int c = tt_brk_compare(&a->d, a->none, a->label, &b->d, b->none, b->label, by, desc);
    if (c)
        return c;
    return (a->id > b->id) - (a->id < b->id);
}

typedef struct sort_ctx {
    tt_brk_order by;
    bool         desc;
} sort_ctx;

static int cmp_row_ctx(const void *a, const void *b, void *ctx)
{
    const sort_ctx *s = ctx;
    return cmp_row(a, b, s->by, s->desc);
}

void tt_breakdown_sort(tt_breakdown *b, tt_brk_order by, bool descending)
{
    sort_ctx s = {by, descending};
    tt_sort(b->rows, b->n, sizeof *b->rows, cmp_row_ctx, &s);
}

int tt_breakdown_set_rows(tt_breakdown *b, const tt_trace *tr, const tt_strtab *vals,
                          const uint32_t *gids, const tt_dist *dist, size_t n)
{
    if (!(b->rows = calloc(n ? n : 1, sizeof *b->rows)))
        return -1;
    for (size_t s = 0; s < n; s++) {
        tt_brk_row *r = &b->rows[s];
        const char *label;
        char lbuf[600];
        r->d = dist[s];
        label = tt_key_group_label(tr, &b->key, vals, gids[s], lbuf, sizeof lbuf, &r->none,
                                   &r->id);
        if (!(r->label = tt_arena_strndup(&b->arena, label, strlen(label))))
            return -1;
        b->sum_total += r->d.total;
        b->events += r->d.n;
    }
    b->n = n;
    for (size_t s = 0; s < b->n; s++)
        b->rows[s].share = b->sum_total > 0
            ? 100.0 * (double)b->rows[s].d.total / (double)b->sum_total : 0.0;
    tt_breakdown_sort(b, TT_BRK_TOTAL, true);
    return 0;
}

int tt_breakdown_compute(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                         tt_breakdown **out, tt_error *err)
{
    int r = tt_breakdown_fast(tr, sel, key, false, out, err);
    if (r)
        return r < 0 ? TT_ERR_NOMEM : 0;
    return tt_breakdown_compute_walk(tr, sel, key, out, err);
}

int tt_breakdown_compute_walk(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                              tt_breakdown **out, tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel);
    tt_breakdown *b = calloc(1, sizeof *b);
    grouping g;
    tt_idxbuf buf;
    tt_strtab *vals = NULL;
    uint32_t *arg_gid = NULL;   /* arg:KEY: group ids in walk order */
    size_t next_gid = 0;
    tt_dist *dist = NULL;
    int rc = 0;
    bool bad_args = false;

    *out = NULL;
    if (!b)
        return nomem(err);
    memset(&g, 0, sizeof g);
    tt_arena_init(&b->arena);
    b->key = *key;
    tt_idxbuf_init(&buf);
    if (key->kind == TT_KEY_ARG && !(vals = tt_strtab_new()))
        rc = -1;
    /* arg:KEY: the group ids of the selection first, its arguments read
     * in storage order (key.h); the walk below takes them in turn */
    if (rc == 0 && key->kind == TT_KEY_ARG &&
        (rc = tt_key_sel_arg_groups(tr, sel, key, false, vals, &arg_gid, err)) == -2)
        bad_args = true;

    for (size_t li = 0; li < nl && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        if (tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < buf.n; k++) {
            const tt_event *e = &ln->ev[buf.v[k]];
            uint32_t gid;
            if (arg_gid) {
                gid = arg_gid[next_gid++];
            } else if (tt_key_group(tr, key, lane, e, NULL, vals, &gid, err)) {
                rc = -1;   /* not an arg key: reads no arguments, needs no cache */
                break;
            }
            if (grouping_add(&g, gid, tt_sel_clip(sel, e))) {
                rc = -1;
                break;
            }
        }
    }
    if (rc == 0 && !(dist = calloc(g.n_slots ? g.n_slots : 1, sizeof *dist)))
        rc = -1;
    if (rc == 0 && grouping_dists(&g, dist))
        rc = -1;
    if (rc == 0 && tt_breakdown_set_rows(b, tr, vals, g.slot_gid, dist, g.n_slots))
        rc = -1;
    free(dist);
    grouping_fini(&g);
    tt_strtab_free(vals);
    free(arg_gid);
    tt_idxbuf_fini(&buf);
    if (rc) {
        tt_breakdown_free(b);
        return bad_args ? TT_ERR_FORMAT : nomem(err);
    }
    *out = b;
    return 0;
}

/* ------------------------------------------------------------- events */

int tt_sel_events(const tt_trace *tr, const tt_sel *sel, tt_evref **out, size_t *n,
                  tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel), cnt = 0, cap = 0;
    tt_evref *v = NULL;
    tt_idxbuf buf;
    tt_idxbuf_init(&buf);
    *out = NULL;
    *n = 0;
    for (size_t li = 0; li < nl; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        if (tt_sel_lane_events(tr, sel, lane, &buf))
            goto oom;
        if (cnt + buf.n > cap) {
            size_t nc = cap ? cap : 1024;
            tt_evref *nv;
            while (nc < cnt + buf.n)
                nc *= 2;
            if (!(nv = realloc(v, nc * sizeof *nv)))
                goto oom;
            v = nv;
            cap = nc;
        }
        for (size_t k = 0; k < buf.n; k++) {
            v[cnt].lane = lane;
            v[cnt].idx = buf.v[k];
            cnt++;
        }
    }
    tt_idxbuf_fini(&buf);
    *out = v;
    *n = cnt;
    return 0;
oom:
    free(v);
    tt_idxbuf_fini(&buf);
    return nomem(err);
}
