/* input.h - read a trace file as a stream of decompressed bytes.
 *
 * Accepts a path or "-" (stdin). Compression is detected from magic bytes,
 * never from the file name: gzip (also multi-member) and zstd (also
 * multi-frame); anything else is read as is. A compressed stream that ends
 * early (a profiler killed mid-write) reads to its last decodable byte and
 * then reports end of data with tt_input_truncated() set, so a lenient
 * decoder can keep what is complete.
 *
 * Compressed data from a file or memory is decompressed on a thread of its
 * own, up to 1 MiB ahead of the reader, when the process may use more than
 * one core (tt_parallel_cores): the same bytes, ends and errors, in the
 * same order, as decompressing on the reader's thread.
 *
 * Ownership: tt_input_open() returns a handle the caller closes with
 * tt_input_close() (NULL is a no-op; stops that thread, also early). One
 * reader thread at a time per handle (another may take over once the
 * first is joined or otherwise synchronized with, as chrome_chunks.c's
 * cutter thread does).
 */
#ifndef TT_IO_INPUT_H
#define TT_IO_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/error.h"

typedef struct tt_input tt_input;

typedef enum tt_compression {
    TT_COMP_NONE = 0,
    TT_COMP_GZIP,
    TT_COMP_ZSTD
} tt_compression;

/* Open path ("-" = stdin). Errors: missing/unreadable file, a directory,
 * an empty file is NOT an error here (the decoder reports it). */
int tt_input_open(const char *path, tt_input **out, tt_error *err);

/* Open an in-memory buffer (borrowed; must outlive the handle). Used by
 * tests and fuzzers. */
int tt_input_open_mem(const void *data, size_t n, tt_input **out, tt_error *err);

void tt_input_close(tt_input *in);

/* Decompress on a thread of its own (on != 0) or on the reader's, instead
 * of deciding from the cores. Before the first read or peek, either; after
 * it, only off: the thread stops after the block it is decompressing, and
 * once what it decompressed is read, the reader's thread goes on (the
 * same bytes, ends and errors; a caller who decompresses straight into
 * buffers of its own, beside threads of its own). Later calls to turn it
 * on are ignored. */
void tt_input_set_readahead(tt_input *in, int on);

/* Up to n decompressed bytes into buf. Returns the count, 0 at end of data,
 * -1 on error (err set; the same error again on every later read). */
ssize_t tt_input_read(tt_input *in, void *buf, size_t n, tt_error *err);

/* Read the rest of the data into one malloc'd buffer (*out, with a NUL
 * after the *n bytes, for text parsers), sized from the file when it is
 * known. 0; -1 on a read error or out of memory (err set); -2 when the
 * data would exceed limit bytes (err untouched: the caller says what is
 * implausible). */
int tt_input_read_all(tt_input *in, size_t limit, unsigned char **out, size_t *n,
                      tt_error *err);

/* Look at the first decompressed bytes without consuming them: *p points to
 * up to `want` bytes (fewer at end of data) valid until the next read.
 * Returns 0, or -1 on error. */
int tt_input_peek(tt_input *in, size_t want, const unsigned char **p, size_t *n,
                  tt_error *err);

tt_compression tt_input_compression(const tt_input *in);
const char *tt_input_compression_name(const tt_input *in);  /* "none", "gzip", "zstd" */

/* Size of the file on disk (compressed), -1 when unknown (pipe). */
int64_t tt_input_file_size(const tt_input *in);

/* Bytes of the file consumed so far (compressed side), for progress. */
int64_t tt_input_file_pos(const tt_input *in);

/* Decompressed bytes delivered so far (including peeked ones). */
int64_t tt_input_data_pos(const tt_input *in);

/* Set once a compressed stream ended before its end marker. */
int tt_input_truncated(const tt_input *in);

/* Path as given ("-" for stdin, "<memory>" for buffers). */
const char *tt_input_path(const tt_input *in);

/* 1 when the input is an uncompressed regular file that can be reopened by
 * path (needed by SQLite). */
int tt_input_is_plain_file(const tt_input *in);

#endif
