/* ruler.c - tick choice and drawing (see ruler.h). */
#include "config.h"

#include "tui/ruler.h"

#include "tui/timefmt.h"
#include "util/num.h"

#include <stdbool.h>
#include <string.h>

static int64_t iabs64(int64_t v)
{
    return v < 0 ? -v : v;
}

static int label_width(int64_t rel, const tt_ruler_scale *s)
{
    char buf[64];
    tt_fmt_dur_unit(buf, sizeof buf, rel, s->unit, s->decimals);
    return (int)strlen(buf);
}

tt_ruler_scale tt_ruler_choose(const tt_viewport *vp, int64_t t0)
{
    static const int mult[3] = {1, 2, 5};
    tt_ruler_scale s = {1, 1, 0};
    int64_t rs = vp->start - t0, re = vp->start + vp->span - t0;
    int64_t mag = iabs64(rs) > iabs64(re) ? iabs64(rs) : iabs64(re);
    int64_t p10 = 1;
    for (int k = 0; k <= 18; k++, p10 = p10 > INT64_MAX / 10 ? p10 : p10 * 10) {
        for (int m = 0; m < 3; m++) {
            int64_t step;
            int w;
            __int128 cols;
            if ((__int128)p10 * mult[m] > INT64_MAX)
                return s;
            step = p10 * mult[m];
            s.step = step;
            s.unit = tt_unit_for(mag > step ? mag : step);
            s.decimals = tt_tfmt_decimals(s.unit, step);
            /* widest label: the end or the start, whichever is longer */
            w = label_width(re, &s);
            if (label_width(rs, &s) > w)
                w = label_width(rs, &s);
            cols = (__int128)step * vp->cols / vp->span;
            if (cols >= w + 3)
                return s;
        }
    }
    return s;
}

/* Whether columns [from, to] are free of overlay glyphs: a label, the
 * column before it (its tick, or a blank) and the one after it. */
static bool label_clear(const uint8_t *taken, int64_t cols, int64_t from, int64_t to)
{
    if (!taken)
        return true;
    for (int64_t k = from; k <= to && k < cols; k++)
        if (taken[k])
            return false;
    return true;
}

void tt_ruler_draw_around(tt_grid *g, int x0, int y, const tt_viewport *vp, int64_t t0,
                          const tt_glyphs *gl, const uint8_t *taken)
{
    tt_ruler_scale s = tt_ruler_choose(vp, t0);
    int64_t rs = vp->start - t0, k, first, c, next_c = -1;
    int64_t next_free = 0;   /* first column a label may use */
    char buf[64];
    tt_grid_fill(g, x0, y, vp->cols, ' ', TT_R_DEFAULT, 0);
    /* first tick at or after the window start: ceil(rs / step) */
    first = rs / s.step;
    if (first * s.step < rs)
        first++;
    /* each tick with the column of the next one, for how far a label may
     * move right */
    for (k = first;; k++) {
        __int128 rel = (__int128)k * s.step;
        int64_t w, from, last_from;
        bool last = rel + t0 >= (__int128)vp->start + vp->span || rel > INT64_MAX - 1 ||
                    rel + t0 > INT64_MAX;
        c = next_c;
        next_c = last ? vp->cols : tt_vp_col(vp, (int64_t)(rel + t0));
        if (c >= 0 && c < vp->cols) {
            __int128 crel = rel - s.step;
            tt_grid_set(g, x0 + (int)c, y, gl->tick, TT_R_RULER, 0);
            tt_fmt_dur_unit(buf, sizeof buf, (int64_t)crel, s.unit, s.decimals);
            w = (int64_t)strlen(buf);
            /* right after the tick; else (an overlay glyph is there) up to
             * two columns further, one only when a glyph hides the tick
             * (the label stays beside what stands for it), none when text
             * does, never touching a glyph nor the next tick */
            last_from = !taken || !taken[c] ? c + 3 : taken[c] == 1 ? c + 2 : c;
            for (from = c + 1; from <= last_from; from++) {
                bool moved = from > c + 1;
                if (from < next_free || from + w > vp->cols || (moved && from + w >= next_c))
                    continue;
                if (label_clear(taken, vp->cols, from - 1, from + w))
                    break;
            }
            if (from <= last_from) {
                tt_grid_text(g, x0 + (int)from, y, (int)w, buf, TT_R_RULER, 0);
                next_free = from + w + 1;
            }
        }
        if (last)
            break;
    }
}

void tt_ruler_draw(tt_grid *g, int x0, int y, const tt_viewport *vp, int64_t t0,
                   const tt_glyphs *gl)
{
    tt_ruler_draw_around(g, x0, y, vp, t0, gl, NULL);
}
