/* mstats.c - statistics of a box over several ranks or collectives (see
 * mstats.h). */
#include "config.h"

#include "tui/mstats.h"

#include "analysis/transfers.h"
#include "index/index.h"
#include "tui/boxexport.h"
#include "tui/selfcols.h"
#include "tui/statpanel.h"
#include "tui/table.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/num.h"
#include "util/sort.h"
#include "util/text.h"
#include "util/u64map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tt_ms_init(tt_mstats *m)
{
    memset(m, 0, sizeof *m);
    tt_plist_init(&m->pl);
}

static void free_rows(tt_mstats *m)
{
    for (size_t i = 0; i < m->n_rows; i++)
        free(m->rows[i].label);
    free(m->rows);
    m->rows = NULL;
    m->n_rows = 0;
}

static void free_results(tt_mstats *m)
{
    for (size_t i = 0; i < m->n_r; i++) {
        tt_laneset_fini(&m->r[i].lanes);
        tt_summary_free(m->r[i].sum);
    }
    free(m->r);
    m->r = NULL;
    m->n_r = 0;
    free(m->cgroups);
    m->cgroups = NULL;
    free_rows(m);
}

void tt_ms_fini(tt_mstats *m)
{
    free_results(m);
    tt_plist_fini(&m->pl);
    tt_ms_init(m);
}

/* Forget the last selection, keeping the line storage; a new one shows
 * its panel from the top. */
static void reset(tt_mstats *m)
{
    tt_plist keep = m->pl;
    free_results(m);
    tt_plist_clear(&keep);
    keep.cur = keep.top = 0;
    tt_ms_init(m);
    m->pl = keep;
}

static int nomem(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
}

/* ------------------------------------------------------ merged groups */

/* Groups by label text: a map from the label's hash (probing on a
 * collision of different texts) to the row, and the values per row. */
typedef struct merger {
    tt_u64map  map;
    tt_ms_row *rows;
    size_t     n, cap;
    int64_t  **vals;
    size_t    *nv, *capv;
} merger;

static void merger_fini(merger *g, bool keep_rows)
{
    tt_u64map_fini(&g->map);
    for (size_t i = 0; i < g->n; i++) {
        free(g->vals[i]);
        if (!keep_rows)
            free(g->rows[i].label);
    }
    if (!keep_rows)
        free(g->rows);
    free(g->vals);
    free(g->nv);
    free(g->capv);
}

static int64_t merger_slot(merger *g, const char *label, bool none)
{
    uint64_t key = none ? 0 : tt_hash_bytes(label, strlen(label), 0x6d7374617473ULL) | 1;
    for (;;) {
        uint32_t *at = tt_u64map_get(&g->map, key);
        if (!at)
            break;
        if (g->rows[*at].none == none && strcmp(g->rows[*at].label, label) == 0)
            return *at;
        key = key * 6364136223846793005ULL + 1442695040888963407ULL;
        key |= none ? 0 : 1;
    }
    if (g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 64;
        tt_ms_row *nr = realloc(g->rows, nc * sizeof *nr);
        int64_t **nvals;
        size_t *nn, *nc2;
        if (!nr)
            return -1;
        g->rows = nr;
        if (!(nvals = realloc(g->vals, nc * sizeof *nvals)))
            return -1;
        g->vals = nvals;
        if (!(nn = realloc(g->nv, nc * sizeof *nn)))
            return -1;
        g->nv = nn;
        if (!(nc2 = realloc(g->capv, nc * sizeof *nc2)))
            return -1;
        g->capv = nc2;
        g->cap = nc;
    }
    memset(&g->rows[g->n], 0, sizeof g->rows[g->n]);
    tt_selfcols_clear(&g->rows[g->n].self, 1);
    g->rows[g->n].none = none;
    if (!(g->rows[g->n].label = strdup(label)))
        return -1;
    g->vals[g->n] = NULL;
    g->nv[g->n] = g->capv[g->n] = 0;
    if (tt_u64map_put(&g->map, key, (uint32_t)g->n)) {
        free(g->rows[g->n].label);
        return -1;
    }
    return (int64_t)g->n++;
}

static int merger_add(merger *g, size_t slot, int64_t v)
{
    if (g->nv[slot] == g->capv[slot]) {
        size_t nc = g->capv[slot] ? g->capv[slot] * 2 : 16;
        int64_t *nv = realloc(g->vals[slot], nc * sizeof *nv);
        if (!nv)
            return -1;
        g->vals[slot] = nv;
        g->capv[slot] = nc;
    }
    g->vals[slot][g->nv[slot]++] = v;
    return 0;
}

typedef struct sort_ctx {
    tt_brk_order by;
} sort_ctx;

