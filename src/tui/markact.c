/* markact.c - markers: dropping and stepping on the timeline, the markers
 * panel, and saving and loading named sets (see app_impl.h, marks.h). */
#include "config.h"

#include "tui/app_impl.h"

#include "util/num.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

/* Rebuild the panel's lines now and put its cursor on an item (after a
 * change that moves it: a rename reorders, a load replaces). */
static void panel_goto(tt_app *a, int kind, int64_t tag)
{
    tt_marks_touch(&a->mk);
    if (tt_marks_build(&a->mk, tt_app_panel_w(a), a->utf8) == 0)
        tt_plist_goto_item(&a->mk.pl, kind, tag);
}

/* The panel's cursor line when it is a marker or a set, from lines built
 * for the markers and sets as they are now (an earlier key may have
 * changed them since the lines were last built). */
static const tt_pline *panel_item(tt_app *a)
{
    if (tt_marks_build(&a->mk, tt_app_panel_w(a), a->utf8))
        return NULL;
    return tt_plist_picked(&a->mk.pl);
}

/* Several ranks: marker sets are every rank's, converted through each
 * rank's place in the job (set up the first time sets are used). */
static void job_sets(tt_app *a)
{
    tt_marks_rank *r;
    if (!a->multi || tt_marks_is_job(&a->mk))
        return;
    if (!(r = calloc(a->n_rk, sizeof *r)))
        return;
    for (size_t i = 0; i < a->n_rk; i++) {
        r[i].path = a->rk[i].path;
        r[i].rank = a->rk[i].rank;
        r[i].offset = a->rk[i].off;
        /* the job's start on this trace's clock, from its first timestamp */
        r[i].start = a->job0 - a->rk[i].off - a->rk[i].tr->t0;
    }
    /* out of memory leaves the first rank's file alone in charge */
    tt_marks_set_job(&a->mk, r, a->n_rk, a->align);
    free(r);
}

int tt_mark_at(tt_app *a, tt_ns t)
{
    tt_error err;
    long i;
    char ts[48];
    tt_error_clear(&err);
    i = tt_marks_add(&a->mk, t - a->origin, NULL, &err);
    if (i < 0) {
        tt_app_message(a, true, "%s", err.what);
        return REDRAW;
    }
    tt_app_message(a, false, "marker %s at %s (' lists, renames and saves the markers)",
                   tt_marks_set(&a->mk)->m[i].name, tt_fmt_dur(ts, sizeof ts, t - a->origin, 6));
    if (a->panel == TT_PANEL_MARKS)
        panel_goto(a, TT_MK_LINE_MARK, i);
    return REDRAW;
}

/* The selected event's end, for the marker m just put at its start, when
 * nothing moved since (-1 otherwise): m twice marks the end. */
static long end_of_mark(tt_app *a, const tt_event **e)
{
    long i;
    if (!a->mk_on_start || !a->has_sel || a->t_cur != a->mk_tcur ||
        a->sel.lane != a->mk_ev.lane || a->sel.idx != a->mk_ev.idx)
        return -1;
    *e = tt_trace_event(a->tr, a->sel);
    i = tt_markset_find(tt_marks_set(&a->mk), a->mk_name);
    if (i < 0 || tt_marks_set(&a->mk)->m[i].t != (*e)->start - a->origin)
        return -1;
    return i;
}

int tt_act_mark_drop(tt_app *a)
{
    const tt_event *e;
    tt_error err;
    char ts[48];
    long i = end_of_mark(a, &e);
    a->mk_on_start = false;
    if (i >= 0) {
        tt_error_clear(&err);
        if ((i = tt_marks_move(&a->mk, (size_t)i, e->start + e->dur - a->origin, &err)) < 0) {
            tt_app_message(a, true, "%s", err.what);
            return REDRAW;
        }
        tt_app_message(a, false, "marker %s moved to the event's end, %s%s",
                       tt_marks_set(&a->mk)->m[i].name,
                       tt_fmt_dur(ts, sizeof ts, e->start + e->dur - a->origin, 6),
                       e->dur ? "" : " (an instant: its end is its start)");
        if (a->panel == TT_PANEL_MARKS)
            panel_goto(a, TT_MK_LINE_MARK, i);
        return REDRAW;
    }
    /* a time typed with `:` is where the user wants it; else the event
     * under the cursor gives the time, not the middle of the column */
    if (a->has_sel && !(a->typed && a->t_cur == a->t_typed)) {
        e = tt_trace_event(a->tr, a->sel);
        tt_error_clear(&err);
        i = tt_marks_add(&a->mk, e->start - a->origin, NULL, &err);
        if (i < 0) {
            tt_app_message(a, true, "%s", err.what);
            return REDRAW;
        }
        snprintf(a->mk_name, sizeof a->mk_name, "%s", tt_marks_set(&a->mk)->m[i].name);
        a->mk_on_start = true;
        a->mk_ev = a->sel;
        a->mk_tcur = a->t_cur;
        tt_app_message(a, false, "marker %s at %s, the start of the event (m again: its end; "
                                 "' lists the markers)",
                       a->mk_name, tt_fmt_dur(ts, sizeof ts, e->start - a->origin, 6));
        if (a->panel == TT_PANEL_MARKS)
            panel_goto(a, TT_MK_LINE_MARK, i);
        return REDRAW;
    }
    return tt_mark_at(a, a->t_cur);
}

