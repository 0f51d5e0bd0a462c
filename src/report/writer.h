/* writer.h - write a report table as CSV, JSON or an aligned text table.
 *
 * A report is a list of traces, each with some summary fields and rows of
 * typed cells under fixed columns. The writer streams: CSV and JSON rows go
 * out as they come, text rows are buffered a few thousand at a time to find
 * column widths, so a million-row event list costs bounded memory.
 *
 * CSV (RFC 4180): a header row, then one record per row, CRLF line ends,
 * text cells quoted by libcsv's writer (quotes doubled), numbers bare. A
 * text cell that a spreadsheet would evaluate as a formula (starting with
 * '=', '+', '-', '@', TAB or CR) gets a leading single quote. With several traces
 * every record starts with a Trace column.
 *
 *   Trace strings keep their real bytes in CSV and JSON written to a file or
 *   pipe; with `sanitize` (the caller sets it when the output is a terminal)
 *   every text cell and JSON string is made terminal-safe (util/text.h)
 *   first. Text tables are always sanitized.
 *
 * JSON: {"kind": ..., <document fields>, "traces": [{"trace": ...,
 * <summary fields>, "rows": [{<json key>: value, ...}, ...], <extra
 * fields>}, ...]} with one row per line. Integers are printed exactly.
 *
 * Text: per trace a title line and a table (or, with one_table, a single
 * table for all traces with a Trace column), numbers right-aligned with
 * thousands separators, the last column unpadded, and an optional bar per
 * row showing a fraction (block characters in UTF-8, '#' otherwise).
 *
 * Writing to the FILE is the writer's job (this is output, not messages);
 * nothing else is printed. Errors: write failures surface as a non-zero
 * return from tt_writer_finish() (the stream's error flag).
 */
#ifndef TT_REPORT_WRITER_H
#define TT_REPORT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cJSON;

typedef enum tt_out_format {
    TT_OUT_CSV = 0,
    TT_OUT_JSON,
    TT_OUT_TEXT
} tt_out_format;

typedef enum tt_col_type {
    TT_COL_TEXT = 0,
    TT_COL_INT,
    TT_COL_REAL,
    TT_COL_JSON,     /* JSON output only: a cJSON value (arrays, objects) */
    TT_COL_DUR       /* a duration in ns (tt_cell_int): exact in CSV and JSON;
                      * text shows it in human units ("8.874 ms", util/num.h
                      * tt_fmt_dur) and its title without a " (ns)" suffix */
} tt_col_type;

typedef struct tt_col {
    const char *title;     /* CSV header and text title: "Total Time (ns)" */
    const char *json;      /* JSON key: "total_ns" */
    tt_col_type type;
    int         decimals;  /* TT_COL_REAL: digits after the point (CSV, text) */
    bool        json_only; /* left out of CSV and text (exact extras) */
} tt_col;

typedef struct tt_cell {
    bool          empty;   /* no value: empty CSV cell, JSON null, "-" in text */
    int64_t       i;
    double        r;
    const char   *s;       /* borrowed for the duration of tt_writer_row() */
    struct cJSON *json;    /* TT_COL_JSON: taken by tt_writer_row() */
    bool          number;  /* TT_COL_TEXT holding a number's text (an argument's
                            * value): CSV writes it without the formula guard */
} tt_cell;

static inline tt_cell tt_cell_int(int64_t v) { tt_cell c = {false, v, 0, NULL, NULL, false}; return c; }
static inline tt_cell tt_cell_real(double v) { tt_cell c = {false, 0, v, NULL, NULL, false}; return c; }
static inline tt_cell tt_cell_text(const char *s) { tt_cell c = {false, 0, 0, s, NULL, false}; return c; }
static inline tt_cell tt_cell_number_text(const char *s)
{
    tt_cell c = {false, 0, 0, s, NULL, true};
    return c;
}
static inline tt_cell tt_cell_none(void) { tt_cell c = {true, 0, 0, NULL, NULL, false}; return c; }
static inline tt_cell tt_cell_json(struct cJSON *j) { tt_cell c = {j == NULL, 0, 0, NULL, j, false}; return c; }

typedef struct tt_writer_opts {
    tt_out_format format;
    bool          sanitize;      /* make CSV/JSON strings terminal-safe */
    bool          utf8;          /* text: block characters for bars */
    bool          trace_column;  /* CSV (and one_table text): Trace column */
    const char   *group_title;   /* title of that column; NULL = "Trace" */
    bool          one_table;     /* text: one table for every trace */
    const char   *bar_title;     /* text: title of the bar column, NULL = no bar */
    bool          text_whole;    /* text: no table; the kind's text_after is
                                    its whole table (PyTorch's layout) */
} tt_writer_opts;

typedef struct tt_writer tt_writer;

/* Start a report on f. doc is a JSON object of document fields (taken; may
 * be NULL); cols are borrowed and must outlive the writer. NULL on OOM. */
tt_writer *tt_writer_new(FILE *f, const tt_writer_opts *o, const tt_col *cols, size_t ncols,
                         struct cJSON *doc);

/* Start a trace: name (its Trace cell and JSON "trace"), JSON summary
 * fields (taken; may be NULL) and a text title line (may be NULL). */
int tt_writer_trace_begin(tt_writer *w, const char *name, struct cJSON *fields,
                          const char *title);

/* One row of ncols cells (json_only ones included); bar is the fraction
 * (0..1) drawn in text. TT_COL_JSON cells are freed whatever the format. */
int tt_writer_row(tt_writer *w, const tt_cell *cells, double bar);

/* End a trace: JSON fields to add after the rows (taken; may be NULL) and
 * text lines to print after its table (may be NULL). */
int tt_writer_trace_end(tt_writer *w, struct cJSON *extra, const char *text_after);

/* Finish the document and flush. 0, or -1 when writing failed or memory
 * ran out at any point. */
int tt_writer_finish(tt_writer *w);

void tt_writer_free(tt_writer *w);   /* NULL is a no-op */

/* One CSV text field by the rules above (sanitized when asked, the
 * formula guard, quoted), for CSV written without a tt_writer
 * (report/merge.c). 0, or -1 when out of memory. */
int tt_writer_csv_text(FILE *f, const char *s, bool sanitize);

/* A bar of `width` columns filled to frac (0..1): block characters with
 * eighth steps when utf8, else '#'; padded with spaces. Returns out. */
char *tt_writer_bar(bool utf8, double frac, int width, char *out, size_t cap);

#endif
