/* actions.c - what each key and mouse action does (see app_impl.h).
 *
 * Key handling is a table of bindings to small action functions, as in
 * htop: an action changes the state, may leave a message for the status
 * line, and returns reaction flags; it never draws. Mouse events are
 * turned into the same actions (click = move the cursor there, wheel =
 * zoom at the pointer, shift-wheel = pan, drag on the ruler = zoom to the
 * range, drag over the lanes = box select, right click = marker, double
 * click = every event of that name), so everything the mouse does has a
 * key. The help overlay and the manual page list this table.
 */
#include "config.h"

#include "tui/app_impl.h"

#include "tui/timefmt.h"
#include "util/num.h"
#include "util/sort.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REDRAW TT_REACT_REDRAW

/* ---------------------------------------------------------- cursor moves */

static void after_view_change(tt_app *a)
{
    tt_ns lo = a->vp.start, hi = a->vp.start + a->vp.span - 1;
    if (a->t_cur < lo || a->t_cur > hi)
        tt_app_cursor_into_view(a);
    else if (!a->has_sel)
        tt_app_hit(a);
}

int tt_app_after_view_change(tt_app *a)
{
    after_view_change(a);
    return REDRAW;
}

void tt_app_show_time(tt_app *a, tt_ns t)
{
    if (t < a->vp.start || t >= a->vp.start + a->vp.span)
        tt_vp_set_start(&a->vp, t - a->vp.span / 2);
    a->t_cur = t;
    tt_app_hit(a);
    /* the hit keeps the cursor in its cell; the exact time matters here
     * (a marker dropped next lands on it) */
    if (tt_vp_col(&a->vp, t) == tt_app_cursor_col(a))
        a->t_cur = t;
}

static int move_cols(tt_app *a, int64_t dc)
{
    int64_t col = tt_app_cursor_col(a) + dc;
    if (col < 0 || col >= a->vp.cols) {
        /* past the edge: scroll the window by an eighth */
        tt_ns step = a->vp.span / 8;
        tt_ns before = a->vp.start;
        if (step < 1)
            step = 1;
        tt_vp_pan(&a->vp, col < 0 ? -step : step);
        if (a->vp.start == before)
            tt_app_message(a, false, col < 0 ? "start of the trace" : "end of the trace");
        col = col < 0 ? 0 : a->vp.cols - 1;
    }
    a->t_cur = tt_vp_time_mid(&a->vp, col);
    tt_app_hit(a);
    return REDRAW;
}

/* A group header whose group is open: its lanes follow it, and Space
 * folds the group from any of them, so j and k pass over it. A folded
 * group is its header alone, which they stop on. */
static bool row_open_header(const tt_rows *l, size_t r)
{
    return l->v[r].kind == TT_ROW_GROUP && r + 1 < l->n && l->v[r + 1].kind != TT_ROW_GROUP &&
           l->v[r + 1].group == l->v[r].group;
}

static int move_rows(tt_app *a, int64_t dr)
{
    int64_t r = (int64_t)a->cur + dr;
    if (a->list.n == 0)
        return REDRAW;
    if (r < 0)
        r = 0;
    if (r >= (int64_t)a->list.n)
        r = (int64_t)a->list.n - 1;
    if (dr == 1 || dr == -1) {
        /* one step: to the next row that is not an open group's header,
         * staying put when there is none that way */
        while (r >= 0 && r < (int64_t)a->list.n && row_open_header(&a->list, (size_t)r))
            r += dr;
        if (r < 0 || r >= (int64_t)a->list.n)
            r = (int64_t)a->cur;
    }
    a->cur = (size_t)r;
    tt_app_scroll_to_cursor(a);
    tt_app_hit(a);
    return REDRAW;
}

static int page(const tt_app *a)
{
    int h = tt_app_lanes_h(a) - 1;
    return h > 1 ? h : 1;
}

static int act_left(tt_app *a) { return move_cols(a, -1); }
static int act_right(tt_app *a) { return move_cols(a, 1); }
static int act_left8(tt_app *a) { return move_cols(a, -8); }
static int act_right8(tt_app *a) { return move_cols(a, 8); }
static int act_up(tt_app *a) { return move_rows(a, -1); }
static int act_down(tt_app *a) { return move_rows(a, 1); }
static int act_pgup(tt_app *a) { return move_rows(a, -page(a)); }
static int act_pgdn(tt_app *a) { return move_rows(a, page(a)); }
static int act_first_row(tt_app *a) { return move_rows(a, -(int64_t)a->list.n); }
static int act_last_row(tt_app *a) { return move_rows(a, (int64_t)a->list.n); }

/* ------------------------------------------------------------ zoom, pan */

static int zoom(tt_app *a, int steps)
{
    if (!tt_vp_zoom(&a->vp, a->t_cur, steps)) {
        tt_app_message(a, false, steps > 0 ? "zoomed in fully: 1 ns per column"
                                           : "the whole trace is shown");
        return REDRAW;
    }
    after_view_change(a);
    return REDRAW;
}

static int act_zoom_in(tt_app *a) { return zoom(a, 1); }
static int act_zoom_out(tt_app *a) { return zoom(a, -1); }
static int act_zoom_in4(tt_app *a) { return zoom(a, 4); }
static int act_zoom_out4(tt_app *a) { return zoom(a, -4); }

static int pan(tt_app *a, int dir)
{
    tt_ns before = a->vp.start, step = a->vp.span / 4;
    tt_vp_pan(&a->vp, dir * (step > 0 ? step : 1));
    if (a->vp.start == before)
        tt_app_message(a, false, dir < 0 ? "start of the trace" : "end of the trace");
    after_view_change(a);
    return REDRAW;
}

static int act_pan_left(tt_app *a) { return pan(a, -1); }
static int act_pan_right(tt_app *a) { return pan(a, 1); }

static int act_start(tt_app *a)
{
    tt_vp_set_start(&a->vp, a->vp.t0);
    a->t_cur = tt_vp_time_mid(&a->vp, 0);
    tt_app_hit(a);
    return REDRAW;
}

static int act_end(tt_app *a)
{
    tt_vp_set_start(&a->vp, a->vp.t1 - a->vp.span);
    a->t_cur = tt_vp_time_mid(&a->vp, a->vp.cols - 1);
    tt_app_hit(a);
    return REDRAW;
}

static int act_all(tt_app *a)
{
    tt_vp_show_all(&a->vp);
    after_view_change(a);
    return REDRAW;
}

static int act_fit(tt_app *a)
{
    const tt_event *e;
    if (tt_app_mode(a)->fit)
        return tt_app_mode(a)->fit(a);
    if (!a->has_sel) {
        tt_app_message(a, false, "no event under the cursor to zoom to");
        return REDRAW;
    }
    e = tt_trace_event(a->tr, a->sel);
    if (e->dur > 0) {
        tt_ns pad = e->dur / 8;
        tt_vp_show_range(&a->vp, e->start - pad, tt_event_end(e) + pad);
    } else {
        a->t_cur = e->start;
        tt_vp_zoom(&a->vp, e->start, 6);
    }
    after_view_change(a);
    return REDRAW;
}

/* ------------------------------------------------------ event stepping */

static bool row_level(tt_app *a, const tt_level **lv, const tt_row **rowp)
{
    const tt_row *row = tt_app_row(a);
    if (!row || row->kind != TT_ROW_LANE) {
        tt_app_message(a, false, "move the cursor to a lane first");
        return false;
    }
    *lv = tt_levels_get(a->lv, row->lane, row->depth);
    *rowp = row;
    return *lv != NULL && (*lv)->n > 0;
}

/* Tab, S-Tab: the cursor's row is one nesting depth of one lane, so the
 * next, previous event on it is the next, previous at the same depth;
 * from the selected event when it is on that row, else from the cursor's
 * time. */
