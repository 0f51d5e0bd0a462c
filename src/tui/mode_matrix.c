/* mode_matrix.c - the communication matrix view as a mode of the lanes
 * area (see tt_view_def in app_impl.h): ranks x ranks from the Ascend
 * profiler's communication_matrix.json beside each rank's trace file
 * (decode/ascend_comm.h), a source rank per line and a destination rank
 * per column, each link's bandwidth as a shade of the fastest link of its
 * transport type, the slowest link of each type marked 'v' and a link
 * below half its type's median (the slow-link rule's default) marked '!'.
 * A link is the sum of its per-step totals ("Total Op Info") over the
 * steps and groups of the file: its size over its time.
 *
 * It draws the whole lanes area itself (draw_area): no ruler, no time
 * rows. The arrows (hjkl) pick a link, whose numbers the status line
 * shows; Esc, q or B go back. The matrix is read the first time the mode
 * opens; its state is private to this file and freed by fini.
 */
#include "config.h"

#include "decode/ascend_comm.h"
#include "decode/mindspore_hccl.h"
#include "tui/app_impl.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REDRAW TT_REACT_REDRAW

typedef struct mx_link {
    bool        set;
    char        transport[16];
    double      size_mb, time_ms, bw;
    double      frac;        /* bw / the fastest of its type */
    double      med;         /* median bandwidth of its type */
    bool        slowest, slow;
} mx_link;

struct tt_matrix_view {
    int64_t *ranks;          /* every rank seen, sorted */
    size_t   n;
    mx_link *cell;           /* n x n, [src * n + dst] */
    size_t   sel_src, sel_dst, top;
    size_t   files;          /* ranks whose file was read */
    bool     built;
    char     why[300];       /* why it is empty */
};

static size_t rank_index(const tt_matrix_view *m, int64_t r)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->ranks[i] == r)
            return i;
    return m->n;
}

static int add_rank(tt_matrix_view *m, int64_t r)
{
    size_t i;
    int64_t *nr;
    if (rank_index(m, r) < m->n)
        return 0;
    if (!(nr = realloc(m->ranks, (m->n + 1) * sizeof *nr)))
        return -1;
    m->ranks = nr;
    for (i = m->n; i > 0 && nr[i - 1] > r; i--)
        nr[i] = nr[i - 1];
    nr[i] = r;
    m->n++;
    return 0;
}

static int cmp_d(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

/* Shades, slowest and slow marks, per transport type. */
static int mark_types(tt_matrix_view *m)
{
    size_t nn = m->n * m->n;
    double *v = malloc((nn + 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < nn; i++) {
        mx_link *c = &m->cell[i];
        size_t k = 0, slowest = nn;
        double max = 0;
        if (!c->set || c->med > 0 || c->time_ms <= 0)
            continue;
        for (size_t j = 0; j < nn; j++) {
            mx_link *d = &m->cell[j];
            if (!d->set || d->time_ms <= 0 || strcmp(d->transport, c->transport))
                continue;
            v[k++] = d->bw;
            if (d->bw > max)
                max = d->bw;
            if (slowest == nn || d->bw < m->cell[slowest].bw)
                slowest = j;
        }
        qsort(v, k, sizeof *v, cmp_d);
        for (size_t j = 0; j < nn; j++) {
            mx_link *d = &m->cell[j];
            if (!d->set || d->time_ms <= 0 || strcmp(d->transport, c->transport))
                continue;
            d->med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
            d->frac = max > 0 ? d->bw / max : 0;
            d->slow = k >= 3 && d->bw < 0.5 * d->med;
            d->slowest = k >= 2 && j == slowest;
        }
    }
    free(v);
    return 0;
}

static int matrix_build(tt_app *a, tt_matrix_view *m, tt_error *err)
{
    tt_comm **cm = calloc(a->n_rk + 1, sizeof *cm);
    tt_comm_total **t = calloc(a->n_rk + 1, sizeof *t);
    size_t *nt = calloc(a->n_rk + 1, sizeof *nt);
    int rc = -1;
    if (!cm || !t || !nt) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < a->n_rk; i++) {
        int got = tt_comm_load_beside(a->rk[i].path ? a->rk[i].path : ".", TT_COMM_MATRIX,
                                      &cm[i], err);
        if (got < 0)
            goto out;
        if (got == TT_COMM_NONE || !cm[i]->has_matrix)
            continue;
        m->files++;
        if (tt_comm_link_totals(cm[i], &t[i], &nt[i])) {
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
            goto out;
        }
        for (size_t k = 0; k < nt[i]; k++)
            if (add_rank(m, t[i][k].src) || add_rank(m, t[i][k].dst)) {
                tt_error_set(err, TT_ERR_NOMEM, "out of memory");
                goto out;
            }
    }
    if (m->n && !(m->cell = calloc(m->n * m->n, sizeof *m->cell))) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < a->n_rk; i++)
        for (size_t k = 0; k < nt[i]; k++) {
            const tt_comm_total *x = &t[i][k];
            mx_link *c = &m->cell[rank_index(m, x->src) * m->n + rank_index(m, x->dst)];
            c->set = true;
            snprintf(c->transport, sizeof c->transport, "%s", x->transport);
            c->size_mb += x->size_mb;
            c->time_ms += x->time_ms;
        }
    for (size_t i = 0; i < m->n * m->n; i++)
        m->cell[i].bw = tt_comm_ratio(m->cell[i].size_mb, m->cell[i].time_ms);
    if (m->n && mark_types(m)) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (!m->files)
        snprintf(m->why, sizeof m->why, "no communication_matrix.json beside the ranks' trace "
                 "files (the Ascend profiler writes it into ASCEND_PROFILER_OUTPUT/)");
    rc = 0;
out:
    for (size_t i = 0; cm && t && i < a->n_rk; i++) {
        free(t[i]);
        tt_comm_free(cm[i]);
    }
    free(cm);
    free(t);
    free(nt);
    return rc;
}

