/* kind_steps.h - `report --kind steps`: one row per training step and an
 * average row, the step time split by analysis/steps.h:
 *
 *   Rank, Step, Start (ns), Step Time (ns), Kernel (ns), Memcpy (ns),
 *   Memset (ns), Runtime (ns), DataLoader (ns), CPU Exec (ns), Other (ns),
 *   Kernel (%), Memcpy (%), Memset (%), Runtime (%), DataLoader (%),
 *   CPU Exec (%), Other (%)
 *
 * Start is relative to the trace start; the parts add up to the step time.
 * The "Average" row (no Start) divides each column's sum by the number of
 * steps, as TensorBoard's overview does, rounded to the nearest ns (the
 * JSON "average" object keeps the exact quotients).
 *
 * Library code: rows go to the writer, nothing is printed; why a table is
 * empty comes back as a note for the caller to show.
 */
#ifndef TT_REPORT_KIND_STEPS_H
#define TT_REPORT_KIND_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/select.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "report/writer.h"
#include "util/error.h"

struct cJSON;

/* The kind itself is a row of the kinds table (kind.h), with the
 * columns above. */

/* The rows of one trace over sel (given: the caller's steps, e.g. marker
 * intervals, or NULL). *extra gets the JSON fields written after the rows
 * (taken by the caller), *note (cap bytes) why there are no rows, or "".
 * 0, or -1 with err set. */
int tt_kind_steps_rows(tt_writer *w, const tt_trace *tr, const tt_sel *sel,
                       const tt_step_spans *given, int64_t rank, struct cJSON **extra,
                       char *note, size_t cap, tt_error *err);

#endif