static int go_marker(tt_app *a, size_t i)
{
    const tt_markset *set = tt_marks_set(&a->mk);
    char ts[48];
    tt_app_show_time(a, a->origin + set->m[i].t);
    tt_app_message(a, false, "marker %s at %s (%zu of %zu)", set->m[i].name,
                   tt_fmt_dur(ts, sizeof ts, set->m[i].t, 6), i + 1, set->n);
    return REDRAW;
}

static int step(tt_app *a, int dir)
{
    long i;
    if (tt_marks_count(&a->mk) == 0) {
        tt_app_message(a, false, "no markers: m drops one at the cursor");
        return REDRAW;
    }
    i = tt_marks_step(&a->mk, a->t_cur - a->origin, dir);
    if (i < 0) {
        tt_app_message(a, false, dir > 0 ? "no marker after the cursor" :
                                           "no marker before the cursor");
        return REDRAW;
    }
    return go_marker(a, (size_t)i);
}

int tt_act_mark_next(tt_app *a) { return step(a, 1); }
int tt_act_mark_prev(tt_app *a) { return step(a, -1); }

int tt_act_marks_panel(tt_app *a)
{
    tt_error err;
    tt_error_clear(&err);
    job_sets(a);
    /* a sidecar that cannot be read is said in the panel */
    tt_marks_refresh(&a->mk, &err);
    tt_marks_touch(&a->mk);
    tt_app_open_panel(a, TT_PANEL_MARKS);
    /* open on a marker (else a saved set), not on a header line */
    if (a->panel == TT_PANEL_MARKS && tt_marks_build(&a->mk, tt_app_panel_w(a), a->utf8) == 0 &&
        !tt_plist_picked(&a->mk.pl) && !tt_plist_goto_kind(&a->mk.pl, TT_MK_LINE_MARK))
        tt_plist_goto_kind(&a->mk.pl, TT_MK_LINE_SET);
    return REDRAW;
}

static const tt_pline *picked(tt_app *a, const char *what)
{
    const tt_pline *l = panel_item(a);
    if (!l)
        tt_app_message(a, false, "move to a marker or a saved set first (j k): %s", what);
    return l;
}

/* Load set `name` and say so. 0, or -1 with err set. */
static int load_named(tt_app *a, const char *name, tt_error *err)
{
    bool other = false;
    const char *note = a->mk.note;
    job_sets(a);
    if (tt_marks_load(&a->mk, name, &other, err)) {
        tt_app_message(a, true, "%s", err->what);
        return -1;
    }
    if (other)
        tt_app_message(a, true, "set '%s' was saved for another trace (its size or content "
                                "differs): loaded anyway, %zu markers%s%s", name,
                       tt_marks_count(&a->mk), note[0] ? "; " : "", note);
    else
        tt_app_message(a, false, "loaded set '%s': %zu markers%s%s ({ } step through them)",
                       name, tt_marks_count(&a->mk), note[0] ? ", " : "", note);
    return 0;
}

static int load_set(tt_app *a, const char *name)
{
    tt_error err;
    tt_error_clear(&err);
    if (load_named(a, name, &err) == 0)
        panel_goto(a, TT_MK_LINE_MARK, 0);
    return REDRAW;
}

int tt_app_load_markers(tt_app *a, const char *name, tt_error *err)
{
    return load_named(a, name, err);
}

