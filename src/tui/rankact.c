/* rankact.c - several ranks in the view: the ranks and the focus, rank
 * tabs and switching between the modes of the lanes area (their rows,
 * labels, legends and boxes are mode_rank.c's, mode_job.c's and
 * mode_colls.c's), the tab bar, and the panels (ranks, one collective, the
 * statistics of a box over several ranks or collectives, with its CSV
 * export and a breakdown row highlighted on every rank, n N stepping
 * through it in job-time order). See app_impl.h for how the focus and the
 * clocks work.
 *
 * Keys: 1..9 show rank 1..9's tab and ` rank 0's, < and > the previous
 * and next rank (in the combined view: its group), R the combined view
 * (again: back to the rank's tab), X the collectives view (again: back),
 * # the ranks panel. With one trace they say so and do nothing else.
 */
#include "config.h"

#include "tui/app_impl.h"

#include "tui/boxexport.h"
#include "tui/table.h"
#include "tui/timefmt.h"
#include "util/num.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

/* ------------------------------------------------------------- ranks */

/* Point the app's per-trace pointers at the focused rank. */
static void bind(tt_app *a)
{
    tt_vrank *r = &a->rk[a->focus];
    a->tr = r->tr;
    a->lv = r->lv;
    a->sp = r->sp;
    a->tl = &r->tl;
    a->collapsed = r->collapsed;
    a->used = r->used;
    a->match = &r->match;
    a->off = r->off;
    a->origin = a->job0 - r->off;
}

int tt_app_ranks_init(tt_app *a, const tt_trace *tr, const tt_app_opts *opts)
{
    const tt_app_job *job = opts ? opts->job : NULL;
    size_t n = job ? job->n : 1;
    uint64_t lanes = 0;
    if (n == 0)
        return -1;
    a->rk = calloc(n, sizeof *a->rk);
    a->base = calloc(n + 1, sizeof *a->base);
    a->rfold = calloc(n + 1, sizeof *a->rfold);
    if (!a->rk || !a->base || !a->rfold)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int rc;
        if (job) {
            const tt_app_rank *r = &job->r[i];
            rc = tt_vrank_init(&a->rk[i], r->tr, r->rank, r->offset, r->path, r->source, true);
        } else {
            rc = tt_vrank_init(&a->rk[i], tr, tr->rank >= 0 ? tr->rank : 0, 0,
                               opts ? opts->path : NULL, "", false);
        }
        a->n_rk = i + 1;
        if (rc)
            return -1;
        a->base[i] = (uint32_t)lanes;
        lanes += a->rk[i].tr->n_lanes;
        if (lanes > UINT32_MAX)
            return -1;
    }
    a->n_glanes = (uint32_t)lanes;
    a->multi = job != NULL;
    a->job0 = tt_vrank_t0(&a->rk[0]);
    a->job1 = tt_vrank_t1(&a->rk[0]);
    for (size_t i = 1; i < n; i++) {
        if (tt_vrank_t0(&a->rk[i]) < a->job0)
            a->job0 = tt_vrank_t0(&a->rk[i]);
        if (tt_vrank_t1(&a->rk[i]) > a->job1)
            a->job1 = tt_vrank_t1(&a->rk[i]);
    }
    if (job) {
        const char *al = job->align ? job->align : "absolute";
        tt_text_sanitize(al, strlen(al), a->align, sizeof a->align);
        al = job->align_opt ? job->align_opt : "absolute";
        tt_text_sanitize(al, strlen(al), a->align_opt, sizeof a->align_opt);
    }
    a->focus = 0;
    bind(a);
    return 0;
}

void tt_app_ranks_fini(tt_app *a)
{
    for (size_t i = 0; i < a->n_rk; i++)
        tt_vrank_fini(&a->rk[i]);
    free(a->rk);
    free(a->base);
    free(a->rfold);
    a->rk = NULL;
    a->n_rk = 0;
}

uint32_t tt_app_glane(const tt_app *a, size_t rank, uint32_t lane)
{
    return a->base[rank] + lane;
}

static tt_ns shifted(tt_ns t, tt_ns d)
{
    return tt_sat_add(t, d);
}

void tt_app_focus(tt_app *a, size_t rank)
{
    tt_ns d;
    if (rank >= a->n_rk || rank == a->focus)
        return;
    /* the same moments on the new rank's clock */
    d = a->rk[a->focus].off - a->rk[rank].off;
    tt_vp_shift(&a->vp, d);
    a->t_cur = shifted(a->t_cur, d);
    a->box.a0 = shifted(a->box.a0, d);
    a->box.a1 = shifted(a->box.a1, d);
    a->box.from = shifted(a->box.from, d);
    a->box.to = shifted(a->box.to, d);
    if (tt_app_xhl_on(a)) {
        /* a highlight over several ranks: hand the parts over */
        tt_hits_fini(&a->rk[a->focus].xhits);
        a->rk[a->focus].xhits = a->search;
        a->search = a->rk[rank].xhits;
        tt_hits_init(&a->rk[rank].xhits);
        a->focus = rank;
        bind(a);
        a->search_gen++;
        a->xhl_gen = a->search_gen;
    } else {
        a->focus = rank;
        bind(a);
        /* a typed search follows the focus; other highlights stay behind */
        if (a->has_search && !(a->search_text && tt_app_search_rerun(a) == 0)) {
            tt_hits_fini(&a->search);
            a->has_search = false;
        }
        a->search_gen++;
    }
    /* what belongs to the other trace */
    a->has_sel = false;
    a->has_occ = false;
    a->has_rank = false;
    tt_details_fini(&a->det);
    tt_details_init(&a->det, a->tr);
}

/* ------------------------------------------- highlight over several ranks */

