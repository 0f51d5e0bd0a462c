/* overlay.c - what is drawn over the timeline after its rows: warning
 * annotations, the box, markers (see app_impl.h).
 *
 * All of it lives in time, not in columns: each frame maps the times to
 * the current window, so it stays put while the user zooms and pans, and
 * anything narrower than a cell still takes its cell. Each overlay keeps
 * the events readable: an empty cell gets the overlay's glyph, an event
 * glyph keeps its shape and palette color and only changes its
 * background; selected and highlighted cells are left alone. A marker's
 * line, one column wide, goes through everything, an event's color
 * becoming its background, a name's character keeping its place. The
 * text a plain `render` prints shows every overlay by its glyphs:
 *
 *   annotation  '!' at the start of its span (ruler, unless a tick label
 *               is there or starts right after it, and its lanes' first
 *               row), '~' ('^' in ASCII) in the empty cells of the span
 *               on its lanes, '!' before those lanes' labels
 *   box         '[' ']' around its range in the ruler (just outside it
 *               where the cursor's mark takes its edge), a dotted fill in
 *               its empty cells, a heavy separator beside its rows' labels
 *   marker      its glyph and name in the ruler, a line down the lanes
 *               through everything in its column (on an event's color;
 *               an event name's character stays, in the marker's color)
 * The ruler's tick labels are laid out again clear of the cursor's mark,
 * the brackets and the markers (ruler.h), so none of these lands inside
 * or against a label. Trace strings and marker names are sanitized before
 * they are drawn.
 *
 * Annotation times are on the job's aligned axis (app_impl.h): a->off
 * takes them to the window's clock. A rank's tab shows its own
 * annotations, the combined view every rank's on that rank's rows, the
 * collectives view those of the rules comparing ranks (in the ruler; the
 * rows' labels mark the collectives they are about).
 */
#include "config.h"

#include "tui/app_impl.h"

#include "tui/ruler.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Columns [*c0, *c1] showing [from, to) (at least one column for a span
 * narrower than a cell); false when it is outside the window. */
static bool span_cols(const tt_app *a, tt_ns from, tt_ns to, int64_t *c0, int64_t *c1)
{
    tt_ns ws = a->vp.start, we = a->vp.start + a->vp.span;
    if (from >= we || to < ws || (to == ws && to > from))
        return false;
    *c0 = tt_vp_col(&a->vp, from > ws ? from : ws);
    *c1 = tt_vp_col(&a->vp, to > from ? (to - 1 < we - 1 ? to - 1 : we - 1) : from);
    if (*c0 < 0)
        *c0 = 0;
    if (*c1 >= a->vp.cols)
        *c1 = a->vp.cols - 1;
    if (*c1 < *c0)
        *c1 = *c0;
    return true;
}

static uint8_t sev_role(tt_severity s)
{
    return s == TT_SEV_ERROR ? TT_R_ANN_ERR : s == TT_SEV_WARNING ? TT_R_ANN_WARN : TT_R_ANN_INFO;
}

/* Is the cell empty timeline (nothing but background or another
 * overlay's fill)? */
static bool blank(const tt_cell *c)
{
    return c->width == 1 && (c->cp == ' ' || c->role == TT_R_BOX || c->role == TT_R_ANN_SPAN);
}

/* Does the cell show an event's glyph in its palette color, whatever
 * overlay or selection styles it? */
static bool event_glyph(const tt_cell *c)
{
    switch ((tt_role)c->role) {
    case TT_R_EV:
    case TT_R_EV_BOX:
    case TT_R_EV_ANN:
    case TT_R_SEL:
    case TT_R_HILITE:
        return true;
    default:
        return false;
    }
}

/* Is the cell a character of an event's name? */
static bool event_name(const tt_cell *c)
{
    return c->width == 1 && (c->role == TT_R_EV_NAME || c->role == TT_R_SEL_NAME ||
                             c->role == TT_R_HILITE_NAME);
}

/* ---------------------------------------------------------------- rows */

/* One annotation over one lane row at y: its glyphs in the span's
 * empty cells, its color on the event glyphs, its mark before the label.
 * Doing it twice for the same row changes nothing. */
