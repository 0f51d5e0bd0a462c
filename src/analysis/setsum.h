/* setsum.h - results over a whole lane set, kept with the summary levels
 * (selsum.h) so that a box over the whole trace does not walk every event
 * again for the GPU time breakdown (gpu.h) and the transfers (transfers.h).
 *
 * Per lane set (the last TT_SS_UNIONS sets): the GPU time breakdown over
 * all the set's events, and the transfers by the last TT_SETSUM_KEYS keys
 * asked for. Both are computed by the walk over a window holding every
 * event of the set whole, and answer a window only when it selects exactly
 * the same events for them, so every number is the walk's:
 *   GPU time   the window holds every GPU event of the set whole: from at
 *              or before their first start, their last end before `to` (or
 *              at it, with an inclusive end). Nothing is clipped.
 *   transfers  the window holds every event of the set whole (transfers
 *              count whole events, so only the set of events matters).
 * A window ending exclusive at the set's last end (a TUI box over the
 * whole trace) holds the same events as the window over them all ending
 * there exclusive, and has its own results, built by that window's walk:
 * every event but the instants at that end.
 * Any other window is declined (the caller walks). A result is built only
 * for a window holding every event of its set, i.e. by a call that would
 * have walked them all anyway: small windows never pay for it.
 *
 * Threads: as selsum.h (under its lock). Library code: no I/O. Internal to
 * src/analysis: callers use gpu.h and transfers.h, which try these first.
 */
#ifndef TT_ANALYSIS_SETSUM_H
#define TT_ANALYSIS_SETSUM_H

#include "analysis/gpu.h"
#include "analysis/transfers.h"

#define TT_SETSUM_KEYS 4

/* 1 with *out set, 0 when declined, -1 with err set (out of memory). */
int tt_setsum_gpu(const tt_trace *tr, const tt_sel *sel, tt_gpu_time *out, tt_error *err);

/* The same; *out is the caller's (tt_transfers_free). When the walk that
 * builds a result fails (bad arguments), declines: the caller's own walk
 * then reports it. */
int tt_setsum_transfers(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                        tt_transfers **out, tt_error *err);

#endif