bool tt_app_xhl_on(const tt_app *a)
{
    return a->multi && a->xhl && a->has_search && a->xhl_gen == a->search_gen;
}

static const tt_hits *xhits(const tt_app *a, size_t rank)
{
    return rank == a->focus ? &a->search : &a->rk[rank].xhits;
}

const tt_hilite *tt_app_rank_hl(tt_app *a, size_t rank)
{
    tt_vrank *r;
    if (!tt_app_xhl_on(a) || rank >= a->n_rk || rank == a->focus)
        return NULL;
    r = &a->rk[rank];
    if (r->xhits.total == 0)
        return NULL;
    if (!r->xhl.valid || r->xhl_id != a->xhl_id) {
        /* out of memory only costs the highlight */
        if (tt_hilite_build(&r->xhl, &r->xhits, r->tr, r->lv))
            return NULL;
        r->xhl_id = a->xhl_id;
    }
    return &r->xhl;
}

/* Make hits[0..n_rk) (taken, left empty) the highlight, n N stepping
 * through every rank's. */
static void xhl_set(tt_app *a, tt_hits *hits, const char *pat, const char *desc)
{
    for (size_t i = 0; i < a->n_rk; i++) {
        if (i == a->focus)
            continue;
        tt_hits_fini(&a->rk[i].xhits);
        a->rk[i].xhits = hits[i];
        tt_hits_init(&hits[i]);
    }
    tt_app_set_hits(a, &hits[a->focus], pat, desc);
    a->xhl = true;
    a->xhl_gen = a->search_gen;
    a->xhl_id++;
    a->xhl_has_last = false;
}

/* A hit on the job's axis. */
typedef struct xhit {
    size_t   rank;
    tt_evref ev;
    tt_ns    at;   /* aligned start */
} xhit;

/* Is x before y in job-time order (aligned start, rank, lane, position)? */
static bool xhit_before(const xhit *x, const xhit *y)
{
    if (x->at != y->at)
        return x->at < y->at;
    if (x->rank != y->rank)
        return x->rank < y->rank;
    if (x->ev.lane != y->ev.lane)
        return x->ev.lane < y->ev.lane;
    return x->ev.idx < y->ev.idx;
}

/* The next (dir > 0) or previous hit over every rank from `from` (a hit
 * or any event, exclusive), or with from NULL from aligned time t (the
 * first at or after it, the last at or before it). */
static bool xhl_find(const tt_app *a, const xhit *from, tt_ns t, int dir, xhit *out)
{
    bool found = false;
    for (size_t i = 0; i < a->n_rk; i++) {
        const tt_vrank *r = &a->rk[i];
        const tt_hits *h = xhits(a, i);
        xhit c;
        bool got;
        if (h->total == 0)
            continue;
        if (from && from->rank == i) {
            got = tt_hits_step(h, r->tr, &from->ev, 0, dir, &c.ev);
        } else {
            tt_ns ti = tt_sat_add(from ? from->at : t, -r->off);
            /* the same aligned time: the ranks before `from` come first */
            if (from && dir > 0 && i < from->rank)
                ti = tt_sat_add(ti, 1);
            else if (from && dir < 0 && i > from->rank)
                ti = tt_sat_add(ti, -1);
            got = tt_hits_step(h, r->tr, NULL, ti, dir, &c.ev);
        }
        if (!got)
            continue;
        c.rank = i;
        c.at = tt_sat_add(tt_trace_event(r->tr, c.ev)->start, r->off);
        if (!found || (dir > 0 ? xhit_before(&c, out) : xhit_before(out, &c))) {
            *out = c;
            found = true;
        }
    }
    return found;
}

/* 1-based place of hit x among all in job-time order, and their count. */
static uint64_t xhl_place(const tt_app *a, const xhit *x, uint64_t *total)
{
    uint64_t k = 0;
    *total = 0;
    for (size_t i = 0; i < a->n_rk; i++) {
        const tt_vrank *r = &a->rk[i];
        const tt_hits *h = xhits(a, i);
        *total += h->total;
        if (i == x->rank)
            k += tt_hits_rank(h, r->tr, x->ev);
        else
            k += tt_hits_count_before(h, r->tr, tt_sat_add(x->at, -r->off), i < x->rank);
    }
    return k;
}

/* The collective (row of the collectives view) a kernel belongs to. */
static int64_t coll_of(const tt_app *a, size_t rank, tt_evref ev)
{
    for (size_t k = 0; k < a->cv.n; k++) {
        const tt_cgroup *c = &a->cv.g[k];
        for (size_t x = c->first; x < c->first + c->n; x++) {
            const tt_coll *e = &a->cv.c.v[x];
            if (e->rank == rank && e->ev.lane == ev.lane && e->ev.idx == ev.idx)
                return (int64_t)k;
        }
    }
    return -1;
}

/* Show hit x: its rank in focus, the event selected (in the collectives
 * view: the cursor on its collective). */
static void xhl_go(tt_app *a, const xhit *x, const char *prefix)
{
    uint64_t total, k;
    char where[600] = "", at[48];
    if (a->view == TT_VIEW_COLLS) {
        int64_t g = coll_of(a, x->rank, x->ev);
        tt_app_focus(a, x->rank);
        if (g >= 0) {
            char label[500];
            a->cur = (size_t)g;
            tt_app_scroll_to_cursor(a);
            snprintf(where, sizeof where, ", collective %s",
                     tt_collview_label(&a->cv, &a->cv.g[g], label, sizeof label));
        }
        tt_app_show_time(a, tt_trace_event(a->tr, x->ev)->start);
    } else {
        if (a->view == TT_VIEW_RANK && a->focus != x->rank)
            tt_app_show_rank(a, x->rank);
        else
            tt_app_focus(a, x->rank);
        tt_app_select(a, x->ev);
    }
    a->xhl_has_last = true;
    a->xhl_rank = x->rank;
    a->xhl_last = x->ev;
    k = xhl_place(a, x, &total);
    tt_app_message(a, false, "%srank %lld at %s%s: match %llu of %llu %s", prefix,
                   (long long)a->rk[x->rank].rank, tt_fmt_dur(at, sizeof at, x->at - a->job0, 6),
                   where, (unsigned long long)k, (unsigned long long)total, a->search_desc);
}

