/* ctpanel.c - the call tree panel: the call tree of the box the
 * statistics panel shows (`c` there), as tree lines or an icicle
 * (ctview.h), with its own keys; Enter highlights the cursor node's
 * instances on the timeline (n N step through them), f zooms to the
 * heaviest one. Exports its row of the panel table (panels.c). */
#include "config.h"

#include "tui/app_impl.h"

#include "analysis/attrib.h"
#include "util/grow.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

static bool same_box(const tt_ctview *v, const tt_statpanel *s)
{
    if (!v->valid || v->tr != s->tr || v->sel.from != s->sel.from || v->sel.to != s->sel.to ||
        v->sel.to_inclusive != s->sel.to_inclusive || !v->sel.lanes != !s->sel.lanes)
        return false;
    if (!s->sel.lanes)
        return true;
    return v->sel.n_lanes == s->sel.n_lanes &&
           (v->sel.n_lanes == 0 ||
            !memcmp(v->sel.lanes, s->sel.lanes, s->sel.n_lanes * sizeof *s->sel.lanes));
}

/* c in the statistics panel of a box: its call tree. */
int tt_act_sp_calltree(tt_app *a)
{
    tt_error err;
    if (!a->stp.valid || a->stp.kind != TT_SP_BOX) {
        tt_app_message(a, false, "the call tree is a box's: select one with v (or a drag)");
        return REDRAW;
    }
    if (!same_box(&a->ctv, &a->stp)) {
        tt_error_clear(&err);
        if (tt_ctview_open(&a->ctv, a->stp.tr, &a->stp.sel, &err)) {
            tt_app_message(a, true, "call tree: %s", err.what);
            return REDRAW;
        }
    }
    tt_app_open_panel(a, TT_PANEL_CALLTREE);
    if (!a->ctv.td->has_links)
        tt_app_message(a, false, "no launch links in this trace: device time is not "
                                 "attributed to host calls");
    return REDRAW;
}

/* ------------------------------------------------------------------ keys */

static int ct_down(tt_app *a)
{
    if (!a->ctv.icicle) {
        tt_plist_move(&a->ctv.pl, 1);
        tt_ctview_follow_lines(&a->ctv);
    } else if (!tt_ctview_go_child(&a->ctv)) {
        tt_app_message(a, false, "no calls below this one");
    }
    return REDRAW;
}

static int ct_up(tt_app *a)
{
    if (!a->ctv.icicle) {
        tt_plist_move(&a->ctv.pl, -1);
        tt_ctview_follow_lines(&a->ctv);
    } else if (!tt_ctview_go_parent(&a->ctv)) {
        tt_app_message(a, false, "a root: nothing above it");
    }
    return REDRAW;
}

static int ct_right(tt_app *a)
{
    const tt_calltree *ct = tt_ctview_tree(&a->ctv);
    uint32_t c = tt_ctview_cur(&a->ctv);
    if (c == TT_CT_NONE)
        return REDRAW;
    if (a->ctv.icicle) {
        tt_ctview_go_sibling(&a->ctv, 1);
    } else if (ct->v[c].child == TT_CT_NONE) {
        tt_app_message(a, false, "nothing below this one");
    } else if (!tt_ctview_is_open(&a->ctv)) {
        tt_ctview_set_open(&a->ctv, true);
    } else {
        tt_ctview_go_child(&a->ctv);
    }
    return REDRAW;
}

static int ct_left(tt_app *a)
{
    if (a->ctv.icicle)
        tt_ctview_go_sibling(&a->ctv, -1);
    else if (tt_ctview_is_open(&a->ctv))
        tt_ctview_set_open(&a->ctv, false);
    else
        tt_ctview_go_parent(&a->ctv);
    return REDRAW;
}

static int ct_toggle(tt_app *a)
{
    tt_ctview_set_open(&a->ctv, !tt_ctview_is_open(&a->ctv));
    return REDRAW;
}

static int ct_all_open(tt_app *a)
{
    tt_ctview_all(&a->ctv, true);
    return REDRAW;
}

static int ct_all_closed(tt_app *a)
{
    tt_ctview_all(&a->ctv, false);
    return REDRAW;
}