static void annot_row(tt_app *a, tt_grid *g, const tt_annotation *an, int y, int64_t c0,
                      int64_t c1, tt_ns ws)
{
    const tt_screen *s = &a->scr;
    for (int64_t c = c0; c <= c1; c++) {
        int x = s->tl_x + (int)c;
        tt_cell *cell;
        if (x >= g->cols)
            break;
        cell = tt_grid_at(g, x, y);
        if (c == c0 && an->start >= ws && blank(cell))
            tt_grid_set(g, x, y, a->gl->ann_mark, sev_role(an->sev), 0);
        else if (blank(cell))
            tt_grid_set(g, x, y, a->gl->ann_fill, TT_R_ANN_SPAN, 0);
        else if (cell->role == TT_R_EV)
            tt_grid_restyle(g, x, y, TT_R_EV_ANN, cell->color);
    }
    /* lane labels start in column 2: column 1 is free */
    if (s->label_w > 2)
        tt_grid_set(g, 1, y, a->gl->ann_mark, sev_role(an->sev), 0);
}

/* A lane row on screen that annotations mark: its lane, rank and line. */
typedef struct ann_row {
    uint32_t lane, rank;
    int      y;
} ann_row;

static int ann_row_by_lane(const void *x, const void *y)
{
    uint32_t p = ((const ann_row *)x)->lane, q = ((const ann_row *)y)->lane;
    return p < q ? -1 : p > q;
}

/* The rows of q (sorted by lane) that annotation an marks, painted. The
 * rows an annotation lists are found from its (few, sorted) lanes rather
 * than by asking each row whether it is listed: with tens of thousands
 * of annotations in a zoomed-out window this is most of the frame. Rows
 * are independent, so their order does not change the picture. */
static void annot_rows_of(tt_app *a, tt_grid *g, const tt_annotation *an, const ann_row *q,
                          size_t nq, int64_t c0, int64_t c1, tt_ns ws)
{
    size_t j = 0;
    for (size_t k = 0; k < an->n_lanes && j < nq; k++) {
        uint32_t lane = an->lanes[k];
        size_t lo = j, hi = nq;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (q[mid].lane < lane)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (j = lo; j < nq && q[j].lane == lane; j++)
            if (a->view != TT_VIEW_JOB || (int)q[j].rank == an->trace)
                annot_row(a, g, an, q[j].y, c0, c1, ws);
    }
    /* a row without a lane is every annotation's (tt_annview_has_lane) */
    for (j = nq; j > 0 && q[j - 1].lane == TT_NO_LANE; j--)
        if (a->view != TT_VIEW_JOB || (int)q[j - 1].rank == an->trace)
            annot_row(a, g, an, q[j - 1].y, c0, c1, ws);
}

enum { ANN_ROWS_MAX = 512 };

/* annots_rows' fast path: the window's annotations read once and split by
 * severity (each list in the window's order), then painted lowest
 * severity first, as the pass per severity did. 0, or -1 when out of
 * memory (nothing painted; the caller takes the slow path). */
static int annots_by_sev(tt_app *a, tt_grid *g, const ann_row *q, size_t nq, tt_ns ws,
                         tt_ns we)
{
    size_t first = tt_annview_first(&a->an, ws), n = 0, at[TT_SEV_ERROR + 2] = {0};
    const tt_annotation **v;
    for (size_t i = first; i < a->an.a.n && tt_annview_get(&a->an, i)->start < we; i++)
        n++;
    v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return -1;
    /* count per severity, then place: a stable split */
    for (size_t i = first; i < first + n; i++) {
        const tt_annotation *an = tt_annview_get(&a->an, i);
        if ((int)an->sev >= TT_SEV_INFO && (int)an->sev <= TT_SEV_ERROR && an->n_lanes)
            at[an->sev + 1]++;
    }
    for (int sev = TT_SEV_INFO; sev <= TT_SEV_ERROR; sev++)
        at[sev + 1] += at[sev];
    for (size_t i = first; i < first + n; i++) {
        const tt_annotation *an = tt_annview_get(&a->an, i);
        if ((int)an->sev >= TT_SEV_INFO && (int)an->sev <= TT_SEV_ERROR && an->n_lanes)
            v[at[an->sev]++] = an;
    }
    /* at[sev] is now the end of sev's list, the start of the next one */
    for (size_t k = 0, end = at[TT_SEV_ERROR]; k < end; k++) {
        const tt_annotation *an = v[k];
        int64_t c0, c1;
        if (tt_app_ann_in_view(a, an, false) &&
            span_cols(a, an->start - a->off, an->end - a->off, &c0, &c1))
            annot_rows_of(a, g, an, q, nq, c0, c1, ws);
    }
    free(v);
    return 0;
}

