/* viewport.c - time window math (see viewport.h). */
#include "config.h"

#include "tui/viewport.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

/* 2^64 / sqrt(2) and sqrt(2) * 2^62, for the half steps of the ladder. */
#define INV_SQRT2_Q64 0xB504F333F9DE6484ULL
#define SQRT2_Q62     0x5A827999FCEF3242ULL
#define FRAC_BITS     62

/* Floor division for a positive divisor. */
static i128 floordiv(i128 n, i128 d)
{
    i128 q = n / d;
    if ((n % d != 0) && (n < 0))
        q--;
    return q;
}

static tt_ns sat64(i128 v)
{
    if (v > INT64_MAX)
        return INT64_MAX;
    if (v < INT64_MIN)
        return INT64_MIN;
    return (tt_ns)v;
}

tt_ns tt_vp_full_span(const tt_viewport *vp)
{
    tt_ns full = vp->t1 - vp->t0;
    return full > vp->cols ? full : vp->cols;
}

tt_ns tt_vp_span_at(tt_ns base, int level)
{
    u128 y;
    if (base <= 0)
        return 0;
    if (level >= 0) {
        int q = level / 2, shift;
        y = (level % 2) ? (u128)(uint64_t)base * INV_SQRT2_Q64 : (u128)(uint64_t)base << 64;
        shift = 64 + q;
        if (shift >= 127)
            return 0;
        /* round half up */
        return (tt_ns)((y >> shift) + ((y >> (shift - 1)) & 1));
    } else {
        int m = -level, q = m / 2;
        u128 v = (uint64_t)base;
        if (m % 2)
            v = ((u128)(uint64_t)base * SQRT2_Q62 + ((u128)1 << (FRAC_BITS - 1))) >> FRAC_BITS;
        if (q >= 63)
            return INT64_MAX;
        v <<= q;
        return v > (u128)INT64_MAX ? INT64_MAX : (tt_ns)v;
    }
}

static tt_ns clamp_span(const tt_viewport *vp, tt_ns s)
{
    tt_ns full = tt_vp_full_span(vp);
    if (s < vp->cols)
        s = vp->cols;
    if (s > full)
        s = full;
    return s;
}

static void clamp_start(tt_viewport *vp)
{
    tt_ns full = vp->t1 - vp->t0, hi;
    hi = vp->span >= full ? vp->t0 : vp->t0 + (full - vp->span);
    if (vp->start < vp->t0)
        vp->start = vp->t0;
    if (vp->start > hi)
        vp->start = hi;
}

void tt_vp_init(tt_viewport *vp, tt_ns t0, tt_ns t1, int cols)
{
    vp->t0 = t0;
    vp->t1 = t1 > t0 ? t1 : t0;
    vp->cols = cols > 0 ? cols : 1;
    vp->anchored = false;
    tt_vp_show_all(vp);
}

void tt_vp_show_all(tt_viewport *vp)
{
    vp->base = tt_vp_full_span(vp);
    vp->level = 0;
    vp->span = vp->base;
    vp->start = vp->t0;
    vp->anchored = false;
}

void tt_vp_set_cols(tt_viewport *vp, int cols)
{
    vp->cols = cols > 0 ? cols : 1;
    vp->span = clamp_span(vp, tt_vp_span_at(vp->base, vp->level));
    clamp_start(vp);
    vp->anchored = false;
}

tt_ns tt_vp_time(const tt_viewport *vp, int64_t c)
{
    return sat64((i128)vp->start + floordiv((i128)c * vp->span, vp->cols));
}

tt_ns tt_vp_time_mid(const tt_viewport *vp, int64_t c)
{
    i128 num = (2 * (i128)c + 1) * vp->span;
    return sat64((i128)vp->start + floordiv(num, 2 * (i128)vp->cols));
}

int64_t tt_vp_col(const tt_viewport *vp, tt_ns t)
{
    /* largest c with start + floor(c*span/cols) <= t, i.e.
     * c < (d+1)*cols/span with d = t - start */
    i128 d = (i128)t - vp->start;
    i128 c = floordiv((d + 1) * vp->cols + vp->span - 1, vp->span) - 1;
    if (c > INT64_MAX / 2)
        return INT64_MAX / 2;
    if (c < INT64_MIN / 2)
        return INT64_MIN / 2;
    return (int64_t)c;
}

bool tt_vp_zoom(tt_viewport *vp, tt_ns t, int steps)
{
    tt_ns ns;
    int nl = vp->level + steps;
    if (steps == 0)
        return false;
    if (steps > 0 && vp->span <= vp->cols)
        return false;
    if (steps < 0 && vp->span >= tt_vp_full_span(vp))
        return false;
    ns = clamp_span(vp, tt_vp_span_at(vp->base, nl));
    if (ns == vp->span)
        return false;
    if (t < vp->start)
        t = vp->start;
    if (t > vp->start + vp->span - 1)
        t = vp->start + vp->span - 1;
    if (!vp->anchored || vp->anchor_t != t) {
        vp->anchor_t = t;
        vp->anchor_frac = (uint64_t)(((u128)(uint64_t)(t - vp->start) << FRAC_BITS) /
                                     (uint64_t)vp->span);
        vp->anchored = true;
    }
    vp->level = nl;
    vp->span = ns;
    {
        u128 off = ((u128)vp->anchor_frac * (uint64_t)ns + ((u128)1 << (FRAC_BITS - 1))) >>
                   FRAC_BITS;
        vp->start = sat64((i128)t - (i128)off);
    }
    /* A clamp moves the window but keeps the anchor: zooming back in
     * returns to where the zoom point was. */
    clamp_start(vp);
    return true;
}

void tt_vp_show_range(tt_viewport *vp, tt_ns a, tt_ns b)
{
    tt_ns w, s;
    if (b < a) {
        tt_ns x = a;
        a = b;
        b = x;
    }
    w = sat64((i128)b - a);
    s = clamp_span(vp, w);
    vp->base = s;
    vp->level = 0;
    vp->span = s;
    vp->start = sat64((i128)a - ((i128)s - w) / 2);
    vp->anchored = false;
    clamp_start(vp);
}

void tt_vp_pan(tt_viewport *vp, tt_ns delta)
{
    vp->start = sat64((i128)vp->start + delta);
    vp->anchored = false;
    clamp_start(vp);
}

void tt_vp_set_start(tt_viewport *vp, tt_ns s)
{
    vp->start = s;
    vp->anchored = false;
    clamp_start(vp);
}

double tt_vp_zoom_factor(const tt_viewport *vp)
{
    return (double)tt_vp_full_span(vp) / (double)vp->span;
}

void tt_vp_shift(tt_viewport *vp, tt_ns d)
{
    vp->t0 = sat64((i128)vp->t0 + d);
    vp->t1 = sat64((i128)vp->t1 + d);
    vp->start = sat64((i128)vp->start + d);
    if (vp->anchored)
        vp->anchor_t = sat64((i128)vp->anchor_t + d);
}

void tt_vp_rebound(tt_viewport *vp, tt_ns t0, tt_ns t1)
{
    vp->t0 = t0;
    vp->t1 = t1 > t0 ? t1 : t0;
    if (vp->span > tt_vp_full_span(vp)) {
        /* wider than the new bounds: all of it, on a new ladder */
        tt_vp_show_all(vp);
        return;
    }
    {
        tt_ns before = vp->start;
        clamp_start(vp);
        if (vp->start != before)
            vp->anchored = false;
    }
}