/* The one-trace breakdown's order (tt_brk_compare), largest first. */
static int cmp_row(const void *pa, const void *pb, void *ctx)
{
    const tt_ms_row *a = pa, *b = pb;
    tt_brk_order by = ((const sort_ctx *)ctx)->by;
    return tt_brk_compare(&a->d, a->none, a->label, &b->d, b->none, b->label, by, true);
}

static void sort_rows(tt_mstats *m)
{
    sort_ctx s = {m->order};
    tt_sort(m->rows, m->n_rows, sizeof *m->rows, cmp_row, &s);
}

/* Add the self times of ids[0..n) on a rank's part to the rows
 * slots[0..n) (selfcols.h: the one-trace panel's code, then summed). */
static int add_self(merger *g, const tt_trace *tr, const tt_ms_rank *p, const tt_key *key,
                    const uint32_t *ids, const uint32_t *slots, size_t n, tt_error *err)
{
    tt_tab_self *v = malloc((n ? n : 1) * sizeof *v);
    int rc;
    if (!v)
        return nomem(err);
    for (size_t i = 0; i < n; i++)
        v[i] = g->rows[slots[i]].self;
    rc = tt_selfcols_add(tr, &p->sel, key, ids, n, v, err);
    for (size_t i = 0; i < n && rc == 0; i++)
        g->rows[slots[i]].self = v[i];
    free(v);
    return rc;
}

/* A rank's part of the breakdown: its events' clipped durations into the
 * rows of their label's text (a map from the rank's key id to the row
 * spares a hash of the text per event), then their self times. */
static int add_rank(tt_mstats *m, merger *g, const tt_ms_rank *p, tt_idxbuf *buf, tt_error *err)
{
    const tt_trace *tr = m->rk[p->rank].tr;
    tt_u64map byid;
    uint32_t *ids = NULL, *slots = NULL;
    size_t n = 0, cap = 0, cap2 = 0;
    int rc = 0;
    tt_u64map_init(&byid);
    for (size_t li = 0; li < p->lanes.n && rc == 0; li++) {
        uint32_t lane = p->lanes.v[li];
        const tt_event *ev = tr->lanes[lane].ev;
        if (tt_sel_lane_events(tr, &p->sel, lane, buf)) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < buf->n; k++) {
            const tt_event *e = &ev[buf->v[k]];
            uint32_t id = tt_key_string_id(tr, &m->key, e), *at = tt_u64map_get(&byid, id);
            int64_t slot = at ? (int64_t)*at : merger_slot(g, tt_str(tr, id), id == 0);
            if (slot < 0) {
                rc = -1;
                break;
            }
            if (!at) {
                if (tt_grow_one((void **)&ids, &cap, n, sizeof *ids) ||
                    tt_grow_one((void **)&slots, &cap2, n, sizeof *slots) ||
                    tt_u64map_put(&byid, id, (uint32_t)slot)) {
                    rc = -1;
                    break;
                }
                ids[n] = id;
                slots[n++] = (uint32_t)slot;
            }
            if (merger_add(g, (size_t)slot, tt_sel_clip(&p->sel, e))) {
                rc = -1;
                break;
            }
        }
    }
    if (rc)
        nomem(err);
    else
        rc = add_self(g, tr, p, &m->key, ids, slots, n, err);
    tt_u64map_fini(&byid);
    free(ids);
    free(slots);
    return rc;
}

/* The rows' shares of self time, over all of them (selfcols.h). */
static int share_rows(tt_ms_row *rows, size_t n)
{
    tt_tab_self *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < n; i++)
        v[i] = rows[i].self;
    tt_selfcols_share(v, n);
    for (size_t i = 0; i < n; i++)
        rows[i].self = v[i];
    free(v);
    return 0;
}

/* The breakdown by m->key over every rank's part. */
static int compute_breakdown(tt_mstats *m, tt_error *err)
{
    merger g;
    tt_idxbuf buf;
    int rc = 0;
    memset(&g, 0, sizeof g);
    tt_u64map_init(&g.map);
    tt_idxbuf_init(&buf);
    free_rows(m);
    m->sum_total = 0;
    for (size_t i = 0; i < m->n_r && rc == 0; i++)
        rc = add_rank(m, &g, &m->r[i], &buf, err);
    if (rc == 0 && share_rows(g.rows, g.n))
        rc = nomem(err);
    if (rc == 0) {
        for (size_t s = 0; s < g.n; s++) {
            tt_dist_compute(g.vals[s], g.nv[s], &g.rows[s].d);
            m->sum_total += g.rows[s].d.total;
        }
        for (size_t s = 0; s < g.n; s++)
            g.rows[s].share = m->sum_total > 0
                ? 100.0 * (double)g.rows[s].d.total / (double)m->sum_total : 0.0;
        m->rows = g.rows;
        m->n_rows = g.n;
        sort_rows(m);
    }
    merger_fini(&g, rc == 0);
    tt_idxbuf_fini(&buf);
    return rc ? -1 : 0;
}

