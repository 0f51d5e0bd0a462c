/* error.h - errors as values.
 *
 * Library code never prints and never exits: it fills a caller-owned
 * tt_error and returns non-zero. Only the CLI and the TUI print, via
 * tt_error_format(). A position is optional: a byte offset in the
 * (decompressed) input, a line/column, or a CSV row/column.
 */
#ifndef TT_UTIL_ERROR_H
#define TT_UTIL_ERROR_H

#include <stddef.h>
#include <stdint.h>

typedef enum tt_errcode {
    TT_OK = 0,
    TT_ERR_IO,       /* cannot open/read/write */
    TT_ERR_FORMAT,   /* malformed input */
    TT_ERR_NOMEM,
    TT_ERR_USAGE,    /* bad argument from the user */
    TT_ERR_RANGE,    /* value out of range */
    TT_ERR_UNSUPPORTED
} tt_errcode;

typedef enum tt_pos_kind {
    TT_POS_NONE = 0,
    TT_POS_LINE,     /* line/column (text formats) */
    TT_POS_ROW,      /* row/column (CSV) */
    TT_POS_OFFSET    /* byte offset only (binary formats) */
} tt_pos_kind;

typedef struct tt_error {
    tt_errcode  code;
    tt_pos_kind pos;
    int64_t     offset;   /* byte offset, -1 when unknown */
    int64_t     line;     /* 1-based line or row */
    int64_t     column;   /* 1-based column */
    char        what[400];
} tt_error;

/* Reset to "no error". */
void tt_error_clear(tt_error *e);

/* Set an error without a position. Returns code, so `return tt_error_set(...)`
 * works. e may be NULL (the message is then dropped). */
int tt_error_set(tt_error *e, tt_errcode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set an error with a line/column (pos = TT_POS_LINE) position. */
int tt_error_at_line(tt_error *e, tt_errcode code, int64_t offset, int64_t line,
                     int64_t column, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Set an error with a CSV row/column position. */
int tt_error_at_row(tt_error *e, tt_errcode code, int64_t row, int64_t column,
                    const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Set an error at a byte offset. */
int tt_error_at_offset(tt_error *e, tt_errcode code, int64_t offset,
                       const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Format "FILE: line L, column C: what" (or the row/offset variants) into buf.
 * file may be NULL. Returns buf. */
char *tt_error_format(const tt_error *e, const char *file, char *buf, size_t n);

#endif