static int step_event(tt_app *a, int dir)
{
    const tt_level *l;
    const tt_row *row;
    int64_t i = -1;
    tt_evref ev;
    if (!row_level(a, &l, &row))
        return REDRAW;
    if (a->has_sel && a->sel.lane == row->lane &&
        tt_trace_event(a->tr, a->sel)->depth == row->depth)
        i = tt_level_find(l, a->sel.idx);
    if (i >= 0) {
        i += dir;
    } else if (dir > 0) {
        i = (int64_t)tt_level_lower_bound(l, 0, a->t_cur == INT64_MAX ? a->t_cur : a->t_cur + 1);
    } else {
        i = (int64_t)tt_level_lower_bound(l, 0, a->t_cur) - 1;
    }
    if (i < 0 || (size_t)i >= l->n) {
        tt_app_message(a, false, dir > 0 ? "no later event on this row"
                                         : "no earlier event on this row");
        return REDRAW;
    }
    ev.lane = row->lane;
    ev.idx = tt_level_pos(l, (size_t)i);
    tt_app_select(a, ev);
    return REDRAW;
}

static int act_next_ev(tt_app *a) { return step_event(a, 1); }
static int act_prev_ev(tt_app *a) { return step_event(a, -1); }

static void safe_name(const tt_app *a, uint32_t id, char *out, size_t n, int maxw)
{
    size_t fit;
    tt_text_sanitize(tt_str(a->tr, id), tt_strtab_len(a->tr->strings, id), out, n);
    fit = tt_text_fit(out, maxw, NULL);
    if (fit < strlen(out)) {
        out[fit] = '\0';
        if (fit + 3 < n)
            strcat(out, a->utf8 ? "\xe2\x80\xa6" : "~");
    }
}

static int occurrence(tt_app *a, int dir)
{
    const tt_event *e;
    tt_evref to;
    char name[128];
    if (!a->has_sel) {
        tt_app_message(a, false, "select an event first: [ and ] step through its name");
        return REDRAW;
    }
    e = tt_trace_event(a->tr, a->sel);
    if (!a->has_occ || a->occ_name != e->name) {
        if (tt_hits_build_name(&a->occ, a->tr, e->name)) {
            a->has_occ = false;
            tt_app_message(a, true, "out of memory");
            return REDRAW;
        }
        a->has_occ = true;
        a->occ_name = e->name;
    }
    safe_name(a, e->name, name, sizeof name, 40);
    if (!tt_hits_step(&a->occ, a->tr, &a->sel, 0, dir, &to)) {
        tt_app_message(a, false, "%s occurrence of '%s' (%llu in all)",
                       dir > 0 ? "last" : "first", name, (unsigned long long)a->occ.total);
        return REDRAW;
    }
    tt_app_select(a, to);
    tt_app_message(a, false, "'%s' %llu of %llu", name,
                   (unsigned long long)tt_hits_rank(&a->occ, a->tr, to),
                   (unsigned long long)a->occ.total);
    return REDRAW;
}

static int act_prev_occ(tt_app *a) { return occurrence(a, -1); }
static int act_next_occ(tt_app *a) { return occurrence(a, 1); }

/* ------------------------------------------------------ longest events */

static int cmp_longest(const void *pa, const void *pb, void *ctx)
{
    const tt_trace *tr = ctx;
    tt_evref ra = *(const tt_evref *)pa, rb = *(const tt_evref *)pb;
    const tt_event *a = tt_trace_event(tr, ra), *b = tt_trace_event(tr, rb);
    if (a->dur != b->dur)
        return a->dur > b->dur ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (ra.lane != rb.lane)
        return ra.lane < rb.lane ? -1 : 1;
    return ra.idx < rb.idx ? -1 : ra.idx > rb.idx;
}

enum {
    RANK_LANE = 0,
    RANK_GROUP,
    RANK_SEARCH
};

/* All events of the scope, longest first. */
static int build_rank(tt_app *a, int kind, uint64_t scope)
{
    uint32_t l0 = 0, l1 = 0;
    size_t n = 0, k = 0;
    if (kind == RANK_LANE) {
        l0 = (uint32_t)scope;
        l1 = l0 + 1;
    } else if (kind == RANK_GROUP) {
        l0 = a->tr->groups[scope].first_lane;
        l1 = l0 + a->tr->groups[scope].n_lanes;
    }
    if (kind == RANK_SEARCH)
        n = (size_t)a->search.total;
    else
        for (uint32_t l = l0; l < l1; l++)
            n += a->tr->lanes[l].n;
    free(a->rank);
    a->rank = malloc((n ? n : 1) * sizeof *a->rank);
    a->has_rank = false;
    if (!a->rank)
        return -1;
    if (kind == RANK_SEARCH) {
        for (uint32_t l = 0; l < a->search.n_lanes; l++)
            for (size_t i = 0; i < a->search.n[l]; i++) {
                a->rank[k].lane = l;
                a->rank[k].idx = a->search.pos[l][i];
                k++;
            }
    } else {
        for (uint32_t l = l0; l < l1; l++)
            for (size_t i = 0; i < a->tr->lanes[l].n; i++) {
                a->rank[k].lane = l;
                a->rank[k].idx = (uint32_t)i;
                k++;
            }
    }
    if (tt_sort(a->rank, n, sizeof *a->rank, cmp_longest, (void *)a->tr))
        return -1;
    a->n_rank = n;
    a->rank_k = 0;
    a->rank_kind = kind;
    a->rank_scope = scope;
    a->has_rank = true;
    return 0;
}

/* Select the next longest of the scope: the longest, or after the event a
 * previous press found, the one after it. */
static int longest(tt_app *a, int kind, uint64_t scope)
{
    bool cont = a->has_rank && a->rank_kind == kind && a->has_sel && a->rank_k < a->n_rank &&
                a->rank[a->rank_k].lane == a->sel.lane && a->rank[a->rank_k].idx == a->sel.idx;
    char name[128], dur[48], where[300], raw[256], cat[64] = "";
    const tt_event *e;
    if (cont) {
        if (a->rank_k + 1 >= a->n_rank) {
            tt_app_message(a, false, "that was the shortest; starting over from the longest");
            a->rank_k = 0;
        } else {
            a->rank_k++;
        }
    } else {
        if (!a->has_rank || a->rank_kind != kind || a->rank_scope != scope) {
            if (build_rank(a, kind, scope)) {
                tt_app_message(a, true, "out of memory");
                return REDRAW;
            }
        }
        a->rank_k = 0;
        if (a->n_rank == 0) {
            tt_app_message(a, false, "no events here");
            return REDRAW;
        }
    }
    tt_app_select(a, a->rank[a->rank_k]);
    if (a->msg[0])
        return REDRAW;
    e = tt_trace_event(a->tr, a->rank[a->rank_k]);
    safe_name(a, e->name, name, sizeof name, 48);
    if (e->cat) {
        char c[60];
        safe_name(a, e->cat, c, sizeof c, 24);
        snprintf(cat, sizeof cat, " [%s]", c);
    }
    if (kind == RANK_SEARCH) {
        snprintf(where, sizeof where, "matches of '%s'", a->search_pat);
    } else {
        if (kind == RANK_GROUP)
            tt_group_label(a->tr, &a->tr->groups[scope], raw, sizeof raw);
        else
            tt_lane_fullname(a->tr, (uint32_t)scope, raw, sizeof raw);
        tt_text_sanitize(raw, strlen(raw), where, sizeof where);
    }
    tt_app_message(a, false, "longest #%zu of %zu %s %s: %s %s%s", a->rank_k + 1, a->n_rank,
                   kind == RANK_SEARCH ? "among" : "in", where,
                   tt_fmt_dur(dur, sizeof dur, e->dur, 3), name, cat);
    return REDRAW;
}

static int act_longest(tt_app *a)
{
    const tt_row *row = tt_app_row(a);
    /* pressed again on what it found: keep the scope it had */
    if (a->has_rank && a->rank_kind != RANK_SEARCH && a->has_sel && a->rank_k < a->n_rank &&
        a->rank[a->rank_k].lane == a->sel.lane && a->rank[a->rank_k].idx == a->sel.idx)
        return longest(a, a->rank_kind, a->rank_scope);
    if (!row || (row->kind != TT_ROW_GROUP && row->kind != TT_ROW_LANE)) {
        tt_app_message(a, false, "move the cursor to a lane or a group header first");
        return REDRAW;
    }
    if (row->kind == TT_ROW_GROUP)
        return longest(a, RANK_GROUP, row->group);
    return longest(a, RANK_LANE, row->lane);
}

