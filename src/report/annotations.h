/* annotations.h - warning annotations as a report table, shared by
 * `tracetty check` and `tracetty report --kind annotations`.
 *
 * Columns: Severity,Rule,Start (ns),End (ns),Lanes,Events,Message,Rank,
 * with a Trace column first when there are several traces. Times are
 * relative to the start of the annotation's trace; Lanes lists full lane
 * names joined by "; "; Events counts the events involved; Rank is the
 * finding's 1-based place in the ranked listing of the findings written
 * (as `check` lists them, rules/rank.h:
 * costliest rule first, each rule's costliest finding first).
 *
 * Library code: writes only to the FILE it is given.
 */
#ifndef TT_REPORT_ANNOTATIONS_H
#define TT_REPORT_ANNOTATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/trace.h"
#include "report/writer.h"
#include "rules/rules.h"

typedef struct tt_ann_report_opts {
    tt_out_format format;
    bool          sanitize;    /* output is a terminal */
    bool          utf8;
} tt_ann_report_opts;

/* Write annotations (in their current order) about traces[i] named
 * names[i]. 0, or -1 when writing failed. */
int tt_annotations_write(FILE *f, const tt_ann_report_opts *o, const tt_trace *const *traces,
                         const char *const *names, size_t n_traces, const tt_annotations *a);

#endif