static void annots_rows(tt_app *a, tt_grid *g, int lh)
{
    const tt_screen *s = &a->scr;
    tt_ns ws = a->vp.start + a->off, we = ws + a->vp.span;
    ann_row q[ANN_ROWS_MAX];
    size_t nq = 0;
    bool fast = true;
    /* the lane rows at depth 0 on screen, the only ones marked */
    for (int r = 0; r < lh; r++) {
        size_t ri = a->top + (size_t)r;
        const tt_row *row;
        if (ri >= a->list.n)
            break;
        row = &a->list.v[ri];
        if (row->kind != TT_ROW_LANE || row->depth != 0)
            continue;
        if (nq == ANN_ROWS_MAX) {
            fast = false;
            break;
        }
        q[nq].lane = row->lane;
        q[nq].rank = row->rank;
        q[nq].y = s->area_y + r;
        nq++;
    }
    if (fast) {
        qsort(q, nq, sizeof *q, ann_row_by_lane);
        if (annots_by_sev(a, g, q, nq, ws, we) == 0)
            return;
    }
    /* lowest severity first, so the worst one's mark is the one left */
    for (int sev = TT_SEV_INFO; sev <= TT_SEV_ERROR; sev++) {
        for (size_t i = tt_annview_first(&a->an, ws); i < a->an.a.n; i++) {
            const tt_annotation *an = tt_annview_get(&a->an, i);
            int64_t c0, c1;
            if (an->start >= we)
                break;
            if ((int)an->sev != sev || an->n_lanes == 0 || !tt_app_ann_in_view(a, an, false) ||
                !span_cols(a, an->start - a->off, an->end - a->off, &c0, &c1))
                continue;
            for (int r = 0; r < lh; r++) {
                size_t ri = a->top + (size_t)r;
                const tt_row *row;
                if (ri >= a->list.n)
                    break;
                row = &a->list.v[ri];
                if (row->kind != TT_ROW_LANE || row->depth != 0 ||
                    (a->view == TT_VIEW_JOB && (int)row->rank != an->trace) ||
                    !tt_annview_has_lane(an, row->lane))
                    continue;
                annot_row(a, g, an, s->area_y + r, c0, c1, ws);
            }
        }
    }
}

static void box_rows(tt_app *a, tt_grid *g, int lh)
{
    const tt_screen *s = &a->scr;
    int64_t c0, c1;
    bool visible = span_cols(a, a->box.from, a->box.to, &c0, &c1);
    for (int r = 0; r < lh; r++) {
        size_t ri = a->top + (size_t)r;
        int y = s->area_y + r;
        if (ri >= a->list.n)
            break;
        if (!tt_box_row_in(a, &a->list.v[ri]))
            continue;
        if (s->label_w > 0)
            tt_grid_set(g, s->label_w, y, a->gl->box_edge, TT_R_BOX, 0);
        if (!visible)
            continue;
        for (int64_t c = c0; c <= c1; c++) {
            int x = s->tl_x + (int)c;
            tt_cell *cell;
            if (x >= g->cols)
                break;
            cell = tt_grid_at(g, x, y);
            if (cell->width == 1 && cell->cp == ' ')
                tt_grid_set(g, x, y, a->gl->box_fill, TT_R_BOX, 0);
            else if (cell->role == TT_R_EV || cell->role == TT_R_EV_ANN)
                tt_grid_restyle(g, x, y, TT_R_EV_BOX, cell->color);
            else if (cell->role == TT_R_SUMMARY || cell->role == TT_R_ANN_SPAN)
                tt_grid_restyle(g, x, y, TT_R_BOX, 0);
        }
    }
}

static void marker_rows(tt_app *a, tt_grid *g, int lh)
{
    const tt_screen *s = &a->scr;
    const tt_markset *set = tt_marks_set(&a->mk);
    for (size_t i = 0; i < set->n; i++) {
        tt_ns t = a->origin + set->m[i].t;
        int64_t c = tt_vp_col(&a->vp, t);
        int x = s->tl_x + (int)c;
        if (c < 0 || c >= a->vp.cols || x >= g->cols)
            continue;
        for (int r = 0; r < lh; r++) {
            int y = s->area_y + r;
            const tt_cell *cell;
            if (a->top + (size_t)r >= a->list.n)
                break;
            cell = tt_grid_at(g, x, y);
            /* the line on every row; over an event's glyph it takes the
             * event's color as its background, so both still show; a
             * character of a name stays, in the marker's color */
            if (event_name(cell))
                tt_grid_restyle(g, x, y, TT_R_MARKER, 0);
            else if (event_glyph(cell))
                tt_grid_set(g, x, y, a->gl->marker_line, TT_R_EV_MARKER, cell->color);
            else
                tt_grid_set(g, x, y, a->gl->marker_line, TT_R_MARKER, 0);
        }
    }
}

