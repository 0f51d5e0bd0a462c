/* chrome_chunks.h - decoding a Chrome trace's events array in parallel
 * chunks (internal to the Chrome decoder).
 *
 * chrome_chunks.c cuts the events array into chunks at guessed event
 * boundaries (a '{' after '}' and ','), worker threads decode each into a
 * trace fragment of its own (chrome.c: chrome_chunk_decode), and the
 * calling thread merges them in source order into the real trace
 * (chrome_chunk_merge), so the result is what the serial decode builds. A
 * guess is verified by the chunk before it: that chunk must end exactly
 * at its end, after a comma, in the array; a chunk that does not (the
 * guess fell inside a string or nested arguments) is joined with the next
 * and decoded again. Anything else (the array's end, a syntax error, the
 * end of the data) ends the parallel part: the serial loop of chrome.c
 * continues from the end of the last complete event, so errors, --lenient
 * and the end of the array are handled by one code path, positions
 * included.
 */
#ifndef TT_DECODE_CHROME_CHUNKS_H
#define TT_DECODE_CHROME_CHUNKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"

typedef struct chrome chrome;                /* chrome.c's decoder state */
typedef struct chrome_chunk chrome_chunk;    /* one decoded chunk */

/* ---- in chrome.c */

/* Decode the events of one chunk, data[0..size): it begins at an event
 * boundary ('{', or whitespace before one, no comma pending; the first
 * chunk just after '['); `more`: data follows it. Into a fragment of its
 * own. NULL when out of memory. Safe to run on several threads at once. */
chrome_chunk *chrome_chunk_decode(const char *data, size_t size, bool more,
                                  const tt_load_opts *opts);
/* Where the chunk stopped: *at_limit when at its end after a comma (where
 * the next chunk's first event must begin: only then is the next chunk's
 * start right), *end is then its size; else *end is the end of its last
 * complete event (0 when it has none; *any_events says which).
 * *in_event (may be NULL): the offset of the '{' of the event it stopped
 * in, SIZE_MAX when it stopped elsewhere. */
void chrome_chunk_end(const chrome_chunk *k, size_t *end, bool *at_limit, bool *any_events,
                      size_t *in_event);
void chrome_chunk_free(chrome_chunk *k);   /* NULL is a no-op */
/* Append the chunk (its data at stream offset base) to c's trace and
 * state, in source order; frees it. 0, or -1 with c's error set (a NULL
 * chunk: out of memory). */
int chrome_chunk_merge(chrome *c, chrome_chunk *k, int64_t base);
/* Report progress: the input up to file_pos, the data up to data_pos. */
void chrome_progress(chrome *c, int64_t file_pos, int64_t data_pos);
/* c's error, for the driver's own failures. */
tt_error *chrome_error(chrome *c);
/* The bytes c's window holds from its position on (borrowed). */
void chrome_window_pending(chrome *c, const char **p, size_t *n);
/* Drop what c's window holds (the chunks have it now, from the same
 * position: chrome_window_pending) and shrink its buffer, keeping its
 * position and line count for chrome_window_line. */
void chrome_window_release(chrome *c);
/* Line number (1-based) and the offset where that line starts, at c's
 * window position. */
int64_t chrome_window_line(chrome *c, int64_t *line_start);
/* Go on reading c's input with the n bytes at `pending` first (stream
 * offset `at`, the line and line_start there; eof: the input is at its
 * end). 0, or -1 (out of memory, c's error set). */
int chrome_window_resume(chrome *c, const char *pending, size_t n, int64_t at, int64_t line,
                         int64_t line_start, bool eof);
/* Go on reading from offset `at` of the mapped file (map, size) instead of
 * c's input, whose window stays where the parallel part began; its lines
 * are counted from the mapping's start when a position is needed (line
 * and line_start are not used). c takes the mapping (unmapped on failure
 * too). 0, or -1 with c's error set. */
int chrome_window_switch(chrome *c, const void *map, size_t size, size_t at, int64_t line,
                         int64_t line_start);

/* Parse the rest of the events array, from offset `at` (c's window
 * position), straight from the mapped plain file (map, size) that holds
 * it all: no copy into the window, no newline counting (a position counts
 * from the mapping's start when a message needs one). c takes the
 * mapping; after the array c reads the rest through a window again. 0. */
int chrome_window_map(chrome *c, const void *map, size_t size, size_t at);

/* ---- in chrome_chunks.c */

/* Decode the events array of `in` from stream offset `start` (c's window
 * position, just after '[') in parallel chunks, merging them into c.
 * Returns 0 when the input does not qualify (compressed, small, one
 * thread) and nothing was done but, for a plain file larger than c's
 * window holds, mapping it for the serial loop (chrome_window_map); 1 when it ran: c's window then reads the
 * mapped file from *resume on, where the serial loop goes on (*need_comma:
 * an event ended there); -1 on error (c's error set). */
int chrome_chunks_run(chrome *c, tt_input *in, int64_t start, unsigned threads,
                      const tt_load_opts *opts, int64_t *resume, bool *need_comma);

#endif
