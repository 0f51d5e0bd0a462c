/* annotact.c - warning annotations in the view: the list panel, a
 * finding's detail, going to one or to an event it involves, filtering to
 * one rule, showing or hiding them, and the status line on one (see
 * annot.h, finding.h). */
#include "config.h"

#include "tui/app_impl.h"

#include "util/num.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

int tt_act_annots_panel(tt_app *a)
{
    a->an.built = false;
    tt_app_open_panel(a, TT_PANEL_ANNOTS);
    /* ! opens the list, even when a finding's detail was left open */
    tt_annview_close(&a->an);
    /* on the first group's header, or a finding when there are no groups
     * (with several ranks a line on the clocks comes first) */
    if (tt_annview_build(&a->an, tt_app_panel_w(a), a->utf8) == 0 && !tt_plist_picked(&a->an.pl) &&
        !tt_plist_goto_kind(&a->an.pl, TT_AN_GROUP))
        tt_plist_goto_kind(&a->an.pl, TT_AN_LINE);
    if (!a->an.ran)
        tt_app_message(a, false, "the warning rules are off for this view");
    return REDRAW;
}

int tt_act_annots_toggle(tt_app *a)
{
    a->an.shown = !a->an.shown;
    a->an.built = false;
    if (!a->an.ran)
        tt_app_message(a, false, "the warning rules are off for this view");
    else
        tt_app_message(a, false, a->an.shown ? "annotations shown (%zu)"
                                             : "annotations hidden (%zu; A shows them)",
                       a->an.a.n);
    return REDRAW;
}

/* Several ranks: show the annotation's rank where its lanes are drawn.
 * Returns false when the view already had it (or cannot change). */
static void an_place(tt_app *a, const tt_annotation *an, int64_t tag)
{
    size_t rank = an->trace >= 0 && (size_t)an->trace < a->n_rk ? (size_t)an->trace : 0;
    if (!a->multi)
        return;
    if (a->view == TT_VIEW_COLLS) {
        /* a collective it is about: its row */
        for (size_t i = 0; i < a->cv.n; i++)
            if (a->cv.g[i].ann == tag) {
                a->cur = i;
                tt_app_scroll_to_cursor(a);
                return;
            }
    }
    if (a->view == TT_VIEW_JOB && an->n_lanes > 0 && tt_vrank_is_dev(&a->rk[rank], an->lanes[0])) {
        int64_t r;
        if (a->rfold[rank]) {
            a->rfold[rank] = false;
            tt_app_rebuild_rows(a);
        }
        r = tt_rows_find_rank(&a->list, (uint32_t)rank, an->lanes[0], 0);
        if (r >= 0) {
            a->cur = (size_t)r;
            tt_app_scroll_to_cursor(a);
        }
        tt_app_focus(a, rank);
        return;
    }
    if (a->view != TT_VIEW_RANK || a->focus != rank)
        tt_app_show_rank(a, rank);
}

/* Go to finding k: its span with some context, its first lane; ev, when
 * given, is the event to select instead of the first one involved. */
static void an_go(tt_app *a, size_t k, const tt_evref *ev)
{
    const tt_annotation *an = &a->an.a.v[k];
    tt_ns w, pad, start, end;
    an_place(a, an, (int64_t)k);
    /* annotation times are on the job's axis */
    start = an->start - a->off;
    end = an->end - a->off;
    w = end - start;
    if (w > 0) {
        /* the span with some context either side */
        pad = w / 4 > 0 ? w / 4 : 1;
        tt_vp_show_range(&a->vp, start - pad, end + pad);
    } else {
        tt_vp_set_start(&a->vp, start - a->vp.span / 2);
    }
    if (an->n_lanes > 0 && a->view == TT_VIEW_RANK) {
        uint32_t lane = an->lanes[0], g = a->tr->lanes[lane].group;
        int64_t r;
        if (a->collapsed[g]) {
            a->collapsed[g] = false;
            tt_app_rebuild_rows(a);
        }
        if ((r = tt_rows_find(&a->list, lane, 0)) >= 0) {
            a->cur = (size_t)r;
            tt_app_scroll_to_cursor(a);
        }
    }
    if (ev && a->view != TT_VIEW_COLLS)
        tt_app_select(a, *ev);
    else if (an->n_events > 0 && a->view != TT_VIEW_COLLS)
        tt_app_select(a, an->events[0]);
    else {
        a->t_cur = start + w / 2;
        tt_app_cursor_into_view(a);
        tt_app_hit(a);
    }
}

