/* sqlpanel.c - `:sql SELECT ...` in the view: the query runs over the
 * traces the view has loaded (every rank of a job, with the rank column;
 * nothing is loaded again) and its rows open in a panel below the lanes:
 * a header line with the column names, then a line per row. When a row
 * has a slice `id`, or `ts` with `track_id` (and `dur`), Enter selects
 * its event on the timeline as a search match is selected, and n N step
 * to the next or previous row's event; a row with only `ts` moves the
 * cursor to that time. Ctrl-C or a key press stops a long query
 * (tui/jobstop.h); an SQL error is one line in the status line.
 *
 * The query itself is sql/'s: the source set (tt_sql_srcset_new_loaded
 * over the ranks, built at the first query and kept), the database
 * (sql/db.h, one per query) and the rows (sql/result.h). Exports its row
 * of the panel table (panels.c).
 *
 * Ownership: the app owns its tt_sqlview (a->sq), which owns the source
 * set (borrowing the ranks' traces), the rows and the panel's lines.
 */
#include "config.h"

#include "tui/app_impl.h"
#include "tui/jobstop.h"

#include "sql/result.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

/* Rows kept: more are counted as "more", not shown (a panel of a million
 * lines helps no one, and each costs memory). */
#define SQL_MAX_ROWS 50000
/* The widest a column is laid out (a cell wider is cut). */
#define SQL_COL_MAX 48

struct tt_sqlview {
    tt_sql_srcset *set;
    tt_sql_result  res;
    bool           valid;      /* res holds a query's rows */
    char           title[300]; /* the query, sanitized, for the title */
    int           *colw;       /* per column: its width */
    tt_plist       pl;         /* a line per row, tag = row */
    int            built_w;    /* width pl was built for; -1: build again */
};

void tt_app_sql_free(tt_app *a)
{
    tt_sqlview *v = a->sq;
    if (!v)
        return;
    tt_sql_result_fini(&v->res);
    tt_sql_srcset_free(v->set);
    tt_plist_fini(&v->pl);
    free(v->colw);
    free(v);
    a->sq = NULL;
}

/* The source set over the view's ranks, in rank order (source i is
 * a->rk[i]). 0, or -1 with err set. */
static int open_sources(tt_app *a, tt_sqlview *v, tt_error *err)
{
    tt_sql_loaded *l;
    tt_sql_srcset_opts o;
    if (v->set)
        return 0;
    if (!(l = calloc(a->n_rk, sizeof *l)))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    for (size_t i = 0; i < a->n_rk; i++) {
        l[i].tr = a->rk[i].tr;
        l[i].path = a->rk[i].path;
        /* a lone trace's rank column as `tracetty query` shows it */
        l[i].rank = a->multi ? a->rk[i].rank : -1;
    }
    memset(&o, 0, sizeof o);
    v->set = tt_sql_srcset_new_loaded(l, a->n_rk, &o, err);
    free(l);
    return v->set ? 0 : -1;
}

/* Column widths from the header and the rows (SQL_COL_MAX at most). */
static int measure(tt_sqlview *v)
{
    const tt_sql_result *r = &v->res;
    char safe[1024];
    free(v->colw);
    if (!(v->colw = calloc((size_t)r->n_cols + 1, sizeof *v->colw)))
        return -1;
    for (int c = 0; c < r->n_cols; c++) {
        tt_text_sanitize(r->names[c], strlen(r->names[c]), safe, sizeof safe);
        v->colw[c] = tt_text_width(safe);
    }
    for (size_t row = 0; row < r->n_rows; row++)
        for (int c = 0; c < r->n_cols; c++) {
            const char *s = tt_sql_result_text(r, row, c);
            int w;
            if (!s)
                s = "NULL";
            tt_text_sanitize(s, strlen(s), safe, sizeof safe);
            w = tt_text_width(safe);
            if (w > v->colw[c])
                v->colw[c] = w;
        }
    for (int c = 0; c < r->n_cols; c++)
        if (v->colw[c] > SQL_COL_MAX)
            v->colw[c] = SQL_COL_MAX;
    return 0;
}

/* One line of cells (names when row is SIZE_MAX), each sanitized, cut to
 * its column and padded; integers right-aligned. */
