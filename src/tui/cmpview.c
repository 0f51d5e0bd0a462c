/* cmpview.c - the compare view (cmpview.h): two timeline views stacked on
 * one aligned time axis, and the compare panel.
 *
 * The halves are ordinary tt_app views, each laid out for its own part of
 * the screen; this file routes input to the one in focus and, after every
 * input, puts the other one on the same window and cursor time (shifted
 * by the difference of the two offsets), so everything a timeline does
 * works in either half and the two never drift. Both halves get the label
 * column of the wider one, so a column is the same instant in both, and
 * both count time from the start of the comparison on the aligned axis
 * (their rulers, cursor times and marker times agree).
 *
 * The compare panel holds the rows of the diff engine over the two whole
 * sides (their regions) or over the last box's window on both. Owned
 * here: the halves, the panel's lines and the diff shown.
 */
#include "config.h"

#include "tui/cmpview.h"

#include "analysis/diff.h"
#include "tui/app_impl.h"
#include "tui/plist.h"
#include "tui/table.h"
#include "tui/timefmt.h"
#include "util/num.h"
#include "util/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMP_KEY_PANEL 'P'
#define CMP_KEY_KIND 'K'

enum { LINE_ROW = 1 };

struct tt_cmp {
    tt_app      *h[2];       /* A (top), B (bottom) */
    tt_cmp_side  side[2];
    tt_ns        off[2];     /* time + off[i] is the aligned axis */
    char         title[2][300];
    int          focus;
    int          cols, rows;
    int          y[2], hh[2];   /* each half's rows on the screen */
    int          panel_y, panel_h;
    bool         panel;      /* the compare panel is open */
    bool         help;
    const tt_glyphs *gl;
    bool         utf8;
    /* what the panel compares: the whole sides, or a window of each */
    bool         boxed;
    tt_ns        from[2], to[2];
    tt_diff_kind kind;       /* what the rows are: ops, kernels, operators (K) */
    tt_diff     *diff;
    char         diff_err[420];
    tt_plist     pl;
    int          pl_width;   /* the width pl was built for */
    bool         pl_dirty;
    tt_plist     helpl;
    tt_grid     *sub;        /* scratch: one half's frame */
};

/* ---- alignment ------------------------------------------------------ */

static tt_ns side_t0(const tt_cmp_side *s)
{
    return s->sel ? s->sel->from : s->tr->t0;
}

static tt_ns side_t1(const tt_cmp_side *s)
{
    return s->sel ? s->sel->to : s->tr->t1;
}

/* Is the side a part of its trace (a window, a step, a rank's region)? */
static bool side_part(const tt_cmp_side *s)
{
    return s->sel && (s->sel->from > s->tr->t0 || s->sel->to < s->tr->t1);
}

/* Offsets of the two sides as the ranks of a job get them; an event
 * alignment looks for the event inside each side's region first. */
static int cmp_align(tt_cmp *c, const tt_align_spec *spec, tt_error *err)
{
    tt_align_spec start;
    tt_ns t0[2], t1[2], ev[2] = {0, 0};
    tt_align_mode applied;
    if (!spec) {
        memset(&start, 0, sizeof start);
        start.mode = TT_ALIGN_START;
        spec = &start;
    }
    for (int i = 0; i < 2; i++) {
        t0[i] = side_t0(&c->side[i]);
        t1[i] = side_t1(&c->side[i]);
        if (spec->mode == TT_ALIGN_EVENT) {
            int r = tt_align_event_time(c->side[i].tr, spec, &ev[i]);
            if (r < 0)
                return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            if (r > 0) {
                char what[600];
                return tt_error_set(err, TT_ERR_USAGE, "%s has no %s to align on",
                                    i ? "B" : "A", tt_align_target(spec, what, sizeof what));
            }
        }
    }
    tt_align_offsets(spec, t0, t1, ev, 2, c->off, &applied);
    /* start alignment: the regions' starts meet, whatever the traces hold
     * before them */
    return 0;
}

