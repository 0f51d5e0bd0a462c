/* collrows.h - the table of `tracetty report --kind collectives`: one row
 * per collective per rank. The report (report/job.c) and the view's box
 * export (tui/boxexport.c) both write it through here, so the two files
 * cannot drift apart.
 *
 * This header leaves out report/writer.h on purpose: the terminal UI has a
 * tt_cell of its own (tui/grid.h).
 */
#ifndef TT_REPORT_COLLROWS_H
#define TT_REPORT_COLLROWS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct tt_coll_row {
    int64_t     rank;
    const char *name;     /* the kernel's full name */
    uint32_t    seq;
    int64_t     start;    /* on the aligned clock */
    int64_t     offset, dur, wait;
    uint32_t    ranks;
    const char *trace;
} tt_coll_row;

struct tt_col;
struct tt_writer;

/* The table's columns (*n of them). */
const struct tt_col *tt_coll_row_columns(size_t *n);

/* What the measured columns mean (collectives.h has the why): the
 * report's JSON header and its notes for CSV and text print these. */
typedef struct tt_coll_definition {
    const char *key;      /* JSON key: "start_offset_ns" */
    const char *column;   /* the column it explains, or a term: "Wait (ns)" */
    const char *text;
} tt_coll_definition;

/* The definitions (*n of them). */
const tt_coll_definition *tt_coll_definitions(size_t *n);

/* One row to a writer made with those columns: 0, or -1 when writing
 * failed. */
int tt_coll_row_write(struct tt_writer *w, const tt_coll_row *x);

/* Sort rows in the table's order (the order merge-reports reproduces):
 * the collective's earliest arrival (start - offset), its name, sequence,
 * then rank. 0, or -1 when out of memory. */
int tt_coll_rows_sort(tt_coll_row *rows, size_t n);

/* rows[0..n), in the order given, as the whole CSV table: 0 or -1. */
int tt_coll_rows_csv(FILE *f, const tt_coll_row *rows, size_t n);

#endif
