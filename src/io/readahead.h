/* readahead.h - produce a byte stream on a thread of its own, a few blocks
 * ahead of the caller who consumes it.
 *
 * io/input.c decompresses gzip and zstd this way when the process may use
 * more than one core: inflate runs on one core while the caller parses on
 * the other, instead of the two taking turns.
 *
 * The producer calls fill(ctx, buf, n, err) (the same contract as read:
 * bytes produced, 0 at the end, -1 with err set) into a ring of
 * TT_READAHEAD_BLOCKS blocks of TT_READAHEAD_BLOCK bytes, and after each
 * block records pos(ctx) (the file position, for progress). The caller
 * gets exactly the bytes and the end or error that calling fill itself
 * would have given, in the same order. While the thread runs, ctx belongs
 * to it: the caller must not touch what fill and pos use until
 * tt_readahead_read() has returned 0 or -1 (the thread has then been
 * joined) or tt_readahead_free() has returned.
 *
 * Ownership: the caller owns the handle and frees it with
 * tt_readahead_free() (stops the thread, early or not; NULL is a no-op).
 * One consumer thread.
 */
#ifndef TT_IO_READAHEAD_H
#define TT_IO_READAHEAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/error.h"

/* 1 MiB ahead in all: the consumer takes a block at a time, and a hand-
 * over costs a lock, so small blocks cost nothing while 3 of 2 MiB held
 * 6 MB of the peak memory of a gzip load */
#define TT_READAHEAD_BLOCKS 4
#define TT_READAHEAD_BLOCK ((size_t)256 << 10)

typedef struct tt_readahead tt_readahead;

typedef ssize_t (*tt_readahead_fill_fn)(void *ctx, unsigned char *buf, size_t n, tt_error *err);
typedef int64_t (*tt_readahead_pos_fn)(void *ctx);

/* Start the producer; NULL when memory or a thread is not available (the
 * caller then calls fill itself: nothing has been consumed). */
tt_readahead *tt_readahead_start(tt_readahead_fill_fn fill, tt_readahead_pos_fn pos, void *ctx);

/* Up to n bytes into buf: the count, 0 at the end, -1 with err set (the
 * producer's error, again on every later call), -2 once halted and every
 * block filled before the halt is read (the thread is joined: the caller
 * calls fill itself from there on). */
ssize_t tt_readahead_read(tt_readahead *ra, void *buf, size_t n, tt_error *err);

/* Ask the producer to stop after the block it is filling, the end and
 * errors not yet reached (the caller takes over; see tt_readahead_read). */
void tt_readahead_halt(tt_readahead *ra);

/* pos() as of the block being consumed. */
int64_t tt_readahead_pos(const tt_readahead *ra);

/* True once the end or an error was reached and the thread joined: ctx is
 * the caller's again. */
bool tt_readahead_finished(const tt_readahead *ra);

void tt_readahead_free(tt_readahead *ra);

#endif
