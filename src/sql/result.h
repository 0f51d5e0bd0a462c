/* result.h - the rows of a query kept in memory, for a reader that shows
 * them itself (the view's `:sql` panel) rather than writing them out as
 * `tracetty query` does, and the event a row stands for.
 *
 * tt_sql_result_collect runs the prepared statements of a database
 * (sql/db.h) and keeps the last one's column names and up to max_rows
 * rows: each cell as text (integers in decimal, reals with %.17g as the
 * query command writes them, blobs as X'0A1B', NULL as no text) and,
 * for integer cells, the integer itself.
 *
 * A row's event (tt_sql_result_event): a row with a slice `id` column
 * names its event exactly; one with `ts` and `track_id` (and `dur`) names
 * the event of that lane starting at ts (of that dur when several start
 * there); `ts` alone names a time. Ids carry the source's ordinal (sql/
 * sqltab.h), so a row of a job names its rank too.
 *
 * Ownership: a tt_sql_result owns its names and cells; _fini frees them.
 * Library code: nothing prints.
 */
#ifndef TT_SQL_RESULT_H
#define TT_SQL_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "sql/db.h"
#include "sql/srcset.h"
#include "util/error.h"

typedef struct tt_sql_result {
    int       n_cols;
    char    **names;        /* n_cols, owned */
    size_t    n_rows;
    bool      truncated;    /* more rows than max_rows: the first kept */
    /* cell (r, c) is r * n_cols + c */
    size_t   *off;          /* its text in buf, SIZE_MAX for NULL */
    int64_t  *ival;         /* its integer when isint */
    bool     *isint;
    char     *buf;
    size_t    buf_n, buf_cap, cap_cells;
} tt_sql_result;

/* The text of column c of st's current row as `tracetty query` writes
 * it: integers in decimal and reals with %.17g (in num, of cap >=
 * TT_SQL_NUM_CAP bytes), text as SQLite holds it (valid until the next
 * step), a blob as SQL writes it, X'0A1B' (malloc'd into *owned: the
 * caller frees it; else *owned is NULL). NULL for SQL NULL, or when a
 * blob's text cannot be allocated (*owned NULL, the type a blob). */
#define TT_SQL_NUM_CAP 40
const char *tt_sql_cell_text(sqlite3_stmt *st, int c, char *num, size_t cap, char **owned);

void tt_sql_result_init(tt_sql_result *r);
void tt_sql_result_fini(tt_sql_result *r);

/* Run d's prepared statements, keeping the last one's first max_rows
 * rows in r (emptied first). 0, or -1 with err set (a runtime error,
 * "interrupted", out of memory). */
int tt_sql_result_collect(tt_sql_db *d, size_t max_rows, tt_sql_result *r, tt_error *err);

/* Column named name (ASCII case-insensitive, the first of that name), or
 * -1. */
int tt_sql_result_col(const tt_sql_result *r, const char *name);

/* Cell text, or NULL for SQL NULL. */
const char *tt_sql_result_text(const tt_sql_result *r, size_t row, int col);

/* Cell integer: true with *v when the cell is an integer. */
bool tt_sql_result_int(const tt_sql_result *r, size_t row, int col, int64_t *v);

/* What a row stands for. */
typedef enum tt_sql_at {
    TT_SQL_AT_NONE = 0,   /* no id, no ts (or no such event) */
    TT_SQL_AT_TIME,       /* a time: *t (source *src when it names one) */
    TT_SQL_AT_EVENT       /* an event: *ev of source *src, starting at *t */
} tt_sql_at;

/* The event (or time) row stands for among the sources of set (loaded:
 * those of tt_sql_srcset_new_loaded; a source not loaded now is taken as
 * naming nothing). *src is the source's ordinal, SIZE_MAX when the row
 * names a time of no particular source. */
tt_sql_at tt_sql_result_event(const tt_sql_result *r, size_t row, const tt_sql_srcset *set,
                              size_t *src, tt_evref *ev, tt_ns *t);

#endif
