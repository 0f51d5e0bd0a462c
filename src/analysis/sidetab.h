/* sidetab.h - the small CSV tables a profiler writes beside its timeline
 * (Ascend: step_trace_time.csv, op_statistic.csv, api_statistic.csv in
 * ASCEND_PROFILER_OUTPUT/ next to trace_view.json), read whole into
 * memory as text cells.
 *
 * They are found from the trace's own path (tt_trace.source): the file of
 * that name in the same directory. Reading goes through the CSV decoders'
 * row reader (decode/csv_common.h), so quoting errors and a last row cut
 * off mid-write are errors at their row and column, as for a trace. Rows
 * are numbered from 1 at the header line, as a spreadsheet shows them.
 *
 * Library code: no printing. Ownership: a tt_sidetab owns its cells; the
 * path in it is its own copy.
 */
#ifndef TT_ANALYSIS_SIDETAB_H
#define TT_ANALYSIS_SIDETAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/error.h"

typedef struct tt_sidetab {
    char   *path;       /* the file read (owned) */
    char  **hdr;        /* header cells, trimmed (owned) */
    size_t  n_cols;
    char  **cell;       /* n_rows * n_cols cells, "" where a row is short */
    size_t  n_rows;     /* data rows (the header not counted) */
} tt_sidetab;

/* Path of the file `name` in the directory of tr->source, into buf (cap
 * bytes). false when the trace has no file path (stdin) or the path does
 * not fit. */
bool tt_sidetab_beside(const tt_trace *tr, const char *name, char *buf, size_t cap);

/* True when path names a regular file. */
bool tt_sidetab_exists(const char *path);

/* Read the CSV at path. 0, or -1 with err set (I/O, or TT_ERR_FORMAT at a
 * row and column; a row longer than the header is such an error). *out is
 * freed with tt_sidetab_free. A data row with fewer cells than the header
 * is an error too (a table cut off mid-write). */
int tt_sidetab_read(const char *path, tt_sidetab **out, tt_error *err);

void tt_sidetab_free(tt_sidetab *t);   /* NULL is a no-op */

/* An error about the side file at path, reported while working on a
 * trace: its position (rows of that file, not of the trace) goes into the
 * message, "PATH: row R, column C: what", and err keeps no position of
 * its own. Out-of-memory errors are left as they are. */
void tt_sidetab_error_in(tt_error *err, const char *path);

/* Column of a header name (exact, ASCII case-insensitive), or -1. */
int tt_sidetab_col(const tt_sidetab *t, const char *name);

/* Cell of data row r (0-based) and column c. */
static inline const char *tt_sidetab_cell(const tt_sidetab *t, size_t r, size_t c)
{
    return t->cell[r * t->n_cols + c];
}

/* The number in cell (r, c) times 10^scale, exact (decimal text rounded
 * half away from zero at the last kept digit, never through a double).
 * 0, or -1 with err set at the cell's row and column ("expected a number"). */
int tt_sidetab_decimal(const tt_sidetab *t, size_t r, size_t c, int scale, int64_t *out,
                       tt_error *err);

#endif