static int ct_bottom_up(tt_app *a)
{
    tt_error err;
    tt_error_clear(&err);
    if (tt_ctview_toggle_bu(&a->ctv, &err))
        tt_app_message(a, true, "call tree: %s", err.what);
    else
        tt_app_message(a, false, a->ctv.bottom_up ? "bottom-up: each name's self time, its "
                                                    "callers below (t: top-down)"
                                                  : "top-down: calls below their callers "
                                                    "(t: bottom-up)");
    return REDRAW;
}

static int ct_icicle(tt_app *a)
{
    a->ctv.icicle = !a->ctv.icicle;
    tt_app_message(a, false, a->ctv.icicle ? "icicle: j k down and up the calls, h l along "
                                             "the siblings (i: tree)"
                                           : "tree (i: icicle)");
    return REDRAW;
}

/* The cursor node's instances, as hits (search.h). 0, or -1 on OOM. */
static int node_hits(tt_app *a, tt_hits *h, tt_evref *heaviest)
{
    const tt_calltree *ct = tt_ctview_tree(&a->ctv);
    tt_evref *inst = NULL;
    size_t n = 0, cap = 0;
    tt_ns best = -1;
    int rc = -1;
    tt_hits_fini(h);
    if (tt_calltree_instances(ct, tt_ctview_cur(&a->ctv), &inst, &n, &cap))
        return -1;
    h->n_lanes = a->tr->n_lanes;
    h->pos = calloc((size_t)h->n_lanes + 1, sizeof *h->pos);
    h->n = calloc((size_t)h->n_lanes + 1, sizeof *h->n);
    if (!h->pos || !h->n)
        goto out;
    /* instances come lane by lane, each lane by position */
    for (size_t i = 0; i < n;) {
        size_t j = i;
        uint32_t lane = inst[i].lane;
        while (j < n && inst[j].lane == lane)
            j++;
        if (!(h->pos[lane] = malloc((j - i) * sizeof **h->pos)))
            goto out;
        for (size_t k = i; k < j; k++) {
            tt_ns d = tt_sel_clip(&a->ctv.sel, tt_trace_event(a->tr, inst[k]));
            h->pos[lane][k - i] = inst[k].idx;
            if (d > best) {
                best = d;
                *heaviest = inst[k];
            }
        }
        h->n[lane] = j - i;
        h->total += j - i;
        i = j;
    }
    rc = 0;
out:
    if (rc)
        tt_hits_fini(h);
    free(inst);
    return rc;
}

/* The focused trace must be the box's (several ranks: its rank). */
static bool box_in_focus(tt_app *a)
{
    if (a->ctv.valid && a->ctv.tr == a->tr)
        return true;
    tt_app_message(a, false, "the call tree's box is on another rank: show its tab first");
    return false;
}