int tt_act_mk_enter(tt_app *a)
{
    const tt_pline *l = picked(a, "Enter goes to a marker or loads a set");
    char name[TT_MARK_NAME_MAX + 1];
    if (!l)
        return REDRAW;
    if (l->kind == TT_MK_LINE_MARK)
        return go_marker(a, (size_t)l->tag);
    /* a copy: loading reads the sidecar again, which replaces the list */
    snprintf(name, sizeof name, "%s", a->mk.disk.sets[l->tag].name);
    if (a->mk.dirty && (tt_marks_count(&a->mk) > 0 || a->mk.loaded[0])) {
        char st[200];
        snprintf(a->ask_arg, sizeof a->ask_arg, "%s", name);
        tt_app_ask_yes(a, TT_ASK_LOAD_SET, "the markers on screen (%s) are not saved: replace "
                                           "them with set '%s'? y/n",
                       tt_marks_status(&a->mk, st, sizeof st), name);
        return REDRAW;
    }
    return load_set(a, name);
}

int tt_act_mk_rename(tt_app *a)
{
    const tt_pline *l = picked(a, "r renames it");
    if (!l)
        return REDRAW;
    if (l->kind == TT_MK_LINE_MARK) {
        a->ask_idx = (long)l->tag;
        tt_app_ask_text(a, TT_ASK_MARK_NAME, "rename marker to: ",
                        tt_marks_set(&a->mk)->m[l->tag].name);
    } else {
        snprintf(a->ask_arg, sizeof a->ask_arg, "%s", a->mk.disk.sets[l->tag].name);
        tt_app_ask_text(a, TT_ASK_SET_RENAME, "rename set to: ", a->ask_arg);
    }
    return REDRAW;
}

int tt_act_mk_note(tt_app *a)
{
    const tt_pline *l = picked(a, "n writes a note on a marker");
    if (!l)
        return REDRAW;
    if (l->kind != TT_MK_LINE_MARK) {
        tt_app_message(a, false, "notes belong to markers: move to one");
        return REDRAW;
    }
    a->ask_idx = (long)l->tag;
    tt_app_ask_text(a, TT_ASK_MARK_NOTE, "note: ", tt_marks_set(&a->mk)->m[l->tag].note);
    return REDRAW;
}

int tt_act_mk_delete(tt_app *a)
{
    const tt_pline *l = picked(a, "x deletes it");
    if (!l)
        return REDRAW;
    if (l->kind == TT_MK_LINE_MARK) {
        char name[TT_MARK_NAME_MAX + 1];
        snprintf(name, sizeof name, "%s", tt_marks_set(&a->mk)->m[l->tag].name);
        tt_marks_remove(&a->mk, (size_t)l->tag);
        tt_app_message(a, false, "marker %s deleted", name);
        return REDRAW;
    }
    snprintf(a->ask_arg, sizeof a->ask_arg, "%s", a->mk.disk.sets[l->tag].name);
    tt_app_ask_yes(a, TT_ASK_DELETE_SET, "delete the saved set '%s' for good? y/n", a->ask_arg);
    return REDRAW;
}

int tt_act_mk_move(tt_app *a)
{
    const tt_pline *l = picked(a, "M moves it to the cursor");
    tt_error err;
    char name[TT_MARK_NAME_MAX + 1], ts[48];
    long i;
    if (!l)
        return REDRAW;
    if (l->kind != TT_MK_LINE_MARK) {
        tt_app_message(a, false, "M moves a marker: move to one");
        return REDRAW;
    }
    tt_error_clear(&err);
    snprintf(name, sizeof name, "%s", tt_marks_set(&a->mk)->m[l->tag].name);
    if ((i = tt_marks_move(&a->mk, (size_t)l->tag, a->t_cur - a->origin, &err)) < 0) {
        tt_app_message(a, true, "%s", err.what);
        return REDRAW;
    }
    tt_app_message(a, false, "marker %s moved to the cursor, %s", name,
                   tt_fmt_dur(ts, sizeof ts, a->t_cur - a->origin, 6));
    panel_goto(a, TT_MK_LINE_MARK, i);
    return REDRAW;
}

int tt_act_mk_choose(tt_app *a)
{
    const tt_pline *l = picked(a, "Space chooses a marker");
    size_t x, y;
    if (!l)
        return REDRAW;
    if (l->kind != TT_MK_LINE_MARK) {
        tt_app_message(a, false, "choose markers (the distance between two chosen is shown)");
        return REDRAW;
    }
    tt_marks_choose(&a->mk, (size_t)l->tag);
    if (tt_marks_chosen(&a->mk, &x, &y)) {
        const tt_markset *set = tt_marks_set(&a->mk);
        char d[48];
        tt_app_message(a, false, "%s to %s: %s (b: statistics between them)", set->m[x].name,
                       set->m[y].name, tt_fmt_dur(d, sizeof d, set->m[y].t - set->m[x].t, 6));
    }
    return REDRAW;
}

