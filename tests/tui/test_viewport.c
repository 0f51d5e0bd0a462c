/* test_viewport.c - the timeline's time window math against direct
 * 128-bit computation: column <-> time, drift-free zoom round trips, zoom
 * down to 1 ns per column near 1.7e18 ns, clamping. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "tui/viewport.h"

#include <math.h>
#include <stdlib.h>

typedef __int128 i128;

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static int64_t rnd_range(int64_t lo, int64_t hi)   /* [lo, hi] */
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static i128 floordiv128(i128 n, i128 d)
{
    i128 q = n / d;
    if (n % d != 0 && n < 0)
        q--;
    return q;
}

/* The definition: column c starts at start + floor(c * span / cols). */
static int64_t ref_time(const tt_viewport *vp, int64_t c)
{
    return (int64_t)((i128)vp->start + floordiv128((i128)c * vp->span, vp->cols));
}

static void test_columns(void)
{
    int bad_time = 0, bad_col = 0, bad_mid = 0, checked = 0;
    for (int iter = 0; iter < 400; iter++) {
        tt_viewport vp;
        int64_t t0 = iter % 2 ? 1700000000000000000LL + rnd_range(0, 1000000000)
                              : rnd_range(0, 1000);
        int64_t len = rnd_range(1, iter % 3 ? 5000000000LL : 3600000000000LL);
        int cols = (int)rnd_range(1, 400);
        tt_vp_init(&vp, t0, t0 + len, cols);
        /* a random window inside */
        if (vp.span > cols) {
            int64_t span = rnd_range(cols, vp.span);
            vp.span = span;
            vp.start = t0 + rnd_range(0, len - span > 0 ? len - span : 0);
        }
        for (int64_t c = -3; c <= cols + 3; c++) {
            int64_t t = tt_vp_time(&vp, c);
            checked++;
            if (t != ref_time(&vp, c))
                bad_time++;
            /* every time in the column maps back to it: both ends */
            if (tt_vp_col(&vp, t) != c || tt_vp_col(&vp, ref_time(&vp, c + 1) - 1) != c)
                bad_col++;
            {
                int64_t m = tt_vp_time_mid(&vp, c);
                i128 num = (i128)(2 * c + 1) * vp.span;
                if (m < t || m >= ref_time(&vp, c + 1) ||
                    m != (int64_t)((i128)vp.start + floordiv128(num, 2 * (i128)cols)))
                    bad_mid++;
            }
        }
        /* random times map to the column that holds them */
        for (int k = 0; k < 50; k++) {
            int64_t t = vp.start + rnd_range(-vp.span, 2 * vp.span);
            int64_t c = tt_vp_col(&vp, t);
            if (!(ref_time(&vp, c) <= t && t < ref_time(&vp, c + 1)))
                bad_col++;
        }
    }
    ok(bad_time == 0, "column start times equal start + floor(c*span/cols) (%d columns)", checked);
    ok(bad_col == 0, "tt_vp_col inverts tt_vp_time, also outside the window (%d bad)", bad_col);
    ok(bad_mid == 0, "column middles lie inside their column (%d bad)", bad_mid);
}

static void test_ladder(void)
{
    int bad = 0;
    for (int iter = 0; iter < 200; iter++) {
        int64_t base = rnd_range(1000, 4000000000000000000LL);
        for (int level = -8; level <= 100; level++) {
            double want = (double)base * pow(2.0, -level / 2.0);
            int64_t got = tt_vp_span_at(base, level);
            if (want < 1e18 && want > 1 && fabs((double)got - want) > want * 1e-9 + 1.0)
                bad++;
        }
    }
    ok(bad == 0, "ladder spans are base * 2^(-level/2) (%d bad)", bad);
    is_i64(tt_vp_span_at(1000, 0), 1000, "level 0 is the base");
    is_i64(tt_vp_span_at(1000, 2), 500, "two steps halve");
    is_i64(tt_vp_span_at(1000, 1), 707, "one step divides by sqrt 2");
}