void tt_overlay_rows(tt_app *a, tt_grid *g)
{
    int lh = tt_app_lanes_h(a);
    if (lh <= 0)
        return;
    if (a->an.shown && a->an.ran)
        annots_rows(a, g, lh);
    if (a->box.shown)
        box_rows(a, g, lh);
    marker_rows(a, g, lh);
}

/* --------------------------------------------------------------- ruler */

/* A cell of a tick label, its inner space included (blank ruler cells
 * have the default role; ticks and overlay marks are not labels, but a
 * label character an annotation recolored is). */
static bool ruler_label(const tt_cell *c, const tt_glyphs *gl)
{
    bool ann = c->role == TT_R_ANN_ERR || c->role == TT_R_ANN_WARN || c->role == TT_R_ANN_INFO;
    if (c->width != 1 || c->cp == gl->tick)
        return false;
    return c->role == TT_R_RULER || c->role == TT_R_RULER_ANN || (ann && c->cp != gl->ann_mark);
}

/* Blank what is left of tick labels either side of [x0, x1): it would
 * read as part of what was drawn there ("m20 ms", "0 [s"). */
static void clear_label_rest(tt_app *a, tt_grid *g, int y, int x0, int x1)
{
    int lo = a->scr.tl_x, hi = a->scr.tl_x + a->vp.cols;
    for (int k = x0 - 1; k >= lo && ruler_label(tt_grid_at(g, k, y), a->gl); k--)
        tt_grid_set(g, k, y, ' ', TT_R_DEFAULT, 0);
    for (int k = x1; k < hi && ruler_label(tt_grid_at(g, k, y), a->gl); k++)
        tt_grid_set(g, k, y, ' ', TT_R_DEFAULT, 0);
}

/* A box edge in the ruler, over a tick label if need be. */
static void bracket(tt_app *a, tt_grid *g, int y, int x, uint32_t cp)
{
    if (ruler_label(tt_grid_at(g, x, y), a->gl))
        clear_label_rest(a, g, y, x, x + 1);
    tt_grid_set(g, x, y, cp, TT_R_RULER_BOX, 0);
}

/* Where the box's brackets go in the ruler (-1: not on screen): its first
 * and last columns, or the column just outside when the cursor mark
 * (drawn last) takes that one, as it does at the end of a mouse drag. */
static void box_brackets(const tt_app *a, int64_t cur, int64_t *lb, int64_t *rb)
{
    int64_t c0, c1;
    *lb = *rb = -1;
    if (!a->box.shown || !span_cols(a, a->box.from, a->box.to, &c0, &c1))
        return;
    if (a->box.from >= a->vp.start)
        *lb = c0 == cur && c0 > 0 ? c0 - 1 : c0;
    if (a->box.to <= a->vp.start + a->vp.span && (c1 > c0 || a->box.from < a->vp.start))
        *rb = c1 == cur && c1 + 1 < a->vp.cols ? c1 + 1 : c1;
}

/* Marker i's column in the ruler (false: not in the window) and the name
 * drawn after it (safe; empty when there is no room), cut before the next
 * marker and to 12 columns; *w is the name's width. */
static bool marker_label(const tt_app *a, const tt_markset *set, size_t i, int64_t *col,
                         char *safe, size_t cap, int *w)
{
    int64_t c = tt_vp_col(&a->vp, a->origin + set->m[i].t), next = a->vp.cols;
    int room;
    safe[0] = '\0';
    *w = 0;
    *col = c;
    if (c < 0 || c >= a->vp.cols)
        return false;
    for (size_t k = i + 1; k < set->n; k++) {
        int64_t ck = tt_vp_col(&a->vp, a->origin + set->m[k].t);
        if (ck > c) {
            next = ck;
            break;
        }
    }
    room = (int)(next - c - 1);
    if (room > 12)
        room = 12;
    if (room >= 2) {
        int tw;
        tt_text_sanitize(set->m[i].name, strlen(set->m[i].name), safe, cap);
        tw = tt_grid_text_width(safe);
        *w = tw < room ? tw : room;
    }
    return true;
}

/* Draw the tick labels again, clear of the glyphs that go over them: the
 * cursor mark, the box's brackets, the markers and their names (the
 * annotations' marks give way to labels instead). */