int tt_act_mk_save(tt_app *a)
{
    if (tt_marks_count(&a->mk) == 0) {
        tt_app_message(a, false, "no markers to save: m drops one at the cursor");
        return REDRAW;
    }
    tt_app_ask_text(a, TT_ASK_SET_SAVE, "save the markers as set: ", a->mk.loaded);
    return REDRAW;
}

int tt_act_mk_box(tt_app *a)
{
    const tt_markset *set = tt_marks_set(&a->mk);
    const tt_pline *l = panel_item(a);
    size_t x, y;
    if (!tt_marks_chosen(&a->mk, &x, &y)) {
        if (!l || l->kind != TT_MK_LINE_MARK || (size_t)l->tag + 1 >= set->n) {
            tt_app_message(a, false, "choose two markers (Space), or stand on one that has a "
                                     "next: b boxes the time between them");
            return REDRAW;
        }
        x = (size_t)l->tag;
        y = x + 1;
    }
    if (set->m[y].t <= set->m[x].t) {
        tt_app_message(a, false, "the two markers are at the same time: an empty window");
        return REDRAW;
    }
    {
        /* every lane, as `report --markers SET --between A:B` takes them
         * (in the other views: every lane, or collective, they show) */
        tt_laneset all;
        int rc;
        tt_laneset_init(&all);
        if (tt_app_mode(a)->all_lanes(a, &all)) {
            tt_laneset_fini(&all);
            tt_app_message(a, true, "out of memory");
            return REDRAW;
        }
        rc = tt_box_select(a, a->origin + set->m[x].t, a->origin + set->m[y].t, all.v, all.n);
        tt_laneset_fini(&all);
        if (a->panel == TT_PANEL_STATS && !a->msg_err) {
            char n1[TT_MARK_NAME_MAX + 1], n2[TT_MARK_NAME_MAX + 1];
            snprintf(n1, sizeof n1, "%s", set->m[x].name);
            snprintf(n2, sizeof n2, "%s", set->m[y].name);
            tt_app_message(a, false, "statistics between markers %s and %s, every lane (as "
                                     "report --markers SET --between %s:%s)", n1, n2, n1, n2);
        }
        return rc;
    }
}

int tt_marks_text(tt_app *a, tt_ask ask, const char *text)
{
    tt_error err;
    tt_error_clear(&err);
    switch (ask) {
    case TT_ASK_MARK_NAME: {
        long i = tt_marks_rename(&a->mk, (size_t)a->ask_idx, text, &err);
        if (i < 0) {
            tt_app_message(a, true, "%s", err.what);
            return REDRAW;
        }
        panel_goto(a, TT_MK_LINE_MARK, i);
        return REDRAW;
    }
    case TT_ASK_MARK_NOTE:
        if (tt_marks_note(&a->mk, (size_t)a->ask_idx, text, &err))
            tt_app_message(a, true, "%s", err.what);
        return REDRAW;
    case TT_ASK_SET_SAVE:
        if (!text[0]) {
            tt_app_message(a, false, "not saved: a set needs a name");
            return REDRAW;
        }
        job_sets(a);
        if (tt_marks_save(&a->mk, text, &err)) {
            tt_app_message(a, true, "not saved: %s", err.what);
            return REDRAW;
        }
        tt_app_message(a, false, "saved %zu markers as set '%s' in %s%s", tt_marks_count(&a->mk),
                       text, a->mk.sidecar,
                       tt_marks_is_job(&a->mk) ? ", each in its trace's own times" : "");
        tt_marks_touch(&a->mk);
        return REDRAW;
    case TT_ASK_SET_RENAME:
        job_sets(a);
        if (tt_marks_rename_set(&a->mk, a->ask_arg, text, &err)) {
            tt_app_message(a, true, "%s", err.what);
            return REDRAW;
        }
        tt_app_message(a, false, "set '%s' is now '%s'", a->ask_arg, text);
        return REDRAW;
    default:
        return REDRAW;
    }
}

int tt_marks_yes(tt_app *a, tt_ask ask)
{
    tt_error err;
    tt_error_clear(&err);
    switch (ask) {
    case TT_ASK_LOAD_SET:
        return load_set(a, a->ask_arg);
    case TT_ASK_DELETE_SET:
        job_sets(a);
        if (tt_marks_delete_set(&a->mk, a->ask_arg, &err))
            tt_app_message(a, true, "%s", err.what);
        else
            tt_app_message(a, false, "set '%s' deleted", a->ask_arg);
        return REDRAW;
    default:
        return REDRAW;
    }
}
