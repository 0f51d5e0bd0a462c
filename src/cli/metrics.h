/* metrics.h - `--metrics FILE` of the commands that load traces: an
 * Nsight Compute table (`ncu --csv`) joined to each trace's kernels
 * (analysis/ncu_join.h), with a note on stderr of how many profiled
 * launches matched.
 *
 * Ownership: the joined metrics belong to the trace (freed with it).
 */
#ifndef TT_CLI_METRICS_H
#define TT_CLI_METRICS_H

#include "cli/cli.h"

/* When lo asks for --metrics, load that file and join it to tr (loaded
 * from safe_path, already sanitized), then say on stderr
 * "SAFE_PATH: ncu metrics: N of M profiled launches matched, K names
 * unmatched". 0 (also without --metrics), or -1 after printing why (the
 * file is missing, is not an ncu table, is malformed). */
int tt_cli_metrics_attach(tt_trace *tr, const char *safe_path, const tt_cli_load *lo);

/* The same line for `summary` (no path, no newline) into buf; false when
 * tr has no joined metrics. */
bool tt_cli_metrics_line(const tt_trace *tr, char *buf, size_t cap);

#endif