int tt_app_xhl_step(tt_app *a, int dir)
{
    xhit from, to;
    bool have = false;
    if (a->view == TT_VIEW_COLLS) {
        /* from the hit n N showed last, while the cursor is on its row */
        if (a->xhl_has_last && a->xhl_rank < a->n_rk &&
            coll_of(a, a->xhl_rank, a->xhl_last) == (int64_t)a->cur) {
            from.rank = a->xhl_rank;
            from.ev = a->xhl_last;
            have = true;
        }
    } else if (a->has_sel) {
        from.rank = a->focus;
        from.ev = a->sel;
        have = true;
    }
    if (have)
        from.at = tt_sat_add(tt_trace_event(a->rk[from.rank].tr, from.ev)->start,
                             a->rk[from.rank].off);
    if (xhl_find(a, have ? &from : NULL, a->t_cur + a->off, dir, &to)) {
        xhl_go(a, &to, "");
        return REDRAW;
    }
    if (xhl_find(a, NULL, dir > 0 ? INT64_MIN : INT64_MAX, dir, &to))
        xhl_go(a, &to, dir > 0 ? "wrapped to the start: " : "wrapped to the end: ");
    return REDRAW;
}

bool tt_app_coll_lit(const tt_app *a, size_t gi)
{
    const tt_cgroup *c = &a->cv.g[gi];
    for (size_t x = c->first; x < c->first + c->n; x++) {
        const tt_coll *e = &a->cv.c.v[x];
        if (tt_hits_has(xhits(a, e->rank), e->ev))
            return true;
    }
    return false;
}

bool tt_app_row_rank(const tt_app *a, const tt_row *row, size_t *rank)
{
    if (!row || row->kind == TT_ROW_COLL)
        return false;
    *rank = tt_app_mode(a)->row_rank(a, row);
    return *rank < a->n_rk;
}

size_t tt_app_row_own_rank(const tt_app *a, const tt_row *row)
{
    (void)a;
    return row->rank;
}

void tt_app_job_bounds(const tt_app *a, tt_ns *t0, tt_ns *t1)
{
    *t0 = a->job0 - a->off;
    *t1 = a->job1 - a->off;
}

bool *tt_app_fold_flag(tt_app *a, const tt_row *row)
{
    const tt_view_def *m = tt_app_mode(a);
    if (!row || !m->fold_flag)
        return NULL;
    return m->fold_flag(a, row);
}

/* Close what belongs to the view being left: the box, and the panels
 * about one trace or view (markers, annotations and ranks stay). */
static void leave_view(tt_app *a)
{
    a->box.shown = a->box.selecting = a->box.mouse = false;
    a->press = false;
    a->drag = false;
    if (a->panel == TT_PANEL_STATS || a->panel == TT_PANEL_MSTATS ||
        a->panel == TT_PANEL_DETAILS || a->panel == TT_PANEL_COLL)
        a->panel = TT_PANEL_NONE;
    if (tt_app_mode(a)->leave)
        tt_app_mode(a)->leave(a);
}

/* Bounds of the window in the view on screen, on the focused clock. */
static void set_bounds(tt_app *a)
{
    /* a window showing everything shows everything of the new view too */
    bool whole = a->vp.start <= a->vp.t0 && a->vp.span >= tt_vp_full_span(&a->vp);
    tt_ns t0, t1;
    tt_app_mode(a)->bounds(a, &t0, &t1);
    tt_vp_rebound(&a->vp, t0, t1);
    if (whole)
        tt_vp_show_all(&a->vp);
}

static void relabel(tt_app *a)
{
    a->label_want = tt_app_mode(a)->label_want(a);
    tt_app_relayout(a);
}

/* An alignment offset to the ns when it is short, with fewer decimals
 * when it is not: ranks on different epoch clocks are start-aligned by
 * decades (-1736413969.979 s), which must still fit a column. */
const char *tt_app_fmt_offset(char *buf, size_t n, tt_ns off)
{
    for (int d = 9; d >= 0; d--)
        if (strlen(tt_fmt_dur(buf, n, off, d)) <= 15)
            break;
    return buf;
}

static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

int tt_app_show_rank(tt_app *a, size_t rank)
{
    tt_vrank *r;
    size_t keep_row = a->cur;
    bool was_rank = a->view == TT_VIEW_RANK;
    char off[48];
    if (rank >= a->n_rk)
        return REDRAW;
    if (was_rank && rank == a->focus) {
        tt_app_message(a, false, "rank %lld is on screen", (long long)a->rk[rank].rank);
        return REDRAW;
    }
    leave_view(a);
    tt_app_focus(a, rank);
    a->view = TT_VIEW_RANK;
    r = &a->rk[rank];
    if (tt_app_rebuild_rows(a))
        return REDRAW;
    /* back where the tab was left; a new tab on the row the last one was
     * on (ranks of a job look alike) */
    if (r->visited) {
        a->cur = r->cur < a->list.n ? r->cur : 0;
        a->top = r->top;
    } else if (was_rank) {
        a->cur = keep_row < a->list.n ? keep_row : a->list.n ? a->list.n - 1 : 0;
    } else {
        a->cur = 0;
        for (size_t i = 0; i < a->list.n; i++)
            if (a->list.v[i].kind == TT_ROW_LANE) {
                a->cur = i;
                break;
            }
    }
    set_bounds(a);
    relabel(a);
    tt_app_scroll_to_cursor(a);
    tt_app_cursor_into_view(a);
    tt_app_hit(a);
    tt_app_message(a, false, "rank %lld: %s%soffset %s (%zu of %zu; < > step, R all ranks)",
                   (long long)r->rank, r->file, a->utf8 ? " \xc2\xb7 " : " | ",
                   tt_app_fmt_offset(off, sizeof off, r->off), rank + 1, a->n_rk);
    return REDRAW;
}