static int act_longest_match(tt_app *a)
{
    if (!a->has_search) {
        tt_app_message(a, false, "search first (/), then T finds the longest match");
        return REDRAW;
    }
    return longest(a, RANK_SEARCH, a->search_gen);
}

/* --------------------------------------------------------------- search */

static int start_prompt(tt_app *a, tt_mode m)
{
    a->mode = m;
    a->prompt[0] = '\0';
    a->plen = 0;
    return REDRAW;
}

static int act_search(tt_app *a) { return start_prompt(a, TT_MODE_SEARCH); }
static int act_goto(tt_app *a) { return start_prompt(a, TT_MODE_GOTO); }

static void show_match(tt_app *a, tt_evref ev, const char *prefix)
{
    tt_app_select(a, ev);
    tt_app_message(a, false, "%smatch %llu of %llu %s", prefix,
                   (unsigned long long)tt_hits_rank(&a->search, a->tr, ev),
                   (unsigned long long)a->search.total, a->search_desc);
}

void tt_app_set_hits(tt_app *a, tt_hits *hits, const char *pat, const char *desc)
{
    tt_hits_fini(&a->search);
    a->search = *hits;
    tt_hits_init(hits);
    a->has_search = true;
    a->search_text = false;
    a->search_gen++;
    snprintf(a->search_pat, sizeof a->search_pat, "%s", pat);
    snprintf(a->search_desc, sizeof a->search_desc, "%s", desc);
}

static int search_step(tt_app *a, int dir)
{
    tt_evref to;
    if (tt_app_xhl_on(a))
        return tt_app_xhl_step(a, dir);
    if (tt_app_mode(a)->search_step)
        return tt_app_mode(a)->search_step(a, dir);
    if (!a->has_search) {
        tt_app_message(a, false, "no search yet: press / and type a name");
        return REDRAW;
    }
    if (tt_hits_step(&a->search, a->tr, a->has_sel ? &a->sel : NULL, a->t_cur, dir, &to)) {
        show_match(a, to, "");
        return REDRAW;
    }
    if (tt_hits_step(&a->search, a->tr, NULL, dir > 0 ? INT64_MIN : INT64_MAX, dir, &to))
        show_match(a, to, dir > 0 ? "wrapped to the start: " : "wrapped to the end: ");
    return REDRAW;
}

static int act_search_next(tt_app *a) { return search_step(a, 1); }
static int act_search_prev(tt_app *a) { return search_step(a, -1); }

/* The matching names of the focused trace in *a->match. 0, or -1 with
 * the reason in the status line (a bad pattern) or none found (*n_ids 0). */
static int search_names(tt_app *a, const char *pat, tt_search_field *field, size_t *n_ids)
{
    tt_error err;
    const char *text = tt_search_field_of(pat, field);
    tt_error_clear(&err);
    *n_ids = 0;
    if (!*a->match && !(*a->match = calloc((size_t)tt_strtab_count(a->tr->strings) + 1, 1))) {
        tt_app_message(a, true, "out of memory");
        return -1;
    }
    if (!a->used[*field] && tt_search_used_ids(a->tr, *field, &a->used[*field])) {
        tt_app_message(a, true, "out of memory");
        return -1;
    }
    if (tt_search_match_names(a->tr, a->used[*field], text, *a->match, n_ids, &err)) {
        tt_app_message(a, true, "%s", err.what);
        return -1;
    }
    return 0;
}

int tt_app_search_rerun(tt_app *a)
{
    size_t n_ids = 0;
    tt_search_field field;
    char msg[sizeof a->msg];
    bool err = a->msg_err;
    snprintf(msg, sizeof msg, "%s", a->msg);
    if (search_names(a, a->search_raw, &field, &n_ids) || n_ids == 0) {
        snprintf(a->msg, sizeof a->msg, "%s", msg);
        a->msg_err = err;
        return -1;
    }
    if (tt_hits_build(&a->search, a->tr, *a->match, field))
        return -1;
    a->search_gen++;
    return 0;
}

static void search_submit(tt_app *a, const char *pat)
{
    size_t n_ids = 0;
    tt_evref to;
    tt_search_field field;
    snprintf(a->last_search, sizeof a->last_search, "%s", pat);
    if (tt_app_mode(a)->search) {
        tt_app_mode(a)->search(a, pat);
        return;
    }
    if (search_names(a, pat, &field, &n_ids))
        return;
    tt_text_sanitize(pat, strlen(pat), a->search_pat, sizeof a->search_pat);
    snprintf(a->search_desc, sizeof a->search_desc, "for '%s'", a->search_pat);
    if (n_ids == 0) {
        tt_app_message(a, false, "no event %s matches '%s'",
                       field == TT_FIELD_CAT ? "category" : "name", a->search_pat);
        return;
    }
    a->search_gen++;
    if (tt_hits_build(&a->search, a->tr, *a->match, field)) {
        a->has_search = false;
        tt_app_message(a, true, "out of memory");
        return;
    }
    a->has_search = true;
    a->search_text = true;
    snprintf(a->search_raw, sizeof a->search_raw, "%s", pat);
    /* the first match at or after the cursor, else the first one */
    if (tt_hits_step(&a->search, a->tr, NULL, a->t_cur, 1, &to))
        show_match(a, to, "");
    else if (tt_hits_step(&a->search, a->tr, NULL, INT64_MIN, 1, &to))
        show_match(a, to, "wrapped to the start: ");
}

/* ---------------------------------------------------------------- go to */

/* A time as typed: "12.5ms", "12.5 ms", " 300us" (spaces ignored). */
static int parse_rel(const char *s, tt_ns *out)
{
    char buf[64];
    size_t n = 0;
    for (; *s; s++) {
        if (*s == ' ')
            continue;
        if (n + 1 >= sizeof buf)
            return -1;
        buf[n++] = *s;
    }
    buf[n] = '\0';
    if (n == 0)
        return -1;
    if (tt_parse_duration(buf, out))
        return -1;
    *out = tt_time_clamp(*out);
    return 0;
}

static void goto_submit(tt_app *a, const char *text)
{
    char left[128];
    const char *sep = strstr(text, "..");
    size_t seplen = 2;
    tt_ns x, y;
    snprintf(a->last_goto, sizeof a->last_goto, "%s", text);
    /* ":sql SELECT ...": a query over the loaded traces (sqlpanel.c) */
    if (strncmp(text, "sql", 3) == 0 && (text[3] == ' ' || text[3] == '\0')) {
        tt_app_sql(a, text + 3);
        return;
    }
    if (!sep) {
        /* "10ms-20ms": a '-' after the first character that is not the
         * sign of an exponent */
        for (const char *p = text + 1; *p; p++)
            if (*p == '-' && p[-1] != 'e' && p[-1] != 'E') {
                sep = p;
                seplen = 1;
                break;
            }
    }
    if (sep && (size_t)(sep - text) < sizeof left) {
        memcpy(left, text, (size_t)(sep - text));
        left[sep - text] = '\0';
        if (parse_rel(left, &x) || parse_rel(sep + seplen, &y)) {
            tt_app_message(a, true, "not a time range: write e.g. 10ms..12.5ms");
            return;
        }
        tt_vp_show_range(&a->vp, tt_sat_add(a->origin, x), tt_sat_add(a->origin, y));
        a->t_cur = a->vp.start + a->vp.span / 2;
        tt_app_hit(a);
        return;
    }
    if (parse_rel(text, &x)) {
        tt_app_message(a, true, "not a time: write a number and a unit, e.g. 12.5ms, 300us, 2s");
        return;
    }
    x = tt_sat_add(a->origin, x);
    if (x < a->vp.t0 || x > a->vp.t1) {
        /* go to the nearer edge, and say so */
        char right[48];
        const char *edge = x < a->vp.t0 ? "start" : "end";
        if (a->vp.t0 == a->origin)
            tt_app_message(a, false, "that time is outside the trace (0 to %s): at its %s",
                           tt_fmt_dur(left, sizeof left, a->vp.t1 - a->origin, 3), edge);
        else
            tt_app_message(a, false, "that time is outside this rank (%s to %s): at its %s",
                           tt_fmt_dur(left, sizeof left, a->vp.t0 - a->origin, 3),
                           tt_fmt_dur(right, sizeof right, a->vp.t1 - a->origin, 3), edge);
    }
    if (x > a->vp.t1)
        x = a->vp.t1;
    if (x < a->vp.t0)
        x = a->vp.t0;
    tt_vp_set_start(&a->vp, x - a->vp.span / 2);
    a->t_cur = x;
    tt_app_cursor_into_view(a);
    tt_app_hit(a);
    /* the cursor stays on the exact time typed (in the same cell as the
     * event it selects), so a marker dropped now lands on it */
    if (tt_vp_col(&a->vp, x) == tt_app_cursor_col(a))
        a->t_cur = x;
    a->t_typed = x;
    a->typed = a->t_cur == x;
}

