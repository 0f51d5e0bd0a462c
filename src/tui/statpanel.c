/* statpanel.c - statistics of a box or a name, and the panel's lines (see
 * statpanel.h). */
#include "config.h"

#include "tui/statpanel.h"

#include "tui/table.h"

#include "tui/selfcols.h"

#include "util/num.h"
#include "util/text.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MB as the transfers report prints them: 10^6 bytes. */
#define MB 1e6

void tt_sp_init(tt_statpanel *s)
{
    memset(s, 0, sizeof *s);
    tt_laneset_init(&s->lanes);
    tt_plist_init(&s->pl);
}

static void free_results(tt_statpanel *s)
{
    tt_summary_free(s->sum);
    tt_breakdown_free(s->brk);
    tt_transfers_free(s->xfer);
    free(s->nl);
    free(s->self_id);
    free(s->self);
    s->self_id = NULL;
    s->self = NULL;
    s->n_self = 0;
    s->sum = NULL;
    s->brk = NULL;
    s->xfer = NULL;
    s->nl = NULL;
    s->n_nl = 0;
    s->has_gpu = false;
}

void tt_sp_fini(tt_statpanel *s)
{
    free_results(s);
    tt_laneset_fini(&s->lanes);
    tt_plist_fini(&s->pl);
    tt_sp_init(s);
}

/* Forget the results of the last selection, keeping the line storage; a
 * new selection shows its panel from the top. */
static void reset(tt_statpanel *s)
{
    tt_plist keep = s->pl;
    free_results(s);
    tt_laneset_fini(&s->lanes);
    tt_plist_clear(&keep);
    keep.cur = keep.top = 0;
    tt_sp_init(s);
    s->pl = keep;
}

static int nomem(tt_error *err)
{
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
}

/* Does any event of the trace carry an opcode? (Few distinct attribute
 * tuples: a short loop that spares a breakdown of traces without any.) */
static bool trace_has_opcodes(const tt_trace *tr)
{
    if (!tr->attrs)
        return false;
    for (uint32_t i = 1; i < tr->attrs->count; i++)
        if (tr->attrs->tuple[i].opcode)
            return true;
    return false;
}

