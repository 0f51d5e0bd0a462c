/* stat_summary.h - what `tracetty summary` says of the Ascend statistic
 * tables beside a trace (op_statistic.csv, api_statistic.csv; see
 * report/kind_statistic.h): the rows that take the most time.
 * CLI code: prints (file strings sanitized). */
#ifndef TT_CLI_STAT_SUMMARY_H
#define TT_CLI_STAT_SUMMARY_H

#include <stdio.h>

#include "model/trace.h"

struct cJSON;

/* Text sections on f, nothing when neither file is there; a file that
 * does not read says so in one line (sanitized). */
void tt_stat_summary_text(FILE *f, const tt_trace *tr);

/* "op_statistic" / "api_statistic" arrays of the top rows in o (each row
 * an object of the file's columns, numbers as the file's text); nothing
 * when a file is absent or bad. */
void tt_stat_summary_json(struct cJSON *o, const tt_trace *tr);

#endif
