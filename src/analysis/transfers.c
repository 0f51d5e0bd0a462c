/* transfers.c - bytes moved in a selection (see transfers.h). */
#include "config.h"

#include "analysis/transfers.h"

#include "analysis/intervals.h"
#include "analysis/selsum.h"
#include "analysis/setsum.h"
#include "index/index.h"
#include "util/grow.h"
#include "util/sort.h"
#include "util/strtab.h"

#include <stdlib.h>
#include <string.h>

void tt_transfers_free(tt_transfers *t)
{
    if (!t)
        return;
    free(t->rows);
    tt_arena_fini(&t->arena);
    free(t);
}

/* One selected transfer. */
typedef struct xfer {
    uint32_t gid;     /* group id (see compute) */
    int64_t  bytes;
    tt_ns    s, e;
} xfer;

static int cmp_gid(const void *pa, const void *pb, void *ctx)
{
    const xfer *a = pa, *b = pb;
    (void)ctx;
    return (a->gid > b->gid) - (a->gid < b->gid);
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
    const tt_xfer_row *a = pa, *b = pb;
    int c;
    (void)ctx;
    if (a->bytes.total != b->bytes.total)
        return a->bytes.total > b->bytes.total ? -1 : 1;
    if (a->bytes.n != b->bytes.n)
        return a->bytes.n > b->bytes.n ? -1 : 1;
    if (a->none != b->none)
        return a->none ? 1 : -1;
    c = strcmp(a->label, b->label);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

static double throughput(int64_t bytes, tt_ns busy)
{
    return busy > 0 ? (double)bytes * 1e9 / (double)busy : 0.0;
}

/* Fill a row from x[0..n) (one group, in selection order). */
static int fill_row(tt_xfer_row *r, const xfer *x, size_t n, int64_t *scratch, tt_ivals *iv)
{
    iv->n = 0;
    for (size_t i = 0; i < n; i++) {
        scratch[i] = x[i].bytes;
        r->hist[tt_xfer_bucket(x[i].bytes)]++;
        if (tt_ivals_push(iv, x[i].s, x[i].e))
            return -1;
    }
    if (tt_ivals_normalize(iv))
        return -1;
    r->busy = tt_ivals_length(iv);
    tt_dist_compute(scratch, n, &r->bytes);
    r->throughput = throughput(r->bytes.total, r->busy);
    return 0;
}

static int transfers_collect(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                             bool listed, tt_transfers **out, tt_error *err);

/* The positions of a lane's transfers in the selection, in the order
 * tt_sel_lane_events() lists them: those reaching in across `from`, those
 * starting inside, the instants at an inclusive `to` (select.h's parts),
 * from the lane's transfer positions (selsum.h). 0, or -1 on OOM. */
static int lane_transfers(const tt_trace *tr, const tt_sel *sel, uint32_t lane,
                          tt_sel_parts *p, tt_idxbuf *buf)
{
    const tt_event *ev = tr->lanes[lane].ev;
    const uint32_t *pos;
    size_t n, i = 0;
    buf->n = 0;
    if (tt_sel_lane_parts(tr, sel, lane, p) ||
        tt_selsum_transfer_positions(tr, lane, true, &pos, &n) < 0)
        return -1;
    for (size_t k = 0; k < p->left.n; k++) {
        if (ev[p->left.v[k]].bytes < 0)
            continue;
        if (tt_grow_one((void **)&buf->v, &buf->cap, buf->n, sizeof *buf->v))
            return -1;
        buf->v[buf->n++] = p->left.v[k];
    }
    while (i < n && pos[i] < p->a)
        i++;
    for (; i < n && pos[i] < p->c; i++) {
        if (pos[i] >= p->b && pos[i] < p->z)
            continue;
        if (tt_grow_one((void **)&buf->v, &buf->cap, buf->n, sizeof *buf->v))
            return -1;
        buf->v[buf->n++] = pos[i];
    }
    return 0;
}

int tt_transfers_compute_walk(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                              tt_transfers **out, tt_error *err)
{
    return transfers_collect(tr, sel, key, false, out, err);
}

/* The transfers of a selection; `listed`: from the lanes' transfer
 * positions instead of every event of the window (not for arg:KEY). */
static int transfers_collect(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                             bool listed, tt_transfers **out, tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel), n = 0, cap = 0, ngroups = 0;
    tt_transfers *t = calloc(1, sizeof *t);
    xfer *x = NULL;
    int64_t *scratch = NULL;
    tt_idxbuf buf;
    tt_sel_parts parts;
    tt_ivals iv;
    tt_strtab *vals = NULL;
    uint32_t *arg_gid = NULL;
    int rc = 0;
    bool bad_args = false;

    *out = NULL;
    if (!t)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    tt_arena_init(&t->arena);
    t->key = *key;
    tt_idxbuf_init(&buf);
    tt_sel_parts_init(&parts);
    tt_ivals_init(&iv);
    if (key->kind == TT_KEY_ARG && !(vals = tt_strtab_new()))
        rc = -1;

    /* arg:KEY: the group ids of the selection first, its arguments read
     * in storage order (key.h); the walk below takes them in turn */
    if (rc == 0 && key->kind == TT_KEY_ARG &&
        (rc = tt_key_sel_arg_groups(tr, sel, key, true, vals, &arg_gid, err)) == -2)
        bad_args = true;
    for (size_t li = 0; li < nl && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        if (listed ? lane_transfers(tr, sel, lane, &parts, &buf)
                   : tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < buf.n; k++) {
            const tt_event *e = &ln->ev[buf.v[k]];
            uint32_t gid;
            if (e->bytes < 0)
                continue;
            if (arg_gid) {
                gid = arg_gid[n];
            } else if (tt_key_group(tr, key, lane, e, NULL, vals, &gid, err)) {
                rc = -1;   /* not an arg key: reads no arguments, needs no cache */
                break;
            }
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 256;
                xfer *nx = realloc(x, nc * sizeof *nx);
                if (!nx) {
                    rc = -1;
                    break;
                }
                x = nx;
                cap = nc;
            }
            x[n].gid = gid;
            x[n].bytes = e->bytes;
            x[n].s = e->start;
            x[n].e = tt_event_end(e);
            n++;
        }
    }
    if (rc == 0 && !(scratch = malloc((n ? n : 1) * sizeof *scratch)))
        rc = -1;
    /* every transfer, in selection order (lane runs sorted by start) */
    if (rc == 0 && fill_row(&t->all, x, n, scratch, &iv))
        rc = -1;
    /* group: a stable sort by group id keeps each group's lane runs */
    if (rc == 0 && tt_sort(x, n, sizeof *x, cmp_gid, NULL))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (i == 0 || x[i].gid != x[i - 1].gid)
            ngroups++;
    if (rc == 0 && !(t->rows = calloc(ngroups ? ngroups : 1, sizeof *t->rows)))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < n;) {
        size_t j = i;
        tt_xfer_row *r = &t->rows[t->n];
        uint32_t gid = x[i].gid;
        const char *label;
        char lbuf[600];
        while (j < n && x[j].gid == gid)
            j++;
        if (fill_row(r, x + i, j - i, scratch, &iv)) {
            rc = -1;
            break;
        }
        label = tt_key_group_label(tr, key, vals, gid, lbuf, sizeof lbuf, &r->none, &r->id);
        if (!(r->label = tt_arena_strndup(&t->arena, label, strlen(label)))) {
            rc = -1;
            break;
        }
        t->n++;
        i = j;
    }
    t->all.label = "";
    if (rc == 0)
        tt_sort(t->rows, t->n, sizeof *t->rows, cmp_rows, NULL);
    free(x);
    free(scratch);
    tt_strtab_free(vals);
    free(arg_gid);
    tt_ivals_fini(&iv);
    tt_sel_parts_fini(&parts);
    tt_idxbuf_fini(&buf);
    if (rc) {
        tt_transfers_free(t);
        if (bad_args)
            return TT_ERR_FORMAT;
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    *out = t;
    return 0;
}

int tt_transfers_compute(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                         tt_transfers **out, tt_error *err)
{
    int r = tt_setsum_transfers(tr, sel, key, out, err);
    const uint32_t *pos;
    size_t n;
    bool listed;
    if (r < 0)
        return TT_ERR_NOMEM;   /* err set */
    if (r == 1)
        return 0;
    /* list the transfers from their positions when these are kept, or
     * worth keeping: a window over a quarter of the trace's span or more */
    listed = key->kind != TT_KEY_ARG && tr->n_lanes > 0 &&
             (sel->to - sel->from >= (tr->t1 - tr->t0) / 4 ||
              tt_selsum_transfer_positions(tr, 0, false, &pos, &n) == 1);
    return transfers_collect(tr, sel, key, listed, out, err);
}