static int matrix_open(tt_app *a)
{
    tt_error err;
    if (a->mx && a->mx->built)
        return 0;
    if (!a->mx && !(a->mx = calloc(1, sizeof *a->mx))) {
        tt_app_message(a, true, "out of memory");
        return -1;
    }
    tt_error_clear(&err);
    if (matrix_build(a, a->mx, &err)) {
        char safe[sizeof err.what];
        tt_text_safe(err.what, safe, sizeof safe);
        tt_app_message(a, true, "cannot read the communication matrix: %s", safe);
        tt_matrix_view_free(a);
        return -1;
    }
    a->mx->built = true;
    /* start on the first link that carries data */
    for (size_t i = 0; i < a->mx->n * a->mx->n; i++)
        if (a->mx->cell[i].set) {
            a->mx->sel_src = i / a->mx->n;
            a->mx->sel_dst = i % a->mx->n;
            break;
        }
    return 0;
}

void tt_matrix_view_free(tt_app *a)
{
    if (!a->mx)
        return;
    free(a->mx->ranks);
    free(a->mx->cell);
    free(a->mx);
    a->mx = NULL;
}

static void matrix_message(tt_app *a)
{
    if (a->mx->files)
        tt_app_message(a, false, "communication matrix of %zu rank%s (%zu file%s); arrows: a "
                       "link, Esc back", a->mx->n, a->mx->n == 1 ? "" : "s", a->mx->files,
                       a->mx->files == 1 ? "" : "s");
    else
        tt_app_message(a, false, "%s", a->mx->why);
}

static int matrix_build_rows(tt_app *a)
{
    tt_row row = {TT_ROW_RANK, 0, 0, 0, 0, (uint32_t)a->focus};
    if (tt_rows_begin(&a->list, 0, NULL))
        return -1;
    return tt_rows_push(&a->list, row);
}

static bool matrix_shows_lane(const tt_app *a, uint32_t lane)
{
    (void)a;
    (void)lane;
    return false;
}

static int matrix_label_want(const tt_app *a)
{
    (void)a;
    return 0;
}

static void matrix_row_info(tt_app *a, const tt_row *row, char *out, size_t cap)
{
    const tt_matrix_view *m = a->mx;
    const mx_link *c;
    (void)row;
    out[0] = '\0';
    if (!m || !m->n)
        return;
    c = &m->cell[m->sel_src * m->n + m->sel_dst];
    if (!c->set) {
        snprintf(out, cap, "rank %lld -> %lld: no link", (long long)m->ranks[m->sel_src],
                 (long long)m->ranks[m->sel_dst]);
        return;
    }
    {
        char tt[64];
        tt_text_safe(c->transport, tt, sizeof tt);
        snprintf(out, cap, "rank %lld -> %lld%s%s %.4f GB/s%s%.6f MB in %.6f ms%smedian %s "
                 "%.4f GB/s%s", (long long)m->ranks[m->sel_src], (long long)m->ranks[m->sel_dst],
                 tt_tab_sep(a->utf8), tt, c->bw, tt_tab_sep(a->utf8), c->size_mb, c->time_ms,
                 tt_tab_sep(a->utf8), tt, c->med,
                 c->slow ? " (slow: below half the median)" : c->slowest ? " (slowest of its type)"
                                                                        : "");
    }
}