static bool trace_has_opcodes(const tt_trace *tr)
{
    if (!tr->attrs)
        return false;
    for (uint32_t i = 1; i < tr->attrs->count; i++)
        if (tr->attrs->tuple[i].opcode)
            return true;
    return false;
}

int tt_ms_ranks(tt_mstats *m, const tt_vrank *rk, size_t n_rk, const uint32_t *base,
                tt_ns from, tt_ns to, const uint32_t *glanes, size_t n, tt_error *err)
{
    bool opcodes = false;
    reset(m);
    m->kind = TT_MS_RANKS;
    m->rk = rk;
    m->n_rk = n_rk;
    m->from = from;
    m->to = to > from ? to : from;
    m->r = calloc(n_rk ? n_rk : 1, sizeof *m->r);
    if (!m->r)
        goto oom;
    /* job-wide lanes come in rank order: split them */
    for (size_t i = 0, k = 0; i < n_rk; i++) {
        uint32_t end = base[i] + rk[i].tr->n_lanes;
        tt_ms_rank *p = &m->r[m->n_r];
        while (k < n && glanes[k] < base[i])
            k++;
        if (k >= n || glanes[k] >= end)
            continue;
        memset(p, 0, sizeof *p);
        tt_laneset_init(&p->lanes);
        p->rank = i;
        m->n_r++;
        for (; k < n && glanes[k] < end; k++)
            if (tt_laneset_add(&p->lanes, glanes[k] - base[i]))
                goto oom;
        if (tt_laneset_finish(&p->lanes))
            goto oom;
        m->n_lanes += p->lanes.n;
        p->sel.from = m->from - rk[i].off;
        p->sel.to = m->to - rk[i].off;
        p->sel.to_inclusive = false;
        tt_sel_lanes(&p->sel, &p->lanes);
        if (tt_summary_compute(rk[i].tr, &p->sel, &p->sum, err) ||
            tt_gpu_time_compute(rk[i].tr, &p->sel, &p->gpu, err))
            goto fail;
        p->has_gpu = p->gpu.kernels + p->gpu.memcpys + p->gpu.memsets > 0;
        m->events += p->sum->events;
        m->total += p->sum->total;
        m->total_clipped += p->sum->total_clipped;
        opcodes |= trace_has_opcodes(rk[i].tr);
    }
    m->order = TT_BRK_TOTAL;
    memset(&m->key, 0, sizeof m->key);
    m->key.kind = opcodes ? TT_KEY_OPCODE : TT_KEY_NAME;
    if (compute_breakdown(m, err))
        goto fail;
    if (m->key.kind == TT_KEY_OPCODE &&
        (m->n_rows == 0 || (m->n_rows == 1 && m->rows[0].none))) {
        m->key.kind = TT_KEY_NAME;
        if (compute_breakdown(m, err))
            goto fail;
    }
    m->valid = m->fresh = true;
    return 0;
oom:
    nomem(err);
fail:
    tt_ms_fini(m);
    return -1;
}

int tt_ms_colls(tt_mstats *m, const tt_vrank *rk, size_t n_rk, const tt_collview *cv,
                tt_ns from, tt_ns to, const uint32_t *groups, size_t n, tt_error *err)
{
    merger g;
    memset(&g, 0, sizeof g);
    tt_u64map_init(&g.map);
    reset(m);
    m->kind = TT_MS_COLLS;
    m->rk = rk;
    m->n_rk = n_rk;
    m->from = from;
    m->to = to > from ? to : from;
    m->cv = cv;
    m->r = calloc(n_rk ? n_rk : 1, sizeof *m->r);
    m->cgroups = malloc((n ? n : 1) * sizeof *m->cgroups);
    if (!m->r || !m->cgroups)
        goto oom;
    for (size_t i = 0; i < n_rk; i++) {
        tt_laneset_init(&m->r[i].lanes);
        m->r[i].rank = i;
    }
    m->n_r = n_rk;
    for (size_t k = 0; k < n; k++) {
        const tt_cgroup *c;
        int64_t slot;
        tt_ns wait = 0;
        if (groups[k] >= cv->n)
            continue;
        c = &cv->g[groups[k]];
        /* the collective meets the window: an instant one at its start */
        if (!(c->t_first < m->to && (c->e_last > m->from || c->t_first >= m->from)))
            continue;
        m->cgroups[m->n_colls++] = groups[k];
        for (size_t x = c->first; x < c->first + c->n; x++) {
            const tt_coll *e = &cv->c.v[x];
            tt_ms_rank *p = &m->r[e->rank];
            p->colls++;
            p->dur += e->dur;
            p->wait += e->wait;
            wait += e->wait;
            if (x == c->late && c->n > 1)
                p->late++;
        }
        slot = merger_slot(&g, cv->label[cv->c.v[c->first].name], false);
        if (slot < 0 || merger_add(&g, (size_t)slot, c->t_last - c->t_first))
            goto oom;
        g.rows[slot].wait += wait;
        m->total += wait;
    }
    for (size_t s = 0; s < g.n; s++)
        tt_dist_compute(g.vals[s], g.nv[s], &g.rows[s].d);
    m->rows = g.rows;
    m->n_rows = g.n;
    m->order = TT_BRK_TOTAL;
    sort_rows(m);
    merger_fini(&g, true);
    m->valid = m->fresh = true;
    return 0;
oom:
    merger_fini(&g, false);
    nomem(err);
    tt_ms_fini(m);
    return -1;
}