static size_t utf8_prev(const char *s, size_t n)
{
    while (n > 0) {
        n--;
        if (((unsigned char)s[n] & 0xc0) != 0x80)
            break;
    }
    return n;
}

void tt_app_ask_text(tt_app *a, tt_ask ask, const char *label, const char *text)
{
    a->mode = TT_MODE_TEXT;
    a->ask = ask;
    snprintf(a->ask_label, sizeof a->ask_label, "%s", label);
    snprintf(a->prompt, sizeof a->prompt, "%s", text ? text : "");
    a->plen = strlen(a->prompt);
}

void tt_app_ask_yes(tt_app *a, tt_ask ask, const char *fmt, ...)
{
    va_list ap;
    a->mode = TT_MODE_CONFIRM;
    a->ask = ask;
    va_start(ap, fmt);
    vsnprintf(a->question, sizeof a->question, fmt, ap);
    va_end(ap);
}

/* A yes/no question: y (or Y) answers yes, n, Esc or q no. */
static int confirm_key(tt_app *a, uint32_t key)
{
    tt_ask ask = a->ask;
    switch (key) {
    case 'y':
    case 'Y':
        a->mode = TT_MODE_MAIN;
        a->msg[0] = '\0';
        if (ask == TT_ASK_QUIT)
            return TT_REACT_QUIT;
        if (ask == TT_ASK_REPLACE)
            return tt_box_text(a, TT_ASK_EXPORT, a->ask_path);
        if (ask == TT_ASK_MS_REPLACE)
            return tt_app_ms_text(a, a->ask_path);
        return tt_marks_yes(a, ask);
    case 'n':
    case 'N':
    case 'q':
    case TT_KEY_ESC:
        a->mode = TT_MODE_MAIN;
        a->msg[0] = '\0';
        if (ask == TT_ASK_REPLACE || ask == TT_ASK_MS_REPLACE) {
            char safe[300];
            tt_app_message(a, false, "nothing written: %s is kept",
                           tt_text_safe(a->ask_path, safe, sizeof safe));
        }
        return REDRAW;
    default:
        return TT_REACT_NONE;   /* only an answer ends the question */
    }
}

int tt_app_prompt_key(tt_app *a, uint32_t key)
{
    if (a->mode == TT_MODE_CONFIRM)
        return confirm_key(a, key);
    switch (key) {
    case TT_KEY_ENTER: {
        char text[1024];
        tt_mode m = a->mode;
        snprintf(text, sizeof text, "%s", a->prompt);
        a->mode = TT_MODE_MAIN;
        a->msg[0] = '\0';
        if (m == TT_MODE_TEXT) {
            if ((a->ask == TT_ASK_EXPORT || a->ask == TT_ASK_MS_EXPORT) && text[0] &&
                access(text, F_OK) == 0) {
                /* never replace a file without asking */
                char safe[300];
                snprintf(a->ask_path, sizeof a->ask_path, "%s", text);
                tt_app_ask_yes(a, a->ask == TT_ASK_EXPORT ? TT_ASK_REPLACE : TT_ASK_MS_REPLACE,
                               "%s exists: replace it? y/n", tt_text_safe(text, safe, sizeof safe));
                return REDRAW;
            }
            if (a->ask == TT_ASK_EXPORT)
                return tt_box_text(a, a->ask, text);
            if (a->ask == TT_ASK_MS_EXPORT)
                return tt_app_ms_text(a, text);
            return tt_marks_text(a, a->ask, text);
        }
        if (!text[0])
            return REDRAW;
        if (m == TT_MODE_SEARCH)
            search_submit(a, text);
        else
            goto_submit(a, text);
        return REDRAW;
    }
    case TT_KEY_ESC:
        a->mode = TT_MODE_MAIN;
        return REDRAW;
    case TT_KEY_BACKSPACE:
    case 0x7f:
    case 0x08:
        if (a->plen == 0) {
            a->mode = TT_MODE_MAIN;
            return REDRAW;
        }
        a->plen = utf8_prev(a->prompt, a->plen);
        a->prompt[a->plen] = '\0';
        return REDRAW;
    case TT_KEY_CTRL('u'):
        a->plen = 0;
        a->prompt[0] = '\0';
        return REDRAW;
    case TT_KEY_CTRL('w'):
        while (a->plen > 0 && a->prompt[a->plen - 1] == ' ')
            a->plen--;
        while (a->plen > 0 && a->prompt[a->plen - 1] != ' ')
            a->plen--;
        a->prompt[a->plen] = '\0';
        return REDRAW;
    case TT_KEY_UP: {
        const char *last = a->mode == TT_MODE_SEARCH ? a->last_search : a->last_goto;
        if (a->mode == TT_MODE_TEXT)
            return TT_REACT_NONE;
        snprintf(a->prompt, sizeof a->prompt, "%s", last);
        a->plen = strlen(a->prompt);
        return REDRAW;
    }
    default:
        if (key >= 0x20 && key < TT_KEY_BASE && key != 0x7f && !(key >= 0x80 && key < 0xa0)) {
            char u[4];
            int k = tt_grid_utf8(key, u);
            if (a->plen + (size_t)k < sizeof a->prompt - 1) {
                memcpy(a->prompt + a->plen, u, (size_t)k);
                a->plen += (size_t)k;
                a->prompt[a->plen] = '\0';
            }
            return REDRAW;
        }
        return TT_REACT_NONE;
    }
}

/* ------------------------------------------------------------ view state */

static int act_enter(tt_app *a)
{
    const tt_row *row = tt_app_row(a);
    if (row && (row->kind == TT_ROW_RANK || row->kind == TT_ROW_COLL))
        return tt_app_mode(a)->enter ? tt_app_mode(a)->enter(a) : REDRAW;
    if (row && row->kind == TT_ROW_GROUP) {
        a->collapsed[row->group] = !a->collapsed[row->group];
        tt_app_rebuild_rows(a);
        tt_app_hit(a);
        return REDRAW;
    }
    if (!a->has_sel) {
        tt_app_message(a, false, "no event under the cursor: move onto one (h l, Tab)");
        return REDRAW;
    }
    /* a panel opens with its cursor on the first link: the next step */
    a->panel = TT_PANEL_NONE;
    tt_app_open_panel(a, TT_PANEL_DETAILS);
    return REDRAW;
}

static int act_fold(tt_app *a)
{
    const tt_row *row = tt_app_row(a);
    bool *f = tt_app_fold_flag(a, row);
    if (!f) {
        if (row && tt_app_mode(a)->no_fold)
            tt_app_message(a, false, "%s", tt_app_mode(a)->no_fold);
        return REDRAW;
    }
    *f = !*f;
    tt_app_rebuild_rows(a);
    tt_app_hit(a);
    return REDRAW;
}

static int act_fold_all(tt_app *a)
{
    bool any_open = false;
    /* the combined view folds its ranks, a tab its groups */
    const tt_view_def *m = tt_app_mode(a);
    size_t n = 0;
    bool *flags = m->folds ? m->folds(a, &n) : NULL;
    if (!flags) {
        tt_app_message(a, false, "%s", m->no_fold_all ? m->no_fold_all : "nothing to fold");
        return REDRAW;
    }
    for (size_t g = 0; g < n; g++)
        any_open |= !flags[g];
    for (size_t g = 0; g < n; g++)
        flags[g] = any_open;
    tt_app_rebuild_rows(a);
    tt_app_hit(a);
    return REDRAW;
}

