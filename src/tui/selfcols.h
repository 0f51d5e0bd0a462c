/* selfcols.h - the Self, Dev self and Share columns of the box statistics,
 * one trace (statpanel.h) or several ranks (mstats.h), so both panels get
 * them from one code path.
 *
 * For the rows of a breakdown by a key (not an argument), each given by
 * its key id on a trace (a string id, 0 for the events without the key):
 *   host     Self: the clipped self times of the selection's events of the
 *            row (an event's time minus what its direct children on its
 *            own lane cover), analysis/calltree.h's tt_calltree_self_by;
 *   dev      Dev self: the clipped device time the row's events launched
 *            directly (empty without launch links: has_dev false);
 *   counted  the part of host the shares count: all of it but the time
 *            of the profiler's own span (Kineto's "PyTorch Profiler (0)",
 *            category Trace, alone on a lane of its own): it is not
 *            nested in anything on its lane, so its self time is its
 *            whole duration, and counting it would make the envelope of
 *            the run look like a fifth of the work;
 *   share    the row's counted self time in percent of all rows' (so the
 *            shares add up to 100% and nested time counts once), or -1
 *            for a row whose time is all the profiler's span.
 * A box over several ranks adds each rank's part into the same rows (the
 * rows merged by label text), then takes the shares once.
 *
 * Library code: no I/O. The caller owns the arrays.
 */
#ifndef TT_TUI_SELFCOLS_H
#define TT_TUI_SELFCOLS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/key.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "tui/table.h"
#include "util/error.h"

/* Zero v[0..n) (has_dev true: each part added may clear it). */
void tt_selfcols_clear(tt_tab_self *v, size_t n);

/* Add the self times of sel's events of key ids[i] on tr to v[i] (i <
 * n; ids in any order, each once); has_dev is cleared when tr has no
 * launch links. Cost: tt_calltree_self_by's, twice when the selection
 * holds the profiler's span. 0, or non-zero with err set (out of memory,
 * an argument key). */
int tt_selfcols_add(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                    const uint32_t *ids, size_t n, tt_tab_self *v, tt_error *err);

/* The share of each of v[0..n): its counted time in percent of the sum
 * of all n rows' (0 when nothing is counted), -1 for a row with self time
 * none of which is counted. */
void tt_selfcols_share(tt_tab_self *v, size_t n);

#endif