static void format_line(const tt_sqlview *v, size_t row, char *out, size_t cap)
{
    const tt_sql_result *r = &v->res;
    size_t n = 0;
    out[0] = '\0';
    for (int c = 0; c < r->n_cols && n + 1 < cap; c++) {
        char safe[1024];
        const char *s = row == SIZE_MAX ? r->names[c] : tt_sql_result_text(r, row, c);
        int64_t iv;
        bool right = row != SIZE_MAX && tt_sql_result_int(r, row, c, &iv);
        int used = 0, pad;
        size_t cut;
        if (!s)
            s = "NULL";
        tt_text_sanitize(s, strlen(s), safe, sizeof safe);
        cut = tt_text_fit(safe, v->colw[c], &used);
        pad = v->colw[c] - used;
        if (n + cut + (size_t)pad + 3 >= cap)
            break;
        if (right) {
            memset(out + n, ' ', (size_t)pad);
            n += (size_t)pad;
        }
        memcpy(out + n, safe, cut);
        n += cut;
        if (!right && c + 1 < r->n_cols) {
            memset(out + n, ' ', (size_t)pad);
            n += (size_t)pad;
        }
        if (c + 1 < r->n_cols) {
            memcpy(out + n, "  ", 2);
            n += 2;
        }
        out[n] = '\0';
    }
}

