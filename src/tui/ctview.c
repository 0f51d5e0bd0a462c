/* ctview.c - the call tree panel's content: tree lines and the icicle
 * (see ctview.h). */
#include "config.h"

#include "tui/ctview.h"

#include "tui/details.h"
#include "tui/table.h"
#include "util/num.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tt_ctview_init(tt_ctview *v)
{
    memset(v, 0, sizeof *v);
    tt_laneset_init(&v->lanes);
    tt_plist_init(&v->pl);
    v->cur[0] = v->cur[1] = TT_CT_NONE;
}

static void drop_trees(tt_ctview *v)
{
    tt_calltree_free(v->bu);
    tt_calltree_free(v->td);
    free(v->open[0]);
    free(v->open[1]);
    v->td = v->bu = NULL;
    v->open[0] = v->open[1] = NULL;
    v->cur[0] = v->cur[1] = TT_CT_NONE;
    v->valid = false;
}

void tt_ctview_fini(tt_ctview *v)
{
    drop_trees(v);
    tt_laneset_fini(&v->lanes);
    tt_plist_fini(&v->pl);
}

static int which(const tt_ctview *v)
{
    return v->bottom_up ? 1 : 0;
}

const tt_calltree *tt_ctview_tree(const tt_ctview *v)
{
    return v->bottom_up ? v->bu : v->td;
}

uint32_t tt_ctview_cur(const tt_ctview *v)
{
    return v->valid ? v->cur[which(v)] : TT_CT_NONE;
}

/* Open flags for a tree: the first two levels open. NULL on OOM. */
static uint8_t *first_open(const tt_calltree *ct)
{
    uint8_t *o = calloc(ct->n ? ct->n : 1, 1);
    if (o)
        for (size_t i = 0; i < ct->n; i++)
            o[i] = ct->v[i].depth < 1;
    return o;
}

int tt_ctview_open(tt_ctview *v, const tt_trace *tr, const tt_sel *sel, tt_error *err)
{
    drop_trees(v);
    v->tr = tr;
    v->bottom_up = false;
    v->built = false;
    v->ice_top = 0;
    v->lanes.n = 0;
    if (sel->lanes) {
        for (size_t i = 0; i < sel->n_lanes; i++)
            if (tt_laneset_add(&v->lanes, sel->lanes[i]))
                goto oom;
        if (tt_laneset_finish(&v->lanes))
            goto oom;
    }
    v->sel = *sel;
    if (sel->lanes)
        tt_sel_lanes(&v->sel, &v->lanes);
    if (tt_calltree_build(tr, &v->sel, &v->td, err))
        return -1;
    if (!(v->open[0] = first_open(v->td)))
        goto oom;
    v->cur[0] = v->td->root;
    v->pl.cur = v->pl.top = 0;
    v->valid = true;
    return 0;
oom:
    tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    return -1;
}

int tt_ctview_toggle_bu(tt_ctview *v, tt_error *err)
{
    if (!v->valid)
        return 0;
    if (!v->bu) {
        if (tt_calltree_bottom_up(v->td, &v->bu, err))
            return -1;
        if (!(v->open[1] = first_open(v->bu))) {
            tt_calltree_free(v->bu);
            v->bu = NULL;
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            return -1;
        }
        v->cur[1] = v->bu->root;
    }
    v->bottom_up = !v->bottom_up;
    v->built = false;
    v->ice_top = 0;
    return 0;
}

/* ------------------------------------------------------------- moves */

/* Put the cursor on node n, opening its ancestors so its line shows. */
static void go(tt_ctview *v, uint32_t n)
{
    const tt_calltree *ct = tt_ctview_tree(v);
    for (uint32_t p = ct->v[n].parent; p != TT_CT_NONE; p = ct->v[p].parent)
        if (!v->open[which(v)][p]) {
            v->open[which(v)][p] = 1;
            v->built = false;
        }
    v->cur[which(v)] = n;
    if (v->built)
        tt_plist_goto_item(&v->pl, TT_CTV_LINE_NODE, n);
}

bool tt_ctview_go_parent(tt_ctview *v)
{
    uint32_t c = tt_ctview_cur(v);
    if (c == TT_CT_NONE || tt_ctview_tree(v)->v[c].parent == TT_CT_NONE)
        return false;
    go(v, tt_ctview_tree(v)->v[c].parent);
    return true;
}

bool tt_ctview_go_child(tt_ctview *v)
{
    uint32_t c = tt_ctview_cur(v);
    if (c == TT_CT_NONE || tt_ctview_tree(v)->v[c].child == TT_CT_NONE)
        return false;
    go(v, tt_ctview_tree(v)->v[c].child);
    return true;
}