/* ---- the panel ------------------------------------------------------ */

static const tt_diff_row *picked_row(const tt_cmp *c)
{
    const tt_pline *l = tt_plist_picked(&c->pl);
    if (!l || l->kind != LINE_ROW || !c->diff || (size_t)l->tag >= c->diff->n)
        return NULL;
    return &c->diff->rows[l->tag];
}

/* A total: exact ns with separators where the panel is wide, else a
 * rounded duration. */
static const char *fmt_total(char *buf, size_t n, int64_t ns, bool exact)
{
    if (exact) {
        char t[40];
        tt_fmt_count(t, sizeof t, (uint64_t)(ns < 0 ? -ns : ns));
        snprintf(buf, n, "%s%s", ns < 0 ? "-" : "", t);
        return buf;
    }
    return tt_fmt_dur(buf, n, ns, 2);
}

static const char *fmt_delta(char *buf, size_t n, int64_t ns, bool exact)
{
    char t[40];
    fmt_total(t, sizeof t, ns < 0 ? -ns : ns, exact);
    snprintf(buf, n, "%s%s", ns < 0 ? "-" : ns > 0 ? "+" : "", t);
    return buf;
}

static const char *fmt_pct(char *buf, size_t n, double p)
{
    if (isnan(p))
        snprintf(buf, n, "new");
    else
        snprintf(buf, n, "%+.1f%%", p);
    return buf;
}

/* Widths of the number columns for an inner width w. */
typedef struct cmp_cols {
    int name, count, total, pct;
    bool exact;
} cmp_cols;

static cmp_cols cols_for(int w)
{
    cmp_cols k;
    k.exact = w >= 150;
    k.count = k.exact ? 11 : 8;
    k.total = k.exact ? 17 : 10;
    k.pct = 8;
    k.name = w - 2 * k.count - 3 * k.total - k.pct - 6;
    if (k.name < 8)
        k.name = 8;
    return k;
}

static void cmp_line(tt_cmp *c, const cmp_cols *k, const char *name, const char *ca,
                     const char *cb, const char *ta, const char *tb, const char *d,
                     const char *p, char *out, size_t cap)
{
    /* tt_tab_col stops at cap; the separators must too (a panel
     * thousands of columns wide fills the whole line with the name) */
    const char *cell[7] = {name, ca, cb, ta, tb, d, p};
    const int width[7] = {k->name, k->count, k->count, k->total, k->total, k->total, k->pct};
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < 7; i++) {
        if (i && o + 1 < cap) {
            out[o++] = ' ';
            out[o] = 0;
        }
        tt_tab_col(out, cap, &o, cell[i], width[i], i == 0, c->utf8);
    }
}

