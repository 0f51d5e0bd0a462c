/* ncu_report.h - `report --kind kernels` of an Nsight Compute table (a
 * trace decoded from `ncu --csv`, analysis/ncu_kernels.h): one row per
 * kernel name with its calls, duration (mean, min, max), throughputs,
 * DRAM traffic, occupancy, launch shape and roofline position, plus the
 * means of the metrics asked with --metric.
 *
 * Its columns differ from those of the timeline's kernels table, so it has
 * a writer of its own; the CLI picks it when a kernels report meets an ncu
 * trace (report/kind_kernels.c keeps the timeline's table unchanged).
 *
 * Who owns what: the report borrows f, the options and the metric names
 * (they must outlive it); free with tt_ncu_report_free().
 */
#ifndef TT_REPORT_NCU_REPORT_H
#define TT_REPORT_NCU_REPORT_H

#include <stdio.h>

#include "model/trace.h"
#include "report/report.h"
#include "util/error.h"

typedef struct tt_ncu_report tt_ncu_report;

struct tt_ncu_row;

/* The metric columns of the table (all but Calls and Name: Mean Duration
 * ... Bound, then one per --metric name) into out, when not NULL; returns
 * how many. Shared with the timeline's kernels table when ncu metrics are
 * joined to it (report/kind_kernels.c); the titles borrow metrics. */
size_t tt_ncu_metric_cols(tt_col *out, const char *const *metrics, size_t n_metrics);

/* The cells of those columns for one row (n_extra: --metric names). */
void tt_ncu_metric_cells(const struct tt_ncu_row *w, size_t n_extra, tt_cell *c);

/* Start the table on f (CSV header, JSON head): o gives the format, the
 * terminal flags and whether there are several traces (a Trace column);
 * metrics[0..n) are the --metric names, a column each. NULL on OOM. */
tt_ncu_report *tt_ncu_report_new(FILE *f, const tt_report_opts *o, const char *const *metrics,
                                  size_t n_metrics);

/* The rows of one ncu trace (tt_ncu_present()), name as the user gave it.
 * 0, or -1 with err set. */
int tt_ncu_report_add(tt_ncu_report *r, const tt_trace *tr, const char *name, tt_error *err);

/* Finish the document: 0, or -1 when writing failed. */
int tt_ncu_report_finish(tt_ncu_report *r);

void tt_ncu_report_free(tt_ncu_report *r);   /* NULL is a no-op */

#endif