bool tt_ctview_go_sibling(tt_ctview *v, int dir)
{
    const tt_calltree *ct = tt_ctview_tree(v);
    uint32_t c = tt_ctview_cur(v), s, prev = TT_CT_NONE;
    if (c == TT_CT_NONE)
        return false;
    if (dir > 0) {
        if (ct->v[c].next == TT_CT_NONE)
            return false;
        go(v, ct->v[c].next);
        return true;
    }
    s = ct->v[c].parent == TT_CT_NONE ? ct->root : ct->v[ct->v[c].parent].child;
    for (; s != c && s != TT_CT_NONE; s = ct->v[s].next)
        prev = s;
    if (prev == TT_CT_NONE)
        return false;
    go(v, prev);
    return true;
}

bool tt_ctview_is_open(const tt_ctview *v)
{
    uint32_t c = tt_ctview_cur(v);
    return c != TT_CT_NONE && v->open[which(v)][c];
}

void tt_ctview_set_open(tt_ctview *v, bool open)
{
    uint32_t c = tt_ctview_cur(v);
    if (c == TT_CT_NONE || v->open[which(v)][c] == open)
        return;
    v->open[which(v)][c] = open;
    v->built = false;
}

void tt_ctview_all(tt_ctview *v, bool open)
{
    const tt_calltree *ct = tt_ctview_tree(v);
    uint32_t c = tt_ctview_cur(v);
    if (!v->valid)
        return;
    memset(v->open[which(v)], open, ct->n);
    v->built = false;
    /* closing everything leaves the roots: the cursor goes to its root */
    if (!open && c != TT_CT_NONE) {
        while (ct->v[c].parent != TT_CT_NONE)
            c = ct->v[c].parent;
        v->cur[which(v)] = c;
    }
}

void tt_ctview_follow_lines(tt_ctview *v)
{
    const tt_pline *l = tt_plist_picked(&v->pl);
    if (v->valid && v->built && l && l->kind == TT_CTV_LINE_NODE)
        v->cur[which(v)] = (uint32_t)l->tag;
}

/* ------------------------------------------------------------- lines */

static const char *dur(char *buf, size_t n, tt_ns ns)
{
    return tt_fmt_dur(buf, n, ns, 3);
}

void tt_ctview_node_text(const tt_ctview *v, uint32_t node, char *out, size_t cap)
{
    const tt_calltree *ct = tt_ctview_tree(v);
    const tt_ctnode *nd;
    char name[300], a[32], b[32], c[32], d[32], calls[32], raw[700];
    if (!v->valid || node == TT_CT_NONE || node >= ct->n) {
        snprintf(out, cap, "%s", "nothing in the box");
        return;
    }
    nd = &ct->v[node];
    tt_text_sanitize(tt_str(ct->tr, nd->name), strlen(tt_str(ct->tr, nd->name)), name,
                     sizeof name);
    tt_fmt_count(calls, sizeof calls, nd->calls);
    if (nd->device)
        snprintf(raw, sizeof raw, "%s (device): %s call%s, device %s", name, calls,
                 nd->calls == 1 ? "" : "s", dur(a, sizeof a, nd->dev_total));
    else if (!ct->has_links)
        snprintf(raw, sizeof raw, "%s: %s call%s, host %s total, %s self", name, calls,
                 nd->calls == 1 ? "" : "s", dur(a, sizeof a, nd->host_total),
                 dur(b, sizeof b, nd->host_self));
    else
        snprintf(raw, sizeof raw, "%s: %s call%s, host %s total, %s self, device %s total, %s "
                 "self", name, calls, nd->calls == 1 ? "" : "s",
                 dur(a, sizeof a, nd->host_total), dur(b, sizeof b, nd->host_self),
                 dur(c, sizeof c, nd->dev_total), dur(d, sizeof d, nd->dev_self));
    snprintf(out, cap, "%s", raw);
}

/* The columns: calls and four times, or on a narrow panel calls, host
 * total and device total. */
typedef struct cols {
    bool wide;
    int  namew;
} cols;

#define W_CALLS 9
#define W_TIME 11

static cols layout(int width)
{
    cols c;
    c.wide = width >= 72;
    c.namew = width - W_CALLS - (c.wide ? 4 : 2) * W_TIME;
    if (c.namew < 8)
        c.namew = 8;
    return c;
}

static void head_line(char *out, size_t cap, const cols *c, bool bu, bool utf8)
{
    size_t o = 0;
    out[0] = '\0';
    tt_tab_col(out, cap, &o, bu ? "Name (callers below)" : "Name", c->namew, true, utf8);
    tt_tab_col(out, cap, &o, "Calls", W_CALLS, false, utf8);
    tt_tab_col(out, cap, &o, "Host total", W_TIME, false, utf8);
    if (c->wide)
        tt_tab_col(out, cap, &o, "Host self", W_TIME, false, utf8);
    tt_tab_col(out, cap, &o, "Dev total", W_TIME, false, utf8);
    if (c->wide)
        tt_tab_col(out, cap, &o, "Dev self", W_TIME, false, utf8);
}