int tt_ms_cycle_key(tt_mstats *m, tt_error *err)
{
    if (!m->valid || m->kind != TT_MS_RANKS)
        return 0;
    m->key.kind = tt_tab_next_key(m->key.kind);
    m->built = false;
    return compute_breakdown(m, err);
}

void tt_ms_cycle_order(tt_mstats *m)
{
    if (!m->valid || m->kind != TT_MS_RANKS)
        return;
    m->order = tt_tab_next_order(m->order);
    sort_rows(m);
    m->built = false;
}

/* ------------------------------------------------------------- lines */

static int lines_breakdown(tt_mstats *m)
{
    char line[2048], v[64];
    if (!tt_plist_addf(&m->pl, TT_R_PANEL_TITLE, "By %s over the ranks, sorted by %s%s%s row%s%s",
                       tt_tab_key_title(m->key.kind), tt_tab_order_title(m->order), tt_tab_sep(m->utf8),
                       tt_fmt_count(v, sizeof v, m->n_rows), m->n_rows == 1 ? "" : "s",
                       tt_tab_self_note(m->utf8)))
        return -1;
    tt_tab_brk_head(line, sizeof line, m->key.kind, m->width, true, m->utf8);
    if (!tt_plist_add(&m->pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < m->n_rows; i++) {
        const tt_ms_row *r = &m->rows[i];
        tt_tab_brk_row(line, sizeof line, m->key.kind, r->label, r->none, &r->d, r->share, &r->self,
                       m->width, m->utf8);
        if (!tt_plist_item(&m->pl, TT_R_PANEL, TT_MS_LINE_ROW, (int64_t)i, line))
            return -1;
    }
    return 0;
}

static int lines_ranks(tt_mstats *m)
{
    char line[2048], v[64];
    int bw = m->width >= 100 ? 10 : 0;
    bool wd = m->width >= 100;
    tt_ns win = m->to - m->from;
    size_t o = 0;
    if (!tt_plist_addf(&m->pl, TT_R_PANEL_TITLE, "Ranks%sdevice time in the box",
                       tt_tab_sep(m->utf8)))
        return -1;
    tt_tab_col(line, sizeof line, &o, "Rank", 6, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Lanes", 7, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Events", 9, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Busy", 12, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Util", 8, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Comm", 12, false, m->utf8);
    if (wd) {
        tt_tab_col(line, sizeof line, &o, "Compute", 12, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, "Exposed comm", 13, false, m->utf8);
    }
    if (!tt_plist_add(&m->pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < m->n_r; i++) {
        const tt_ms_rank *p = &m->r[i];
        double u = tt_stats_util(p->sum->busy, win);
        char rn[32];
        o = 0;
        snprintf(rn, sizeof rn, "%lld", (long long)m->rk[p->rank].rank);
        tt_tab_col(line, sizeof line, &o, rn, 6, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, p->lanes.n), 7, false,
                   m->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, p->sum->events), 9, false,
                   m->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, p->sum->busy, 3), 12, false,
                   m->utf8);
        snprintf(v, sizeof v, "%.1f%%", 100.0 * u);
        tt_tab_col(line, sizeof line, &o, v, 8, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, p->gpu.communication, 3), 12,
                   false, m->utf8);
        if (wd) {
            tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, p->gpu.computation, 3), 12,
                       false, m->utf8);
            tt_tab_col(line, sizeof line, &o,
                       tt_fmt_dur(v, sizeof v, p->gpu.exposed_communication, 3), 13, false,
                       m->utf8);
        }
        if (bw && o + 1 < sizeof line) {
            line[o++] = ' ';
            tt_tab_bar(line, sizeof line, &o, u, bw, m->utf8);
        }
        if (!tt_plist_item(&m->pl, TT_R_PANEL, TT_MS_LINE_RANK, (int64_t)p->rank, line))
            return -1;
    }
    return 0;
}

