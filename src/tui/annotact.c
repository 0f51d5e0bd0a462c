/* annotact.c - warning annotations in the view: the list panel, going to
 * one, showing or hiding them, and the status line on one (see annot.h). */
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
    /* on an annotation (with several ranks a line on the clocks comes
     * first) */
    if (tt_annview_build(&a->an, a->cols - 4, a->utf8) == 0 && !tt_plist_picked(&a->an.pl))
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

int tt_act_an_enter(tt_app *a)
{
    const tt_pline *l = tt_plist_picked(&a->an.pl);
    const tt_annotation *an;
    tt_ns w, pad, start, end;
    if (!l) {
        tt_app_message(a, false, "move to an annotation first (j k)");
        return REDRAW;
    }
    an = &a->an.a.v[l->tag];
    an_place(a, an, l->tag);
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
    if (an->n_events > 0 && a->view != TT_VIEW_COLLS)
        tt_app_select(a, an->events[0]);
    else {
        a->t_cur = start + w / 2;
        tt_app_cursor_into_view(a);
        tt_app_hit(a);
    }
    {
        char msg[1100], t[48];
        /* where it starts on the view's axis, and the message as said */
        tt_app_message(a, an->sev == TT_SEV_ERROR, "%s %s at %s: %s", tt_severity_name(an->sev),
                       an->rule, tt_fmt_dur(t, sizeof t, an->start - a->an.origin, 3),
                       tt_annview_msg(&a->an, an, msg, sizeof msg));
    }
    return REDRAW;
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