static int act_depth0(tt_app *a)
{
    a->depth0 = !a->depth0;
    tt_app_rebuild_rows(a);
    tt_app_hit(a);
    tt_app_message(a, false, a->depth0 ? "top-level events only (D: show nesting)"
                                       : "nested events shown (D: top level only)");
    return REDRAW;
}

static int act_colorby(tt_app *a)
{
    a->by = (tt_colorby)((a->by + 1) % TT_BY__COUNT);
    tt_app_message(a, false, "color by %s", tt_colorby_name(a->by));
    return REDRAW;
}

static int act_redraw(tt_app *a)
{
    (void)a;
    return REDRAW | TT_REACT_FULL;
}

static int act_help(tt_app *a)
{
    a->help = true;
    a->help_top = 0;
    return REDRAW;
}

static int act_quit(tt_app *a)
{
    char st[200];
    if (a->mk.dirty && (tt_marks_count(&a->mk) > 0 || a->mk.loaded[0])) {
        tt_app_ask_yes(a, TT_ASK_QUIT, "quit without saving the markers (%s)? (' S saves them)",
                       tt_marks_status(&a->mk, st, sizeof st));
        return REDRAW;
    }
    return TT_REACT_QUIT;
}

/* ---------------------------------------------------------------- panels */

/* The line list of the open panel (NULL for the details panel). */
static tt_plist *panel_list(tt_app *a)
{
    const tt_panel_def *pd = tt_panel_get(a->panel);
    return pd && pd->list ? pd->list(a) : NULL;
}

static int panel_move(tt_app *a, int64_t delta)
{
    tt_plist *pl = panel_list(a);
    if (pl)
        tt_plist_move(pl, delta);
    else
        tt_details_move(&a->det, delta);
    return REDRAW;
}

static int64_t panel_lines(tt_app *a)
{
    tt_plist *pl = panel_list(a);
    return pl ? (int64_t)pl->n : (int64_t)a->det.n;
}

static int panel_page(const tt_app *a)
{
    int h = tt_app_panel_h(a) - 3;
    return h > 1 ? h : 1;
}

static int act_p_down(tt_app *a) { return panel_move(a, 1); }
static int act_p_up(tt_app *a) { return panel_move(a, -1); }
static int act_p_pgdn(tt_app *a) { return panel_move(a, panel_page(a)); }
static int act_p_pgup(tt_app *a) { return panel_move(a, -panel_page(a)); }
static int act_p_home(tt_app *a) { return panel_move(a, -panel_lines(a)); }
static int act_p_end(tt_app *a) { return panel_move(a, panel_lines(a)); }

static int act_p_follow(tt_app *a)
{
    tt_evref to;
    if (!a->has_sel || !tt_details_link(&a->det, &to)) {
        tt_app_message(a, false, "not a link: move to a flow, parent or child line (j k)");
        return REDRAW;
    }
    tt_app_select(a, to);
    return REDRAW;
}

static int act_p_close(tt_app *a)
{
    a->panel = TT_PANEL_NONE;
    tt_app_scroll_to_cursor(a);
    return REDRAW;
}

/* --------------------------------------------------------------- table */

#define K(...) {__VA_ARGS__}

const char *const tt_section_names[TT_SEC__COUNT] = {
    [TT_SEC_MOVE] = "Move",
    [TT_SEC_ZOOM] = "Zoom and pan",
    [TT_SEC_FIND] = "Select and find",
    [TT_SEC_BOX] = "Box select and statistics",
    [TT_SEC_MARKS] = "Markers and annotations",
    [TT_SEC_VIEW] = "View",
    [TT_SEC_PANEL] = "Panels (while one is open)",
    [TT_SEC_DETAILS] = "Details panel",
    [TT_SEC_STATS] = "Statistics panel",
    [TT_SEC_MARKP] = "Markers panel",
    [TT_SEC_ANNOTP] = "Annotations panel",
    [TT_SEC_RANKS] = "Ranks (several traces)",
    [TT_SEC_RANKSP] = "Ranks panel",
    [TT_SEC_COLLP] = "Collective panel",
    [TT_SEC_MSTATS] = "Statistics of a box over ranks or collectives",
};