static void test_round_trips(void)
{
    int drift = 0, moved = 0, trips = 0;
    for (int iter = 0; iter < 500; iter++) {
        tt_viewport vp, orig;
        int64_t t0 = iter % 2 ? 1700000000000000000LL : 0;
        int64_t len = rnd_range(100000, iter % 3 ? 10000000000LL : 7200000000000LL);
        int cols = (int)rnd_range(20, 300), steps = (int)rnd_range(1, 30);
        int64_t t, c0;
        tt_vp_init(&vp, t0, t0 + len, cols);
        /* start from a window strictly inside the trace */
        tt_vp_show_range(&vp, t0 + len / 4 + rnd_range(0, len / 8),
                         t0 + len / 2 + rnd_range(0, len / 8));
        orig = vp;
        t = vp.start + rnd_range(0, vp.span - 1);
        c0 = tt_vp_col(&vp, t);
        for (int k = 0; k < steps; k++)
            tt_vp_zoom(&vp, t, 1);
        /* the zoom point stays where it was on screen */
        if (llabs(tt_vp_col(&vp, t) - c0) > 1)
            moved++;
        for (int k = 0; k < steps; k++)
            tt_vp_zoom(&vp, t, -1);
        trips += 2;
        if (vp.start != orig.start || vp.span != orig.span)
            drift++;
        /* and a second round trip, in and out by bigger steps */
        tt_vp_zoom(&vp, t, 4);
        tt_vp_zoom(&vp, t, 3);
        tt_vp_zoom(&vp, t, -7);
        if (vp.start != orig.start || vp.span != orig.span)
            drift++;
    }
    ok(drift == 0, "zoom in N then out N about a point restores the window exactly (%d of %d "
       "drifted)", drift, trips);
    ok(moved == 0, "zooming keeps the zoom point in its column (%d moved)", moved);
}

static void test_ns_zoom(void)
{
    tt_viewport vp;
    int64_t t0 = 1700000000000000000LL, len = 3600LL * 1000000000LL;   /* an hour */
    int64_t t = t0 + 1234567891234LL, c;
    int n = 0, bad = 0;
    tt_vp_init(&vp, t0, t0 + len, 200);
    tt_vp_zoom(&vp, t, 1);   /* anchor t */
    c = tt_vp_col(&vp, t);
    while (tt_vp_zoom(&vp, t, 1)) {
        n++;
        if (vp.start > t || vp.start + vp.span <= t || vp.start < t0 || vp.span < 200)
            bad++;
        if (llabs(tt_vp_col(&vp, t) - c) > 1)
            bad++;
    }
    is_i64(vp.span, 200, "zoom in ends at 1 ns per column (%d steps)", n);
    ok(bad == 0, "the zoom point stays in view, no overflow near 1.7e18 ns (%d bad)", bad);
    is_i64(tt_vp_time(&vp, 1) - tt_vp_time(&vp, 0), 1, "one column is one nanosecond");
    ok(!tt_vp_zoom(&vp, t, 1), "zooming in further is refused");
    while (tt_vp_zoom(&vp, t, -1))
        ;
    is_i64(vp.span, len, "zoom out ends at the whole trace");
    is_i64(vp.start, t0, "the whole trace starts at its start");
}

static void test_clamp(void)
{
    tt_viewport vp;
    int64_t t0 = 5000, t1 = 5000 + 1000000;
    tt_vp_init(&vp, t0, t1, 100);
    tt_vp_show_range(&vp, 200000, 300000);
    is_i64(vp.span, 100000, "show_range sets the span");
    tt_vp_pan(&vp, -10000000);
    is_i64(vp.start, t0, "panning left stops at the trace start");
    tt_vp_pan(&vp, 10000000);
    is_i64(vp.start + vp.span, t1, "panning right stops at the trace end");
    tt_vp_pan(&vp, INT64_MAX);
    is_i64(vp.start + vp.span, t1, "panning by INT64_MAX does not overflow");
    tt_vp_pan(&vp, INT64_MIN);
    is_i64(vp.start, t0, "panning by INT64_MIN does not overflow");
    tt_vp_show_range(&vp, t1 - 10, t1 + 1000000000);
    ok(vp.start >= t0 && vp.start + vp.span <= t1,
       "a range past the end is clamped into the trace");
    tt_vp_show_range(&vp, 7000, 7010);
    is_i64(vp.span, 100, "a range narrower than the columns widens to 1 ns per column");
    is_i64(vp.start, 7005 - 50, "and stays centered");
    tt_vp_zoom(&vp, 7005, -100);
    is_i64(vp.span, 1000000, "zooming out past the trace shows the whole trace");
    is_i64(vp.start, t0, "from its start");
    tt_vp_set_cols(&vp, 300);
    is_i64(vp.span, 1000000, "more columns keep the span");
    tt_vp_show_range(&vp, 7000, 7010);
    tt_vp_set_cols(&vp, 500);
    is_i64(vp.span, 500, "more columns than ns in the window widen it");
    {
        tt_viewport tiny;
        tt_vp_init(&tiny, 100, 100, 80);
        is_i64(tiny.span, 80, "an empty trace shows 80 ns over 80 columns");
        is_i64(tiny.start, 100, "from the trace start");
        ok(!tt_vp_zoom(&tiny, 100, 1) && !tt_vp_zoom(&tiny, 100, -1), "and cannot zoom");
    }
}

int main(void)
{
    test_columns();
    test_ladder();
    test_round_trips();
    test_ns_zoom();
    test_clamp();
    return tap_done();
}