/* Combined view: unfolded when every rank's lanes fit, else each rank on
 * its summary lane (decided once, the first time it opens). */
void tt_app_job_folds(tt_app *a)
{
    size_t rows = 0;
    int lh = a->scr.area_h;
    if (a->rfold_set)
        return;
    for (size_t i = 0; i < a->n_rk; i++) {
        rows++;
        for (size_t k = 0; k < a->rk[i].n_dev; k++)
            rows += a->depth0 ? 1 : (size_t)a->rk[i].tr->lanes[a->rk[i].dev[k]].max_depth + 1;
    }
    for (size_t i = 0; i < a->n_rk; i++)
        a->rfold[i] = rows > (size_t)(lh > 0 ? lh : 0);
    a->rfold_set = true;
}

int tt_app_set_view(tt_app *a, tt_view v)
{
    const tt_row *row = tt_app_row(a);
    tt_row was = {0, 0, 0, 0, 0, 0};
    bool had = row != NULL;
    const tt_view_def *m = tt_view_get(v);
    if (had)
        was = *row;
    if (v == a->view)
        return REDRAW;
    if (m->open && m->open(a))
        return REDRAW;
    leave_view(a);
    a->prev_view = a->view;
    a->view = v;
    /* rows are rebuilt for the new view; the cursor goes where the same
     * thing is shown */
    a->cur = a->list.n;   /* no row to restore from */
    if (tt_app_rebuild_rows(a))
        return REDRAW;
    a->cur = 0;
    if (m->arrive)
        m->arrive(a, &was, had);
    set_bounds(a);
    relabel(a);
    a->top = a->cur > 2 ? a->cur - 2 : 0;
    tt_app_scroll_to_cursor(a);
    tt_app_cursor_into_view(a);
    tt_app_hit(a);
    if (m->message)
        m->message(a);
    return REDRAW;
}

void tt_app_refocus_select(tt_app *a, size_t rank, tt_evref ev)
{
    if (!(a->view == TT_VIEW_RANK && a->focus == rank))
        tt_app_show_rank(a, rank);
    if (a->view == TT_VIEW_RANK && a->focus == rank) {
        /* the status line says what is selected (the tab bar, where) */
        a->msg[0] = '\0';
        tt_app_select(a, ev);
    }
}

/* ----------------------------------------------------------- actions */

static bool need_ranks(tt_app *a)
{
    if (a->multi)
        return true;
    tt_app_message(a, false, "one trace is loaded: rank tabs, the combined and the collectives "
                             "views need several (tracetty view DIR, or several files)");
    return false;
}

static int rank_number(tt_app *a, int64_t want)
{
    for (size_t i = 0; i < a->n_rk; i++)
        if (a->rk[i].rank == want) {
            if (a->view == TT_VIEW_RANK && a->focus == i) {
                tt_app_message(a, false, "rank %lld is on screen", (long long)want);
                return REDRAW;
            }
            return tt_app_show_rank(a, i);
        }
    tt_app_message(a, false, "no rank %lld in this job (ranks %lld to %lld: < > step, # lists "
                             "them)", (long long)want, (long long)a->rk[0].rank,
                   (long long)a->rk[a->n_rk - 1].rank);
    return REDRAW;
}

#define RANK_KEY(n)                                            \
    int tt_act_rank##n(tt_app *a)                              \
    {                                                          \
        return need_ranks(a) ? rank_number(a, n) : REDRAW;     \
    }
RANK_KEY(0)
RANK_KEY(1)
RANK_KEY(2)
RANK_KEY(3)
RANK_KEY(4)
RANK_KEY(5)
RANK_KEY(6)
RANK_KEY(7)
RANK_KEY(8)
RANK_KEY(9)

static int step_rank(tt_app *a, int dir)
{
    size_t to;
    if (!need_ranks(a))
        return REDRAW;
    if ((dir < 0 && a->focus == 0) || (dir > 0 && a->focus + 1 >= a->n_rk)) {
        tt_app_message(a, false, dir < 0 ? "rank %lld is the first" : "rank %lld is the last",
                       (long long)a->rk[a->focus].rank);
        return REDRAW;
    }
    to = dir < 0 ? a->focus - 1 : a->focus + 1;
    if (a->view == TT_VIEW_JOB) {
        /* the combined view: the next rank's group */
        int64_t r = tt_rows_rank(&a->list, (uint32_t)to);
        if (r >= 0) {
            a->cur = (size_t)r;
            tt_app_scroll_to_cursor(a);
            tt_app_hit(a);
        }
        return REDRAW;
    }
    return tt_app_show_rank(a, to);
}

int tt_act_rank_prev(tt_app *a) { return step_rank(a, -1); }
int tt_act_rank_next(tt_app *a) { return step_rank(a, 1); }

int tt_act_view_job(tt_app *a)
{
    if (!need_ranks(a))
        return REDRAW;
    if (a->view == TT_VIEW_JOB)
        return tt_app_show_rank(a, a->focus);
    return tt_app_set_view(a, TT_VIEW_JOB);
}