static void ruler_relayout(tt_app *a, tt_grid *g, int64_t cur, int64_t lb, int64_t rb)
{
    const tt_markset *set = tt_marks_set(&a->mk);
    uint8_t *taken;
    char safe[4 * TT_MARK_NAME_MAX + 8];
    if (a->vp.cols <= 0 || !(taken = calloc((size_t)a->vp.cols, 1)))
        return;   /* out of memory: the labels stay where they are */
    taken[cur] = 1;
    if (lb >= 0)
        taken[lb] = 1;
    if (rb >= 0)
        taken[rb] = 1;
    for (size_t i = 0; i < set->n; i++) {
        int64_t c;
        int w;
        if (marker_label(a, set, i, &c, safe, sizeof safe, &w)) {
            taken[c] = 1;
            for (int64_t k = c + 1; k <= c + w && k < a->vp.cols; k++)
                taken[k] = 2;
        }
    }
    tt_ruler_draw_around(g, a->scr.tl_x, a->scr.ruler_y, &a->vp, a->origin, a->gl, taken);
    free(taken);
}

void tt_overlay_ruler(tt_app *a, tt_grid *g)
{
    const tt_screen *s = &a->scr;
    const tt_markset *set = tt_marks_set(&a->mk);
    tt_ns ws = a->vp.start, we = a->vp.start + a->vp.span;
    tt_ns aws = ws + a->off, awe = we + a->off;   /* the window on the job's axis */
    int y = s->ruler_y;
    int64_t c0, c1, lb, rb, cur = tt_app_cursor_col(a);
    if (y < 0)
        return;
    box_brackets(a, cur, &lb, &rb);
    ruler_relayout(a, g, cur, lb, rb);
    if (a->an.shown && a->an.ran) {
        /* the marks first, while blank cells and tick labels can still be
         * told apart; the worst severity last, so its mark stays */
        for (int sev = TT_SEV_INFO; sev <= TT_SEV_ERROR; sev++)
            for (size_t i = tt_annview_first(&a->an, aws); i < a->an.a.n; i++) {
                const tt_annotation *an = tt_annview_get(&a->an, i);
                tt_cell *cell;
                int x;
                bool before_label;
                if (an->start >= awe)
                    break;
                if ((int)an->sev != sev || an->start < aws || !tt_app_ann_in_view(a, an, true) ||
                    !span_cols(a, an->start - a->off, an->end - a->off, &c0, &c1))
                    continue;
                x = s->tl_x + (int)c0;
                cell = tt_grid_at(g, x, y);
                /* over a tick label, or right before one (its tick), only
                 * the color says it: the ruler stays readable */
                before_label = x + 1 < g->cols && ruler_label(tt_grid_at(g, x + 1, y), a->gl);
                if (!before_label &&
                    ((cell->cp == ' ' && cell->role == TT_R_DEFAULT) || cell->cp == a->gl->tick ||
                     (cell->cp == a->gl->ann_mark && cell->role != TT_R_RULER)))
                    tt_grid_set(g, x, y, a->gl->ann_mark, sev_role(an->sev), 0);
                else
                    tt_grid_restyle(g, x, y, sev_role(an->sev), 0);
            }
        for (size_t i = tt_annview_first(&a->an, aws); i < a->an.a.n; i++) {
            const tt_annotation *an = tt_annview_get(&a->an, i);
            if (an->start >= awe)
                break;
            if (!tt_app_ann_in_view(a, an, true) ||
                !span_cols(a, an->start - a->off, an->end - a->off, &c0, &c1))
                continue;
            for (int64_t c = c0; c <= c1; c++) {
                tt_cell *cell = tt_grid_at(g, s->tl_x + (int)c, y);
                if (cell->role == TT_R_DEFAULT || cell->role == TT_R_RULER)
                    tt_grid_restyle(g, s->tl_x + (int)c, y, TT_R_RULER_ANN, 0);
            }
        }
    }
    if (a->box.shown && span_cols(a, a->box.from, a->box.to, &c0, &c1)) {
        if (lb >= 0)
            bracket(a, g, y, s->tl_x + (int)lb, '[');
        if (rb >= 0)
            bracket(a, g, y, s->tl_x + (int)rb, ']');
        for (int64_t c = c0; c <= c1; c++)
            tt_grid_restyle(g, s->tl_x + (int)c, y, TT_R_RULER_BOX, 0);
    }
    /* markers: the glyph at its time, its name after it, cut before the
     * next marker */
    for (size_t i = 0; i < set->n; i++) {
        char safe[4 * TT_MARK_NAME_MAX + 8];
        int64_t c;
        int w;
        if (!marker_label(a, set, i, &c, safe, sizeof safe, &w))
            continue;
        {
            int x = s->tl_x + (int)c, end = x + 1;
            tt_grid_set(g, x, y, a->gl->marker, TT_R_MARKER, 0);
            if (w > 0)
                end += tt_grid_text_fit(g, x + 1, y, w, safe, TT_R_MARKER, 0, a->gl->ellipsis);
            clear_label_rest(a, g, y, x, end);
        }
    }
}