/* A breakdown that says nothing: no rows, or only events without the key. */
static bool all_none(const tt_breakdown *b)
{
    return b->n == 0 || (b->n == 1 && b->rows[0].none);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The Self columns of the breakdown's rows (a box, not by argument). */
static int compute_self(tt_statpanel *s, tt_error *err)
{
    size_t n = s->brk->n;
    free(s->self_id);
    free(s->self);
    s->self_id = NULL;
    s->self = NULL;
    s->n_self = 0;
    if (s->kind != TT_SP_BOX || s->key.kind == TT_KEY_ARG || n == 0)
        return 0;
    s->self_id = malloc(n * sizeof *s->self_id);
    s->self = malloc(n * sizeof *s->self);
    if (!s->self_id || !s->self)
        return nomem(err);
    for (size_t i = 0; i < n; i++)
        s->self_id[i] = s->brk->rows[i].none ? 0 : s->brk->rows[i].id;
    qsort(s->self_id, n, sizeof *s->self_id, cmp_u32);
    tt_selfcols_clear(s->self, n);
    if (tt_selfcols_add(s->tr, &s->sel, &s->key, s->self_id, n, s->self, err))
        return -1;
    tt_selfcols_share(s->self, n);
    s->n_self = n;
    return 0;
}

/* The self times of a breakdown row, NULL when none are kept. */
static const tt_tab_self *row_self(const tt_statpanel *s, const tt_brk_row *r)
{
    uint32_t id = r->none ? 0 : r->id;
    size_t lo = 0, hi = s->n_self;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->self_id[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n_self && s->self_id[lo] == id ? &s->self[lo] : NULL;
}

static int compute_breakdown(tt_statpanel *s, tt_error *err)
{
    tt_breakdown_free(s->brk);
    s->brk = NULL;
    if (tt_breakdown_compute(s->tr, &s->sel, &s->key, &s->brk, err))
        return -1;
    tt_breakdown_sort(s->brk, s->order, true);
    return compute_self(s, err);
}

int tt_sp_box(tt_statpanel *s, const tt_trace *tr, tt_ns from, tt_ns to, const uint32_t *lanes,
              size_t n, tt_error *err)
{
    reset(s);
    s->tr = tr;
    s->origin = tr->t0;
    s->kind = TT_SP_BOX;
    for (size_t i = 0; i < n; i++)
        if (tt_laneset_add(&s->lanes, lanes[i]))
            goto oom;
    if (tt_laneset_finish(&s->lanes))
        goto oom;
    memset(&s->sel, 0, sizeof s->sel);
    s->sel.from = from;
    s->sel.to = to > from ? to : from;
    s->sel.to_inclusive = false;
    tt_sel_lanes(&s->sel, &s->lanes);
    if (tt_summary_compute(tr, &s->sel, &s->sum, err))
        goto fail;
    s->order = TT_BRK_TOTAL;
    memset(&s->key, 0, sizeof s->key);
    s->key.kind = trace_has_opcodes(tr) ? TT_KEY_OPCODE : TT_KEY_NAME;
    if (compute_breakdown(s, err))
        goto fail;
    if (s->key.kind == TT_KEY_OPCODE && all_none(s->brk)) {
        s->key.kind = TT_KEY_NAME;
        if (compute_breakdown(s, err))
            goto fail;
    }
    {
        tt_key name_key;
        memset(&name_key, 0, sizeof name_key);
        name_key.kind = TT_KEY_NAME;
        if (tt_transfers_compute(tr, &s->sel, &name_key, &s->xfer, err))
            goto fail;
        if (s->xfer->all.bytes.n == 0) {
            tt_transfers_free(s->xfer);
            s->xfer = NULL;
        }
    }
    if (tt_gpu_time_compute(tr, &s->sel, &s->gpu, err))
        goto fail;
    s->has_gpu = s->gpu.kernels + s->gpu.memcpys + s->gpu.memsets > 0;
    s->valid = s->fresh = true;
    return 0;
oom:
    nomem(err);
fail:
    tt_sp_fini(s);
    return -1;
}

int tt_sp_name(tt_statpanel *s, const tt_trace *tr, uint32_t name, const tt_hits *hits,
               tt_error *err)
{
    int64_t *vals = NULL;
    size_t cap = 0;
    bool first = true;
    reset(s);
    s->tr = tr;
    s->origin = tr->t0;
    s->kind = TT_SP_NAME;
    s->name = name;
    /* the whole trace on every lane, exactly as `report` without --window */
    memset(&s->sel, 0, sizeof s->sel);
    tt_sel_window(tr, NULL, &s->sel);
    memset(&s->key, 0, sizeof s->key);
    s->key.kind = TT_KEY_NAME;
    s->order = TT_BRK_TOTAL;
    if (compute_breakdown(s, err))
        goto fail;
    for (size_t i = 0; i < s->brk->n; i++)
        if (!s->brk->rows[i].none && s->brk->rows[i].id == name) {
            s->nd = s->brk->rows[i].d;
            s->nshare = s->brk->rows[i].share;
        }
    s->nl = calloc(hits->n_lanes ? hits->n_lanes : 1, sizeof *s->nl);
    if (!s->nl)
        goto oom;
    for (uint32_t l = 0; l < hits->n_lanes; l++) {
        const tt_event *ev = tr->lanes[l].ev;
        size_t k = hits->n[l];
        if (k == 0)
            continue;
        if (k > cap) {
            int64_t *nv = realloc(vals, k * sizeof *nv);
            if (!nv)
                goto oom;
            vals = nv;
            cap = k;
        }
        for (size_t i = 0; i < k; i++) {
            const tt_event *e = &ev[hits->pos[l][i]];
            vals[i] = e->dur;
            if (first || e->start < s->nfirst)
                s->nfirst = e->start;
            if (first || tt_event_end(e) > s->nlast)
                s->nlast = tt_event_end(e);
            first = false;
        }
        s->nl[s->n_nl].lane = l;
        tt_dist_compute(vals, k, &s->nl[s->n_nl].d);
        s->n_nl++;
    }
    free(vals);
    s->valid = s->fresh = true;
    return 0;
oom:
    nomem(err);
fail:
    free(vals);
    tt_sp_fini(s);
    return -1;
}

int tt_sp_cycle_key(tt_statpanel *s, tt_error *err)
{
    if (!s->valid || s->kind != TT_SP_BOX)
        return 0;
    s->key.kind = tt_tab_next_key(s->key.kind);
    s->built = false;
    return compute_breakdown(s, err);
}

void tt_sp_cycle_order(tt_statpanel *s)
{
    if (!s->valid || s->kind != TT_SP_BOX)
        return;
    s->order = tt_tab_next_order(s->order);
    tt_breakdown_sort(s->brk, s->order, true);
    s->built = false;
}

/* ----------------------------------------------------------- formatting */

const char *tt_sp_time_token(int64_t rel_ns, char *buf, size_t n)
{
    char t[64];
    size_t o = 0;
    tt_fmt_dur(t, sizeof t, rel_ns, 9);
    for (size_t i = 0; t[i] && o + 1 < n; i++)
        if (t[i] != ' ')
            buf[o++] = t[i];
    buf[o] = '\0';
    return buf;
}

/* ---------------------------------------------------------------- lines */

static char *lane_name(const tt_trace *tr, uint32_t lane, char *buf, size_t n)
{
    tt_lane_fullname(tr, lane, buf, n);
    return buf;
}

/* The trace's file as a shell word, or TRACE when it came from stdin. */
static const char *trace_arg(const tt_statpanel *s, char *buf, size_t n)
{
    if (!s->path) {
        snprintf(buf, n, "TRACE");
        return buf;
    }
    return tt_shell_quote(s->path, buf, n, NULL);
}

static int lines_lanes(tt_statpanel *s)
{
    char line[2048], name[600], v[64];
    int w = s->width, bw = w >= 70 ? 10 : 0, nw;
    size_t o;
    tt_ns win = tt_sel_length(&s->sel);
    nw = w - 9 - 12 - 8 - (bw ? bw + 1 : 0);
    if (nw < 8)
        nw = 8;
    o = 0;
    tt_tab_col(line, sizeof line, &o, "Lane", nw, true, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Events", 9, false, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Busy", 12, false, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Util", 8, false, s->utf8);
    if (!tt_plist_add(&s->pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < s->sum->n_lanes; i++) {
        const tt_lane_stat *ls = &s->sum->lanes[i];
        double u = tt_stats_util(ls->busy, win);
        o = 0;
        tt_tab_col(line, sizeof line, &o, lane_name(s->tr, ls->lane, name, sizeof name), nw, true,
                s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, ls->events), 9, false, s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, ls->busy, 3), 12, false, s->utf8);
        snprintf(v, sizeof v, "%.1f%%", 100.0 * u);
        tt_tab_col(line, sizeof line, &o, v, 8, false, s->utf8);
        if (bw && o + 1 < sizeof line) {
            line[o++] = ' ';
            tt_tab_bar(line, sizeof line, &o, u, bw, s->utf8);
        }
        if (!tt_plist_item(&s->pl, TT_R_PANEL, TT_SP_LINE_LANE, ls->lane, line))
            return -1;
    }
    return 0;
}

static int lines_breakdown(tt_statpanel *s)
{
    char line[2048], v[64];
    if (!tt_plist_addf(&s->pl, TT_R_PANEL_TITLE, "By %s, sorted by %s%s%s row%s%s",
                       tt_tab_key_title(s->key.kind), tt_tab_order_title(s->order), tt_tab_sep(s->utf8),
                       tt_fmt_count(v, sizeof v, s->brk->n), s->brk->n == 1 ? "" : "s",
                       s->n_self ? tt_tab_self_note(s->utf8) : ""))
        return -1;
    tt_tab_brk_head(line, sizeof line, s->key.kind, s->width, s->n_self > 0, s->utf8);
    if (!tt_plist_add(&s->pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < s->brk->n; i++) {
        const tt_brk_row *r = &s->brk->rows[i];
        tt_tab_brk_row(line, sizeof line, s->key.kind, r->label, r->none, &r->d, r->share,
                       s->n_self ? row_self(s, r) : NULL, s->width, s->utf8);
        if (!tt_plist_item(&s->pl, TT_R_PANEL, TT_SP_LINE_ROW, (int64_t)i, line))
            return -1;
    }
    return 0;
}

static int lines_transfers(tt_statpanel *s)
{
    char line[2048], v[64], mb[64], busy[64], rate[64];
    int nw = s->width - 8 - 14 - 14 - 18;
    size_t o = 0;
    const tt_xfer_row *all = &s->xfer->all;
    if (nw < 8)
        nw = 8;
    if (!tt_plist_addf(&s->pl, TT_R_PANEL_TITLE, "Transfers%s%s moving %s MB, busy %s, %s MB/s",
                       tt_tab_sep(s->utf8), tt_fmt_count(v, sizeof v, all->bytes.n),
                       tt_fmt_real(mb, sizeof mb, (double)all->bytes.total / MB, 3),
                       tt_fmt_dur(busy, sizeof busy, all->busy, 3),
                       tt_fmt_real(rate, sizeof rate, all->throughput / MB, 3)))
        return -1;
    o = 0;
    tt_tab_col(line, sizeof line, &o, "Operation", nw, true, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Count", 8, false, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Total (MB)", 14, false, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Avg (MB)", 14, false, s->utf8);
    tt_tab_col(line, sizeof line, &o, "MB/s", 18, false, s->utf8);
    if (!tt_plist_add(&s->pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < s->xfer->n; i++) {
        const tt_xfer_row *x = &s->xfer->rows[i];
        o = 0;
        tt_tab_col(line, sizeof line, &o, x->none ? "(no name)" : x->label, nw, true, s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, x->bytes.n), 8, false, s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_real(v, sizeof v, (double)x->bytes.total / MB, 3), 14,
                false, s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_real(v, sizeof v, x->bytes.avg / MB, 3), 14, false,
                s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_real(v, sizeof v, x->throughput / MB, 3), 18, false,
                s->utf8);
        if (!tt_plist_add(&s->pl, TT_R_PANEL, line))
            return -1;
    }
    return 0;
}

static double pct(tt_ns part, tt_ns whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static int add_wrapped(tt_statpanel *s, uint8_t role, const char *text);

static int lines_gpu(tt_statpanel *s)
{
    const tt_gpu_time *g = &s->gpu;
    char a[48], b[48], c[48], d[48], e[48], f[48], n1[32], n2[32], n3[32], line[600];
    if (!tt_plist_addf(&s->pl, TT_R_PANEL_TITLE, "GPU time%s%s kernels, %s memcpys, %s memsets",
                       tt_tab_sep(s->utf8), tt_fmt_count(n1, sizeof n1, g->kernels),
                       tt_fmt_count(n2, sizeof n2, g->memcpys),
                       tt_fmt_count(n3, sizeof n3, g->memsets)))
        return -1;
    snprintf(line, sizeof line, "total %s  busy %s  idle %s (%.1f%%)",
             tt_fmt_dur(a, sizeof a, g->total, 3), tt_fmt_dur(b, sizeof b, g->busy, 3),
             tt_fmt_dur(c, sizeof c, g->idle, 3), pct(g->idle, g->total));
    if (add_wrapped(s, TT_R_PANEL, line))
        return -1;
    snprintf(line, sizeof line,
             "computation %s  communication %s (exposed %s)  memcpy %s (exposed %s)",
             tt_fmt_dur(a, sizeof a, g->computation, 3),
             tt_fmt_dur(d, sizeof d, g->communication, 3),
             tt_fmt_dur(e, sizeof e, g->exposed_communication, 3),
             tt_fmt_dur(f, sizeof f, g->memcpy, 3), tt_fmt_dur(b, sizeof b, g->exposed_memcpy, 3));
    return add_wrapped(s, TT_R_PANEL, line);
}

/* Long text over several lines of the panel width. */
static int add_wrapped(tt_statpanel *s, uint8_t role, const char *text)
{
    return tt_plist_wrap(&s->pl, role, text, s->width);
}

static int lines_box(tt_statpanel *s)
{
    const tt_summary *m = s->sum;
    char ev[32], t1[48], t2[48], bu[48], cmd[4 * 4096 + 600];
    tt_ns win = tt_sel_length(&s->sel);
    char line[600];
    snprintf(line, sizeof line, "%s event%s%stotal %s (%s in the box)%sbusy %s (%.1f%%)",
             tt_fmt_count(ev, sizeof ev, m->events), m->events == 1 ? "" : "s", tt_tab_sep(s->utf8),
             tt_fmt_dur(t1, sizeof t1, m->total, 3), tt_fmt_dur(t2, sizeof t2, m->total_clipped, 3),
             tt_tab_sep(s->utf8), tt_fmt_dur(bu, sizeof bu, m->busy, 3), pct(m->busy, win));
    if (add_wrapped(s, TT_R_PANEL, line) || lines_breakdown(s))
        return -1;
    if (!tt_plist_addf(&s->pl, TT_R_PANEL_TITLE, "Lanes%sutilization in the box", tt_tab_sep(s->utf8)) ||
        lines_lanes(s))
        return -1;
    if (s->xfer && lines_transfers(s))
        return -1;
    if (s->has_gpu && lines_gpu(s))
        return -1;
    tt_sp_command(s, cmd, sizeof cmd);
    if (!tt_plist_add(&s->pl, TT_R_PANEL_TITLE, "The same numbers in batch") ||
        add_wrapped(s, TT_R_PANEL_KEY, cmd))
        return -1;
    return 0;
}

static int lines_name(tt_statpanel *s)
{
    char line[2048], v[64], a[48], b[48], c[48], d[48], e[48], name[600];
    int nw = s->width - 9 - 12 - 12;
    size_t o;
    const tt_dist *n = &s->nd;
    if (nw < 8)
        nw = 8;
    if (!tt_plist_addf(&s->pl, TT_R_PANEL, "%s event%s%stotal %s (%.1f%% of all event time)%s"
                       "from %s to %s",
                       tt_fmt_count(v, sizeof v, n->n), n->n == 1 ? "" : "s", tt_tab_sep(s->utf8),
                       tt_fmt_dur(a, sizeof a, n->total, 3), s->nshare, tt_tab_sep(s->utf8),
                       tt_fmt_dur(b, sizeof b, s->nfirst - s->origin, 3),
                       tt_fmt_dur(c, sizeof c, s->nlast - s->origin, 3)))
        return -1;
    if (!tt_plist_addf(&s->pl, TT_R_PANEL, "avg %s%smedian %s%smin %s%smax %s%sstddev %s",
                       tt_tab_dur(a, sizeof a, n->avg), tt_tab_sep(s->utf8),
                       tt_tab_dur(b, sizeof b, n->median), tt_tab_sep(s->utf8),
                       tt_fmt_dur(c, sizeof c, n->min, 3), tt_tab_sep(s->utf8),
                       tt_fmt_dur(d, sizeof d, n->max, 3), tt_tab_sep(s->utf8),
                       tt_tab_dur(e, sizeof e, n->stddev)))
        return -1;
    o = 0;
    tt_tab_col(line, sizeof line, &o, "Lane", nw, true, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Count", 9, false, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Total", 12, false, s->utf8);
    tt_tab_col(line, sizeof line, &o, "Avg", 12, false, s->utf8);
    if (!tt_plist_add(&s->pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < s->n_nl; i++) {
        const tt_sp_lane *l = &s->nl[i];
        o = 0;
        tt_tab_col(line, sizeof line, &o, lane_name(s->tr, l->lane, name, sizeof name), nw, true,
                s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, l->d.n), 9, false, s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(v, sizeof v, l->d.total, 3), 12, false,
                s->utf8);
        tt_tab_col(line, sizeof line, &o, tt_tab_dur(v, sizeof v, l->d.avg), 12, false, s->utf8);
        if (!tt_plist_item(&s->pl, TT_R_PANEL, TT_SP_LINE_LANE, l->lane, line))
            return -1;
    }
    snprintf(line, sizeof line, "tracetty report --kind ops --by name %s (its row of this name)",
             trace_arg(s, name, sizeof name));
    if (!tt_plist_add(&s->pl, TT_R_PANEL_TITLE, "The same numbers in batch") ||
        add_wrapped(s, TT_R_PANEL_KEY, line))
        return -1;
    return 0;
}

int tt_sp_build(tt_statpanel *s, int width, bool utf8)
{
    int rc;
    if (!s->valid)
        return 0;
    /* lines are composed for at most 1000 columns: wider panels show them
     * padded, and the line buffers stay bounded */
    if (width > 1000)
        width = 1000;
    if (s->built && s->width == width && s->utf8 == utf8)
        return 0;
    s->width = width;
    s->utf8 = utf8;
    tt_plist_clear(&s->pl);
    rc = s->kind == TT_SP_BOX ? lines_box(s) : lines_name(s);
    tt_plist_clamp(&s->pl);
    if (rc == 0 && s->fresh) {
        /* a new selection opens on its first row: Enter acts at once */
        tt_plist_goto_kind(&s->pl, s->kind == TT_SP_BOX ? TT_SP_LINE_ROW : TT_SP_LINE_LANE);
        s->fresh = false;
    }
    s->built = rc == 0;
    return rc;
}

const char *tt_sp_title(const tt_statpanel *s, bool utf8, char *buf, size_t n)
{
    char a[48], b[48], w[48], safe[300];
    if (!s->valid) {
        snprintf(buf, n, "Statistics");
        return buf;
    }
    if (s->kind == TT_SP_NAME) {
        const char *raw = tt_str(s->tr, s->name);
        size_t fit;
        tt_text_sanitize(raw, tt_strtab_len(s->tr->strings, s->name), safe, sizeof safe);
        fit = tt_text_fit(safe, 48, NULL);
        if (fit < strlen(safe))
            snprintf(safe + fit, sizeof safe - fit, "%s", utf8 ? "\xe2\x80\xa6" : "~");
        snprintf(buf, n, "All '%s' in the trace", safe);
        return buf;
    }
    snprintf(buf, n, "Box %s%s%s (%s)%s%zu lane%s",
             tt_fmt_dur(a, sizeof a, s->sel.from - s->origin, 3), tt_tab_dash(utf8),
             tt_fmt_dur(b, sizeof b, s->sel.to - s->origin, 3),
             tt_fmt_dur(w, sizeof w, tt_sel_length(&s->sel), 3), tt_tab_sep(utf8), s->lanes.n,
             s->lanes.n == 1 ? "" : "s");
    return buf;
}

int tt_sp_row_hits(const tt_statpanel *s, size_t row, tt_hits *out)
{
    const tt_brk_row *r;
    tt_idxbuf buf;
    int rc = 0;
    if (!s->valid || !s->brk || row >= s->brk->n)
        return -1;
    r = &s->brk->rows[row];
    tt_hits_fini(out);
    out->n_lanes = s->tr->n_lanes;
    out->pos = calloc((size_t)out->n_lanes + 1, sizeof *out->pos);
    out->n = calloc((size_t)out->n_lanes + 1, sizeof *out->n);
    if (!out->pos || !out->n) {
        tt_hits_fini(out);
        return -1;
    }
    tt_idxbuf_init(&buf);
    for (size_t li = 0; li < tt_sel_lane_count(s->tr, &s->sel) && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(&s->sel, li);
        const tt_event *ev = s->tr->lanes[lane].ev;
        size_t k = 0;
        if (tt_sel_lane_events(s->tr, &s->sel, lane, &buf)) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < buf.n; i++) {
            const tt_event *e = &ev[buf.v[i]];
            uint32_t id = s->key.kind == TT_KEY_LANE ? lane : tt_key_string_id(s->tr, &s->key, e);
            if (id == r->id)
                buf.v[k++] = buf.v[i];
        }
        if (k == 0)
            continue;
        if (!(out->pos[lane] = malloc(k * sizeof **out->pos))) {
            rc = -1;
            break;
        }
        memcpy(out->pos[lane], buf.v, k * sizeof **out->pos);
        out->n[lane] = k;
        out->total += k;
    }
    tt_idxbuf_fini(&buf);
    if (rc)
        tt_hits_fini(out);
    return rc;
}

const char *tt_sp_lane_patterns(const tt_trace *tr, const uint32_t *lanes, size_t n, char *buf,
                                size_t cap, bool *cut)
{
    size_t o = 0;
    *cut = false;
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char name[600], esc[1300];
        size_t e = 0;
        tt_lane_fullname(tr, lanes[i], name, sizeof name);
        for (size_t k = 0; name[k] && e + 3 < sizeof esc; k++) {
            /* fnmatch specials, the list separator and the escape itself */
            if (strchr("*?[]\\,", name[k]))
                esc[e++] = '\\';
            esc[e++] = name[k];
        }
        esc[e] = '\0';
        if (o + e + 2 >= cap) {
            *cut = true;
            break;
        }
        if (i > 0)
            buf[o++] = ',';
        memcpy(buf + o, esc, e);
        o += e;
        buf[o] = '\0';
    }
    return buf;
}

const char *tt_sp_command(const tt_statpanel *s, char *buf, size_t n)
{
    char a[48], b[48], key[TT_KEY_ARG_MAX + 8], pats[4096], q[4 * 4096 + 8], file[4 * 1024 + 8];
    bool cut = false;
    if (!s->valid) {
        snprintf(buf, n, "tracetty report");
        return buf;
    }
    tt_key_str(&s->key, key, sizeof key);
    tt_sp_time_token(s->sel.from - s->tr->t0, a, sizeof a);
    tt_sp_time_token(s->sel.to - s->tr->t0, b, sizeof b);
    trace_arg(s, file, sizeof file);
    if (s->lanes.n == s->tr->n_lanes) {
        snprintf(buf, n, "tracetty report --kind ops --by %s --window %s:%s %s", key, a, b, file);
        return buf;
    }
    tt_sp_lane_patterns(s->tr, s->lanes.v, s->lanes.n, pats, sizeof pats, &cut);
    tt_shell_quote(pats, q, sizeof q, NULL);
    snprintf(buf, n, "tracetty report --kind ops --by %s --window %s:%s --lanes %s %s%s", key,
             a, b, q, file, cut ? " (list cut short)" : "");
    return buf;
}
