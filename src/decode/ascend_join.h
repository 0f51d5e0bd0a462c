/* ascend_join.h - kernel_details.csv joined to trace_view.json.
 *
 * Ascend's trace_view.json has the device tasks as slices with a few
 * arguments (Task Type, Stream and Task Id); kernel_details.csv, written
 * from the same run, has one row per kernel with what people read
 * (Type, Block Dim, shapes and data types, aicore/aiv times and ratios).
 * The join puts each row's columns into the arguments of its device
 * event, so the details view, --by arg:KEY and the reports see them.
 *
 * Library code: no printing. The trace keeps ownership of everything.
 */
#ifndef TT_DECODE_ASCEND_JOIN_H
#define TT_DECODE_ASCEND_JOIN_H

#include <stdint.h>

#include "model/trace.h"
#include "util/error.h"

typedef struct tt_ascend_join_stats {
    uint64_t rows;        /* rows of the kernel table */
    uint64_t matched;     /* rows joined to an event */
} tt_ascend_join_stats;

/* Join the kernel table at csv_path to tr (finalized, from the
 * trace_view.json beside it) and record the counts in tr->meta under
 * "kernel_details.csv" (`summary` shows them). A malformed table is an
 * error naming it, with its row and column. */
int tt_ascend_join(tt_trace *tr, const char *csv_path, tt_ascend_join_stats *st,
                   tt_error *err);

#endif
