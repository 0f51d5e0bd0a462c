/* kind_statistic.h - the Ascend profiler's statistic tables beside a
 * trace: op_statistic.csv (per operator type and core type) and
 * api_statistic.csv (per CANN API and level), shown by `report --kind
 * op-statistic` / `--kind api-statistic` and by `summary`.
 *
 * Why they are shown at all, when the timeline holds the same tasks: the
 * timeline cannot give what these add. op_statistic's "Core Type"
 * (AI_CORE, AI_VECTOR_CORE, AI_CPU: which unit ran the operator; the
 * trace's task types name other things, e.g. MIX_AIV) and its grouping by
 * operator type (the trace names each launch, "aclnnMm_MatMulCommon_
 * MatMulV2", not its type "MatMulV2"); api_statistic's "Level" (acl,
 * hccl, runtime, node: which CANN layer an API belongs to) and Variance.
 * So the tables are printed whole, columns as in the file, each number
 * checked and then re-emitted as its own text (exact, units as the file
 * writes them); not recomputed from the timeline.
 *
 * Ownership: the descriptors are static; a table read is the caller's
 * (tt_sidetab_free).
 */
#ifndef TT_REPORT_KIND_STATISTIC_H
#define TT_REPORT_KIND_STATISTIC_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/sidetab.h"
#include "model/trace.h"
#include "report/writer.h"
#include "util/error.h"

#define TT_STAT_MAX_COLS 8

typedef struct tt_stat_table {
    const char   *file;                   /* "op_statistic.csv" */
    const char   *title;                  /* summary heading */
    const char   *hdr[TT_STAT_MAX_COLS];  /* the file's header names */
    bool          numeric[TT_STAT_MAX_COLS];
    size_t        n;                      /* columns */
    int           name_col, time_col;     /* what the summary shows */
} tt_stat_table;

extern const tt_stat_table tt_stat_op, tt_stat_api;

/* Read d's file beside tr: 0 with *out set, 1 when there is none (*out
 * NULL), -1 with err set (a bad cell: at its row and column, the path in
 * the message). map[k] is the file's column of d's column k. */
int tt_stat_read(const tt_stat_table *d, const tt_trace *tr, tt_sidetab **out, int *map,
                 tt_error *err);

#endif
