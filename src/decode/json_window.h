/* json_window.h - a sliding window of decompressed input for streaming
 * decoders.
 *
 * A decoder parses inside [data, data+len) from pos on; when a value runs
 * past the end it calls tt_jwin_refill(), which drops what lies before
 * pos, moves the rest to the front and reads more (growing the window when
 * one value does not fit, up to a limit). Line numbers are kept as bytes
 * are dropped, so any pointer into the window can be turned into a line and
 * column for an error message.
 *
 * Ownership: the window owns its buffer; the input is borrowed.
 */
#ifndef TT_DECODE_JSON_WINDOW_H
#define TT_DECODE_JSON_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/input.h"
#include "util/error.h"

typedef struct tt_jwin {
    tt_input *in;          /* borrowed */
    char     *data;        /* owned; one spare byte after cap */
    size_t    len, cap, pos;
    size_t    max;         /* largest window (one value must fit) */
    int64_t   base;        /* stream offset of data[0] */
    int64_t   line;        /* line number at data[0] (1-based) */
    int64_t   line_start;  /* stream offset where that line starts */
    /* When set (borrowed): the whole stream from offset 0 stays readable
     * here (a mapped plain file), and line and line_start are not kept as
     * bytes are dropped: a position counts the lines from here when an
     * error asks for one, so the load does not count every newline. */
    const char *lines_origin;
    bool      eof;
} tt_jwin;

/* A window of `initial` bytes that may grow to `max`. 0, or -1 (OOM). */
int tt_jwin_init(tt_jwin *w, tt_input *in, size_t initial, size_t max, tt_error *err);
void tt_jwin_fini(tt_jwin *w);

/* Drop what lies before pos and read more. 1 = more data, 0 = end of data,
 * -1 = error (read error, out of memory, a value larger than max). */
int tt_jwin_refill(tt_jwin *w, tt_error *err);

/* Stream offset, line and column (1-based, in bytes) of a pointer into the
 * window. */
void tt_jwin_position(const tt_jwin *w, const char *at, int64_t *off, int64_t *line,
                      int64_t *col);

#endif