static int lines_lanes(tt_mstats *m)
{
    char line[2048], name[600], v[64];
    int nw = m->width - 9 - 12 - 8;
    tt_ns win = m->to - m->from;
    size_t o = 0;
    if (nw < 8)
        nw = 8;
    if (!tt_plist_addf(&m->pl, TT_R_PANEL_TITLE, "Lanes%sutilization in the box", tt_tab_sep(m->utf8)))
        return -1;
    tt_tab_col(line, sizeof line, &o, "Lane", nw, true, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Events", 9, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Busy", 12, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Util", 8, false, m->utf8);
    if (!tt_plist_add(&m->pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < m->n_r; i++) {
        const tt_ms_rank *p = &m->r[i];
        const tt_vrank *r = &m->rk[p->rank];
        for (size_t k = 0; k < p->sum->n_lanes; k++) {
            const tt_lane_stat *ls = &p->sum->lanes[k];
            char full[700];
            o = 0;
            tt_lane_fullname(r->tr, ls->lane, name, sizeof name);
            snprintf(full, sizeof full, "r%lld / %s", (long long)r->rank, name);
            tt_tab_col(line, sizeof line, &o, full, nw, true, m->utf8);
            tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, ls->events), 9, false,
                       m->utf8);
            tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, ls->busy, 3), 12, false,
                       m->utf8);
            snprintf(v, sizeof v, "%.1f%%", 100.0 * tt_stats_util(ls->busy, win));
            tt_tab_col(line, sizeof line, &o, v, 8, false, m->utf8);
            if (!tt_plist_item(&m->pl, TT_R_PANEL, TT_MS_LINE_LANE,
                               (int64_t)(((uint64_t)p->rank << 32) | ls->lane), line))
                return -1;
        }
    }
    return 0;
}

/* One `tracetty report` command per rank: its own window and lanes. */
static int lines_commands(tt_mstats *m)
{
    char key[TT_KEY_ARG_MAX + 8];
    tt_key_str(&m->key, key, sizeof key);
    if (!tt_plist_addf(&m->pl, TT_R_PANEL_TITLE, "The same numbers in batch, rank by rank "
                       "(counts and totals add up to the rows above)"))
        return -1;
    for (size_t i = 0; i < m->n_r; i++) {
        const tt_ms_rank *p = &m->r[i];
        const tt_vrank *r = &m->rk[p->rank];
        char a[48], b[48], pats[4096], q[4 * 4096 + 8], file[4 * 1024 + 8];
        char cmd[sizeof q + sizeof file + 300];
        bool cut = false;
        tt_sp_time_token(p->sel.from - r->tr->t0, a, sizeof a);
        tt_sp_time_token(p->sel.to - r->tr->t0, b, sizeof b);
        tt_sp_lane_patterns(r->tr, p->lanes.v, p->lanes.n, pats, sizeof pats, &cut);
        tt_shell_quote(pats, q, sizeof q, NULL);
        if (r->path)
            tt_shell_quote(r->path, file, sizeof file, NULL);
        else
            snprintf(file, sizeof file, "TRACE");
        snprintf(cmd, sizeof cmd, "tracetty report --kind ops --by %s --window %s:%s --lanes %s "
                                  "%s%s", key, a, b, q, file, cut ? " (list cut short)" : "");
        if (tt_plist_wrap(&m->pl, TT_R_PANEL_KEY, cmd, m->width))
            return -1;
    }
    return 0;
}

static int lines_ranks_box(tt_mstats *m)
{
    char line[600], ev[32], t1[48], t2[48];
    snprintf(line, sizeof line, "%s event%s%stotal %s (%s in the box)%s%zu lane%s of %zu rank%s",
             tt_fmt_count(ev, sizeof ev, m->events), m->events == 1 ? "" : "s", tt_tab_sep(m->utf8),
             tt_fmt_dur(t1, sizeof t1, m->total, 3),
             tt_fmt_dur(t2, sizeof t2, m->total_clipped, 3), tt_tab_sep(m->utf8), m->n_lanes,
             m->n_lanes == 1 ? "" : "s", m->n_r, m->n_r == 1 ? "" : "s");
    if (tt_plist_wrap(&m->pl, TT_R_PANEL, line, m->width) || lines_ranks(m) ||
        lines_breakdown(m) || lines_lanes(m) || lines_commands(m))
        return -1;
    return 0;
}

