/* argslazy.h - a snapshot's argument records, rebuilt on first read.
 * Internal to src/snapshot/ (snapshot.c is the only user).
 *
 * A whole reopen used to rebuild every argument record (argcols.h) and
 * compress it again into the trace's store: a quarter of the reopen, for
 * records most commands never read. Instead the trace's store gets a
 * source (model/args.h) that keeps the section's compressed bytes and
 * rebuilds one chunk of records (argcols.h: chunks decode on their own)
 * the first time a record of it is read. The section is as untrusted as
 * when it was read at once: a corrupt one fails that read, and
 * tt_args_error() gives the positioned error the reopen would have given.
 *
 * What a chunk's records are predicted from (argcols_hint: the name and
 * correlation id of the event that introduces each record) is not kept
 * per record: it is found again in the trace's events, which number new
 * records in order (evblocks.h), from the nearest mark before the chunk.
 *
 * A caller looking for a few keys (analysis/argvals.h, for the rules)
 * asks first which records may hold them (tt_args_filter): a chunk's
 * templates (argcols.h) hold every byte of its records' texts but the
 * numbers, so a key in none of them is in none of its records, and the
 * chunk is passed over without being rebuilt. The templates come from
 * the argument templates section (argtmplsec.h) when the file has one;
 * else from the arguments section, decompressed for them.
 *
 * Ownership: the source borrows the trace (whose store owns the source,
 * so the trace outlives it) and copies the section's bytes.
 */
#ifndef TT_SNAPSHOT_ARGSLAZY_H
#define TT_SNAPSHOT_ARGSLAZY_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "snapshot/argcols.h"
#include "util/error.h"

/* A place in the events where new records start: the event at position
 * idx of lane `lane` is the first from which record `arg` may be
 * introduced (every record below arg is introduced before it). */
typedef struct tt_argslazy_mark {
    uint32_t arg, lane;
    size_t   idx;
} tt_argslazy_mark;

/* Give tr->args (an empty store) the n_args records of the arguments
 * section: its stored bytes frame[0..stored) (a zstd frame of raw bytes
 * once decompressed, checksummed by the caller), at `offset` in the file
 * (for errors); n_strings bounds the events' names; marks[0..n_marks)
 * sorted by arg, the first at arg 1 (copied). The events of tr must be
 * decoded and checked, and stay as they are. tmpl[0..tmpl_len), when not
 * NULL, is the argument templates section (argtmplsec.h; copied) and
 * tchunks[0..n_tchunks) its chunks as tt_argtmplsec_decode() read them
 * (taken: freed by the store, also when this fails); without it the
 * templates are read from the arguments section when first needed.
 * Returns 0, or -1 with err set (out of memory). */
int tt_argslazy_attach(tt_trace *tr, const unsigned char *frame, size_t stored, uint64_t raw,
                       int64_t offset, uint32_t n_args, uint32_t n_strings,
                       const tt_argslazy_mark *marks, size_t n_marks,
                       const unsigned char *tmpl, size_t tmpl_len, tt_argcols_chunk *tchunks,
                       uint32_t n_tchunks, tt_error *err);

#endif
