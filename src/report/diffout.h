/* diffout.h - `tracetty diff`'s tables (analysis/diff.h) as CSV, JSON or
 * text through the report writer (writer.h), with its output rules (the
 * formula guard, escapes when the output is a terminal).
 *
 * Name tables (--kind ops, kernels, operators), one row per name:
 *
 *   Name, Status, Count A, Count B, Total A (ns), Total B (ns), Delta (ns),
 *   Delta (%), Avg A, Avg B
 *
 * Delta (%) is empty when Total A is 0, an Avg when its Count is 0; the
 * "(none)" row (events without the --by key) has an empty Name. JSON: the
 * head says the kind, the key, the two inputs (a, b) and, for operators,
 * which total each side's Total is ("device" or "host"); after the rows
 * the sums, the delta and the rows per status. Text: the table, then one
 * line with the totals.
 *
 * Library code: writes to the FILE it is given and nothing else.
 */
#ifndef TT_REPORT_DIFFOUT_H
#define TT_REPORT_DIFFOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/diff.h"
#include "analysis/gpu.h"
#include "analysis/steps.h"
#include "report/writer.h"
#include "util/error.h"

typedef struct tt_diffout_opts {
    tt_out_format format;
    bool          sanitize;   /* output is a terminal (writer.h) */
    bool          utf8;       /* text bars in block characters */
    const char   *kind;       /* "ops", "kernels", "operators", "gpu", "steps" */
    const char   *by;         /* the key's spelling ("name", "arg:X"), ops only */
    const char   *a, *b;      /* the inputs as the user wrote them */
    const char   *total_a, *total_b;   /* operators: "device" or "host"; else NULL */
} tt_diffout_opts;

/* Write the name table of d. 0, or -1 with err set (out of memory, or
 * TT_ERR_IO when writing failed). */
int tt_diffout_names(FILE *f, const tt_diffout_opts *o, const tt_diff *d, tt_error *err);

/* --kind gpu: the GPU time breakdown of both (analysis/gpu.h, as
 * `report --kind gpu`), one row per metric:
 *   Metric, A, B, Delta, Delta (%)
 * (Total, Busy, Idle, Computation, Communication, Exposed Communication,
 * Memcpy, Exposed Memcpy in ns, then the Kernels, Memcpys, Memsets and
 * Collectives counts; Delta (%) empty when A is 0). */
int tt_diffout_gpu(FILE *f, const tt_diffout_opts *o, const tt_gpu_time *a,
                   const tt_gpu_time *b, tt_error *err);

/* --kind steps: the steps of both (analysis/steps.h), matched by position
 * (the i-th step of A with the i-th of B, whatever their names):
 *   Position, Step A, Step B, Step Time A (ns), Step Time B (ns),
 *   Delta (ns), Delta (%)
 * a side with fewer steps leaving its cells empty; JSON adds the mean step
 * times over the positions both have, text a line saying them. */
int tt_diffout_steps(FILE *f, const tt_diffout_opts *o, const tt_steps *a, const tt_steps *b,
                     tt_error *err);

/* The one-line total: "Total: A 1.20 ms, B 1.32 ms, delta +120.00 us
 * (+10.00%); 3 names: 1 added, ..." into buf. Returns buf. */
char *tt_diffout_total_line(const tt_diff *d, char *buf, size_t cap);

#endif