int tt_act_view_colls(tt_app *a)
{
    if (!need_ranks(a))
        return REDRAW;
    if (a->view == TT_VIEW_COLLS) {
        if (a->prev_view == TT_VIEW_RANK)
            return tt_app_show_rank(a, a->focus);
        return tt_app_set_view(a, a->prev_view);
    }
    return tt_app_set_view(a, TT_VIEW_COLLS);
}

/* ------------------------------------------------------- annotations */

int64_t tt_app_annot_at_row(const tt_app *a, const tt_row *row, tt_ns from, tt_ns to)
{
    if (!a->an.shown || !a->an.ran || !row)
        return -1;
    /* a collective's annotation is its label's mark and a note in its
     * status line, which says more about it */
    if (row->kind != TT_ROW_LANE)
        return -1;
    /* annotation times are on the job's axis */
    return tt_annview_at_trace(&a->an, (int)(a->view == TT_VIEW_RANK ? a->focus : row->rank),
                               row->lane, from + a->off, to + a->off);
}

bool tt_app_ann_in_view(const tt_app *a, const tt_annotation *an, bool ruler)
{
    const tt_rule *r;
    if (a->view == TT_VIEW_RANK)
        return (size_t)an->trace == a->focus;
    /* the combined view's rows show every rank's; its ruler, like the
     * collectives view's, those comparing ranks (straggler) and, in the
     * combined view, the focused rank's (every rank's would crowd it) */
    if (a->view == TT_VIEW_JOB && (!ruler || (size_t)an->trace == a->focus))
        return true;
    r = tt_rule_find(an->rule);
    return r && r->multi;
}

/* ---------------------------------------------------------- tab bar */

enum { TAB_RANK = 0, TAB_JOB, TAB_COLLS };

typedef struct tab {
    int    kind;
    size_t rank;
    int    x0, x1;   /* columns [x0, x1) */
    bool   cur;
    char   text[40];
} tab;

/* Where every tab goes: the ranks (a window around the one in focus when
 * they do not all fit), then the two views. Returns the count; *left,
 * *right say whether ranks were left out on either side. */
static size_t tabs_layout(const tt_app *a, tab *t, size_t cap, int *right_x, bool *left,
                          bool *right)
{
    int cols = a->cols, x = 7, views_w = 0, avail;
    size_t n = 0, lo = 0, hi = a->n_rk;
    static const char *const vname[2] = {"All R", "Collectives X"};
    *left = *right = false;
    for (int k = 0; k < 2; k++)
        views_w += (int)strlen(vname[k]) + 3;
    avail = cols - x - views_w - 4;
    {
        /* widen a window of ranks around the focus while it fits */
        int w = 0;
        size_t f = a->focus;
        lo = f;
        hi = f + 1;
        w = snprintf(NULL, 0, "%lld", (long long)a->rk[f].rank) + 2;
        for (;;) {
            bool grew = false;
            if (hi < a->n_rk) {
                int k = snprintf(NULL, 0, "%lld", (long long)a->rk[hi].rank) + 2;
                if (w + k <= avail) {
                    w += k;
                    hi++;
                    grew = true;
                }
            }
            if (lo > 0) {
                int k = snprintf(NULL, 0, "%lld", (long long)a->rk[lo - 1].rank) + 2;
                if (w + k <= avail) {
                    w += k;
                    lo--;
                    grew = true;
                }
            }
            if (!grew)
                break;
        }
    }
    *left = lo > 0;
    *right = hi < a->n_rk;
    if (*left)
        x += 2;
    for (size_t i = lo; i < hi && n < cap; i++) {
        tab *b = &t[n++];
        b->kind = TAB_RANK;
        b->rank = i;
        b->cur = a->view == TT_VIEW_RANK && a->focus == i;
        snprintf(b->text, sizeof b->text, b->cur ? "[%lld]" : " %lld ", (long long)a->rk[i].rank);
        b->x0 = x;
        x += (int)strlen(b->text);
        b->x1 = x;
    }
    if (*right)
        x += 2;
    x += 2;
    for (int k = 0; k < 2 && n < cap; k++) {
        tab *b = &t[n++];
        b->kind = k == 0 ? TAB_JOB : TAB_COLLS;
        b->rank = 0;
        b->cur = a->view == (k == 0 ? TT_VIEW_JOB : TT_VIEW_COLLS);
        snprintf(b->text, sizeof b->text, b->cur ? "[%s]" : " %s ", vname[k]);
        b->x0 = x;
        x += (int)strlen(b->text) + 1;
        b->x1 = x - 1;
    }
    *right_x = x + 1;
    return n;
}

void tt_app_tabs_draw(tt_app *a, tt_grid *g)
{
    tab t[512];
    bool left, right;
    int y = a->scr.tabs_y, rx, cols = a->cols;
    size_t n;
    if (y < 0)
        return;
    tt_grid_fill(g, 0, y, cols, ' ', TT_R_TAB, 0);
    n = tabs_layout(a, t, sizeof t / sizeof t[0], &rx, &left, &right);
    tt_grid_text(g, 1, y, cols - 1, "Ranks", TT_R_TAB, 0);
    if (left && n)
        tt_grid_set(g, t[0].x0 - 2, y, a->utf8 ? 0x2039 : '<', TT_R_TAB, 0);
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind != TAB_RANK && i > 0 && t[i - 1].kind == TAB_RANK && right)
            tt_grid_set(g, t[i - 1].x1 + 1, y, a->utf8 ? 0x203A : '>', TT_R_TAB, 0);
        tt_grid_text(g, t[i].x0, y, cols - t[i].x0, t[i].text, t[i].cur ? TT_R_TAB_CUR : TT_R_TAB,
                     0);
    }
    {
        /* how the clocks were aligned, and the focused rank's offset */
        char info[400], off[48];
        snprintf(info, sizeof info, "aligned: %s%srank %lld offset %s", a->align, tt_tab_sep(a->utf8),
                 (long long)a->rk[a->focus].rank,
                 tt_app_fmt_offset(off, sizeof off, a->rk[a->focus].off));
        if (rx + tt_grid_text_width(info) + 1 > cols)
            snprintf(info, sizeof info, "aligned: %s", a->align);
        if (rx + tt_grid_text_width(info) + 1 <= cols)
            tt_grid_text(g, cols - 1 - tt_grid_text_width(info), y, cols, info, TT_R_TAB, 0);
    }
}

