/* ruler.c - tick choice and drawing (see ruler.h). */
#include "config.h"

#include "tui/ruler.h"

#include "tui/timefmt.h"
#include "util/num.h"

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

void tt_ruler_draw(tt_grid *g, int x0, int y, const tt_viewport *vp, int64_t t0,
                   const tt_glyphs *gl)
{
    tt_ruler_scale s = tt_ruler_choose(vp, t0);
    int64_t rs = vp->start - t0, k, first;
    int next_free = 0;   /* first column a label may use */
    char buf[64];
    /* first tick at or after the window start: ceil(rs / step) */
    first = rs / s.step;
    if (first * s.step < rs)
        first++;
    for (k = first;; k++) {
        __int128 rel = (__int128)k * s.step;
        int64_t c, w;
        if (rel + t0 >= (__int128)vp->start + vp->span || rel > INT64_MAX - 1 ||
            rel + t0 > INT64_MAX)
            break;
        c = tt_vp_col(vp, (int64_t)(rel + t0));
        if (c < 0 || c >= vp->cols)
            continue;
        tt_grid_set(g, x0 + (int)c, y, gl->tick, TT_R_RULER, 0);
        tt_fmt_dur_unit(buf, sizeof buf, (int64_t)rel, s.unit, s.decimals);
        w = (int64_t)strlen(buf);
        if (c + 1 >= next_free && c + 1 + w <= vp->cols) {
            tt_grid_text(g, x0 + (int)c + 1, y, (int)w, buf, TT_R_RULER, 0);
            next_free = (int)(c + 2 + w);
        }
    }
}