static void matrix_title(const tt_app *a, char *out, size_t cap)
{
    snprintf(out, cap, "communication matrix of %zu ranks%s%s", a->mx ? a->mx->n : 0,
             a->title[0] ? tt_tab_sep(a->utf8) : "", a->title);
}

static void matrix_legend(tt_app *a, tt_grid *g, int x, int y)
{
    int cols = a->cols;
    const tt_glyphs *gl = a->gl;
    x += tt_grid_text(g, x, y, cols - x, "GB/s of its type's max", TT_R_LEGEND, 0) + 1;
    tt_grid_set(g, x++, y, gl->shade[0], TT_R_EV, 0);
    x += tt_grid_text(g, x, y, cols - x, "<25%", TT_R_LEGEND, 0) + 1;
    tt_grid_set(g, x++, y, gl->shade[1], TT_R_EV, 0);
    x += tt_grid_text(g, x, y, cols - x, "<50", TT_R_LEGEND, 0) + 1;
    tt_grid_set(g, x++, y, gl->shade[2], TT_R_EV, 0);
    x += tt_grid_text(g, x, y, cols - x, "<75", TT_R_LEGEND, 0) + 1;
    tt_grid_set(g, x++, y, gl->full, TT_R_EV, 0);
    x += tt_grid_text(g, x, y, cols - x, "more", TT_R_LEGEND, 0) + 1;
    tt_grid_text(g, x, y, cols - x, "v slowest  ! <median/2", TT_R_LEGEND, 0);
}

static size_t matrix_hints(const tt_app *a, const tt_hint **out)
{
    static const tt_hint h[] = {{"arrows", "a link"}, {"Esc", "back"}};
    (void)a;
    *out = h;
    return 2;
}

static uint32_t shade_of(const tt_glyphs *gl, double frac)
{
    return frac < 0.25 ? gl->shade[0] : frac < 0.5 ? gl->shade[1] : frac < 0.75 ? gl->shade[2]
                                                                                : gl->full;
}

/* The whole lanes area: a header line of destination ranks, then a line
 * per source rank, scrolled to keep the chosen link in view. */
static int matrix_draw_area(tt_app *a, tt_grid *g)
{
    tt_matrix_view *m = a->mx;
    const tt_screen *s = &a->scr;
    int y0 = s->ruler_y >= 0 ? s->ruler_y : s->area_y;
    int y1 = s->area_y + tt_app_lanes_h(a);
    int lw, cw, lines;
    char buf[64];
    if (!m || !m->n) {
        tt_grid_text(g, 1, y0, a->cols - 2, m && m->why[0] ? m->why : "no links",
                     TT_R_LEGEND, 0);
        return 0;
    }
    snprintf(buf, sizeof buf, "%lld", (long long)m->ranks[m->n - 1]);
    lw = (int)strlen(buf) + 6;   /* "src 12 " */
    if (lw < 9)
        lw = 9;                  /* "src\dst " */
    cw = m->n ? (a->cols - lw - 1) / (int)m->n : 1;
    if (cw > 7)
        cw = 7;
    if (cw < 1)
        cw = 1;
    lines = y1 - y0 - 1;
    if (lines < 1)
        return 0;
    if (m->sel_src < m->top)
        m->top = m->sel_src;
    if (m->sel_src >= m->top + (size_t)lines)
        m->top = m->sel_src - (size_t)lines + 1;
    /* the header: destination ranks where they fit */
    tt_grid_text(g, 0, y0, lw, "src\\dst", TT_R_HEADER, 0);
    for (size_t d = 0; d < m->n; d++) {
        int x = lw + (int)d * cw;
        snprintf(buf, sizeof buf, "%lld", (long long)m->ranks[d]);
        if ((int)strlen(buf) < cw || (cw >= (int)strlen(buf) && d % 2 == 0))
            tt_grid_text(g, x, y0, cw, buf, d == m->sel_dst ? TT_R_LABEL_CUR : TT_R_LABEL, 0);
    }
    for (int i = 0; i < lines; i++) {
        size_t sr = m->top + (size_t)i;
        int y = y0 + 1 + i;
        if (sr >= m->n)
            break;
        snprintf(buf, sizeof buf, "src %lld", (long long)m->ranks[sr]);
        tt_grid_text(g, 0, y, lw, buf, sr == m->sel_src ? TT_R_LABEL_CUR : TT_R_LABEL, 0);
        for (size_t d = 0; d < m->n; d++) {
            const mx_link *c = &m->cell[sr * m->n + d];
            int x = lw + (int)d * cw, w = cw > 1 ? cw - 1 : 1;
            bool sel = sr == m->sel_src && d == m->sel_dst;
            uint8_t role = sel ? TT_R_SEL : TT_R_EV;
            if (!c->set) {
                tt_grid_set(g, x, y, sel ? a->gl->cursor : '.', sel ? TT_R_CURSOR : TT_R_SEP, 0);
                continue;
            }
            tt_grid_fill(g, x, y, w, shade_of(a->gl, c->frac), role, 0);
            if (c->slow || c->slowest)
                tt_grid_set(g, x, y, c->slow ? '!' : 'v', sel ? TT_R_SEL : TT_R_ANN_WARN, 0);
        }
    }
    return 0;
}