int tt_app_tabs_click(tt_app *a, int x)
{
    tab t[512];
    bool left, right;
    int rx;
    size_t n = tabs_layout(a, t, sizeof t / sizeof t[0], &rx, &left, &right);
    for (size_t i = 0; i < n; i++) {
        if (x < t[i].x0 || x >= t[i].x1)
            continue;
        switch (t[i].kind) {
        case TAB_RANK:
            if (a->view == TT_VIEW_RANK && a->focus == t[i].rank)
                return TT_REACT_NONE;
            return tt_app_show_rank(a, t[i].rank);
        case TAB_JOB:
            return a->view == TT_VIEW_JOB ? TT_REACT_NONE : tt_app_set_view(a, TT_VIEW_JOB);
        default:
            return a->view == TT_VIEW_COLLS ? TT_REACT_NONE : tt_app_set_view(a, TT_VIEW_COLLS);
        }
    }
    if (left && n && x < t[0].x0)
        return step_rank(a, -1);
    if (right)
        for (size_t i = 0; i + 1 < n; i++)
            if (t[i].kind == TAB_RANK && t[i + 1].kind != TAB_RANK && x >= t[i].x1 &&
                x < t[i + 1].x0)
                return step_rank(a, 1);
    return TT_REACT_NONE;
}

/* --------------------------------------------------------------- box */

bool tt_app_rows_lanes_views(const tt_app *a, const tt_row *row, bool folded_only,
                             tt_laneset *out, int *rc)
{
    *rc = 0;
    if (row->kind == TT_ROW_COLL) {
        if (folded_only)
            return false;
        *rc = tt_laneset_add(out, row->lane);
        return true;
    }
    if (row->kind == TT_ROW_RANK && row->rank < a->n_rk) {
        const tt_vrank *r = &a->rk[row->rank];
        if (folded_only && !a->rfold[row->rank])
            return false;
        for (size_t k = 0; k < r->n_dev && *rc == 0; k++)
            *rc = tt_laneset_add(out, tt_app_glane(a, row->rank, r->dev[k]));
        return true;
    }
    if (row->kind == TT_ROW_LANE) {
        if (folded_only)
            return false;
        *rc = tt_laneset_add(out, tt_app_glane(a, row->rank, row->lane));
        return true;
    }
    return false;
}

/* ------------------------------------------------------------ panels */

static int build_ranks_panel(tt_app *a, int width)
{
    char line[2048], v[64], t0[64], sp[64], off[64];
    size_t o = 0;
    bool wd = width >= 100;
    int fw = width - 6 - 1 - 11 - 16 - 12 - (wd ? 13 + 10 : 0);
    tt_plist *pl = &a->rpl;
    if (fw < 10)
        fw = 10;
    tt_plist_clear(pl);
    snprintf(line, sizeof line, "%zu ranks%saligned: %s%sthe job spans %s; times count from its "
                                "start", a->n_rk, tt_tab_sep(a->utf8), a->align, tt_tab_sep(a->utf8),
             tt_fmt_dur(sp, sizeof sp, a->job1 - a->job0, 3));
    if (tt_plist_wrap(pl, TT_R_PANEL, line, width))
        return -1;
    tt_tab_col(line, sizeof line, &o, "Rank", 6, false, a->utf8);
    o += 0;
    line[o++] = ' ';
    line[o] = '\0';
    tt_tab_col(line, sizeof line, &o, "File", fw, true, a->utf8);
    tt_tab_col(line, sizeof line, &o, "Rank from", 11, true, a->utf8);
    tt_tab_col(line, sizeof line, &o, "Offset", 16, false, a->utf8);
    if (wd)
        tt_tab_col(line, sizeof line, &o, "Starts at", 13, false, a->utf8);
    tt_tab_col(line, sizeof line, &o, "Span", 12, false, a->utf8);
    if (wd)
        tt_tab_col(line, sizeof line, &o, "Events", 10, false, a->utf8);
    if (!tt_plist_add(pl, TT_R_PANEL_KEY, line))
        return -1;
    for (size_t i = 0; i < a->n_rk; i++) {
        const tt_vrank *r = &a->rk[i];
        char rn[32];
        o = 0;
        snprintf(rn, sizeof rn, "%lld", (long long)r->rank);
        tt_tab_col(line, sizeof line, &o, rn, 6, false, a->utf8);
        line[o++] = ' ';
        line[o] = '\0';
        tt_tab_col(line, sizeof line, &o, r->file, fw, true, a->utf8);
        tt_tab_col(line, sizeof line, &o, r->source, 11, true, a->utf8);
        tt_tab_col(line, sizeof line, &o, tt_app_fmt_offset(off, sizeof off, r->off), 16, false,
                   a->utf8);
        if (wd)
            tt_tab_col(line, sizeof line, &o,
                       tt_fmt_dur(t0, sizeof t0, tt_vrank_t0(r) - a->job0, 3), 13, false, a->utf8);
        tt_tab_col(line, sizeof line, &o, tt_fmt_dur(sp, sizeof sp, r->tr->t1 - r->tr->t0, 3), 12,
                   false, a->utf8);
        if (wd)
            tt_tab_col(line, sizeof line, &o, tt_fmt_count(v, sizeof v, r->tr->n_events), 10,
                       false, a->utf8);
        if (!tt_plist_item(pl, i == a->focus ? TT_R_PANEL_LINK : TT_R_PANEL, TT_MS_LINE_RANK,
                           (int64_t)i, line))
            return -1;
    }
    tt_plist_clamp(pl);
    return 0;
}