/* The panel's lines for inner width w. 0 or -1 on OOM. */
static int panel_build(tt_cmp *c, int w)
{
    char line[2048], ca[40], cb[40], ta[48], tb[48], d[56], p[24];
    cmp_cols k = cols_for(w);
    tt_plist_clear(&c->pl);
    if (!c->diff) {
        return tt_plist_addf(&c->pl, TT_R_ERR, "no comparison: %s", c->diff_err) ? 0 : -1;
    }
    {
        const tt_diff *df = c->diff;
        char sa[48], sb[48], sd[56], pct[24];
        double sp = df->sum_a ? 100.0 * (double)(df->sum_b - df->sum_a) / (double)df->sum_a
                              : NAN;
        const char *u = k.exact ? " ns" : "";
        if (!tt_plist_addf(&c->pl, TT_R_PANEL_KEY,
                           "sum A %s%s, B %s%s, delta %s%s (%s); %zu added, %zu deleted, "
                           "%zu increased, %zu decreased, %zu unchanged",
                           fmt_total(sa, sizeof sa, df->sum_a, k.exact), u,
                           fmt_total(sb, sizeof sb, df->sum_b, k.exact), u,
                           fmt_delta(sd, sizeof sd, df->sum_b - df->sum_a, k.exact), u,
                           fmt_pct(pct, sizeof pct, sp), df->n_status[TT_DIFF_ADDED],
                           df->n_status[TT_DIFF_DELETED], df->n_status[TT_DIFF_INCREASED],
                           df->n_status[TT_DIFF_DECREASED], df->n_status[TT_DIFF_UNCHANGED]))
            return -1;
    }
    cmp_line(c, &k, "Name", "Count A", "Count B", k.exact ? "Total A (ns)" : "Total A",
             k.exact ? "Total B (ns)" : "Total B", k.exact ? "Delta (ns)" : "Delta", "Delta %",
             line, sizeof line);
    if (!tt_plist_add(&c->pl, TT_R_PANEL_KEY, line))
        return -1;
    if (c->diff->n == 0 && !tt_plist_add(&c->pl, TT_R_PANEL, "(no events on either side)"))
        return -1;
    for (size_t i = 0; i < c->diff->n; i++) {
        const tt_diff_row *r = &c->diff->rows[i];
        tt_fmt_count(ca, sizeof ca, r->count_a);
        tt_fmt_count(cb, sizeof cb, r->count_b);
        cmp_line(c, &k, r->name ? r->name : "(none)", ca, cb,
                 fmt_total(ta, sizeof ta, r->total_a, k.exact),
                 fmt_total(tb, sizeof tb, r->total_b, k.exact),
                 fmt_delta(d, sizeof d, r->delta, k.exact), fmt_pct(p, sizeof p, r->delta_pct),
                 line, sizeof line);
        if (!tt_plist_item(&c->pl, TT_R_PANEL, LINE_ROW, (int64_t)i, line))
            return -1;
    }
    tt_plist_clamp(&c->pl);
    if (!tt_plist_picked(&c->pl))
        tt_plist_goto_kind(&c->pl, LINE_ROW);
    c->pl_width = w;
    c->pl_dirty = false;
    return 0;
}

/* The panel's lines in step with the diff and the width: after every
 * input, not only when drawing, so the cursor moves the same whether or
 * not a frame was drawn in between (the TUI draws between keys, `render`
 * only at the end). */
static void panel_sync(tt_cmp *c)
{
    int w = c->cols - 4 < 4 ? 4 : c->cols - 4;
    if (c->pl_dirty || c->pl_width != w)
        (void)panel_build(c, w);
}

/* Compute the diff of the sides' regions, or of the box windows. */
static int cmp_compute(tt_cmp *c, tt_error *err)
{
    tt_diff_side *ds[2] = {NULL, NULL};
    tt_diff *d = NULL;
    int rc = -1;
    for (int i = 0; i < 2; i++) {
        tt_sel sel;
        if (c->boxed) {
            memset(&sel, 0, sizeof sel);
            sel.from = c->from[i];
            sel.to = c->to[i];
        } else if (c->side[i].sel) {
            sel = *c->side[i].sel;
        } else {
            memset(&sel, 0, sizeof sel);
            sel.from = c->side[i].tr->t0;
            sel.to = c->side[i].tr->t1;
            sel.to_inclusive = true;
        }
        if (tt_diff_side_compute(c->side[i].tr, &sel, c->kind, NULL, &ds[i], err))
            goto out;
    }
    if (tt_diff_compute(ds[0], ds[1], NULL, &d, err))
        goto out;
    tt_diff_free(c->diff);
    c->diff = d;
    rc = 0;
out:
    tt_diff_side_free(ds[0]);
    tt_diff_side_free(ds[1]);
    c->pl_dirty = true;
    return rc;
}

static void cmp_recompute(tt_cmp *c)
{
    tt_error err;
    tt_error_clear(&err);
    if (cmp_compute(c, &err)) {
        snprintf(c->diff_err, sizeof c->diff_err, "%s", err.what);
        tt_diff_free(c->diff);
        c->diff = NULL;
    }
    c->pl.cur = c->pl.top = 0;
}

/* ---- layout and keeping the halves in step --------------------------- */