int tt_act_an_enter(tt_app *a)
{
    const tt_pline *l = tt_plist_picked(&a->an.pl);
    const tt_annotation *an;
    size_t k;
    if (!a->an.detail) {
        /* the list: a header folds or unfolds its group */
        if (l && l->kind == TT_AN_GROUP) {
            const tt_rank_group *gr = &a->an.rank.groups[l->tag];
            tt_annview_fold(&a->an, (size_t)l->tag);
            tt_app_message(a, false, "%s: %zu finding%s %s (Enter: %s)", gr->rule, gr->n,
                           gr->n == 1 ? "" : "s", a->an.folded[l->tag] ? "folded" : "listed",
                           a->an.folded[l->tag] ? "list them" : "fold");
            return REDRAW;
        }
        /* a finding: its detail */
        if (!l || l->kind != TT_AN_LINE) {
            tt_app_message(a, false, "move to an annotation first (j k)");
            return REDRAW;
        }
        tt_annview_open(&a->an, (size_t)l->tag);
        return REDRAW;
    }
    /* its detail: an event selects it, any other line goes to the span */
    k = a->an.det_k;
    an = &a->an.a.v[k];
    if (l && l->kind == TT_AN_EVENT && (size_t)l->tag < an->n_events) {
        tt_evref ev = an->events[l->tag];
        an_go(a, k, &ev);
        tt_app_message(a, false, "event %lld of %zu involved in the %s (Esc: back to the list)",
                       (long long)l->tag + 1, an->n_events, an->rule);
        return REDRAW;
    }
    an_go(a, k, NULL);
    {
        char t[48];
        /* where it starts on the view's axis; the panel has the message */
        tt_app_message(a, an->sev == TT_SEV_ERROR, "%s %s at %s (Esc: back to the list)",
                       tt_severity_name(an->sev), an->rule,
                       tt_fmt_dur(t, sizeof t, an->start - a->an.origin, 3));
    }
    return REDRAW;
}

int tt_act_an_back(tt_app *a)
{
    if (!a->an.detail) {
        a->panel = TT_PANEL_NONE;
        tt_app_scroll_to_cursor(a);
        return REDRAW;
    }
    tt_annview_close(&a->an);
    return REDRAW;
}

int tt_act_an_filter(tt_app *a)
{
    const tt_pline *l = tt_plist_picked(&a->an.pl);
    const char *rule;
    if (a->an.filter) {
        tt_annview_filter(&a->an, NULL);
        tt_app_message(a, false, "every rule's findings (%zu)", a->an.a.n);
        return REDRAW;
    }
    if (a->an.detail)
        rule = a->an.a.v[a->an.det_k].rule;
    else if (l && l->kind == TT_AN_LINE)
        rule = a->an.a.v[l->tag].rule;
    else if (l && l->kind == TT_AN_GROUP)
        rule = a->an.rank.groups[l->tag].rule;
    else {
        tt_app_message(a, false, "move to an annotation first (j k)");
        return REDRAW;
    }
    tt_annview_filter(&a->an, rule);
    tt_annview_close(&a->an);
    tt_app_message(a, false, "only the %s findings (%zu of %zu; f again: every rule)", rule,
                   tt_annview_listed(&a->an), a->an.a.n);
    return REDRAW;
}

void tt_annots_title(const tt_app *a, char *out, size_t cap, const char **hint)
{
    const tt_annview *v = &a->an;
    const char *hidden = v->shown ? "" : ", hidden on the timeline (A shows them)";
    if (v->detail) {
        size_t of, pos = tt_annview_list_pos(v, v->det_k, &of);
        snprintf(out, cap, "Finding %zu of %zu: %s %s", pos, of,
                 tt_severity_name(v->a.v[v->det_k].sev), v->a.v[v->det_k].rule);
        *hint = "Enter go to  f rule  Esc back";
    } else if (v->filter) {
        snprintf(out, cap, "Annotations: %s (%zu of %zu)%s", v->filter, tt_annview_listed(v),
                 v->a.n, hidden);
        *hint = "Enter detail/fold  f all rules  A on/off  Esc close";
    } else {
        snprintf(out, cap, "Annotations (%zu)%s", v->a.n, hidden);
        *hint = "Enter detail/fold  f one rule  A on/off  Esc close";
    }
}

void tt_annots_info(tt_app *a, char *out, size_t cap)
{
    const tt_row *row = tt_app_row(a);
    int64_t col, k;
    const tt_annotation *an;
    out[0] = '\0';
    if (!a->an.shown || !a->an.ran || !row)
        return;
    col = tt_app_cursor_col(a);
    k = tt_app_annot_at_row(a, row, tt_vp_time(&a->vp, col), tt_vp_time(&a->vp, col + 1));
    if (k < 0)
        return;
    an = &a->an.a.v[k];
    {
        char msg[1100];
        snprintf(out, cap, "! %s %s: %s", tt_severity_name(an->sev), an->rule,
                 tt_annview_msg(&a->an, an, msg, sizeof msg));
    }
}