static void node_line(const tt_ctview *v, uint32_t n, char *out, size_t cap, const cols *c,
                      bool utf8)
{
    const tt_calltree *ct = tt_ctview_tree(v);
    const tt_ctnode *nd = &ct->v[n];
    char name[1100], glyph[8], t[32];
    const tt_glyphs *gl = tt_theme_glyphs(utf8);
    int ind = (int)(nd->depth < 24 ? nd->depth : 24);
    size_t o = 0;
    /* names are sanitized by tt_tab_col; the indent and glyph are ours */
    glyph[tt_grid_utf8(nd->child == TT_CT_NONE ? ' '
                       : v->open[which(v)][n] ? gl->fold_open : gl->fold_closed, glyph)] = '\0';
    snprintf(name, sizeof name, "%*s%s %s%s", ind, "", glyph, nd->device ? "[d] " : "",
             tt_str(ct->tr, nd->name));
    out[0] = '\0';
    tt_tab_col(out, cap, &o, name, c->namew, true, utf8);
    tt_fmt_count(t, sizeof t, nd->calls);
    tt_tab_col(out, cap, &o, t, W_CALLS, false, utf8);
    tt_tab_col(out, cap, &o, nd->device ? "" : dur(t, sizeof t, nd->host_total), W_TIME, false,
               utf8);
    if (c->wide)
        tt_tab_col(out, cap, &o, nd->device ? "" : dur(t, sizeof t, nd->host_self), W_TIME,
                   false, utf8);
    /* without launch links an op's device time is unknown, not zero */
    tt_tab_col(out, cap, &o, !ct->has_links && !nd->device ? "" : dur(t, sizeof t, nd->dev_total),
               W_TIME, false, utf8);
    if (c->wide)
        tt_tab_col(out, cap, &o,
                   !ct->has_links && !nd->device ? "" : dur(t, sizeof t, nd->dev_self), W_TIME,
                   false, utf8);
}

int tt_ctview_build(tt_ctview *v, int width, bool utf8)
{
    const tt_calltree *ct = tt_ctview_tree(v);
    char line[2400];
    cols c = layout(width);
    uint32_t n;
    if (v->built && v->width == width)
        return 0;
    tt_plist_clear(&v->pl);
    v->width = width;
    if (!v->valid) {
        v->built = true;
        return tt_plist_add(&v->pl, TT_R_PANEL, "no box: select one (v) first") ? 0 : -1;
    }
    if (!ct->has_links &&
        !tt_plist_add(&v->pl, TT_R_PANEL,
                      "no launch links in this trace: the device columns of host calls are "
                      "empty"))
        return -1;
    if (ct->root == TT_CT_NONE) {
        v->built = true;
        return tt_plist_add(&v->pl, TT_R_PANEL, "no events in the box") ? 0 : -1;
    }
    head_line(line, sizeof line, &c, v->bottom_up, utf8);
    if (!tt_plist_add(&v->pl, TT_R_PANEL_KEY, line))
        return -1;
    /* depth first over the open nodes */
    n = ct->root;
    while (n != TT_CT_NONE) {
        node_line(v, n, line, sizeof line, &c, utf8);
        if (!tt_plist_item(&v->pl, TT_R_PANEL, TT_CTV_LINE_NODE, n, line))
            return -1;
        if (v->open[which(v)][n] && ct->v[n].child != TT_CT_NONE) {
            n = ct->v[n].child;
            continue;
        }
        while (n != TT_CT_NONE && ct->v[n].next == TT_CT_NONE)
            n = ct->v[n].parent;
        if (n != TT_CT_NONE)
            n = ct->v[n].next;
    }
    v->built = true;
    tt_plist_clamp(&v->pl);
    if (!tt_plist_goto_item(&v->pl, TT_CTV_LINE_NODE, v->cur[which(v)]))
        tt_plist_goto_kind(&v->pl, TT_CTV_LINE_NODE);
    tt_ctview_follow_lines(v);
    return 0;
}

/* ------------------------------------------------------------ icicle */

typedef struct ice {
    const tt_ctview *v;
    const tt_calltree *ct;
    tt_grid *g;
    const tt_glyphs *gl;
    int x, y, w, rows;   /* the depth rows: y .. y+rows-1 for depths top .. */
    int top;
    double per;          /* cells per ns of weight */
    uint32_t cur;
} ice;