const tt_binding tt_bindings[] = {
    {K(TT_KEY_LEFT, 'h'), "Left h", "cursor one column left", TT_SEC_MOVE, TT_IN_MAIN, act_left},
    {K(TT_KEY_RIGHT, 'l'), "Right l", "cursor one column right", TT_SEC_MOVE, TT_IN_MAIN,
     act_right},
    {K(TT_KEY_S_LEFT), "S-Left", "cursor 8 columns left", TT_SEC_MOVE, TT_IN_MAIN, act_left8},
    {K(TT_KEY_S_RIGHT), "S-Right", "cursor 8 columns right", TT_SEC_MOVE, TT_IN_MAIN, act_right8},
    {K(TT_KEY_UP, 'k'), "Up k", "previous row (over an open group's header)", TT_SEC_MOVE, TT_IN_MAIN, act_up},
    {K(TT_KEY_DOWN, 'j'), "Down j", "next row (over an open group's header)", TT_SEC_MOVE, TT_IN_MAIN, act_down},
    {K(TT_KEY_PGUP), "PgUp", "a page of rows up", TT_SEC_MOVE, TT_IN_MAIN, act_pgup},
    {K(TT_KEY_PGDN), "PgDn", "a page of rows down", TT_SEC_MOVE, TT_IN_MAIN, act_pgdn},
    {K(TT_KEY_HOME), "Home", "first row", TT_SEC_MOVE, TT_IN_MAIN, act_first_row},
    {K(TT_KEY_END), "End", "last row", TT_SEC_MOVE, TT_IN_MAIN, act_last_row},

    {K('w', '+', '='), "w + =", "zoom in at the cursor", TT_SEC_ZOOM, TT_IN_MAIN, act_zoom_in},
    {K('s', '-', '_'), "s - _", "zoom out at the cursor", TT_SEC_ZOOM, TT_IN_MAIN, act_zoom_out},
    {K('W'), "W", "zoom in 4 steps", TT_SEC_ZOOM, TT_IN_MAIN, act_zoom_in4},
    {K('S'), "S", "zoom out 4 steps", TT_SEC_ZOOM, TT_IN_MAIN, act_zoom_out4},
    {K('a'), "a", "pan left a quarter window", TT_SEC_ZOOM, TT_IN_MAIN, act_pan_left},
    {K('d'), "d", "pan right a quarter window", TT_SEC_ZOOM, TT_IN_MAIN, act_pan_right},
    {K('g'), "g", "go to the start of the trace", TT_SEC_ZOOM, TT_IN_MAIN, act_start},
    {K('G'), "G", "go to the end of the trace", TT_SEC_ZOOM, TT_IN_MAIN, act_end},
    {K('0'), "0", "show the whole trace", TT_SEC_ZOOM, TT_IN_MAIN, act_all},
    {K('f'), "f", "zoom to the selected event", TT_SEC_ZOOM, TT_IN_MAIN, act_fit},
    {K(':'), ":", "go to a time (:12.5ms), zoom to a range (:10ms..12ms), or :sql SELECT ...",
     TT_SEC_ZOOM, TT_IN_MAIN, act_goto},

    {K(TT_KEY_TAB), "Tab", "next event at the same depth", TT_SEC_FIND, TT_IN_MAIN,
     act_next_ev},
    {K(TT_KEY_BTAB), "S-Tab", "previous event at the same depth", TT_SEC_FIND, TT_IN_MAIN,
     act_prev_ev},
    {K(']'), "]", "next event with the selected name", TT_SEC_FIND, TT_IN_MAIN, act_next_occ},
    {K('['), "[", "previous event with the selected name", TT_SEC_FIND, TT_IN_MAIN,
     act_prev_occ},
    {K('L'), "L", "longest event of the lane (on a group header: of the group); again: next "
     "longest", TT_SEC_FIND, TT_IN_MAIN, act_longest},
    {K('/'), "/", "search names (text, ~regex) or categories (cat:text)", TT_SEC_FIND,
     TT_IN_MAIN, act_search},
    {K('n'), "n", "next match (of a search, a breakdown row or a name selection)", TT_SEC_FIND,
     TT_IN_MAIN, act_search_next},
    {K('N'), "N", "previous match", TT_SEC_FIND, TT_IN_MAIN, act_search_prev},
    {K('T'), "T", "longest match of the search in the trace; again: next longest", TT_SEC_FIND,
     TT_IN_MAIN, act_longest_match},
    {K(TT_KEY_ENTER), "Enter", "details of the selected event (on a group header: fold it)",
     TT_SEC_FIND, TT_IN_MAIN, act_enter},
    {K('F'), "F", "the selected event's full name, wrapped", TT_SEC_FIND, TT_IN_MAIN,
     tt_act_info_name},
    {K('y'), "y", "copy the selected name to the clipboard (OSC 52, if the terminal allows)",
     TT_SEC_FIND, TT_IN_MAIN, tt_act_copy_name},
    {K('I'), "I", "the trace's metadata (deviceProperties, distributedInfo, neuron summary)",
     TT_SEC_FIND, TT_IN_MAIN, tt_act_info_meta},

    {K('v'), "v", "start a box at the cursor: move to stretch it over time and rows", TT_SEC_BOX,
     TT_IN_MAIN, tt_act_box_start},
    {K(TT_KEY_ENTER, 'v'), "Enter v", "while stretching a box: confirm it, open its statistics",
     TT_SEC_BOX, TT_IN_BOXSEL, tt_act_box_confirm},
    {K(TT_KEY_ESC), "Esc", "while stretching a box: cancel it", TT_SEC_BOX, TT_IN_BOXSEL,
     tt_act_box_cancel},
    {K('V'), "V", "statistics of the box again (after the panel was closed)", TT_SEC_BOX,
     TT_IN_MAIN, tt_act_box_reopen},
    {K('*'), "*", "every event with the selected name: statistics and highlight (also "
     "double-click)", TT_SEC_BOX, TT_IN_MAIN, tt_act_same_name},
    {K(TT_KEY_ESC), "Esc", "remove the box; without one, clear the highlight", TT_SEC_BOX,
     TT_IN_MAIN, tt_act_clear},

    {K('m'), "m", "drop a marker at the cursor; on an event: at its start, m again: its end",
     TT_SEC_MARKS, TT_IN_MAIN, tt_act_mark_drop},
    {K('}', 'M'), "} M", "next marker (Shift-M is M: a terminal cannot tell them apart)",
     TT_SEC_MARKS, TT_IN_MAIN, tt_act_mark_next},
    {K('{'), "{", "previous marker", TT_SEC_MARKS, TT_IN_MAIN, tt_act_mark_prev},
    {K('\''), "'", "markers panel: list, rename, notes, distance, saved sets",
     TT_SEC_MARKS, TT_IN_MAIN, tt_act_marks_panel},
    {K('!'), "!", "warning annotations panel: per rule, costliest first, every message whole", TT_SEC_MARKS,
     TT_IN_MAIN,
     tt_act_annots_panel},
    {K('A'), "A", "show or hide the annotations on the timeline", TT_SEC_MARKS, TT_IN_MAIN,
     tt_act_annots_toggle},

    {K(' '), "Space", "fold or unfold the group under the cursor", TT_SEC_VIEW, TT_IN_MAIN,
     act_fold},
    {K('C'), "C", "fold or unfold all groups", TT_SEC_VIEW, TT_IN_MAIN, act_fold_all},
    {K('D'), "D", "top-level events only, or all depths", TT_SEC_VIEW, TT_IN_MAIN, act_depth0},
    {K('c'), "c", "color by name, category, opcode or layer", TT_SEC_VIEW, TT_IN_MAIN,
     act_colorby},
    {K(TT_KEY_CTRL('l')), "C-l", "repaint the screen", TT_SEC_VIEW, TT_IN_MAIN, act_redraw},
    {K('?'), "?", "this help", TT_SEC_VIEW, TT_IN_MAIN, act_help},
    {K('q'), "q C-c", "quit (q asks first when the markers are not saved)", TT_SEC_VIEW,
     TT_IN_MAIN, act_quit},

    {K(TT_KEY_DOWN, 'j'), "Down j", "next line", TT_SEC_PANEL, TT_IN_PANEL, act_p_down},
    {K(TT_KEY_UP, 'k'), "Up k", "previous line", TT_SEC_PANEL, TT_IN_PANEL, act_p_up},
    {K(TT_KEY_PGDN), "PgDn", "a page down", TT_SEC_PANEL, TT_IN_PANEL, act_p_pgdn},
    {K(TT_KEY_PGUP), "PgUp", "a page up", TT_SEC_PANEL, TT_IN_PANEL, act_p_pgup},
    {K(TT_KEY_HOME), "Home", "first line", TT_SEC_PANEL, TT_IN_PANEL, act_p_home},
    {K(TT_KEY_END), "End", "last line", TT_SEC_PANEL, TT_IN_PANEL, act_p_end},
    {K(TT_KEY_ESC, 'q'), "Esc q", "close the panel", TT_SEC_PANEL, TT_IN_PANEL, act_p_close},

    {K(TT_KEY_ENTER), "Enter", "follow the link: flow, parent or child", TT_SEC_DETAILS,
     TT_IN_DETAILS, act_p_follow},

    {K('b'), "b", "group by opcode, name, category or layer", TT_SEC_STATS, TT_IN_STATS,
     tt_act_sp_key},
    {K('o'), "o", "sort by total, count or average", TT_SEC_STATS, TT_IN_STATS, tt_act_sp_order},
    {K(TT_KEY_ENTER), "Enter", "on a row: highlight its events (n N step through them); "
     "on a lane: go there", TT_SEC_STATS, TT_IN_STATS, tt_act_sp_enter},
    {K('z'), "z", "zoom to the box (to the events of a name selection)", TT_SEC_STATS,
     TT_IN_STATS, tt_act_sp_zoom},
    {K('e'), "e", "write the panel's tables to a CSV file (asks for its name)", TT_SEC_STATS,
     TT_IN_STATS, tt_act_sp_export},
    {K('m'), "m", "markers at the box's two edges", TT_SEC_STATS, TT_IN_STATS, tt_act_sp_marks},
    {K('c'), "c", "the box's call tree: calls, host and device time, self and total (its own "
     "keys below)", TT_SEC_STATS, TT_IN_STATS, tt_act_sp_calltree},

    {K(TT_KEY_ENTER), "Enter", "on a marker: go to it; on a saved set: load it", TT_SEC_MARKP,
     TT_IN_MARKP, tt_act_mk_enter},
    {K('r'), "r", "rename the marker or the set", TT_SEC_MARKP, TT_IN_MARKP, tt_act_mk_rename},
    {K('M'), "M", "move the marker to the timeline's cursor", TT_SEC_MARKP, TT_IN_MARKP,
     tt_act_mk_move},
    {K('n'), "n", "write a note on the marker", TT_SEC_MARKP, TT_IN_MARKP, tt_act_mk_note},
    {K('x', TT_KEY_DEL), "x Del", "delete the marker or the set (a set: asks first)",
     TT_SEC_MARKP, TT_IN_MARKP, tt_act_mk_delete},
    {K(' '), "Space", "choose the marker (two chosen: their distance)", TT_SEC_MARKP,
     TT_IN_MARKP, tt_act_mk_choose},
    {K('b'), "b", "box over every lane between the two chosen markers (or this one and the "
     "next)", TT_SEC_MARKP, TT_IN_MARKP, tt_act_mk_box},
    {K('S'), "S", "save the markers as a named set beside the trace", TT_SEC_MARKP, TT_IN_MARKP,
     tt_act_mk_save},

    {K(TT_KEY_ENTER), "Enter", "on a group's header: fold or unfold it; on a finding: its "
     "detail (whole message, the events involved); in the detail: select the event on the "
     "timeline, or go to the finding's span",
     TT_SEC_ANNOTP, TT_IN_ANNOTP, tt_act_an_enter},
    {K('f'), "f", "only the findings of this finding's (or header's) rule; again: every rule", TT_SEC_ANNOTP,
     TT_IN_ANNOTP, tt_act_an_filter},
    {K(TT_KEY_ESC, 'q'), "Esc q", "in a finding's detail: back to the list", TT_SEC_ANNOTP,
     TT_IN_ANNOTP, tt_act_an_back},

    {K('1'), "1..9", "rank 1..9's tab: its whole timeline", TT_SEC_RANKS, TT_IN_MAIN,
     tt_act_rank1},
    {K('2'), NULL, NULL, TT_SEC_RANKS, TT_IN_MAIN, tt_act_rank2},
    {K('3'), NULL, NULL, TT_SEC_RANKS, TT_IN_MAIN, tt_act_rank3},
    {K('4'), NULL, NULL, TT_SEC_RANKS, TT_IN_MAIN, tt_act_rank4},
    {K('5'), NULL, NULL, TT_SEC_RANKS, TT_IN_MAIN, tt_act_rank5},
    {K('6'), NULL, NULL, TT_SEC_RANKS, TT_IN_MAIN, tt_act_rank6},
    {K('7'), NULL, NULL, TT_SEC_RANKS, TT_IN_MAIN, tt_act_rank7},
    {K('8'), NULL, NULL, TT_SEC_RANKS, TT_IN_MAIN, tt_act_rank8},
    {K('9'), NULL, NULL, TT_SEC_RANKS, TT_IN_MAIN, tt_act_rank9},
    {K('`'), "`", "rank 0's tab (0 still shows the whole window)", TT_SEC_RANKS, TT_IN_MAIN,
     tt_act_rank0},
    {K('<'), "<", "previous rank's tab (in the combined view: its group)", TT_SEC_RANKS,
     TT_IN_MAIN, tt_act_rank_prev},
    {K('>'), ">", "next rank's tab (in the combined view: its group)", TT_SEC_RANKS, TT_IN_MAIN,
     tt_act_rank_next},
    {K('R'), "R", "combined view: every rank's device lanes on one time axis, a rank folds to "
     "its summary lane; again: back to the rank's tab", TT_SEC_RANKS, TT_IN_MAIN,
     tt_act_view_job},
    {K('X'), "X", "collectives view: one row per collective, its arrival spread and waits; "
     "again: back", TT_SEC_RANKS, TT_IN_MAIN, tt_act_view_colls},
    {K('B'), "B", "communication matrix (Ascend communication_matrix.json): ranks x ranks, "
     "bandwidth as shades, the slowest links marked; again, Esc or q: back", TT_SEC_RANKS,
     TT_IN_MAIN, tt_act_view_matrix},
    {K('#'), "#", "ranks panel: files, how ranks were found, alignment and offsets",
     TT_SEC_RANKS, TT_IN_MAIN, tt_act_ranks_panel},

    {K(TT_KEY_ENTER), "Enter", "show the rank's tab", TT_SEC_RANKSP, TT_IN_RANKSP,
     tt_act_rp_enter},

    {K(TT_KEY_ENTER), "Enter", "on a rank: its kernel, selected in its tab", TT_SEC_COLLP,
     TT_IN_COLLP, tt_act_cp_enter},

    {K('b'), "b", "group by opcode, name, category or layer (lanes of several ranks)",
     TT_SEC_MSTATS, TT_IN_MSTATS, tt_act_ms_key},
    {K('o'), "o", "sort by total, count or average", TT_SEC_MSTATS, TT_IN_MSTATS,
     tt_act_ms_order},
    {K(TT_KEY_ENTER), "Enter", "rank: its group or tab; lane: go there; row: highlight (n N)",
     TT_SEC_MSTATS, TT_IN_MSTATS, tt_act_ms_enter},
    {K('z'), "z", "zoom to the box", TT_SEC_MSTATS, TT_IN_MSTATS, tt_act_ms_zoom},
    {K('e'), "e", "write every rank's tables to one CSV file (asks for its name)",
     TT_SEC_MSTATS, TT_IN_MSTATS, tt_act_ms_export},
    {K('m'), "m", "markers at the box's two edges", TT_SEC_MSTATS, TT_IN_MSTATS,
     tt_act_ms_marks},
};

