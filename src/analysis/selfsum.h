/* selfsum.h - self times of whole lanes summed by a key, kept with the
 * trace's selection summaries (selsum.h, its extension slot
 * TT_SS_EXT_SELF).
 *
 * The Self columns of the box statistics (calltree.h,
 * tt_calltree_self_by) walk every event of a box. A box whose window
 * holds every event of each of its lanes (the full-range box: issue 13's
 * budget of 50 ms at 10M events) needs no walk: nothing is clipped, so
 * each event's self time is attrib.h's, and a device event's time goes to
 * its launch op whenever both lanes are in the box. Per key kind, one pass
 * over the trace (O(n), on first use) sums per lane
 *   host  the self times of the lane's events by key id, and
 *   dev   the durations of the device events whose launch op is on the
 *         lane, by (the device event's lane, the launch op's key id);
 * a box over whole lanes then costs O(entries of its lanes).
 *
 * Library code: no I/O. Ownership: the sums belong to the trace (freed by
 * tt_trace_free through selsum); callers never free them. Thread-safe.
 */
#ifndef TT_ANALYSIS_SELFSUM_H
#define TT_ANALYSIS_SELFSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/key.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "util/error.h"

/* True when sel's window holds every event of the lane whole (an empty
 * lane too), but perhaps the zero-length ones at an exclusive `to`, which
 * it leaves out (a TUI box over the whole trace ends so). O(log n). */
bool tt_selfsum_covers(const tt_trace *tr, const tt_sel *sel, uint32_t lane);

/* Add the whole-lane self sums of the selection's lanes to host[row[id]]
 * and dev[row[id]] (row: per key id, the output row or -1; n_ids ids),
 * as tt_calltree_self_by() sums them. Only for a selection every lane of
 * which tt_selfsum_covers(); kind is not TT_KEY_ARG. 0; 1 adding nothing
 * when an instant the exclusive end leaves out launched device work (the
 * caller walks); or -1 with err set (out of memory). */
int tt_selfsum_add(const tt_trace *tr, const tt_sel *sel, tt_key_kind kind, const int32_t *row,
                   size_t n_ids, tt_ns *host, tt_ns *dev, tt_error *err);

#endif
