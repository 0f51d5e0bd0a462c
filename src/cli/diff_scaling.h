/* diff_scaling.h - `tracetty diff --scaling RUN...`: load each run (a
 * file, or a directory of one job's traces), measure it
 * (analysis/scaling.h) and write the table as CSV, JSON or text, to
 * stdout or atomically to -o FILE. Prints its own errors.
 */
#ifndef TT_CLI_DIFF_SCALING_H
#define TT_CLI_DIFF_SCALING_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "report/writer.h"

typedef struct tt_diff_scaling_opts {
    bool               weak;       /* --weak: efficiency T1/Tk */
    tt_out_format      format;
    const char        *out_path;   /* -o FILE; NULL or "-" = stdout */
    const tt_cli_load *lo;
} tt_diff_scaling_opts;

/* The command's work for runs[0..n); returns its exit code
 * (TT_EXIT_OK, or TT_EXIT_ERROR after printing why). */
int tt_diff_scaling(char *const *runs, size_t n, const tt_diff_scaling_opts *o);

#endif
