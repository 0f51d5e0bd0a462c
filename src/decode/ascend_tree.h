/* ascend_tree.h - an Ascend profiler rank tree around a trace_view.json.
 *
 * torch_npu and MindSpore write one tree per rank:
 *   {worker}_{timestamp}_ascend_ms/ or rank*_ascend_pt/
 *     profiler_info_{rank}.json   run info, "rank_id" among it
 *     profiler_metadata.json
 *     ASCEND_PROFILER_OUTPUT/     trace_view.json (the timeline),
 *                                 kernel_details.csv and other tables
 * When tt_load() (decode.h) loads such a trace_view.json it calls
 * tt_ascend_tree_finish(): the trace takes the tree's rank (when its own
 * metadata has none) and kernel_details.csv beside it is joined to its
 * device events (ascend_join.h). The trace's source stays the
 * trace_view.json path, so the side tables are found in its directory.
 *
 * Library code: no printing.
 */
#ifndef TT_DECODE_ASCEND_TREE_H
#define TT_DECODE_ASCEND_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/error.h"

#define TT_ASCEND_OUTPUT "ASCEND_PROFILER_OUTPUT"
#define TT_ASCEND_TIMELINE "trace_view.json"

/* Whether path is ".../ASCEND_PROFILER_OUTPUT/trace_view.json"; the
 * rank tree's directory (the output directory's parent) into tree. */
bool tt_ascend_tree_of(const char *path, char *tree, size_t cap);

/* The tree's profiler_info file (profiler_info_{rank}.json, or
 * profiler_info.json on a single device; the first in natural order when
 * there are several) into info: 0, or 1 when the tree has none, or -1
 * with err set when the directory cannot be read. */
int tt_ascend_tree_info(const char *tree, char *info, size_t cap, tt_error *err);

/* The rank a profiler_info file gives: its "rank_id" when that is a
 * number >= 0, else the number in its file name, else -1. An unreadable
 * or malformed file is an error naming it, with the position. */
int tt_ascend_info_rank(const char *info, int64_t *rank, tt_error *err);

/* After tt_load() of path into tr (finalized): nothing unless path is a
 * trace_view.json decoded as Chrome JSON; then the tree's rank and the
 * kernel_details.csv join. 0, or -1 with err set. */
int tt_ascend_tree_finish(const char *path, tt_trace *tr, tt_error *err);

#endif