static int lines_colls_box(tt_mstats *m)
{
    char line[2048], v[64], w[48];
    size_t o = 0;
    int bw = m->width >= 90 ? 12 : 0;
    tt_ns wmax = 0;
    snprintf(line, sizeof line, "%zu collective%s in the box%swaiting in them: %s in all",
             m->n_colls, m->n_colls == 1 ? "" : "s", tt_tab_sep(m->utf8),
             tt_fmt_dur(w, sizeof w, m->total, 3));
    if (tt_plist_wrap(&m->pl, TT_R_PANEL, line, m->width))
        return -1;
    for (size_t i = 0; i < m->n_r; i++)
        if (m->r[i].wait > wmax)
            wmax = m->r[i].wait;
    if (!tt_plist_addf(&m->pl, TT_R_PANEL_TITLE, "Ranks%sin these collectives (the rank that "
                       "arrives last waits least)", tt_tab_sep(m->utf8)))
        return -1;
    tt_tab_col(line, sizeof line, &o, "Rank", 6, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Count", 8, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Duration", 13, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Wait", 13, false, m->utf8);
    tt_tab_col(line, sizeof line, &o, "Last", 7, false, m->utf8);
    if (!tt_plist_add(&m->pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < m->n_r; i++) {
        const tt_ms_rank *p = &m->r[i];
        char rn[32];
        if (p->colls == 0)
            continue;
        o = 0;
        snprintf(rn, sizeof rn, "%lld", (long long)m->rk[p->rank].rank);
        tt_tab_col(line, sizeof line, &o, rn, 6, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, p->colls), 8, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, p->dur, 3), 13, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, p->wait, 3), 13, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, p->late), 7, false, m->utf8);
        if (bw && o + 2 < sizeof line) {
            line[o++] = ' ';
            line[o++] = ' ';
            tt_tab_bar(line, sizeof line, &o, wmax > 0 ? (double)p->wait / (double)wmax : 0, bw,
                       m->utf8);
        }
        if (!tt_plist_item(&m->pl, TT_R_PANEL, TT_MS_LINE_RANK, (int64_t)p->rank, line))
            return -1;
    }
    {
        int nw = m->width - 8 - 13 - 13 - 13;
        if (nw < 8)
            nw = 8;
        if (!tt_plist_add(&m->pl, TT_R_PANEL_TITLE, "By collective"))
            return -1;
        o = 0;
        tt_tab_col(line, sizeof line, &o, "Collective", nw, true, m->utf8);
        tt_tab_col(line, sizeof line, &o, "Count", 8, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, "Avg spread", 13, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, "Max spread", 13, false, m->utf8);
        tt_tab_col(line, sizeof line, &o, "Total wait", 13, false, m->utf8);
        if (!tt_plist_add(&m->pl, TT_R_PANEL_KEY, line))
            return -1;
        for (size_t i = 0; i < m->n_rows; i++) {
            const tt_ms_row *r = &m->rows[i];
            o = 0;
            tt_tab_col(line, sizeof line, &o, r->label, nw, true, m->utf8);
            tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, r->d.n), 8, false,
                       m->utf8);
            tt_tab_col(line, sizeof line, &o, tt_tab_dur(v, sizeof v, r->d.avg), 13, false, m->utf8);
            tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, r->d.max, 3), 13, false,
                       m->utf8);
            tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, r->wait, 3), 13, false,
                       m->utf8);
            if (!tt_plist_item(&m->pl, TT_R_PANEL, TT_MS_LINE_ROW, (int64_t)i, line))
                return -1;
        }
    }
    {
        char files[8192], cmd[sizeof files + 300];
        snprintf(cmd, sizeof cmd, "tracetty report --kind collectives %s (one row per collective "
                                  "and rank: sum Duration and Wait per rank; e writes those rows "
                                  "of the collectives in the box)",
                 tt_vrank_shell_files(m->rk, m->n_rk, files, sizeof files));
        return tt_plist_add(&m->pl, TT_R_PANEL_TITLE, "The same numbers in batch") &&
                       tt_plist_wrap(&m->pl, TT_R_PANEL_KEY, cmd, m->width) == 0
                   ? 0
                   : -1;
    }
}

/* ------------------------------------------------- highlight, export */

static int hits_alloc(tt_hits *h, const tt_trace *tr)
{
    tt_hits_fini(h);
    h->n_lanes = tr->n_lanes;
    h->pos = calloc((size_t)h->n_lanes + 1, sizeof *h->pos);
    h->n = calloc((size_t)h->n_lanes + 1, sizeof *h->n);
    return h->pos && h->n ? 0 : -1;
}