static int ct_enter(tt_app *a)
{
    tt_hits hits;
    tt_evref heavy = TT_NO_EVENT, to;
    uint32_t c = tt_ctview_cur(&a->ctv);
    char label[300], desc[400];
    const char *raw;
    if (c == TT_CT_NONE || !box_in_focus(a))
        return REDRAW;
    tt_hits_init(&hits);
    if (node_hits(a, &hits, &heavy)) {
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    raw = tt_str(a->tr, tt_ctview_tree(&a->ctv)->v[c].name);
    tt_text_sanitize(raw, strlen(raw), label, sizeof label);
    snprintf(desc, sizeof desc, "of call tree node '%s' in the box", label);
    tt_app_set_hits(a, &hits, label, desc);
    if (tt_hits_step(&a->search, a->tr, NULL, a->ctv.sel.from, 1, &to))
        tt_app_select(a, to);
    tt_app_message(a, false, "%llu instance%s of '%s' in the box highlighted: n N step through "
                             "them, f zooms to the longest",
                   (unsigned long long)a->search.total, a->search.total == 1 ? "" : "s", label);
    return REDRAW;
}

static int ct_zoom(tt_app *a)
{
    tt_hits hits;
    tt_evref heavy = TT_NO_EVENT;
    const tt_event *e;
    tt_ns pad;
    if (tt_ctview_cur(&a->ctv) == TT_CT_NONE || !box_in_focus(a))
        return REDRAW;
    tt_hits_init(&hits);
    if (node_hits(a, &hits, &heavy)) {
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    tt_hits_fini(&hits);
    if (!tt_evref_ok(heavy))
        return REDRAW;
    tt_app_select(a, heavy);
    e = tt_trace_event(a->tr, heavy);
    pad = e->dur / 8 > 0 ? e->dur / 8 : 1;
    tt_vp_show_range(&a->vp, e->start - pad, tt_event_end(e) + pad);
    tt_app_message(a, false, "the longest instance in the box");
    return tt_app_after_view_change(a);
}

/* Esc q: back to the box's statistics. */
static int ct_back(tt_app *a)
{
    tt_app_open_panel(a, TT_PANEL_STATS);
    return REDRAW;
}

#define K(...) {__VA_ARGS__}

static const tt_binding ct_keys[] = {
    {K(TT_KEY_DOWN, 'j'), "Down j", "tree: next line; icicle: down to the heaviest callee", 0, 0,
     ct_down},
    {K(TT_KEY_UP, 'k'), "Up k", "tree: previous line; icicle: up to the caller", 0, 0, ct_up},
    {K(TT_KEY_RIGHT, 'l'), "Right l", "tree: open the node, or go to its first child; icicle: "
     "next sibling", 0, 0, ct_right},
    {K(TT_KEY_LEFT, 'h'), "Left h", "tree: close the node, or go to its parent; icicle: "
     "previous sibling", 0, 0, ct_left},
    {K(' '), "Space", "open or close the node", 0, 0, ct_toggle},
    {K('+', '='), "+", "open every node", 0, 0, ct_all_open},
    {K('-', '_'), "-", "close every node", 0, 0, ct_all_closed},
    {K(TT_KEY_ENTER), "Enter", "highlight the node's instances in the box on the timeline "
     "(n N step through them)", 0, 0, ct_enter},
    {K('f'), "f", "zoom to the node's longest instance in the box", 0, 0, ct_zoom},
    {K('t'), "t", "top-down (calls under callers) or bottom-up (self time, callers below)", 0, 0,
     ct_bottom_up},
    {K('i'), "i", "tree lines or icicle (flame graph: width is time)", 0, 0, ct_icicle},
    {K(TT_KEY_ESC, 'q'), "Esc q", "back to the box's statistics", 0, 0, ct_back},
};

/* ----------------------------------------------------------------- panel */

static int ct_sync(tt_app *a, int w)
{
    int rc = tt_ctview_build(&a->ctv, w, a->utf8);
    tt_ctview_follow_lines(&a->ctv);
    tt_ctview_ice_scroll(&a->ctv, tt_app_panel_h(a) - 2);
    return rc;
}

static tt_plist *ct_list(tt_app *a)
{
    return &a->ctv.pl;
}

static void ct_draw(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    char title[200];
    const char *hint = "Enter highlight  f zoom  t bottom-up  i icicle  Esc back";
    snprintf(title, sizeof title, "Call tree of the box, %s%s",
             a->ctv.bottom_up ? "bottom-up" : "top-down", a->ctv.icicle ? ", icicle" : "");
    if (a->ctv.bottom_up)
        hint = "Enter highlight  f zoom  t top-down  i icicle  Esc back";
    if (a->ctv.icicle)
        tt_ctview_draw_icicle(&a->ctv, g, 0, y, w, ph, a->gl, a->utf8, title, hint);
    else
        tt_plist_draw(&a->ctv.pl, g, 0, y, w, ph, a->gl, title, hint);
}

static size_t ct_hints(const tt_app *a, const tt_hint **out)
{
    static const tt_hint tree[] = {{"Enter", "highlight"}, {"i", "icicle"}, {"Esc", "back"}};
    static const tt_hint ice[] = {{"j k h l", "move"}, {"i", "tree"}, {"Esc", "back"}};
    *out = a->ctv.icicle ? ice : tree;
    return 3;
}

const tt_panel_def tt_ct_panel = {
    TT_PANEL_CALLTREE, 0, "Call tree panel (c in a box's statistics)", ct_keys,
    sizeof ct_keys / sizeof ct_keys[0], ct_sync, ct_list, ct_draw, ct_hints,
};
