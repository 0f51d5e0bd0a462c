/* stats_fast.c - summary and breakdown of large selections from summary
 * levels (see stats_fast.h). */
#include "config.h"

#include "analysis/stats_fast.h"

#include "analysis/selsum.h"
#include "index/index.h"
#include "util/grow.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

/* A selection this many times larger than what a summary must touch
 * besides it is answered from the summaries. */
#define WORTH 8

static int nomem(tt_error *err)
{
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return -1;
}

/* The parts of every selected lane; *count gets the events in them.
 * NULL on OOM. */
static tt_sel_parts *all_parts(const tt_trace *tr, const tt_sel *sel, size_t nl, uint64_t *count)
{
    tt_sel_parts *p = calloc(nl ? nl : 1, sizeof *p);
    *count = 0;
    if (!p)
        return NULL;
    for (size_t li = 0; li < nl; li++)
        tt_sel_parts_init(&p[li]);
    for (size_t li = 0; li < nl; li++) {
        if (tt_sel_lane_parts(tr, sel, tt_sel_lane(sel, li), &p[li])) {
            for (size_t k = 0; k < nl; k++)
                tt_sel_parts_fini(&p[k]);
            free(p);
            return NULL;
        }
        *count += tt_sel_parts_count(&p[li]);
    }
    return p;
}

static void free_parts(tt_sel_parts *p, size_t nl)
{
    if (!p)
        return;
    for (size_t li = 0; li < nl; li++)
        tt_sel_parts_fini(&p[li]);
    free(p);
}

/* ------------------------------------------------------------ summary */

/* One lane's numbers from its parts (the definitions of stats.h). */
static int lane_stat(const tt_trace *tr, const tt_sel *sel, uint32_t lane, const tt_sel_parts *p,
                     tt_lane_stat *ls)
{
    const tt_lane *ln = &tr->lanes[lane];
    tt_ns inside;
    ls->lane = lane;
    ls->events = tt_sel_parts_count(p);
    ls->busy = tt_index_busy(ln->ev, ln->n, sel->from, sel->to);
    if (ls->events == 0)
        return 0;
    for (size_t i = 0; i < p->left.n; i++) {
        const tt_event *e = &ln->ev[p->left.v[i]];
        tt_ns end = tt_event_end(e);
        ls->total += e->dur;
        ls->total_clipped += (end < sel->to ? end : sel->to) - sel->from;
    }
    if (tt_selsum_range_total(tr, lane, p->a, p->b, &inside))
        return -1;
    ls->total += inside;
    ls->total_clipped += inside;
    for (size_t i = 0; i < p->right.n; i++)
        ls->total_clipped -= tt_event_end(&ln->ev[p->right.v[i]]) - sel->to;
    /* The first clipped start: from when something reaches across it,
     * else the first start inside, else the instants at `to`. The last
     * clipped end: every event in the selection ends at or after `from`
     * and every other event before position b ends at or before it, so the
     * furthest end before b (or `to` for the instants there), capped at
     * `to`, is the selection's. */
    ls->first = p->left.n ? sel->from : p->b > p->a ? ln->ev[p->a].start : sel->to;
    {
        tt_ns m = INT64_MIN;
        if (p->b > 0)
            m = tt_index_prefix_max_end(ln->ev, ln->n, p->b - 1);
        if (p->c > p->z && sel->to > m)
            m = sel->to;
        ls->last = m < sel->to ? m : sel->to;
    }
    return 0;
}

int tt_summary_fast(const tt_trace *tr, const tt_sel *sel, bool force, tt_summary **out,
                    tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel);
    uint64_t count, lane_events = 0;
    tt_sel_parts *parts;
    tt_summary *s;
    tt_ns busy;
    int r;

    *out = NULL;
    for (size_t li = 0; li < nl; li++)
        lane_events += tr->lanes[tt_sel_lane(sel, li)].n;
    if (!(parts = all_parts(tr, sel, nl, &count)))
        return nomem(err);
    /* The lane set's union answers any window once built; building it
     * costs a walk over the set, worth it for a large window only. */
    r = tt_selsum_union(tr, sel, force || count * 4 >= lane_events, &busy);
    if (r <= 0) {
        free_parts(parts, nl);
        return r < 0 ? nomem(err) : 0;
    }
    if (!(s = calloc(1, sizeof *s)) || !(s->lanes = calloc(nl ? nl : 1, sizeof *s->lanes))) {
        free(s);
        free_parts(parts, nl);
        return nomem(err);
    }
    s->from = sel->from;
    s->to = sel->to;
    s->n_lanes = nl;
    s->busy = busy;
    for (size_t li = 0; li < nl; li++) {
        tt_lane_stat *ls = &s->lanes[li];
        if (lane_stat(tr, sel, tt_sel_lane(sel, li), &parts[li], ls)) {
            tt_summary_free(s);
            free_parts(parts, nl);
            return nomem(err);
        }
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
    free_parts(parts, nl);
    *out = s;
    return 1;
}