/* Keep the positions v[0..n) of lane in h (copied). */
static int hits_put(tt_hits *h, uint32_t lane, const uint32_t *v, size_t n)
{
    if (n == 0)
        return 0;
    if (!(h->pos[lane] = malloc(n * sizeof **h->pos)))
        return -1;
    memcpy(h->pos[lane], v, n * sizeof **h->pos);
    h->n[lane] = n;
    h->total += n;
    return 0;
}

/* Each rank's events in its part of the box whose key reads as the row's
 * label (the merge of compute_breakdown, by text). */
static int ranks_hits(const tt_mstats *m, const tt_ms_row *r, tt_hits *hits)
{
    tt_idxbuf buf;
    int rc = 0;
    tt_idxbuf_init(&buf);
    for (size_t i = 0; i < m->n_r && rc == 0; i++) {
        const tt_ms_rank *p = &m->r[i];
        const tt_trace *tr = m->rk[p->rank].tr;
        /* strings are interned: one id reads as the label */
        uint32_t yes = UINT32_MAX;
        for (size_t li = 0; li < p->lanes.n && rc == 0; li++) {
            uint32_t lane = p->lanes.v[li];
            const tt_event *ev = tr->lanes[lane].ev;
            size_t k = 0;
            if (tt_sel_lane_events(tr, &p->sel, lane, &buf)) {
                rc = -1;
                break;
            }
            for (size_t j = 0; j < buf.n; j++) {
                uint32_t id = tt_key_string_id(tr, &m->key, &ev[buf.v[j]]);
                if (id != yes && ((id == 0) != r->none || strcmp(tt_str(tr, id), r->label) != 0))
                    continue;
                yes = id;
                buf.v[k++] = buf.v[j];
            }
            rc = hits_put(&hits[p->rank], lane, buf.v, k);
        }
    }
    tt_idxbuf_fini(&buf);
    return rc;
}

static int cmp_u32(const void *pa, const void *pb, void *ctx)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    (void)ctx;
    return (a > b) - (a < b);
}

/* The kernels of the box's collectives labelled like the row. */
static int colls_hits(const tt_mstats *m, const tt_ms_row *r, tt_hits *hits)
{
    const tt_collview *cv = m->cv;
    for (size_t k = 0; k < m->n_colls; k++) {
        const tt_cgroup *c = &cv->g[m->cgroups[k]];
        if (strcmp(cv->label[cv->c.v[c->first].name], r->label) != 0)
            continue;
        for (size_t x = c->first; x < c->first + c->n; x++) {
            const tt_coll *e = &cv->c.v[x];
            tt_hits *h = &hits[e->rank];
            uint32_t *np = realloc(h->pos[e->ev.lane], (h->n[e->ev.lane] + 1) * sizeof *np);
            if (!np)
                return -1;
            h->pos[e->ev.lane] = np;
            np[h->n[e->ev.lane]++] = e->ev.idx;
            h->total++;
        }
    }
    for (size_t i = 0; i < m->n_rk; i++)
        for (uint32_t l = 0; l < hits[i].n_lanes; l++)
            if (hits[i].n[l] > 1 &&
                tt_sort(hits[i].pos[l], hits[i].n[l], sizeof *hits[i].pos[l], cmp_u32, NULL))
                return -1;
    return 0;
}

int tt_ms_row_hits(const tt_mstats *m, size_t row, tt_hits *hits, uint64_t *total)
{
    int rc = 0;
    *total = 0;
    if (!m->valid || row >= m->n_rows)
        return -1;
    for (size_t i = 0; i < m->n_rk && rc == 0; i++)
        rc = hits_alloc(&hits[i], m->rk[i].tr);
    if (rc == 0)
        rc = m->kind == TT_MS_RANKS ? ranks_hits(m, &m->rows[row], hits)
                                    : colls_hits(m, &m->rows[row], hits);
    for (size_t i = 0; i < m->n_rk; i++) {
        if (rc)
            tt_hits_fini(&hits[i]);
        else
            *total += hits[i].total;
    }
    return rc ? -1 : 0;
}

static const char *rank_file(const tt_vrank *r)
{
    return r->path ? r->path : r->file;
}

