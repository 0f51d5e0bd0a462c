/* gpusum.h - the GPU time breakdown (gpu.h) of any window from summaries
 * kept with the trace's selection summaries (selsum.h, its extension slot
 * TT_SS_EXT_GPU), so that a wide box does not walk its GPU events.
 *
 * Every number of gpu.h is a length of a union or intersection of the
 * selection's GPU intervals clipped to the window, a count, or the first
 * and last clipped edge. Clipping commutes with union and intersection, so
 * per lane set (the last TT_SS_UNIONS sets asked for) the normalized runs
 * of the whole lanes' computation, communication, copies, communication
 * under computation and copies under either are kept with prefix lengths:
 * the length inside any window is two binary searches, and the busy time
 * (the union of the three) follows from the five by inclusion-exclusion.
 * Per lane (built once for every lane), the positions of its GPU events by
 * what gpu.h counts them as (kernels, memcpys, memsets, collectives): the
 * counts of a window's position range are binary searches, and only the
 * events reaching into the window from before it (select.h's parts) are
 * looked up one by one. The first and last clipped edges come from the
 * runs reaching into the window and the set's zero-length GPU events,
 * sorted by start.
 *
 * Cost per window: O(lanes log n + events reaching across `from`).
 * Memory: 4 bytes per GPU event (8 for a collective) for every lane, and
 * per lane set 24 bytes per run and 8 per zero-length GPU event; built
 * with one pass over the trace (and one over the set's GPU events) the
 * first time a window holding at least a quarter of its lanes' events
 * asks, like the busy union of selsum.h.
 *
 * Same numbers as tt_gpu_time_compute_walk() to the nanosecond. An empty
 * window (from == to) is declined: an event holding its instant is in the
 * selection, a run of touching events holding it need not be.
 *
 * Threads: under selsum's lock. Library code: no I/O. Internal to
 * src/analysis: callers use gpu.h, which tries this before walking.
 */
#ifndef TT_ANALYSIS_GPUSUM_H
#define TT_ANALYSIS_GPUSUM_H

#include "analysis/gpu.h"

/* 1 with *out set, 0 when declined (the caller walks), -1 with err set
 * (out of memory). */
int tt_gpusum_answer(const tt_trace *tr, const tt_sel *sel, tt_gpu_time *out, tt_error *err);

#endif