static int panel_h_for(const tt_cmp *c)
{
    int h;
    if (!c->panel)
        return 0;
    h = c->rows * 2 / 5;
    if (h < 5)
        h = 5;
    /* each half keeps at least 4 rows: its header, ruler, a lane and its
     * status line */
    if (c->rows - 1 - h < 8)
        h = c->rows - 1 - 8;
    return h < 3 ? 0 : h;
}

static void cmp_layout(tt_cmp *c)
{
    int avail;
    c->panel_h = panel_h_for(c);
    avail = c->rows - 1 - c->panel_h;
    if (avail < 2)
        avail = c->rows > 1 ? c->rows - 1 : 1;
    c->hh[0] = avail / 2 > 0 ? avail / 2 : 1;
    c->hh[1] = avail - c->hh[0] > 0 ? avail - c->hh[0] : 1;
    c->y[0] = 0;
    c->y[1] = c->hh[0];
    c->panel_y = c->hh[0] + c->hh[1];
}

static void half_resize(tt_cmp *c, int i)
{
    tt_input in;
    memset(&in, 0, sizeof in);
    in.kind = TT_IN_RESIZE;
    in.x = c->cols;
    in.y = c->hh[i];
    (void)tt_app_input(c->h[i], &in);
}

/* Both halves get the label column of the wider one: a column is then the
 * same instant above and below. */
static void same_labels(tt_cmp *c)
{
    int w = c->h[0]->label_want > c->h[1]->label_want ? c->h[0]->label_want
                                                      : c->h[1]->label_want;
    for (int i = 0; i < 2; i++) {
        c->h[i]->label_want = w;
        tt_app_relayout(c->h[i]);
    }
}

/* The half not in focus onto the focused one's window and cursor time. */
static void cmp_sync(tt_cmp *c)
{
    tt_app *f = c->h[c->focus], *o = c->h[!c->focus];
    tt_ns d = c->off[c->focus] - c->off[!c->focus];
    o->vp = f->vp;
    tt_vp_shift(&o->vp, d);
    if (o->vp.cols != o->scr.tl_w)
        tt_vp_set_cols(&o->vp, o->scr.tl_w);
    o->t_cur = f->t_cur + d;
    o->typed = false;
}

static void cmp_resize(tt_cmp *c, int cols, int rows)
{
    c->cols = cols > 0 ? cols : 1;
    c->rows = rows > 0 ? rows : 1;
    cmp_layout(c);
    half_resize(c, 0);
    half_resize(c, 1);
    same_labels(c);
    cmp_sync(c);
}

/* ---- highlight ------------------------------------------------------ */

/* Highlight the events named `name` in half i; how many there are. */
static uint64_t half_highlight(tt_cmp *c, int i, const char *name)
{
    tt_app *a = c->h[i];
    tt_hits hits;
    uint32_t id = tt_strtab_find(a->tr->strings, name, strlen(name));
    uint64_t n;
    char desc[400];
    tt_hits_init(&hits);
    if (id == UINT32_MAX || tt_hits_build_name(&hits, a->tr, id)) {
        tt_hits_fini(&hits);
        tt_hits_init(&hits);
    }
    n = hits.total;
    snprintf(desc, sizeof desc, "named in the compare panel");
    tt_app_set_hits(a, &hits, name, desc);
    tt_hits_fini(&hits);
    return n;
}

static int panel_enter(tt_cmp *c)
{
    const tt_diff_row *r = picked_row(c);
    uint64_t n[2];
    char safe[300];
    if (!r || !r->name)
        return TT_REACT_REDRAW;
    for (int i = 0; i < 2; i++)
        n[i] = half_highlight(c, i, r->name);
    tt_text_sanitize(r->name, strlen(r->name), safe, sizeof safe);
    /* the half in focus goes to its first instance after the cursor */
    if (n[c->focus]) {
        (void)tt_app_key(c->h[c->focus], 'n');
        cmp_sync(c);
    }
    /* the counts first: a long kernel name is cut at the line's end */
    tt_app_message(c->h[c->focus], false, "%llu in A, %llu in B (n N step): '%s'",
                   (unsigned long long)n[0], (unsigned long long)n[1], safe);
    return TT_REACT_REDRAW;
}