static int matrix_move(tt_app *a, int ds, int dd)
{
    tt_matrix_view *m = a->mx;
    if (!m || !m->n)
        return REDRAW;
    if (ds < 0 && m->sel_src > 0)
        m->sel_src--;
    if (ds > 0 && m->sel_src + 1 < m->n)
        m->sel_src++;
    if (dd < 0 && m->sel_dst > 0)
        m->sel_dst--;
    if (dd > 0 && m->sel_dst + 1 < m->n)
        m->sel_dst++;
    return REDRAW;
}

static int act_up(tt_app *a) { return matrix_move(a, -1, 0); }
static int act_down(tt_app *a) { return matrix_move(a, 1, 0); }
static int act_left(tt_app *a) { return matrix_move(a, 0, -1); }
static int act_right(tt_app *a) { return matrix_move(a, 0, 1); }

/* Esc, q: back to the view it was opened from */
static int act_back(tt_app *a)
{
    if (a->prev_view == TT_VIEW_RANK)
        return tt_app_show_rank(a, a->focus);
    return tt_app_set_view(a, a->prev_view);
}

int tt_act_view_matrix(tt_app *a)
{
    if (!a->multi) {
        tt_app_message(a, false, "the communication matrix needs several ranks (view DIR)");
        return REDRAW;
    }
    if (a->view == TT_VIEW_MATRIX)
        return act_back(a);
    return tt_app_set_view(a, TT_VIEW_MATRIX);
}

static int matrix_all_lanes(const tt_app *a, tt_laneset *out)
{
    (void)a;
    out->n = 0;
    return tt_laneset_finish(out);
}

static int matrix_nothing(tt_app *a)
{
    tt_app_message(a, false, "the matrix view has no timeline: Esc goes back");
    return REDRAW;
}

static void matrix_search(tt_app *a, const char *pat)
{
    (void)pat;
    matrix_nothing(a);
}

static int matrix_search_step(tt_app *a, int dir)
{
    (void)dir;
    return matrix_nothing(a);
}

static const tt_binding matrix_keys[] = {
    {{TT_KEY_UP, 'k'}, "Up k", "the link of the rank above", TT_SEC_RANKS, TT_IN_MAIN, act_up},
    {{TT_KEY_DOWN, 'j'}, "Down j", "the link of the rank below", TT_SEC_RANKS, TT_IN_MAIN,
     act_down},
    {{TT_KEY_LEFT, 'h'}, "Left h", "the link to the rank before", TT_SEC_RANKS, TT_IN_MAIN,
     act_left},
    {{TT_KEY_RIGHT, 'l'}, "Right l", "the link to the rank after", TT_SEC_RANKS, TT_IN_MAIN,
     act_right},
    {{TT_KEY_ESC, 'q'}, "Esc q", "back to the view it was opened from", TT_SEC_RANKS, TT_IN_MAIN,
     act_back},
};

const tt_view_def tt_mode_matrix = {
    .id = TT_VIEW_MATRIX,
    .name = "communication matrix",
    .section = "Communication matrix (B)",
    .keys = matrix_keys,
    .n_keys = sizeof matrix_keys / sizeof matrix_keys[0],
    .open = matrix_open,
    .message = matrix_message,
    .build_rows = matrix_build_rows,
    .row_home = tt_app_group_home,
    .bounds = tt_app_job_bounds,
    .no_fold = "the matrix does not fold",
    .no_fold_all = "the matrix does not fold",
    .shows_lane = matrix_shows_lane,
    .row_rank = tt_app_row_own_rank,
    .label_want = matrix_label_want,
    .row_info = matrix_row_info,
    .title = matrix_title,
    .legend = matrix_legend,
    .hints = matrix_hints,
    .box_unit = "link",
    .enter = matrix_nothing,
    .fit = matrix_nothing,
    .search = matrix_search,
    .search_step = matrix_search_step,
    .box_confirm = matrix_nothing,
    .row_lanes = tt_app_rows_lanes_views,
    .all_lanes = matrix_all_lanes,
    .draw_area = matrix_draw_area,
};
