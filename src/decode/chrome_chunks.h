/* chrome_chunks.h - decoding a Chrome trace's events array in parallel
 * chunks (internal to the Chrome decoder).
 *
 * chrome_chunks.c splits the events array of a plain (uncompressed) file
 * at guessed event boundaries and decodes the chunks on several threads,
 * each into a trace fragment of its own (chrome.c: chrome_chunk_decode);
 * the calling thread merges them in source order into the real trace
 * (chrome_chunk_merge), so the result is what the serial decode builds.
 * A guess is verified by the chunk before it: a chunk stops at the first
 * event that starts at or after the next chunk's nominal offset, and the
 * next chunk counts only if it began exactly there; otherwise it is
 * decoded again from where its predecessor stopped. Anything other than
 * reaching that limit (the array's end, a syntax error, the end of the
 * data) ends the parallel part: the serial loop of chrome.c continues from
 * the end of the last complete event, so errors, --lenient and the end of
 * the array are handled by one code path, positions included.
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

/* Decode the events at data[start..] (a '{', or whitespace before one, and
 * no comma pending) up to, not including, the first event starting at or
 * after `limit`, into a fragment of its own. data[0..size) is the whole
 * input. NULL when out of memory. Safe to run on several threads at once. */
chrome_chunk *chrome_chunk_decode(const char *data, size_t size, size_t start, size_t limit,
                                  const tt_load_opts *opts);
/* Where the chunk stopped: *end is the offset of the event at the limit
 * (*at_limit) or else the end of its last complete event (its start when it
 * has none; *any_events says which). */
void chrome_chunk_end(const chrome_chunk *k, size_t *end, bool *at_limit, bool *any_events);
void chrome_chunk_free(chrome_chunk *k);   /* NULL is a no-op */
/* Append the chunk to c's trace and state, in source order; frees it.
 * 0, or -1 with c's error set (a NULL chunk: out of memory). */
int chrome_chunk_merge(chrome *c, chrome_chunk *k);
/* Report progress: the data up to offset off is decoded. */
void chrome_progress(chrome *c, int64_t off);
/* Line number (1-based) and the offset where that line starts, at c's
 * window position. */
int64_t chrome_window_line(chrome *c, int64_t *line_start);
/* Go on reading from offset `at` of the mapped file (map, size) instead of
 * c's input, whose window stays where the parallel part began; line and
 * line_start are those at `at`. c takes the mapping (unmapped on failure
 * too). 0, or -1 with c's error set. */
int chrome_window_switch(chrome *c, const void *map, size_t size, size_t at, int64_t line,
                         int64_t line_start);

/* ---- in chrome_chunks.c */

/* Decode the events array of `in` from stream offset `start` (c's window
 * position, just after '[') in parallel chunks, merging them into c.
 * Returns 0 when the input does not qualify (compressed, small, one
 * thread) and nothing was done; 1 when it ran: c's window then reads the
 * mapped file from *resume on, where the serial loop goes on (*need_comma:
 * an event ended there); -1 on error (c's error set). */
int chrome_chunks_run(chrome *c, tt_input *in, int64_t start, unsigned threads,
                      const tt_load_opts *opts, int64_t *resume, bool *need_comma);

#endif