/* ---- box ------------------------------------------------------------ */

/* A box was just confirmed in the half in focus: the same window in the
 * other half, and the panel over both windows. */
static void box_confirmed(tt_cmp *c)
{
    int f = c->focus, o = !f;
    tt_app *af = c->h[f], *ao = c->h[o];
    tt_ns d = c->off[f] - c->off[o];
    uint32_t *lanes = malloc((ao->tr->n_lanes + 1) * sizeof *lanes);
    if (!lanes) {
        tt_app_message(af, true, "out of memory");
        return;
    }
    for (uint32_t l = 0; l < ao->tr->n_lanes; l++)
        lanes[l] = l;
    (void)tt_box_select(ao, af->box.from + d, af->box.to + d, lanes, ao->tr->n_lanes);
    free(lanes);
    c->boxed = true;
    c->from[f] = af->box.from;
    c->to[f] = af->box.to;
    c->from[o] = af->box.from + d;
    c->to[o] = af->box.to + d;
    /* the panel compares the windows; the halves' own statistics stay a
     * key away (their box reopens them) */
    tt_app_open_panel(af, TT_PANEL_NONE);
    tt_app_open_panel(ao, TT_PANEL_NONE);
    c->panel = true;
    cmp_recompute(c);
    cmp_layout(c);
    half_resize(c, 0);
    half_resize(c, 1);
    cmp_sync(c);
}

/* ---- help ----------------------------------------------------------- */

static const char *const help_text[][2] = {
    {"Tab", "focus the other half (A above, B below)"},
    {"P", "the compare panel: names by |delta|, whole traces or the box"},
    {"Up Down j k", "in the panel: move; PgUp PgDn Home End"},
    {"Enter", "in the panel: highlight the name in both halves"},
    {"K", "in the panel: ops, kernels, operators (as diff --kind)"},
    {"n N", "next, previous highlighted event in the half in focus"},
    {"v ... Enter", "box over the half in focus: the same window in the other;"},
    {"", "the panel then compares the two windows"},
    {"Esc", "close the panel (again: back to the whole traces)"},
    {"?", "this help; every other key works in the half in focus"},
    {"", "as in the timeline (zoom, pan, search, details, markers)"},
    {"q", "quit"},
};

static int help_build(tt_cmp *c)
{
    tt_plist_clear(&c->helpl);
    for (size_t i = 0; i < sizeof help_text / sizeof help_text[0]; i++) {
        tt_pline *l = tt_plist_addf(&c->helpl, TT_R_PANEL, "%-12s %s", help_text[i][0],
                                    help_text[i][1]);
        if (!l)
            return -1;
        l->lead_w = 12;
        l->lead_role = TT_R_PANEL_KEY;
    }
    tt_plist_clamp(&c->helpl);
    return 0;
}

/* ---- life cycle ----------------------------------------------------- */

static tt_app *half_new(tt_cmp *c, int i, const tt_cmp_opts *o, tt_error *err)
{
    tt_app_opts ao;
    char safe[260];
    const char *nm = c->side[i].name ? c->side[i].name : "(trace)";
    tt_text_sanitize(nm, strlen(nm), safe, sizeof safe);
    snprintf(c->title[i], sizeof c->title[i], "%s: %s", i ? "B" : "A", safe);
    memset(&ao, 0, sizeof ao);
    ao.title = c->title[i];
    ao.utf8 = o ? o->utf8 : false;
    /* marker sets are A's: on the aligned axis they hold for both */
    ao.path = c->side[0].path;
    ao.rules = o ? o->rules : NULL;
    return tt_app_new(c->side[i].tr, c->cols, c->hh[i], &ao, err);
}

