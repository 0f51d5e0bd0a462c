/* ncu_summary.h - what `tracetty summary` says of an Nsight Compute table
 * (a trace decoded from `ncu --csv`, analysis/ncu_kernels.h): the kernels
 * profiled, the metric values, the kernel names by total duration.
 * CLI code: prints (trace strings sanitized). */
#ifndef TT_CLI_NCU_SUMMARY_H
#define TT_CLI_NCU_SUMMARY_H

#include <stdio.h>

#include "model/trace.h"

struct cJSON;

/* Text lines on f; nothing for a trace that is not an ncu table. */
void tt_ncu_summary_text(FILE *f, const tt_trace *tr);

/* An "ncu" object in o (kernels, metrics, names, top kernels); nothing
 * for other traces. */
void tt_ncu_summary_json(struct cJSON *o, const tt_trace *tr);

#endif