const size_t tt_n_bindings = sizeof tt_bindings / sizeof tt_bindings[0];

static tt_action_fn lookup(uint32_t key, uint16_t where)
{
    for (size_t i = 0; i < tt_n_bindings; i++) {
        if (!(tt_bindings[i].where & where))
            continue;
        for (int k = 0; k < 4 && tt_bindings[i].keys[k]; k++)
            if (tt_bindings[i].keys[k] == key)
                return tt_bindings[i].fn;
    }
    return NULL;
}

static uint16_t panel_where(tt_panel p)
{
    const tt_panel_def *pd = tt_panel_get(p);
    return pd ? pd->where : 0;
}

/* A binding of an own table: the open panel's or the mode's. */
static tt_action_fn lookup_in(const tt_binding *keys, size_t n_keys, uint32_t key)
{
    for (size_t i = 0; i < n_keys; i++)
        for (int k = 0; k < 4 && keys[i].keys[k]; k++)
            if (keys[i].keys[k] == key)
                return keys[i].fn;
    return NULL;
}

static tt_action_fn lookup_own(const tt_panel_def *pd, uint32_t key)
{
    return pd ? lookup_in(pd->keys, pd->n_keys, key) : NULL;
}

static int help_key(tt_app *a, uint32_t key)
{
    size_t n = tt_help_lines(a), h = (size_t)tt_help_inner_h(a);
    size_t max_top = n > h ? n - h : 0;
    switch (key) {
    case TT_KEY_ESC:
    case 'q':
    case '?':
        a->help = false;
        return REDRAW;
    case TT_KEY_DOWN:
    case 'j':
        a->help_top++;
        break;
    case TT_KEY_UP:
    case 'k':
        if (a->help_top > 0)
            a->help_top--;
        break;
    case TT_KEY_PGDN:
    case ' ':
        a->help_top += h;
        break;
    case TT_KEY_PGUP:
        a->help_top = a->help_top > h ? a->help_top - h : 0;
        break;
    case TT_KEY_HOME:
        a->help_top = 0;
        break;
    case TT_KEY_END:
        a->help_top = max_top;
        break;
    default:
        return TT_REACT_NONE;
    }
    if (a->help_top > max_top)
        a->help_top = max_top;
    return REDRAW;
}

int tt_app_key(tt_app *a, uint32_t key)
{
    tt_action_fn fn = NULL;
    if (a->help)
        return help_key(a, key);
    if (a->box.selecting)
        fn = lookup(key, TT_IN_BOXSEL);
    if (!fn && a->panel != TT_PANEL_NONE) {
        fn = lookup_own(tt_panel_get(a->panel), key);
        if (!fn)
            fn = lookup(key, panel_where(a->panel));
        if (!fn)
            fn = lookup(key, TT_IN_PANEL);
    }
    /* the mode's own bindings, then the timeline's */
    if (!fn)
        fn = lookup_in(tt_app_mode(a)->keys, tt_app_mode(a)->n_keys, key);
    if (!fn)
        fn = lookup(key, TT_IN_MAIN);
    if (!fn) {
        char name[32];
        if (key == TT_KEY_ESC)
            return REDRAW;   /* Esc clears a message */
        /* "key y": the message's first letter is capitalized, which
         * would name another key (Y) */
        tt_app_message(a, false, "key %s does nothing here; ? lists the keys",
                       tt_key_name(key, name, sizeof name));
        return REDRAW;
    }
    return fn(a);
}

/* ----------------------------------------------------------------- mouse */