int tt_app_panels_sync(tt_app *a, int w)
{
    switch (a->panel) {
    case TT_PANEL_RANKS:
        return build_ranks_panel(a, w);
    case TT_PANEL_COLL:
        if (a->cpl_built && a->cpl_width == w)
            return 0;
        tt_plist_clear(&a->cpl);
        if (a->cpl_group >= a->cv.n)
            return 0;
        if (tt_collview_panel(&a->cv, a->cpl_group, a->rk, a->n_rk, a->job0, a->align_opt, w,
                              a->utf8, &a->cpl))
            return -1;
        tt_plist_clamp(&a->cpl);
        a->cpl_built = true;
        a->cpl_width = w;
        return 0;
    case TT_PANEL_MSTATS:
        return tt_ms_build(&a->mst, w, a->utf8);
    default:
        return 0;
    }
}

tt_plist *tt_app_panel_list_views(tt_app *a)
{
    switch (a->panel) {
    case TT_PANEL_RANKS: return &a->rpl;
    case TT_PANEL_COLL: return &a->cpl;
    case TT_PANEL_MSTATS: return &a->mst.pl;
    default: return NULL;
    }
}

void tt_app_draw_panel_views(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    char title[600], label[500];
    switch (a->panel) {
    case TT_PANEL_RANKS:
        tt_plist_draw(&a->rpl, g, 0, y, w, ph, a->gl, "Ranks", "Enter its tab  Esc close");
        break;
    case TT_PANEL_COLL:
        if (a->cpl_group < a->cv.n)
            snprintf(title, sizeof title, "Collective %s",
                     tt_collview_label(&a->cv, &a->cv.g[a->cpl_group], label, sizeof label));
        else
            snprintf(title, sizeof title, "Collective");
        tt_plist_draw(&a->cpl, g, 0, y, w, ph, a->gl, title, "Enter the rank's kernel  Esc close");
        break;
    case TT_PANEL_MSTATS:
        tt_ms_title(&a->mst, a->utf8, title, sizeof title);
        tt_plist_draw(&a->mst.pl, g, 0, y, w, ph, a->gl, title,
                      a->mst.kind == TT_MS_RANKS ? "Enter  b by  o order  z zoom  e export  Esc close"
                                                 : "Enter  z zoom  e export  Esc close");
        break;
    default:
        break;
    }
}

int tt_act_ranks_panel(tt_app *a)
{
    if (!need_ranks(a))
        return REDRAW;
    tt_app_open_panel(a, TT_PANEL_RANKS);
    if (build_ranks_panel(a, tt_app_panel_w(a)) == 0)
        tt_plist_goto_item(&a->rpl, TT_MS_LINE_RANK, (int64_t)a->focus);
    return REDRAW;
}

int tt_act_rp_enter(tt_app *a)
{
    const tt_pline *l = tt_plist_picked(&a->rpl);
    if (!l) {
        tt_app_message(a, false, "move to a rank first (j k)");
        return REDRAW;
    }
    a->panel = TT_PANEL_NONE;
    if (a->view == TT_VIEW_RANK && a->focus == (size_t)l->tag)
        return REDRAW;
    return tt_app_show_rank(a, (size_t)l->tag);
}

int tt_act_cp_enter(tt_app *a)
{
    const tt_pline *l = tt_plist_picked(&a->cpl);
    const tt_coll *x;
    if (!l || (size_t)l->tag >= a->cv.c.n) {
        tt_app_message(a, false, "move to a rank's line first (j k)");
        return REDRAW;
    }
    x = &a->cv.c.v[l->tag];
    a->panel = TT_PANEL_NONE;
    tt_app_refocus_select(a, x->rank, x->ev);
    return REDRAW;
}

int tt_act_ms_key(tt_app *a)
{
    tt_error err;
    tt_error_clear(&err);
    if (a->mst.kind != TT_MS_RANKS) {
        tt_app_message(a, false, "b groups a box over ranks' lanes");
        return REDRAW;
    }
    if (tt_ms_cycle_key(&a->mst, &err))
        tt_app_message(a, true, "cannot group the box: %s", err.what);
    return REDRAW;
}

int tt_act_ms_order(tt_app *a)
{
    if (a->mst.kind != TT_MS_RANKS) {
        tt_app_message(a, false, "o sorts a box over ranks' lanes");
        return REDRAW;
    }
    tt_ms_cycle_order(&a->mst);
    return REDRAW;
}

/* Enter on a breakdown row (in the collectives view: a collective's
 * name): its events on every rank highlighted, the first selected. */
