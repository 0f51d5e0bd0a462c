/* selfsum.c - whole-lane self sums by key (see selfsum.h). Built per key
 * kind under the selection summaries' lock, on the first box that holds
 * whole lanes, with one pass over the trace and a map per lane. */
#include "config.h"

#include "analysis/selfsum.h"

#include "analysis/attrib.h"
#include "analysis/selsum.h"
#include "index/index.h"
#include "util/grow.h"
#include "util/u64map.h"

#include <stdlib.h>
#include <string.h>

#define N_KINDS TT_KEY_ARG   /* the kinds before TT_KEY_ARG have sums */

typedef struct host_sum {
    uint32_t id;
    tt_ns    sum;
} host_sum;

typedef struct dev_sum {
    uint32_t dev_lane;   /* the device event's lane */
    uint32_t id;         /* the launch op's key id */
    tt_ns    sum;
} dev_sum;

typedef struct lane_sums {
    host_sum *host;
    dev_sum  *dev;
    size_t    n_host, cap_host, n_dev, cap_dev;
    tt_ns     zero_op;   /* the last start of a zero-length event on the
                            lane that launches device work; INT64_MIN if none */
} lane_sums;

typedef struct selfsum {
    tt_ss_ext  ext;                  /* first: selsum frees us through it */
    uint32_t   n_lanes;
    lane_sums *kinds[N_KINDS];       /* per kind: per lane, NULL until built */
} selfsum;

static void kind_free(lane_sums *ls, uint32_t n_lanes)
{
    if (!ls)
        return;
    for (uint32_t l = 0; l < n_lanes; l++) {
        free(ls[l].host);
        free(ls[l].dev);
    }
    free(ls);
}

static void selfsum_free(tt_ss_ext *ext)
{
    selfsum *s = (selfsum *)ext;
    for (int k = 0; k < N_KINDS; k++)
        kind_free(s->kinds[k], s->n_lanes);
    free(s);
}

static uint32_t key_id(const tt_trace *tr, const tt_key *key, tt_evref ev)
{
    return key->kind == TT_KEY_LANE ? ev.lane : tt_key_string_id(tr, key, tt_trace_event(tr, ev));
}

/* The host sums of every lane: a map from key id to entry per lane. */
static int build_host(const tt_trace *tr, const tt_attrib *at, const tt_key *key, lane_sums *ls)
{
    tt_u64map map;
    int rc = 0;
    for (uint32_t l = 0; l < tr->n_lanes && rc == 0; l++) {
        lane_sums *s = &ls[l];
        tt_u64map_init(&map);
        for (uint32_t i = 0; i < tr->lanes[l].n; i++) {
            tt_evref ev = {l, i};
            uint32_t id = key_id(tr, key, ev), *slot = tt_u64map_get(&map, id);
            if (!slot) {
                if (tt_grow_one((void **)&s->host, &s->cap_host, s->n_host, sizeof *s->host) ||
                    tt_u64map_put(&map, id, (uint32_t)s->n_host)) {
                    rc = -1;
                    break;
                }
                s->host[s->n_host].id = id;
                s->host[s->n_host].sum = 0;
                slot = tt_u64map_get(&map, id);
                s->n_host++;
            }
            s->host[*slot].sum += tt_attrib_self(at, ev);
        }
        tt_u64map_fini(&map);
    }
    return rc;
}

/* The device sums: each device event's duration under its launch op's
 * lane, by (device lane, the op's key id); a map per op lane, made when
 * that lane launches something. */
static int build_dev(const tt_trace *tr, const tt_attrib *at, const tt_key *key, lane_sums *ls)
{
    tt_u64map *maps = calloc(tr->n_lanes ? tr->n_lanes : 1, sizeof *maps);
    int rc = 0;
    if (!maps)
        return -1;
    for (uint32_t d = 0; d < tr->n_lanes && rc == 0; d++) {
        if (!tt_attrib_lane_is_device(at, d))
            continue;
        for (uint32_t i = 0; i < tr->lanes[d].n; i++) {
            tt_evref ev = {d, i}, op;
            uint64_t k;
            uint32_t *slot;
            lane_sums *s;
            if (!tt_attrib_is_device(at, ev) || !tt_evref_ok(op = tt_attrib_launch_op(at, ev)))
                continue;
            s = &ls[op.lane];
            if (tt_trace_event(tr, op)->dur == 0 && tt_trace_event(tr, op)->start > s->zero_op)
                s->zero_op = tt_trace_event(tr, op)->start;
            k = (uint64_t)d << 32 | key_id(tr, key, op);
            if (!(slot = tt_u64map_get(&maps[op.lane], k))) {
                if (tt_grow_one((void **)&s->dev, &s->cap_dev, s->n_dev, sizeof *s->dev) ||
                    tt_u64map_put(&maps[op.lane], k, (uint32_t)s->n_dev)) {
                    rc = -1;
                    break;
                }
                s->dev[s->n_dev].dev_lane = d;
                s->dev[s->n_dev].id = (uint32_t)k;
                s->dev[s->n_dev].sum = 0;
                slot = tt_u64map_get(&maps[op.lane], k);
                s->n_dev++;
            }
            s->dev[*slot].sum += tr->lanes[d].ev[i].dur;
        }
    }
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        tt_u64map_fini(&maps[l]);
    free(maps);
    return rc;
}