static int mouse_panel(tt_app *a, const tt_input *in, int py)
{
    tt_plist *pl = panel_list(a);
    bool wheel = in->action == TT_MOUSE_WHEEL_UP || in->action == TT_MOUSE_WHEEL_DOWN;
    int line = in->y - py - 1;
    if (wheel)
        return panel_move(a, in->action == TT_MOUSE_WHEEL_UP ? -3 : 3);
    if ((in->action != TT_MOUSE_PRESS && in->action != TT_MOUSE_DOUBLE) || in->button != 0)
        return TT_REACT_NONE;
    if (!pl) {
        if (line >= 0 && a->det.top + (size_t)line < a->det.n) {
            tt_evref to;
            a->det.cur = a->det.top + (size_t)line;
            if (tt_details_link(&a->det, &to))
                tt_app_select(a, to);
        }
        return REDRAW;
    }
    /* a click puts the panel's cursor on the line, a double click acts on
     * it as Enter does */
    if (line < 0 || pl->top + (size_t)line >= pl->n)
        return TT_REACT_NONE;
    pl->cur = pl->top + (size_t)line;
    if (in->action == TT_MOUSE_DOUBLE) {
        tt_action_fn fn = lookup_own(tt_panel_get(a->panel), TT_KEY_ENTER);
        if (!fn)
            fn = lookup(TT_KEY_ENTER, panel_where(a->panel));
        if (fn)
            return fn(a);
    }
    return REDRAW;
}

/* The lanes-area row under a mouse position, clamped to the visible rows
 * (a drag may leave the area). */
static size_t mouse_row(const tt_app *a, int y)
{
    int lh = tt_app_lanes_h(a), r = y - a->scr.area_y;
    size_t row;
    if (r < 0)
        r = 0;
    if (r >= lh)
        r = lh - 1;
    row = a->top + (size_t)(r > 0 ? r : 0);
    if (a->list.n && row >= a->list.n)
        row = a->list.n - 1;
    return row;
}

int tt_app_mouse(tt_app *a, const tt_input *in)
{
    const tt_screen *s = &a->scr;
    int lh = tt_app_lanes_h(a), col = in->x - s->tl_x;
    bool in_tl = in->x >= s->tl_x && col < a->vp.cols;
    bool in_lanes = in->y >= s->area_y && in->y < s->area_y + lh;
    if (a->mode != TT_MODE_MAIN)
        return TT_REACT_NONE;
    a->msg[0] = '\0';
    if (a->help) {
        if (in->action == TT_MOUSE_WHEEL_UP)
            return help_key(a, TT_KEY_UP);
        if (in->action == TT_MOUSE_WHEEL_DOWN)
            return help_key(a, TT_KEY_DOWN);
        return TT_REACT_NONE;
    }
    if (a->drag) {
        int c = col < 0 ? 0 : col >= a->vp.cols ? a->vp.cols - 1 : col;
        if (in->action == TT_MOUSE_DRAG) {
            a->drag_x1 = c;
            return REDRAW;
        }
        if (in->action == TT_MOUSE_RELEASE) {
            int x0 = a->drag_x0 < c ? a->drag_x0 : c, x1 = a->drag_x0 < c ? c : a->drag_x0;
            a->drag = false;
            if (x1 > x0) {
                tt_vp_show_range(&a->vp, tt_vp_time(&a->vp, x0), tt_vp_time(&a->vp, x1 + 1));
                after_view_change(a);
            } else {
                /* a click on the ruler puts the cursor at that time */
                a->t_cur = tt_vp_time_mid(&a->vp, x0);
                tt_app_hit(a);
            }
            return REDRAW;
        }
    }
    /* a press in the lanes that moves becomes a box drag */
    if (a->press || (a->box.selecting && a->box.mouse)) {
        int c = col < 0 ? 0 : col >= a->vp.cols ? a->vp.cols - 1 : col;
        if (in->action == TT_MOUSE_DRAG) {
            size_t r = mouse_row(a, in->y);
            if (!a->box.selecting && c == a->press_col && r == a->press_row)
                return TT_REACT_NONE;
            tt_box_mouse_drag(a, c, r);
            return REDRAW;
        }
        if (in->action == TT_MOUSE_RELEASE) {
            a->press = false;
            if (a->box.selecting && a->box.mouse)
                return tt_box_mouse_release(a);
            return TT_REACT_NONE;
        }
    }
    a->press = false;
    if (in->y == s->tabs_y && s->tabs_y >= 0) {
        /* a click on a tab shows it */
        if (in->action == TT_MOUSE_PRESS && in->button == 0)
            return tt_app_tabs_click(a, in->x);
        return TT_REACT_NONE;
    }
    if (a->panel != TT_PANEL_NONE && in->y >= s->area_y + lh &&
        in->y < s->area_y + lh + tt_app_panel_h(a))
        return mouse_panel(a, in, s->area_y + lh);
    if ((in->action == TT_MOUSE_PRESS && in->button == 2) || in->action == TT_MOUSE_DOUBLE) {
        /* right click: a marker there; double click: every event of the
         * name under the pointer */
        if (!in_tl || (!in_lanes && in->y != s->ruler_y))
            return TT_REACT_NONE;
        if (in_lanes) {
            size_t r = a->top + (size_t)(in->y - s->area_y);
            if (r >= a->list.n)
                return TT_REACT_NONE;
            a->cur = r;
        }
        a->t_cur = tt_vp_time_mid(&a->vp, col);
        tt_app_hit(a);
        if (in->action == TT_MOUSE_DOUBLE) {
            if (in_lanes && a->list.v[a->cur].kind == TT_ROW_COLL)
                return tt_app_mode(a)->enter ? tt_app_mode(a)->enter(a) : REDRAW;
            if (!in_lanes || !a->has_sel)
                return REDRAW;
            return tt_act_same_name(a);
        }
        return tt_mark_at(a, tt_vp_time_mid(&a->vp, col));
    }
    switch ((tt_mouse_action)in->action) {
    case TT_MOUSE_PRESS:
        if (in->button != 0)
            return TT_REACT_NONE;   /* the middle button: not used */
        if (in->y == s->ruler_y && in_tl) {
            a->drag = true;
            a->drag_x0 = a->drag_x1 = col;
            return REDRAW;
        }
        if (in->y >= s->area_y && in->y < s->area_y + lh) {
            size_t r = a->top + (size_t)(in->y - s->area_y);
            if (r >= a->list.n)
                return TT_REACT_NONE;
            a->cur = r;
            if (!in_tl) {
                if (a->list.v[r].kind == TT_ROW_GROUP || a->list.v[r].kind == TT_ROW_RANK)
                    return act_fold(a);
                tt_app_hit(a);
                return REDRAW;
            }
            a->t_cur = tt_vp_time_mid(&a->vp, col);
            tt_app_hit(a);
            a->press = true;
            a->press_col = (int)col;
            a->press_row = r;
            return REDRAW;
        }
        return TT_REACT_NONE;
    case TT_MOUSE_WHEEL_UP:
    case TT_MOUSE_WHEEL_DOWN: {
        bool up = in->action == TT_MOUSE_WHEEL_UP;
        if (in->y >= s->area_y && in->y < s->area_y + lh && !in_tl) {
            /* over the labels: scroll the rows */
            size_t lhs = (size_t)lh;
            if (up)
                a->top = a->top > 3 ? a->top - 3 : 0;
            else if (a->top + lhs < a->list.n)
                a->top = a->top + 3 + lhs <= a->list.n ? a->top + 3 : a->list.n - lhs;
            if (a->cur < a->top)
                a->cur = a->top;
            if (lhs && a->cur >= a->top + lhs)
                a->cur = a->top + lhs - 1;
            tt_app_hit(a);
            return REDRAW;
        }
        if (!in_tl)
            return TT_REACT_NONE;
        if (in->mods & TT_MOD_SHIFT)
            return pan(a, up ? -1 : 1);
        /* zoom about the pointer: the time under it stays under it */
        if (!tt_vp_zoom(&a->vp, tt_vp_time_mid(&a->vp, col), up ? 1 : -1))
            tt_app_message(a, false, up ? "zoomed in fully: 1 ns per column"
                                        : "the whole trace is shown");
        after_view_change(a);
        return REDRAW;
    }
    case TT_MOUSE_WHEEL_LEFT:
    case TT_MOUSE_WHEEL_RIGHT:
        return pan(a, in->action == TT_MOUSE_WHEEL_LEFT ? -1 : 1);
    default:
        return TT_REACT_NONE;
    }
}