static int ms_row_hilite(tt_app *a, size_t row)
{
    tt_hits *hits = calloc(a->n_rk, sizeof *hits);
    const tt_ms_row *r;
    char label[200], desc[400];
    uint64_t total;
    xhit first;
    if (!hits || row >= a->mst.n_rows || tt_ms_row_hits(&a->mst, row, hits, &total)) {
        free(hits);
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    r = &a->mst.rows[row];
    if (r->none) {
        snprintf(label, sizeof label, "(none)");
    } else {
        size_t fit;
        tt_text_sanitize(r->label, strlen(r->label), label, sizeof label);
        fit = tt_text_fit(label, 48, NULL);
        if (fit < strlen(label))
            snprintf(label + fit, sizeof label - fit, "%s", a->utf8 ? "\xe2\x80\xa6" : "~");
    }
    if (a->mst.kind == TT_MS_COLLS)
        snprintf(desc, sizeof desc, "of collective '%s' in the box", label);
    else
        snprintf(desc, sizeof desc, "of %s '%s' in the box", tt_tab_key_title(a->mst.key.kind),
                 label);
    xhl_set(a, hits, label, desc);
    free(hits);
    /* the first of them, on whichever rank: n N go on from there */
    if (!xhl_find(a, NULL, INT64_MIN, 1, &first)) {
        tt_app_message(a, false, "no event %s", desc);
        return REDRAW;
    }
    xhl_go(a, &first, "");
    {
        char at[48];
        tt_app_message(a, false, "%llu event%s %s lit on every rank; the first: rank %lld at %s "
                                 "(n N step in time order)", (unsigned long long)total,
                       total == 1 ? "" : "s", desc, (long long)a->rk[first.rank].rank,
                       tt_fmt_dur(at, sizeof at, first.at - a->job0, 6));
    }
    return REDRAW;
}

int tt_act_ms_enter(tt_app *a)
{
    const tt_pline *l = tt_plist_picked(&a->mst.pl);
    if (!l) {
        tt_app_message(a, false, "move to a rank or a lane (j k)");
        return REDRAW;
    }
    if (l->kind == TT_MS_LINE_RANK) {
        size_t r = (size_t)l->tag;
        if (a->view == TT_VIEW_JOB) {
            int64_t row = tt_rows_rank(&a->list, (uint32_t)r);
            if (row >= 0) {
                a->cur = (size_t)row;
                tt_app_scroll_to_cursor(a);
                tt_app_hit(a);
            }
            return REDRAW;
        }
        a->panel = TT_PANEL_NONE;
        return tt_app_show_rank(a, r);
    }
    if (l->kind == TT_MS_LINE_LANE && a->view == TT_VIEW_JOB) {
        size_t r = (size_t)((uint64_t)l->tag >> 32);
        uint32_t lane = (uint32_t)((uint64_t)l->tag & 0xffffffffu);
        int64_t row;
        if (r < a->n_rk && a->rfold[r]) {
            a->rfold[r] = false;
            tt_app_rebuild_rows(a);
        }
        row = tt_rows_find_rank(&a->list, (uint32_t)r, lane, 0);
        if (row >= 0) {
            a->cur = (size_t)row;
            tt_app_scroll_to_cursor(a);
            tt_app_hit(a);
        }
        return REDRAW;
    }
    if (l->kind == TT_MS_LINE_ROW)
        return ms_row_hilite(a, (size_t)l->tag);
    return REDRAW;
}

int tt_act_ms_export(tt_app *a)
{
    char def[4096];
    size_t first;
    if (!a->mst.valid) {
        tt_app_message(a, false, "e writes a box's tables: select a box first (v, or drag)");
        return REDRAW;
    }
    /* beside the (first) rank's trace, named after the box's job times */
    first = a->mst.kind == TT_MS_RANKS && a->mst.n_r ? a->mst.r[0].rank : 0;
    tt_box_export_default_as(a->rk[first].path,
                             a->mst.kind == TT_MS_RANKS ? "ranks-box" : "collectives-box",
                             a->mst.from - a->mst.origin, a->mst.to - a->mst.origin, def,
                             sizeof def);
    tt_app_ask_text(a, TT_ASK_MS_EXPORT, "write the tables to: ", def);
    return REDRAW;
}

int tt_app_ms_text(tt_app *a, const char *text)
{
    tt_error err;
    char what[200];
    size_t n;
    tt_error_clear(&err);
    if (!text[0]) {
        tt_app_message(a, false, "nothing written: no file name");
        return REDRAW;
    }
    if (tt_ms_export(&a->mst, text, &n, what, sizeof what, &err)) {
        tt_app_message(a, true, "%s: %s", text, err.what);
        return REDRAW;
    }
    if (a->mst.kind == TT_MS_RANKS)
        tt_app_message(a, false, "%s: written, %zu tables (%s) of %zu ranks, a Trace column "
                                 "names each rank's file", text, n, what, a->mst.n_r);
    else
        tt_app_message(a, false, "%s: written, %s of %zu collective%s (as report --kind "
                                 "collectives)", text, what, a->mst.n_colls,
                       plural(a->mst.n_colls));
    return REDRAW;
}

int tt_act_ms_zoom(tt_app *a)
{
    tt_ns from, to;
    if (!a->mst.valid)
        return REDRAW;
    from = a->mst.from - a->off;
    to = a->mst.to - a->off;
    tt_vp_show_range(&a->vp, from, to > from ? to : from + 1);
    if (a->t_cur < from || a->t_cur >= to)
        a->t_cur = from + (to - from) / 2;
    tt_app_hit(a);
    return tt_app_after_view_change(a);
}

int tt_act_ms_marks(tt_app *a)
{
    char f[48], t[48];
    if (!a->mst.valid)
        return tt_act_mark_drop(a);
    tt_mark_at(a, a->mst.from - a->off);
    tt_mark_at(a, a->mst.to - a->off);
    tt_app_message(a, false, "markers at the box's edges, %s and %s (' lists, renames and saves "
                             "them)",
                   tt_fmt_dur(f, sizeof f, a->mst.from - a->job0, 6),
                   tt_fmt_dur(t, sizeof t, a->mst.to - a->job0, 6));
    return REDRAW;
}