tt_cmp *tt_cmp_new(const tt_cmp_side *a, const tt_cmp_side *b, int cols, int rows,
                   const tt_cmp_opts *opts, tt_error *err)
{
    tt_cmp *c = calloc(1, sizeof *c);
    tt_ns u0, u1;
    if (!c) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    c->side[0] = *a;
    c->side[1] = *b;
    c->utf8 = opts && opts->utf8;
    c->gl = tt_theme_glyphs(c->utf8);
    c->cols = cols > 0 ? cols : 1;
    c->rows = rows > 0 ? rows : 1;
    c->panel = true;
    tt_plist_init(&c->pl);
    tt_plist_init(&c->helpl);
    if (cmp_align(c, opts ? opts->align : NULL, err))
        goto fail;
    cmp_layout(c);
    for (int i = 0; i < 2; i++)
        if (!(c->h[i] = half_new(c, i, opts, err)))
            goto fail;
    if (!(c->sub = tt_grid_new(c->cols, c->hh[0]))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto fail;
    }
    /* one axis: the union of both traces on it, each half's window bounds
     * that union on its own clock; time counts from the compared regions'
     * first start */
    u0 = a->tr->t0 + c->off[0] < b->tr->t0 + c->off[1] ? a->tr->t0 + c->off[0]
                                                       : b->tr->t0 + c->off[1];
    u1 = a->tr->t1 + c->off[0] > b->tr->t1 + c->off[1] ? a->tr->t1 + c->off[0]
                                                       : b->tr->t1 + c->off[1];
    {
        tt_ns r0 = side_t0(a) + c->off[0] < side_t0(b) + c->off[1] ? side_t0(a) + c->off[0]
                                                                   : side_t0(b) + c->off[1];
        tt_ns r1 = side_t1(a) + c->off[0] > side_t1(b) + c->off[1] ? side_t1(a) + c->off[0]
                                                                   : side_t1(b) + c->off[1];
        for (int i = 0; i < 2; i++) {
            tt_app *h = c->h[i];
            tt_vp_rebound(&h->vp, u0 - c->off[i], u1 - c->off[i]);
            h->origin = r0 - c->off[i];
            if (i == 0)
                tt_vp_show_range(&h->vp, r0 - c->off[i], r1 - c->off[i]);
        }
        c->h[0]->t_cur = tt_vp_time_mid(&c->h[0]->vp, c->h[0]->vp.cols / 2);
    }
    same_labels(c);
    cmp_sync(c);
    if (opts && opts->markers)
        for (int i = 0; i < 2; i++) {
            tt_error merr;
            tt_error_clear(&merr);
            /* the reason, if it fails, is in that half's status line */
            (void)tt_app_load_markers(c->h[i], opts->markers, &merr);
        }
    cmp_recompute(c);
    panel_sync(c);
    return c;
fail:
    tt_cmp_free(c);
    return NULL;
}

void tt_cmp_free(tt_cmp *c)
{
    if (!c)
        return;
    tt_app_free(c->h[0]);
    tt_app_free(c->h[1]);
    tt_diff_free(c->diff);
    tt_plist_fini(&c->pl);
    tt_plist_fini(&c->helpl);
    tt_grid_free(c->sub);
    free(c);
}

/* ---- input ---------------------------------------------------------- */

static int panel_inner_h(const tt_cmp *c)
{
    return c->panel_h > 2 ? c->panel_h - 2 : 1;
}

/* The compare view's own keys: handled (reaction flags), or -1 to pass
 * the key on to the half in focus. */