static void ice_node(const ice *c, uint32_t n, double x0, double x1)
{
    const tt_ctnode *nd = &c->ct->v[n];
    int row = (int)nd->depth - c->top;
    int c0 = (int)(x0 + 0.5), c1 = (int)(x1 + 0.5);
    const char *raw = tt_str(c->ct->tr, nd->name);
    char safe[600];
    uint8_t role = n == c->cur ? TT_R_SEL_NAME : TT_R_EV_NAME;
    uint8_t color = tt_theme_color_of(raw, strlen(raw));
    /* the cursor shows even where it weighs nothing (an instant) */
    if (n == c->cur && c1 <= c0) {
        c0 = c0 < c->w ? c0 : c->w - 1;
        c1 = c0 + 1;
    }
    if (row < 0 || row >= c->rows || c1 <= c0)
        return;
    if (c1 > c->w)
        c1 = c->w;
    tt_grid_fill(c->g, c->x + c0, c->y + row, c1 - c0, ' ', role, color);
    /* a bar at its left edge: runs stay apart without color */
    tt_grid_set(c->g, c->x + c0, c->y + row, c->gl->vline, role, color);
    if (c1 - c0 >= 2) {
        tt_text_sanitize(raw, strlen(raw), safe, sizeof safe);
        tt_grid_text_fit(c->g, c->x + c0 + 1, c->y + row, c1 - c0 - 1, safe, role, color,
                         c->gl->ellipsis);
    }
}

/* Lay out the siblings from `first` in [x0, x1): by weight at c->per
 * cells per ns, scaled down to fit when they weigh more than the run. */
static void ice_level(const ice *c, uint32_t first, double x0, double x1)
{
    tt_ns sum = 0;
    double scale, x = x0;
    for (uint32_t s = first; s != TT_CT_NONE; s = c->ct->v[s].next)
        sum += tt_calltree_weight(c->ct, s);
    if (sum <= 0 || x1 - x0 < 0.5)
        return;
    scale = (double)sum * c->per > x1 - x0 ? (x1 - x0) / (double)sum : c->per;
    for (uint32_t s = first; s != TT_CT_NONE; s = c->ct->v[s].next) {
        double cw = (double)tt_calltree_weight(c->ct, s) * scale;
        if (cw < 0.5) {
            x += cw;
            continue;
        }
        ice_node(c, s, x, x + cw);
        if ((int)c->ct->v[s].depth + 1 - c->top < c->rows)
            ice_level(c, c->ct->v[s].child, x, x + cw);
        x += cw;
    }
}

void tt_ctview_ice_scroll(tt_ctview *v, int inner_h)
{
    int rows = inner_h - 1, d;
    uint32_t c = tt_ctview_cur(v);
    if (c == TT_CT_NONE || rows < 1)
        return;
    d = (int)tt_ctview_tree(v)->v[c].depth;
    if (d < v->ice_top)
        v->ice_top = d;
    if (d >= v->ice_top + rows)
        v->ice_top = d - rows + 1;
}

void tt_ctview_draw_icicle(tt_ctview *v, tt_grid *g, int x, int y, int w, int h,
                           const tt_glyphs *gl, bool utf8, const char *title, const char *hint)
{
    const tt_calltree *ct = tt_ctview_tree(v);
    int ix = x + 1, iy = y + 1, iw = w - 2, ih = h - 2;
    char info[800];
    ice c;
    tt_ns total = 0;
    uint32_t z, first;
    (void)utf8;
    tt_panel_box(g, x, y, w, h, gl, title, hint);
    if (ih < 1 || iw < 2)
        return;
    tt_ctview_node_text(v, tt_ctview_cur(v), info, sizeof info);
    tt_grid_text_fit(g, ix + 1, iy + ih - 1, iw - 2, info, TT_R_PANEL, 0, gl->ellipsis);
    if (!v->valid || ih < 2 || ct->root == TT_CT_NONE)
        return;
    memset(&c, 0, sizeof c);
    c.v = v;
    c.ct = ct;
    c.g = g;
    c.gl = gl;
    c.x = ix;
    c.y = iy;
    c.w = iw;
    c.rows = ih - 1;
    c.cur = tt_ctview_cur(v);
    c.top = v->ice_top;
    /* zoomed on the cursor's level: its callers full width, one row
     * each, and the cursor's siblings sharing the whole width */
    z = c.cur == TT_CT_NONE ? TT_CT_NONE : ct->v[c.cur].parent;
    for (uint32_t p = z; p != TT_CT_NONE; p = ct->v[p].parent)
        ice_node(&c, p, 0, iw);
    first = z == TT_CT_NONE ? ct->root : ct->v[z].child;
    for (uint32_t r = first; r != TT_CT_NONE; r = ct->v[r].next)
        total += tt_calltree_weight(ct, r);
    if (total <= 0)
        return;
    c.per = (double)iw / (double)total;
    ice_level(&c, first, 0, iw);
}