int tt_app_sql(tt_app *a, const char *sql)
{
    tt_sqlview *v = a->sq;
    tt_sql_db *db = NULL;
    tt_error err;
    static volatile sig_atomic_t stop;
    bool key = false;
    int rc;
    char msg[sizeof a->msg];
    sql += strspn(sql, " \t");
    if (!*sql) {
        tt_app_message(a, true, "write a query: :sql SELECT ts, dur, name FROM slice WHERE ...");
        return REDRAW;
    }
    if (!v && !(v = a->sq = calloc(1, sizeof *v))) {
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    tt_error_clear(&err);
    if (open_sources(a, v, &err) || !(db = tt_sql_db_open(v->set, &stop, &err)) ||
        tt_sql_db_prepare(db, sql, &err)) {
        tt_sql_db_close(db);
        tt_app_message(a, true, "%s", tt_text_safe(err.what, msg, sizeof msg));
        return REDRAW;
    }
    tt_jobstop_begin(&stop);
    rc = tt_sql_result_collect(db, SQL_MAX_ROWS, &v->res, &err);
    key = tt_jobstop_end(rc != 0 && stop);
    tt_sql_db_close(db);
    if (rc) {
        v->valid = false;
        if (a->panel == TT_PANEL_SQL)
            a->panel = TT_PANEL_NONE;
        if (key)
            tt_app_message(a, false, "query: stopped by a key press");
        else
            tt_app_message(a, true, "%s", tt_text_safe(err.what, msg, sizeof msg));
        return REDRAW;
    }
    if (measure(v)) {
        tt_sql_result_fini(&v->res);
        v->valid = false;
        tt_app_message(a, true, "out of memory");
        return REDRAW;
    }
    v->valid = true;
    v->built_w = -1;
    tt_text_sanitize(sql, strlen(sql), v->title, sizeof v->title);
    v->pl.cur = v->pl.top = 0;
    tt_app_open_panel(a, TT_PANEL_SQL);
    if (v->res.truncated)
        tt_app_message(a, false, "more than %d rows: the first %d shown", SQL_MAX_ROWS,
                       SQL_MAX_ROWS);
    else
        tt_app_message(a, false, "%zu row%s", v->res.n_rows, v->res.n_rows == 1 ? "" : "s");
    return REDRAW;
}

/* ------------------------------------------------------------------ keys */

/* Select what row stands for; false when it stands for nothing. */
static bool go_row(tt_app *a, size_t row)
{
    tt_sqlview *v = a->sq;
    size_t src;
    tt_evref ev;
    tt_ns t;
    tt_sql_at at = tt_sql_result_event(&v->res, row, v->set, &src, &ev, &t);
    if (at == TT_SQL_AT_NONE)
        return false;
    a->msg[0] = '\0';   /* the status line then says what is selected */
    if (at == TT_SQL_AT_EVENT) {
        if (src == a->focus)
            tt_app_select(a, ev);
        else
            tt_app_refocus_select(a, src, ev);
        return true;
    }
    /* a time: on the source's clock, shown on the focused one */
    if (src < a->n_rk)
        t = t + a->rk[src].off - a->off;
    tt_app_show_time(a, t);
    tt_app_hit(a);
    return true;
}

static int sql_enter(tt_app *a)
{
    const tt_pline *l = a->sq ? tt_plist_picked(&a->sq->pl) : NULL;
    if (!l)
        return REDRAW;
    if (!go_row(a, (size_t)l->tag))
        tt_app_message(a, false, "this row names no event: select a slice's id, or ts with "
                                 "track_id (and dur)");
    return REDRAW;
}

/* n N: the next or previous row that stands for an event or a time. */
static int sql_step(tt_app *a, int dir)
{
    tt_sqlview *v = a->sq;
    const tt_pline *l = v ? tt_plist_picked(&v->pl) : NULL;
    int64_t row;
    if (!l)
        return REDRAW;
    for (row = l->tag + dir; row >= 0 && (size_t)row < v->res.n_rows; row += dir) {
        tt_plist_goto_item(&v->pl, 0, row);
        if (go_row(a, (size_t)row))
            return REDRAW;
    }
    tt_plist_goto_item(&v->pl, 0, l->tag);
    tt_app_message(a, false, dir > 0 ? "the last row: no event after it"
                                     : "the first row: no event before it");
    return REDRAW;
}

static int sql_next(tt_app *a) { return sql_step(a, 1); }
static int sql_prev(tt_app *a) { return sql_step(a, -1); }

#define K(...) {__VA_ARGS__}

static const tt_binding sql_keys[] = {
    {K(TT_KEY_ENTER), "Enter", "select the row's event on the timeline (a slice id, or ts "
     "with track_id and dur; ts alone: that time)", 0, 0, sql_enter},
    {K('n'), "n", "the next row's event", 0, 0, sql_next},
    {K('N'), "N", "the previous row's event", 0, 0, sql_prev},
};

/* ----------------------------------------------------------------- panel */

static int sql_sync(tt_app *a, int w)
{
    tt_sqlview *v = a->sq;
    char line[4096];
    if (!v || !v->valid || v->built_w == w)
        return 0;
    tt_plist_clear(&v->pl);
    for (size_t row = 0; row < v->res.n_rows; row++) {
        format_line(v, row, line, sizeof line);
        if (!tt_plist_item(&v->pl, TT_R_PANEL, 0, (int64_t)row, line))
            return -1;
    }
    tt_plist_clamp(&v->pl);
    v->built_w = w;
    return 0;
}

static tt_plist *sql_list(tt_app *a)
{
    return a->sq ? &a->sq->pl : NULL;
}

/* The box, the column names on its first inner line (they stay while the
 * rows scroll), the rows below. */
static void sql_draw(tt_app *a, tt_grid *g, int y, int w, int ph)
{
    tt_sqlview *v = a->sq;
    tt_plist *p = &v->pl;
    char title[400], head[4096];
    int inner_h = ph - 3, inner_w = w - 4;
    snprintf(title, sizeof title, "SQL: %s", v->title);
    tt_panel_box(g, 0, y, w, ph, a->gl, title, "Enter go to  n N next/prev  Esc close");
    if (ph < 3 || inner_w <= 0)
        return;
    format_line(v, SIZE_MAX, head, sizeof head);
    tt_grid_text_fit(g, 2, y + 1, inner_w, head, TT_R_PANEL_TITLE, 0, a->gl->ellipsis);
    if (v->res.n_rows == 0 && inner_h > 0)
        tt_grid_text(g, 2, y + 2, inner_w, "(no rows)", TT_R_PANEL, 0);
    if (inner_h <= 0)
        return;
    tt_plist_scroll(p, inner_h);
    for (int r = 0; r < inner_h && p->top + (size_t)r < p->n; r++) {
        size_t i = p->top + (size_t)r;
        bool cur = i == p->cur;
        if (cur)
            tt_grid_fill(g, 1, y + 2 + r, w - 2, ' ', TT_R_PANEL_CUR, 0);
        tt_grid_text_fit(g, 2, y + 2 + r, inner_w, p->v[i].text,
                         cur ? TT_R_PANEL_CUR : TT_R_PANEL, 0, a->gl->ellipsis);
    }
    if (w > 12) {
        char pos[48];
        snprintf(pos, sizeof pos, " %zu/%zu%s ", p->n ? p->cur + 1 : 0, p->n,
                 v->res.truncated ? "+" : "");
        tt_grid_text(g, w - 2 - (int)strlen(pos), y + ph - 1, (int)strlen(pos), pos,
                     TT_R_PANEL_BORDER, 0);
    }
}

static size_t sql_hints(const tt_app *a, const tt_hint **out)
{
    static const tt_hint h[] = {{"Enter", "go to"}, {"n N", "rows"}, {"Esc", "close"}};
    (void)a;
    *out = h;
    return 3;
}

const tt_panel_def tt_sql_panel = {
    TT_PANEL_SQL, 0, "SQL panel (:sql SELECT ...)", sql_keys,
    sizeof sql_keys / sizeof sql_keys[0], sql_sync, sql_list, sql_draw, sql_hints,
};