static int export_colls(const tt_mstats *m, const char *path, tt_error *err)
{
    const tt_collview *cv = m->cv;
    size_t n = 0, k = 0;
    tt_box_coll *rows;
    int rc;
    for (size_t i = 0; i < m->n_colls; i++)
        n += cv->g[m->cgroups[i]].n;
    if (!(rows = malloc((n ? n : 1) * sizeof *rows)))
        return nomem(err);
    for (size_t i = 0; i < m->n_colls; i++) {
        const tt_cgroup *c = &cv->g[m->cgroups[i]];
        for (size_t x = c->first; x < c->first + c->n; x++) {
            const tt_coll *e = &cv->c.v[x];
            tt_box_coll *o = &rows[k++];
            o->rank = m->rk[e->rank].rank;
            o->name = tt_coll_name(&cv->c, e);
            o->seq = e->seq;
            o->start = e->start;
            o->offset = e->offset;
            o->dur = e->dur;
            o->wait = e->wait;
            o->ranks = e->ranks;
            o->trace = rank_file(&m->rk[e->rank]);
        }
    }
    rc = tt_coll_rows_sort(rows, n) ? nomem(err)
         : tt_box_export_colls(path, rows, n, err);
    free(rows);
    return rc ? -1 : 0;
}

/* Does anything in a rank's part of the box carry bytes? */
static int part_transfers(const tt_mstats *m, const tt_ms_rank *p, bool *any, tt_error *err)
{
    tt_transfers *x = NULL;
    tt_key name_key;
    memset(&name_key, 0, sizeof name_key);
    name_key.kind = TT_KEY_NAME;
    if (tt_transfers_compute(m->rk[p->rank].tr, &p->sel, &name_key, &x, err))
        return -1;
    *any = *any || x->all.bytes.n > 0;
    tt_transfers_free(x);
    return 0;
}

int tt_ms_export(const tt_mstats *m, const char *path, size_t *n, char *what, size_t cap,
                 tt_error *err)
{
    tt_box_part *parts;
    bool xfer = false, gpu = false;
    int rc = 0;
    *n = 0;
    if (!m->valid)
        return tt_error_set(err, TT_ERR_USAGE, "no box");
    if (m->kind == TT_MS_COLLS) {
        if (export_colls(m, path, err))
            return -1;
        *n = 1;
        snprintf(what, cap, "the collectives' rows");
        return 0;
    }
    if (!(parts = calloc(m->n_r ? m->n_r : 1, sizeof *parts)))
        return nomem(err);
    for (size_t i = 0; i < m->n_r && rc == 0; i++) {
        const tt_ms_rank *p = &m->r[i];
        parts[i].tr = m->rk[p->rank].tr;
        parts[i].name = rank_file(&m->rk[p->rank]);
        parts[i].position = p->rank;
        parts[i].sel = &p->sel;
        gpu = gpu || p->has_gpu;
        if (!xfer)
            rc = part_transfers(m, p, &xfer, err);
    }
    if (rc == 0)
        rc = tt_box_export_ranks(path, parts, m->n_r, &m->key, xfer, gpu, err);
    free(parts);
    if (rc)
        return -1;
    *n = 2 + xfer + gpu;
    snprintf(what, cap, "ops, lanes%s%s", xfer ? ", transfers" : "", gpu ? ", gpu" : "");
    return 0;
}

int tt_ms_build(tt_mstats *m, int width, bool utf8)
{
    int rc;
    if (!m->valid)
        return 0;
    if (width > 1000)
        width = 1000;
    if (m->built && m->width == width && m->utf8 == utf8)
        return 0;
    m->width = width;
    m->utf8 = utf8;
    tt_plist_clear(&m->pl);
    rc = m->kind == TT_MS_RANKS ? lines_ranks_box(m) : lines_colls_box(m);
    tt_plist_clamp(&m->pl);
    if (rc == 0 && m->fresh) {
        tt_plist_goto_kind(&m->pl, TT_MS_LINE_RANK);
        m->fresh = false;
    }
    m->built = rc == 0;
    return rc;
}

const char *tt_ms_title(const tt_mstats *m, bool utf8, char *buf, size_t n)
{
    char a[48], b[48], w[48];
    if (!m->valid) {
        snprintf(buf, n, "Statistics");
        return buf;
    }
    tt_fmt_dur(a, sizeof a, m->from - m->origin, 3);
    tt_fmt_dur(b, sizeof b, m->to - m->origin, 3);
    tt_fmt_dur(w, sizeof w, m->to - m->from, 3);
    if (m->kind == TT_MS_COLLS)
        snprintf(buf, n, "Box %s%s%s (%s)%s%zu collective%s", a, tt_tab_dash(utf8), b, w, tt_tab_sep(utf8),
                 m->n_colls, m->n_colls == 1 ? "" : "s");
    else
        snprintf(buf, n, "Box %s%s%s (%s)%s%zu lane%s of %zu rank%s", a, tt_tab_dash(utf8), b, w,
                 tt_tab_sep(utf8), m->n_lanes, m->n_lanes == 1 ? "" : "s", m->n_r,
                 m->n_r == 1 ? "" : "s");
    return buf;
}