typedef struct ask {
    const tt_attrib *at;
    const tt_sel    *sel;
    tt_key_kind      kind;
    const int32_t   *row;
    size_t           n_ids;
    tt_ns           *host, *dev;
} ask;

static bool lane_selected(const tt_sel *sel, uint32_t lane)
{
    size_t lo = 0, hi = sel->n_lanes;
    if (!sel->lanes)
        return true;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sel->lanes[mid] < lane)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sel->n_lanes && sel->lanes[lo] == lane;
}

/* Under the summaries' lock: build the kind's sums when missing, then add
 * the selection's lanes. */
static int add_locked(const tt_trace *tr, tt_ss_ext **ext, void *ctx)
{
    ask *a = ctx;
    selfsum *s = (selfsum *)*ext;
    lane_sums *ls;
    if (!s) {
        if (!(s = calloc(1, sizeof *s)))
            return -1;
        s->ext.free_fn = selfsum_free;
        s->n_lanes = tr->n_lanes;
        *ext = &s->ext;
    }
    if (!(ls = s->kinds[a->kind])) {
        tt_key key;
        memset(&key, 0, sizeof key);
        key.kind = a->kind;
        if (!(ls = calloc(tr->n_lanes ? tr->n_lanes : 1, sizeof *ls)))
            return -1;
        for (uint32_t l = 0; l < tr->n_lanes; l++)
            ls[l].zero_op = INT64_MIN;
        if (build_host(tr, a->at, &key, ls) || build_dev(tr, a->at, &key, ls)) {
            kind_free(ls, tr->n_lanes);
            return -1;
        }
        s->kinds[a->kind] = ls;
    }
    /* The instants an exclusive `to` leaves out add nothing (no self
     * time, no device time), unless one launched device work: the walk
     * then leaves its kernels out too. */
    for (size_t li = 0; li < tt_sel_lane_count(tr, a->sel) && !a->sel->to_inclusive; li++)
        if (ls[tt_sel_lane(a->sel, li)].zero_op == a->sel->to)
            return 1;
    for (size_t li = 0; li < tt_sel_lane_count(tr, a->sel); li++) {
        const lane_sums *l = &ls[tt_sel_lane(a->sel, li)];
        for (size_t j = 0; j < l->n_host; j++)
            if (l->host[j].id < a->n_ids && a->row[l->host[j].id] >= 0)
                a->host[a->row[l->host[j].id]] += l->host[j].sum;
        for (size_t j = 0; j < l->n_dev; j++)
            if (l->dev[j].id < a->n_ids && a->row[l->dev[j].id] >= 0 &&
                lane_selected(a->sel, l->dev[j].dev_lane))
                a->dev[a->row[l->dev[j].id]] += l->dev[j].sum;
    }
    return 0;
}

bool tt_selfsum_covers(const tt_trace *tr, const tt_sel *sel, uint32_t lane)
{
    const tt_lane *ln = &tr->lanes[lane];
    if (ln->n == 0)
        return true;
    /* every event: from <= start, end <= to; with an exclusive end, the
     * zero-length events at `to` are left out (tt_selfsum_add checks that
     * leaving them out changes nothing) */
    return ln->ev[0].start >= sel->from &&
           tt_index_prefix_max_end(ln->ev, ln->n, ln->n - 1) <= sel->to;
}

int tt_selfsum_add(const tt_trace *tr, const tt_sel *sel, tt_key_kind kind, const int32_t *row,
                   size_t n_ids, tt_ns *host, tt_ns *dev, tt_error *err)
{
    ask a = {.sel = sel, .kind = kind, .row = row, .n_ids = n_ids, .host = host, .dev = dev};
    int rc;
    if (kind >= N_KINDS) {
        tt_error_set(err, TT_ERR_USAGE, "self times by an argument are not kept");
        return -1;
    }
    if (!(a.at = tt_attrib_get(tr, err)))
        return -1;
    if ((rc = tt_selsum_with_ext(tr, TT_SS_EXT_SELF, add_locked, &a)) < 0) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory summing self times");
        return -1;
    }
    return rc;
}
