/* viewport.h - the visible time window of the timeline and its math.
 *
 * The window is [start, start + span) in absolute nanoseconds, drawn over
 * `cols` columns. Column c covers [tt_vp_time(c), tt_vp_time(c + 1)); the
 * products behind that are taken in 128 bits, so timestamps near 1.7e18 ns
 * (Unix epoch clocks) and spans of hours never overflow.
 *
 * Zoom is a ladder: span = base * 2^(-level/2), a pure function of (base,
 * level), and zooming about a time keeps that time at the same fraction of
 * the window, stored once as a 62-bit fraction while the zoom point does
 * not change. So zooming in N steps and out N steps about the same point
 * returns exactly to the window it started from (no drift), unless a clamp
 * intervened. The span never drops below one nanosecond per column and never
 * exceeds the whole trace (or the width, for very short traces).
 *
 * Pure computation: no allocation, no I/O.
 */
#ifndef TT_TUI_VIEWPORT_H
#define TT_TUI_VIEWPORT_H

#include <stdbool.h>
#include <stdint.h>

typedef int64_t tt_ns;

typedef struct tt_viewport {
    tt_ns    t0, t1;      /* trace bounds (t1 >= t0) */
    int      cols;        /* timeline columns, >= 1 */
    tt_ns    start;       /* first visible ns */
    tt_ns    span;        /* visible ns, >= cols */
    tt_ns    base;        /* span at level 0 of the current ladder */
    int      level;       /* zoom steps from base; + is in */
    bool     anchored;    /* anchor_t/anchor_frac are valid */
    tt_ns    anchor_t;
    uint64_t anchor_frac; /* (anchor_t - start) / span in units of 2^-62 */
} tt_viewport;

/* Whole trace [t0, t1] over cols columns. */
void tt_vp_init(tt_viewport *vp, tt_ns t0, tt_ns t1, int cols);

/* New column count (terminal resize): keeps start and span where possible. */
void tt_vp_set_cols(tt_viewport *vp, int cols);

/* Span of the whole trace as the viewport allows it (>= cols). */
tt_ns tt_vp_full_span(const tt_viewport *vp);

/* Smallest span allowed: one ns per column. */
static inline tt_ns tt_vp_min_span(const tt_viewport *vp) { return vp->cols; }

/* Left edge of column c (c may be outside [0, cols]). */
tt_ns tt_vp_time(const tt_viewport *vp, int64_t c);

/* Middle of column c: the boundary between its two half cells. */
tt_ns tt_vp_time_mid(const tt_viewport *vp, int64_t c);

/* Column holding time t: the c with time(c) <= t < time(c+1). May be
 * negative or >= cols for times outside the window. */
int64_t tt_vp_col(const tt_viewport *vp, tt_ns t);

/* Span at a given ladder level from a base (exposed for tests). */
tt_ns tt_vp_span_at(tt_ns base, int level);

/* Zoom by `steps` ladder steps (+ in, - out) keeping time t at its place in
 * the window. Returns false (and changes nothing) when already at the limit
 * in that direction; zooming out past the whole trace shows the whole
 * trace. */
bool tt_vp_zoom(tt_viewport *vp, tt_ns t, int steps);

/* Show [a, b) (widened to the minimum span, centered), as a new ladder. */
void tt_vp_show_range(tt_viewport *vp, tt_ns a, tt_ns b);

/* Whole trace. */
void tt_vp_show_all(tt_viewport *vp);

/* Move the window by delta ns (clamped to the trace). */
void tt_vp_pan(tt_viewport *vp, tt_ns delta);

/* Put the window start at s (clamped). */
void tt_vp_set_start(tt_viewport *vp, tt_ns s);

/* Zoom factor relative to the whole trace (>= 1). */
double tt_vp_zoom_factor(const tt_viewport *vp);

/* Move everything (bounds, window, zoom anchor) by d ns: the same window
 * on another rank's clock (saturating). Nothing else changes. */
void tt_vp_shift(tt_viewport *vp, tt_ns d);

/* New bounds [t0, t1] (another rank, or the whole job): the window keeps
 * its start and span where they fit, else is clamped into the bounds (a
 * span wider than them becomes the whole, as a new ladder). */
void tt_vp_rebound(tt_viewport *vp, tt_ns t0, tt_ns t1);

#endif