static int cmp_key(tt_cmp *c, uint32_t key)
{
    tt_app *f = c->h[c->focus];
    bool plain = f->mode == TT_MODE_MAIN && !f->help && !f->box.selecting;
    if (c->help) {
        switch (key) {
        case TT_KEY_DOWN: case 'j': tt_plist_move(&c->helpl, 1); break;
        case TT_KEY_UP: case 'k': tt_plist_move(&c->helpl, -1); break;
        default: c->help = false; break;
        }
        return TT_REACT_REDRAW;
    }
    if (!plain)
        return -1;
    if (key == TT_KEY_TAB) {
        c->focus = !c->focus;
        return TT_REACT_REDRAW;
    }
    if (key == '?') {
        c->help = true;
        return help_build(c) ? TT_REACT_REDRAW : TT_REACT_REDRAW;
    }
    if (key == CMP_KEY_PANEL) {
        c->panel = !c->panel;
        cmp_resize(c, c->cols, c->rows);
        return TT_REACT_REDRAW;
    }
    /* the panel takes its keys while the half has no panel of its own */
    if (!c->panel || f->panel != TT_PANEL_NONE)
        return -1;
    switch (key) {
    case TT_KEY_DOWN: case 'j': tt_plist_move(&c->pl, 1); break;
    case TT_KEY_UP: case 'k': tt_plist_move(&c->pl, -1); break;
    case TT_KEY_PGDN: tt_plist_move(&c->pl, panel_inner_h(c)); break;
    case TT_KEY_PGUP: tt_plist_move(&c->pl, -panel_inner_h(c)); break;
    case TT_KEY_HOME: tt_plist_move(&c->pl, INT64_MIN / 2); break;
    case TT_KEY_END: tt_plist_move(&c->pl, INT64_MAX / 2); break;
    case TT_KEY_ENTER: return panel_enter(c);
    case CMP_KEY_KIND:
        /* ops, kernels, operators: the tables diff --kind compares */
        c->kind = c->kind == TT_DIFF_OPS       ? TT_DIFF_KERNELS
                  : c->kind == TT_DIFF_KERNELS ? TT_DIFF_OPERATORS
                                               : TT_DIFF_OPS;
        cmp_recompute(c);
        break;
    case TT_KEY_ESC:
        if (c->boxed) {
            /* back to the whole traces first */
            c->boxed = false;
            cmp_recompute(c);
        } else {
            c->panel = false;
            cmp_resize(c, c->cols, c->rows);
        }
        break;
    default:
        return -1;
    }
    tt_plist_scroll(&c->pl, panel_inner_h(c));
    return TT_REACT_REDRAW;
}

/* The key to the half in focus; notices a box it confirms. */
static int half_key(tt_cmp *c, const tt_input *in)
{
    tt_app *f = c->h[c->focus];
    bool was_selecting = f->box.selecting;
    int react = tt_app_input(f, in);
    if (was_selecting && f->box.shown && !f->box.selecting && f->panel == TT_PANEL_STATS)
        box_confirmed(c);
    cmp_sync(c);
    return react | TT_REACT_REDRAW;
}

static int cmp_input(tt_cmp *c, const tt_input *in)
{
    if (in->kind == TT_IN_RESIZE) {
        cmp_resize(c, in->x, in->y);
        return TT_REACT_REDRAW;
    }
    if (in->kind == TT_IN_KEY) {
        int r = cmp_key(c, in->key);
        if (r >= 0)
            return r;
        return half_key(c, in);
    }
    /* the mouse: a half takes its own rows (and the focus) */
    for (int i = 0; i < 2; i++)
        if (in->y >= c->y[i] && in->y < c->y[i] + c->hh[i]) {
            tt_input m = *in;
            m.y -= c->y[i];
            c->focus = i;
            return half_key(c, &m);
        }
    return TT_REACT_NONE;
}

int tt_cmp_input(tt_cmp *c, const tt_input *in)
{
    int r = cmp_input(c, in);
    panel_sync(c);
    return r;
}

const char *tt_cmp_take_clip(tt_cmp *c, size_t *n)
{
    const char *s = tt_app_take_clip(c->h[0], n);
    return s ? s : tt_app_take_clip(c->h[1], n);
}

/* ---- drawing -------------------------------------------------------- */

