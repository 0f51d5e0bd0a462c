/* kind_launch.h - `report --kind launch`: HTA's CUDA kernel launch
 * statistics (get_cuda_kernel_launch_stats), one row per device event
 * (kernel, memcpy, memset, collective) in the selection that has a
 * launching host call (analysis/attrib.h), in device start order:
 *
 *   Rank, Correlation, Start (ns), Launch Delay (ns), Host Duration (ns),
 *   Device Duration (ns), Flags, Launcher, Lane, Name
 *
 * Start is the device event's, relative to the trace start. Launch Delay
 * is the device start minus the launching call's start (issue 14; HTA's
 * docstring measures from the call's end, its code adds the call's
 * duration instead: both follow from these columns). Flags are HTA's
 * outliers, space-separated: "short" (the device event is shorter than
 * its launching call), "slow-call" (the call took over 50 us, HTA's
 * runtime_cutoff), "late" (the launch delay is over 100 us, HTA's
 * launch_delay_cutoff). Unlike HTA, every launch link counts, not only
 * cudaLaunchKernel/ExC, cudaMemcpyAsync and cudaMemsetAsync.
 *
 * The JSON adds per trace a "summary" (launches, device events without a
 * launcher, the flags' counts, launch delay mean/median/max); the text
 * format prints it under the table.
 *
 * Library code: rows go to the writer; why a table is empty comes back
 * as a note ("no launch links in this trace") for the caller to show.
 */
#ifndef TT_REPORT_KIND_LAUNCH_H
#define TT_REPORT_KIND_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/select.h"
#include "model/trace.h"
#include "report/writer.h"
#include "util/error.h"

struct cJSON;

/* HTA's cutoffs, ns. */
#define TT_LAUNCH_SLOW_CALL_NS 50000
#define TT_LAUNCH_LATE_NS      100000

/* The kind itself is a row of the kinds table (kind.h), with the
 * columns above. */

/* The rows of one trace over sel. *extra gets the JSON fields written
 * after the rows, *text_after (text format: text) the summary lines (both
 * taken by the caller, may be NULL), note (cap bytes) why there are no
 * rows, or "". 0, or -1 with err set. */
int tt_kind_launch_rows(tt_writer *w, const tt_trace *tr, const tt_sel *sel, int64_t rank,
                        bool text, struct cJSON **extra, char **text_after, char *note,
                        size_t cap, tt_error *err);

#endif
