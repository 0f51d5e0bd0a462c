/* csv_common.h - what the CSV decoders share: streaming rows (RFC 4180,
 * read exactly as libcsv's strict mode reads it), header lookup, units
 * read from headers, exact time parsing, lanes by name, the remaining
 * columns kept as an argument object, and the malformed-row policy.
 *
 * The dialects (csv_ascend.c, csv_nsys.c, csv_generic.c) map a header to
 * columns and turn each row into an event; everything else is here.
 *
 * Rows are numbered from 1 at the header line, as a spreadsheet shows
 * them; columns from 1. A malformed row is an error naming its row and
 * column; with --lenient it is skipped and counted (TT_PROB_BAD_EVENT).
 *
 * Library code: nothing is printed. A tt_csv_job belongs to one decode.
 */
#ifndef TT_DECODE_CSV_COMMON_H
#define TT_DECODE_CSV_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "model/args.h"
#include "util/u64map.h"

/* One parsed row: NUL-terminated fields with surrounding spaces and tabs
 * removed (Ascend writes a tab inside quoted start times). */
typedef struct tt_csv_row {
    const char  **f;
    const size_t *len;
    /* per field: non-zero when the scan found it a JSON number (so not a
     * null cell either); zero says nothing */
    const unsigned char *num;
    size_t        n;
    int64_t       row;    /* 1-based, header line = 1 */
} tt_csv_row;

/* Called for every row, the header included; return non-zero to stop
 * (with the job's error set). */
typedef int (*tt_csv_row_fn)(void *ctx, const tt_csv_row *row);

typedef struct tt_csv_job {
    tt_trace           *tr;
    const tt_load_opts *opts;
    tt_load_info       *info;
    tt_error           *err;
    tt_input           *in;

    char              **hdr;       /* header names (owned copies) */
    size_t             *hdr_len;
    size_t              n_hdr;
    bool               *keep;      /* per column: copy into the event's arguments */
    char              **hdr_key;   /* per column: its JSON key text "name": (built
                                    * once, not per row) */
    size_t             *hdr_key_len;
    uint32_t            keyset;    /* the keys in the argument store (tt_args_keyset) */
    tt_args_val        *val;       /* per column: the row's value (tt_args_add_row) */


    /* NULL, or the text a header line starts with: the lines before it are
     * a program's output (ncu's, with stray quotes), skipped unparsed but
     * counted in row numbers. Set before tt_csv_read(). */
    const char         *text_until;

    tt_u64map           lanes;     /* hash of (group, lane) names -> lane */
    uint64_t            events;
    int64_t             last_progress;
} tt_csv_job;

void tt_csv_job_init(tt_csv_job *j, tt_input *in, const tt_load_opts *opts, tt_trace *tr,
                     tt_load_info *info, tt_error *err);
void tt_csv_job_fini(tt_csv_job *j);

/* Read every row of the input through fn. Returns 0, or -1 with err set:
 * quoting errors are positioned at their row and column. A compressed
 * input cut off early is an error unless opts->lenient, where it counts as
 * a dropped tail (the partial last row is dropped). */
int tt_csv_read(tt_csv_job *j, tt_csv_row_fn fn, void *ctx);

/* Remember the header row (names and column count). 0 or -1 (OOM). */
int tt_csv_set_header(tt_csv_job *j, const tt_csv_row *hdr);

/* Column of a header name: exact after trimming, ASCII case-insensitive;
 * -1 when absent. */
int tt_csv_col(const tt_csv_job *j, const char *name);

/* First column whose name starts with prefix (case-insensitive), or -1. */
int tt_csv_col_prefix(const tt_csv_job *j, const char *prefix);

/* Decimal scale from a unit written in a header, e.g. "Start Time(us)",
 * "Start (ns)", "Duration (ms)", "Begin [us]": ns 0, us 3, ms 6, s 9; -1
 * when the header names no time unit. */
int tt_csv_time_scale(const char *header);

/* Decimal scale of a byte unit in a header, "Bytes (MB)" or "Bytes [MB]"
 * -> 6, "(B)" -> 0, "(KB)" 3, "(GB)" 9; binary units give -(exponent of
 * 2) - 100, e.g. MiB -> -120; 0 when no unit is written. */
int tt_csv_bytes_scale(const char *header);

/* True for cells that mean "no value": empty, N/A, NA, NULL, None, -. */
bool tt_csv_is_null(const char *s, size_t n);

/* Parse a cell as a decimal number times 10^scale, rounded (exact: never
 * through a double). 0 ok, 1 for a null cell, -1 for anything else. */
int tt_csv_decimal(const tt_csv_row *row, int col, int scale, int64_t *out);

/* A time (or duration) cell as tt_csv_decimal(), and -1 as well beyond
 * TT_TIME_LIMIT (model/trace.h). */
int tt_csv_time(const tt_csv_row *row, int col, int scale, tt_ns *out);

/* Bytes from a cell in the unit tt_csv_bytes_scale() returned. 0, 1 null,
 * -1 bad. */
int tt_csv_bytes(const tt_csv_row *row, int col, int scale, int64_t *out);

/* A malformed row: with --lenient count it (TT_PROB_BAD_EVENT) and return
 * 0 so the caller skips the row; otherwise set the error at row/column and
 * return -1. col is 0-based (-1: the whole row). */
int tt_csv_reject(tt_csv_job *j, const tt_csv_row *row, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Lane for a group and lane name (created on first use, the group named
 * group_name). TT_NO_LANE on OOM. */
uint32_t tt_csv_lane(tt_csv_job *j, const char *group_name, const char *lane_name);

/* Store the row's kept columns (see keep) as a JSON object in the
 * argument store: numbers stay numbers, null cells are left out. Stored as
 * a keyed row (tt_args_add_row): the header's keys once, each row's values
 * only. *handle is 0 when nothing is kept. 0 or -1 (OOM). */
int tt_csv_args(tt_csv_job *j, const tt_csv_row *row, uint32_t *handle);

/* Push a slice [start, start+dur) on lane with name/cat/args filled in;
 * returns the event index or -1 (OOM, err set). */
int64_t tt_csv_push(tt_csv_job *j, uint32_t lane, tt_ns start, tt_ns dur, const char *name,
                    const char *cat, uint32_t args);

/* Names of Nsight Systems copies and memsets, shared by the nsys CSV and
 * SQLite decoders, in the words Kineto uses ("Memcpy HtoD (Pageable ->
 * Device)", "Memset (Device)") so reports and the pageable-memcpy rule
 * treat every source alike. kind is nsys's copy label ("Host-to-Device",
 * or "HtoD" from older versions); memory kinds may be NULL or "". */
void tt_nsys_memcpy_name(char *buf, size_t n, const char *kind, const char *src, const char *dst);
void tt_nsys_memset_name(char *buf, size_t n, const char *mem);

/* Probe helper: the first line (after an optional BOM) of head, copied to
 * buf; false when there is no complete line or it looks binary. */
bool tt_csv_first_line(const unsigned char *head, size_t n, char *buf, size_t cap);

/* Probe helper: the first of the first max_lines lines (after an optional
 * BOM) that starts with one of the NULL-terminated prefixes, its length
 * in *len (line end excluded); NULL when there is none. */
const char *tt_csv_line_starting(const unsigned char *head, size_t n, int max_lines,
                                 const char *const *prefixes, size_t *len);

/* Probe helper: true when the first max_lines lines contain a line holding
 * every one of the NULL-terminated needles (case-sensitive). */
bool tt_csv_head_has(const unsigned char *head, size_t n, int max_lines,
                     const char *const *needles);

#endif