static void blit_half(tt_cmp *c, tt_grid *g, int i)
{
    for (int y = 0; y < c->hh[i] && y < c->sub->rows && c->y[i] + y < g->rows; y++)
        memcpy(tt_grid_at(g, 0, c->y[i] + y), tt_grid_at(c->sub, 0, y),
               (size_t)g->cols * sizeof(tt_cell));
    /* the half not in focus has its header dimmed: the focus is the lit one */
    if (i != c->focus && c->h[i]->scr.header_y >= 0)
        for (int x = 0; x < g->cols; x++)
            tt_grid_restyle(g, x, c->y[i] + c->h[i]->scr.header_y, TT_R_STATUS, 0);
}

static void draw_status(tt_cmp *c, tt_grid *g)
{
    static const char *const hints[][2] = {
        {"Tab", "other half"}, {"P", "compare"}, {"Enter", "highlight"},
        {"v", "box"},          {"?", "help"},    {"q", "quit"},
    };
    int y = c->rows - 1, x = 0;
    char buf[64];
    tt_grid_fill(g, 0, y, g->cols, ' ', TT_R_STATUS, 0);
    snprintf(buf, sizeof buf, " %s ", c->focus ? "B" : "A");
    x += tt_grid_text(g, x, y, g->cols - x, buf, TT_R_STATUS_KEY, 0);
    x += tt_grid_text(g, x, y, g->cols - x, c->boxed ? " box " : " whole ", TT_R_STATUS, 0);
    for (size_t i = 0; i < sizeof hints / sizeof hints[0] && x < g->cols; i++) {
        x += tt_grid_text(g, x, y, g->cols - x, " ", TT_R_STATUS, 0);
        x += tt_grid_text(g, x, y, g->cols - x, hints[i][0], TT_R_STATUS_KEY, 0);
        snprintf(buf, sizeof buf, " %s", hints[i][1]);
        x += tt_grid_text(g, x, y, g->cols - x, buf, TT_R_STATUS, 0);
    }
}

static void draw_panel(tt_cmp *c, tt_grid *g)
{
    char title[200], f0[40], f1[40];
    int w = c->cols;
    if (c->panel_h < 3 || w < 8)
        return;
    panel_sync(c);
    tt_plist_scroll(&c->pl, c->panel_h - 2);
    if (c->boxed) {
        tt_app *a = c->h[0];
        tt_tfmt_time(f0, sizeof f0, c->from[0] - a->origin, 1000);
        tt_tfmt_time(f1, sizeof f1, c->to[0] - a->origin, 1000);
        snprintf(title, sizeof title, "compare: the box %s%s%s (%s by |delta|)", f0,
                 tt_tab_dash(c->utf8), f1, tt_diff_kind_name(c->kind));
    } else {
        snprintf(title, sizeof title, "compare: %s (%s by |delta|)",
                 side_part(&c->side[0]) || side_part(&c->side[1]) ? "the regions"
                                                                  : "the whole traces",
                 tt_diff_kind_name(c->kind));
    }
    tt_plist_draw(&c->pl, g, 0, c->panel_y, w, c->panel_h, c->gl, title,
                  c->boxed ? "Enter highlight Esc whole" : "Enter highlight Esc close");
}

int tt_cmp_draw(tt_cmp *c, tt_grid *g)
{
    if ((g->cols != c->cols || g->rows != c->rows) && tt_grid_resize(g, c->cols, c->rows))
        return -1;
    tt_grid_clear(g, TT_R_DEFAULT);
    for (int i = 0; i < 2; i++) {
        if (tt_app_draw(c->h[i], c->sub))
            return -1;
        blit_half(c, g, i);
    }
    if (c->panel)
        draw_panel(c, g);
    if (c->rows > 1)
        draw_status(c, g);
    if (c->help) {
        int h = c->rows - 2 < 14 ? c->rows - 2 : 14;
        if (h >= 3 && c->cols >= 20) {
            tt_plist_scroll(&c->helpl, h - 2);
            tt_plist_draw(&c->helpl, g, 0, 1, c->cols, h, c->gl, "compare view keys",
                          "any key closes");
        }
    }
    return 0;
}