/* ---------------------------------------------------------- breakdown */

/* A lane's sorted durations of one group, less the values removed. */
typedef struct piece {
    const int64_t *v;
    size_t         n;
    const int64_t *rem;     /* sorted, a sub-multiset of v */
    size_t         n_rem;
    uint32_t       slot;
} piece;

/* A value taken out of a piece (out of the window, or clipped) or added to
 * a slot (a clipped duration). */
typedef struct change {
    uint32_t key;           /* piece (removals) or slot (additions) */
    int64_t  v;
} change;

typedef struct changes {
    change *v;
    size_t  n, cap;
} changes;

static int changes_push(changes *c, uint32_t key, int64_t v)
{
    if (tt_grow_one((void **)&c->v, &c->cap, c->n, sizeof *c->v))
        return -1;
    c->v[c->n].key = key;
    c->v[c->n].v = v;
    c->n++;
    return 0;
}

static int cmp_change(const void *a, const void *b)
{
    const change *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

/* Count of values <= x in sorted v[0..n). */
static size_t count_le(const int64_t *v, size_t n, int64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The k-th smallest (0-based) of the multiset: the pieces less their
 * removed values, plus add[0..na) (sorted). The smallest value x with at
 * least k+1 members <= x; the count grows only at members, so x is one. */
static int64_t kth(piece *const *p, size_t np, const int64_t *add, size_t na, uint64_t k)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    bool rem = false;
    for (size_t i = 0; i < np; i++)
        rem = rem || p[i]->n_rem;
    if (!rem && na == 0 && np == 1)
        return p[0]->v[k];
    if (!rem && np == 0)
        return add[k];
    for (size_t i = 0; i < np; i++) {
        if (p[i]->n == 0)
            continue;
        if (p[i]->v[0] < lo)
            lo = p[i]->v[0];
        if (p[i]->v[p[i]->n - 1] > hi)
            hi = p[i]->v[p[i]->n - 1];
    }
    if (na && add[0] < lo)
        lo = add[0];
    if (na && add[na - 1] > hi)
        hi = add[na - 1];
    while (lo < hi) {
        int64_t mid = (int64_t)((uint64_t)lo + ((uint64_t)hi - (uint64_t)lo) / 2);
        uint64_t c = count_le(add, na, mid);
        for (size_t i = 0; i < np; i++)
            c += count_le(p[i]->v, p[i]->n, mid) - count_le(p[i]->rem, p[i]->n_rem, mid);
        if (c >= k + 1)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Per slot (group across lanes) while answering. */
typedef struct slot_acc {
    uint32_t   gid;
    tt_moments m;
    size_t     p0, np;      /* its pieces: order[p0, p0+np) */
    size_t     a0, na;      /* its additions: adds[a0, a0+na) */
    bool       rem;         /* a piece lost values */
} slot_acc;

typedef struct brk_work {
    uint32_t *slot_of;      /* gid -> slot + 1 */
    size_t    n_ids;
    slot_acc *slots;
    size_t    n_slots, cap_slots;
    piece    *pieces;
    size_t    n_pieces, cap_pieces;
    size_t   *lane_piece;   /* per selected lane: its first piece */
    tt_ss_keyed *keyed;     /* per selected lane */
    changes   rem, add;
} brk_work;

static void work_fini(brk_work *w)
{
    free(w->slot_of);
    free(w->slots);
    free(w->pieces);
    free(w->lane_piece);
    free(w->keyed);
    free(w->rem.v);
    free(w->add.v);
}

static int slot_for(brk_work *w, uint32_t gid, uint32_t *slot)
{
    if (tt_gid_map_reserve(&w->slot_of, &w->n_ids, gid))
        return -1;
    if (w->slot_of[gid] == 0) {
        if (tt_grow_one((void **)&w->slots, &w->cap_slots, w->n_slots, sizeof *w->slots))
            return -1;
        memset(&w->slots[w->n_slots], 0, sizeof w->slots[w->n_slots]);
        w->slots[w->n_slots].gid = gid;
        w->slot_of[gid] = (uint32_t)++w->n_slots;
    }
    *slot = w->slot_of[gid] - 1;
    return 0;
}

static int add_piece(brk_work *w, const int64_t *v, const tt_ss_group *g)
{
    uint32_t slot;
    if (slot_for(w, g->gid, &slot) ||
        tt_grow_one((void **)&w->pieces, &w->cap_pieces, w->n_pieces, sizeof *w->pieces))
        return -1;
    w->pieces[w->n_pieces].v = v + g->off;
    w->pieces[w->n_pieces].n = g->n;
    w->pieces[w->n_pieces].rem = NULL;
    w->pieces[w->n_pieces].n_rem = 0;
    w->pieces[w->n_pieces].slot = slot;
    w->n_pieces++;
    tt_moments_merge(&w->slots[slot].m, &g->m);
    return 0;
}

/* The piece of lane li holding event e. */
static uint32_t piece_of(const brk_work *w, const tt_trace *tr, const tt_key *key, size_t li,
                         uint32_t lane, const tt_event *e)
{
    const tt_ss_keyed *k = &w->keyed[li];
    uint32_t gid = key->kind == TT_KEY_LANE ? lane : tt_key_string_id(tr, key, e);
    size_t lo = 0, hi = k->n_groups;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->groups[mid].gid < gid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)(w->lane_piece[li] + lo);
}

/* Take event e's duration out of its piece; add `clipped` unless the
 * event is outside the window (clipped < 0). */
static int change_event(brk_work *w, const tt_trace *tr, const tt_key *key, size_t li,
                        uint32_t lane, const tt_event *e, tt_ns clipped)
{
    uint32_t pc = piece_of(w, tr, key, li, lane, e);
    slot_acc *sa = &w->slots[w->pieces[pc].slot];
    tt_moments_remove(&sa->m, e->dur);
    sa->rem = true;
    if (changes_push(&w->rem, pc, e->dur))
        return -1;
    if (clipped >= 0) {
        tt_moments_add(&sa->m, clipped);
        if (changes_push(&w->add, w->pieces[pc].slot, clipped))
            return -1;
    }
    return 0;
}

/* Every change of lane li: events out of the window, and those clipped. */
static int lane_changes(brk_work *w, const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                        size_t li, const tt_sel_parts *p)
{
    uint32_t lane = tt_sel_lane(sel, li);
    const tt_lane *ln = &tr->lanes[lane];
    size_t j = 0;
    for (size_t i = 0; i < p->a; i++) {
        const tt_event *e = &ln->ev[i];
        if (j < p->left.n && p->left.v[j] == i) {
            tt_ns end = tt_event_end(e);
            j++;
            if (change_event(w, tr, key, li, lane, e, (end < sel->to ? end : sel->to) - sel->from))
                return -1;
        } else if (change_event(w, tr, key, li, lane, e, -1)) {
            return -1;
        }
    }
    for (size_t i = 0; i < p->right.n; i++) {
        const tt_event *e = &ln->ev[p->right.v[i]];
        if (change_event(w, tr, key, li, lane, e, sel->to - e->start))
            return -1;
    }
    for (size_t i = p->b; i < ln->n; i++) {
        if (i == p->z && p->c > p->z) {
            i = p->c - 1;   /* the instants at `to` are in, unclipped */
            continue;
        }
        if (change_event(w, tr, key, li, lane, &ln->ev[i], -1))
            return -1;
    }
    return 0;
}

static int cmp_piece_slot(const void *a, const void *b, void *ctx)
{
    const piece *p = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (p[x].slot > p[y].slot) - (p[x].slot < p[y].slot);
}

int tt_breakdown_fast(const tt_trace *tr, const tt_sel *sel, const tt_key *key, bool force,
                      tt_breakdown **out, tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel);
    uint64_t count;
    tt_sel_parts *parts = NULL;
    tt_breakdown *b = NULL;
    brk_work w;
    uint32_t *order = NULL, *gids = NULL;
    piece **pp = NULL;
    int64_t *addv = NULL;
    tt_dist *dist = NULL;
    size_t n_out = 0;
    int rc = -1;

    *out = NULL;
    if (!tt_selsum_keyable(key->kind))
        return 0;
    memset(&w, 0, sizeof w);
    if (!(parts = all_parts(tr, sel, nl, &count)))
        return nomem(err);
    /* Worth it when what the window leaves out or clips, over the lanes
     * it touches, is small beside what it holds. (Not lane by lane: a
     * lane of two events, one an instant at the trace's end that a box
     * ending there leaves out, would make the whole box walk.) */
    {
        uint64_t out_or_clipped = 0;
        for (size_t li = 0; li < nl; li++) {
            const tt_sel_parts *p = &parts[li];
            size_t in = tt_sel_parts_count(p), n = tr->lanes[tt_sel_lane(sel, li)].n;
            if (in)
                out_or_clipped += n - in + p->left.n + p->right.n;
        }
        if (!force && out_or_clipped * WORTH > count) {
            free_parts(parts, nl);
            return 0;
        }
    }
    if (!(w.lane_piece = calloc(nl ? nl : 1, sizeof *w.lane_piece)) ||
        !(w.keyed = calloc(nl ? nl : 1, sizeof *w.keyed)))
        goto oom;
    for (size_t li = 0; li < nl; li++) {
        w.lane_piece[li] = w.n_pieces;
        if (tt_sel_parts_count(&parts[li]) == 0)
            continue;
        if (tt_selsum_keyed(tr, tt_sel_lane(sel, li), key->kind, &w.keyed[li]))
            goto oom;
        for (size_t g = 0; g < w.keyed[li].n_groups; g++)
            if (add_piece(&w, w.keyed[li].vals, &w.keyed[li].groups[g]))
                goto oom;
    }
    for (size_t li = 0; li < nl; li++)
        if (tt_sel_parts_count(&parts[li]) && lane_changes(&w, tr, sel, key, li, &parts[li]))
            goto oom;
    if (w.rem.n > 1)   /* qsort takes no NULL array, even empty */
        qsort(w.rem.v, w.rem.n, sizeof *w.rem.v, cmp_change);
    if (w.add.n > 1)
        qsort(w.add.v, w.add.n, sizeof *w.add.v, cmp_change);
    /* removed values become each piece's sorted list, additions each
     * slot's, pieces are listed slot by slot */
    if (!(addv = malloc((w.add.n + w.rem.n + 1) * sizeof *addv)) ||
        !(order = malloc((w.n_pieces + 1) * sizeof *order)) ||
        !(pp = malloc((w.n_pieces + 1) * sizeof *pp)))
        goto oom;
    for (size_t i = 0; i < w.rem.n; i++) {
        piece *pc = &w.pieces[w.rem.v[i].key];
        addv[w.add.n + i] = w.rem.v[i].v;
        if (pc->n_rem++ == 0)
            pc->rem = &addv[w.add.n + i];
    }
    for (size_t i = 0; i < w.add.n; i++) {
        slot_acc *sa = &w.slots[w.add.v[i].key];
        addv[i] = w.add.v[i].v;
        if (sa->na++ == 0)
            sa->a0 = i;
    }
    for (size_t i = 0; i < w.n_pieces; i++)
        order[i] = (uint32_t)i;
    if (tt_sort(order, w.n_pieces, sizeof *order, cmp_piece_slot, w.pieces))
        goto oom;
    for (size_t i = 0; i < w.n_pieces; i++) {
        slot_acc *sa = &w.slots[w.pieces[order[i]].slot];
        pp[i] = &w.pieces[order[i]];
        if (sa->np++ == 0)
            sa->p0 = i;
    }
    if (!(dist = calloc(w.n_slots ? w.n_slots : 1, sizeof *dist)) ||
        !(gids = calloc(w.n_slots ? w.n_slots : 1, sizeof *gids)))
        goto oom;
    for (size_t s = 0; s < w.n_slots; s++) {
        slot_acc *sa = &w.slots[s];
        piece **sp = pp + sa->p0;
        const int64_t *av = addv + sa->a0;
        uint64_t n = sa->m.n;
        int64_t mn, mx, lo, hi;
        if (n == 0)
            continue;   /* every event of the group is outside */
        if (!sa->rem) {
            /* nothing removed: the ends of the sorted arrays */
            mn = INT64_MAX;
            mx = INT64_MIN;
            for (size_t i = 0; i < sa->np; i++) {
                if (sp[i]->n == 0)
                    continue;
                if (sp[i]->v[0] < mn)
                    mn = sp[i]->v[0];
                if (sp[i]->v[sp[i]->n - 1] > mx)
                    mx = sp[i]->v[sp[i]->n - 1];
            }
        } else {
            mn = kth(sp, sa->np, av, sa->na, 0);
            mx = kth(sp, sa->np, av, sa->na, n - 1);
        }
        hi = kth(sp, sa->np, av, sa->na, n / 2);
        lo = n % 2 ? hi : kth(sp, sa->np, av, sa->na, n / 2 - 1);
        tt_dist_finish(&sa->m, mn, mx, tt_dist_median_of(lo, hi), &dist[n_out]);
        gids[n_out++] = sa->gid;
    }
    if (!(b = calloc(1, sizeof *b)))
        goto oom;
    tt_arena_init(&b->arena);
    b->key = *key;
    if (tt_breakdown_set_rows(b, tr, NULL, gids, dist, n_out))
        goto oom;
    *out = b;
    b = NULL;
    rc = 1;
oom:
    tt_breakdown_free(b);
    free(dist);
    free(gids);
    free(pp);
    free(order);
    free(addv);
    work_fini(&w);
    free_parts(parts, nl);
    return rc == 1 ? 1 : nomem(err);
}
