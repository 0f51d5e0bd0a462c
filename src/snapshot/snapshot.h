/* snapshot.h - the .ttz snapshot: a loaded trace saved as versioned,
 * checksummed, zstd-compressed columns.
 *
 * A snapshot holds everything the model holds after tt_trace_finalize():
 * strings, attribute tuples, argument records (as templates and number
 * columns, see argcols.h), groups, lanes, events (column by column, each
 * turned into small repetitive numbers, see snapshot.c), counters, flows,
 * metadata, problems and tallies, and (format 4) the attribution of
 * analysis/attrib.h, which a whole reopen with flows restores instead of
 * rebuilding it (attribsec.h). Reading one restores the finalized
 * arrays directly, decoding each lane's blocks of events (evblocks.h) on
 * several cores, and rebuilds the interval index, so reopening is much
 * faster than decoding the source; the argument records are rebuilt only
 * when one is first read, a chunk of them at a time (argslazy.h), and a
 * reader that wants one window or a few lanes decodes only their blocks.
 * Nothing in a snapshot is trusted: every checksum, size, id and ordering
 * is checked, and a bad file is an error, never a crash (a corrupt
 * arguments section: when a record is first read, tt_args_error()). A
 * file of another format version is refused with a message that says so
 * (the --cache rebuilds such an entry).
 *
 * File layout (all integers little-endian):
 *   header   magic "\x89TTZ\r\n\x1a\n", u32 version, u32 section count,
 *            u64 file size, u32 crc32 of the section table,
 *            u32 crc32 of the preceding header bytes           (32 bytes)
 *   table    per section: u32 id, u32 flags (bit 0: zstd, always set),
 *            u64 offset, u64 stored size, u64 raw size,
 *            u32 crc32 of the stored bytes                      (36 bytes)
 *   sections each one zstd frame (with zstd's own content checksum), but
 *            format 3's events: frames one after another (flag bit 1,
 *            checksum 0 in the table), each block's crc32 in the index
 *            section (evblocks.h). Ids: 1 metadata, 2 strings,
 *            3 attributes, 4 arguments, 5 groups, 6 lanes, 7 events,
 *            8 counters, 9 flows, 10 event index (format 3 on),
 *            11 attribution (format 4 on); all required.
 *
 * Library code: never prints, never exits. Ownership: encode/write borrow
 * the trace; read fills a trace the caller created and owns.
 */
#ifndef TT_SNAPSHOT_SNAPSHOT_H
#define TT_SNAPSHOT_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "model/trace.h"
#include "util/error.h"

#define TT_SNAPSHOT_MAGIC "\x89TTZ\r\n\x1a\n"
#define TT_SNAPSHOT_MAGIC_LEN 8
/* Format 4: format 3 and the attribution (analysis/attrib.h: parents,
 * self times, launch links, device time; snapshot/attribsec.h), restored
 * on reopen instead of rebuilt. Format 3: each lane's events in blocks
 * that decode on their own, with an index of where they lie in time
 * (evblocks.h), so a window or a few lanes decode only their blocks.
 * Formats 3 and 2 (events as one frame of predicted columns) are still
 * read, their attribution rebuilt when asked; format 1 files are refused.
 * Arguments are templates and number columns in all. */
#define TT_SNAPSHOT_VERSION 4u

/* Identity of the file a snapshot was made from, checked by the cache
 * (src/snapshot/cache.h) before it trusts an entry. */
typedef struct tt_snapshot_source {
    bool     valid;          /* false: made by `convert`, not by the cache */
    int64_t  size;           /* bytes on disk */
    int64_t  mtime_ns;       /* modification time */
    uint64_t content_hash;   /* hash of the first and last MiB */
    uint64_t options_hash;   /* load options that change the model */
    char     path[4096];     /* absolute path of the source */
} tt_snapshot_source;

/* Encode a finalized trace into a malloc'ed buffer (*out, *n). src may be
 * NULL. A trace that lacks parts (tr->lacks) is refused. Returns 0, or
 * non-zero with err set. */
int tt_snapshot_encode(const tt_trace *tr, const tt_snapshot_source *src,
                       unsigned char **out, size_t *n, tt_error *err);

/* Encode and write to path atomically (temporary file in the same
 * directory, fsync, rename; nothing is left behind on failure). */
int tt_snapshot_write(const tt_trace *tr, const char *path, const tt_snapshot_source *src,
                      tt_error *err);

/* Decode a snapshot held in memory into tr, a new empty trace from
 * tt_trace_new(), decoding the events on up to `threads` threads (0: one
 * per core); tr's argument store keeps a copy of the arguments section
 * and rebuilds records from it when they are first read. On success tr is finalized (read-only) and,
 * when src is not NULL, *src receives the stored source identity. On
 * failure tr must still be freed by the caller; err names the problem and
 * its offset. */
int tt_snapshot_decode(const void *data, size_t n, unsigned threads, tt_trace *tr,
                       tt_snapshot_source *src, tt_error *err);

/* The same, leaving out the parts `skip` names (TT_TRACE_NO_ARGS: no
 * argument records, and every event's args is 0; TT_TRACE_NO_FLOWS: no flows; TT_TRACE_NO_COUNTERS: no
 * counter series, and the stored t0/t1 need only hold the events), for
 * commands that never read them; tr->lacks then says what is missing. Everything else is
 * decoded and checked as by tt_snapshot_decode() (the sections left out
 * only by their checksums). */
int tt_snapshot_decode_part(const void *data, size_t n, unsigned threads, unsigned skip,
                            tt_trace *tr, tt_snapshot_source *src, tt_error *err);

/* The same, and with part (tt_load_opts.part, decode/decode.h; only when
 * skip holds both TT_TRACE_NO_ARGS and TT_TRACE_NO_FLOWS, and only for a
 * snapshot of format 3) only the event blocks that may meet part's window
 * on part's lanes are decoded and checked; tr->lacks then holds
 * TT_TRACE_PARTIAL (model/trace.h). */
int tt_snapshot_decode_sel(const void *data, size_t n, unsigned threads, unsigned skip,
                           const tt_load_part *part, tt_trace *tr, tt_snapshot_source *src,
                           tt_error *err);

/* The source identity stored in a snapshot, without decoding the trace:
 * the header, the section table and every checksum are checked as by
 * tt_snapshot_decode() (so a file of another format version is refused the
 * same way), and only the metadata section is decompressed. Returns 0, or
 * -1 with err set. */
int tt_snapshot_read_source(const void *data, size_t n, tt_snapshot_source *src,
                            tt_error *err);

/* ------------------------------------------------ tests and fuzzers
 * Sections are numbered 1 .. TT_SNAPSHOT_SECTIONS - 1. These two let a
 * test corrupt the content of a section while keeping the file's framing
 * and checksums valid, so the section parsers themselves are exercised. */
#define TT_SNAPSHOT_SECTIONS 13u
/* The attribution section (format 4, snapshot/attribsec.h). */
#define TT_SNAPSHOT_SEC_ATTRIB 11u

/* The decompressed payload of section `id` of a snapshot whose framing
 * and checksums are valid. *raw is malloc'ed (NULL, *len 0, for the
 * optional argument templates section when the file has none). Returns 0
 * or -1. */
int tt_snapshot_section(const void *file, size_t n, unsigned id, unsigned char **raw,
                        size_t *len, tt_error *err);

/* A snapshot file from raw section payloads (raw[id], len[id] for id 1 ..
 * TT_SNAPSHOT_SECTIONS - 1; raw[id] NULL leaves the section out),
 * compressed and checksummed as the writer does. *out is malloc'ed.
 * Returns 0 or -1. */
int tt_snapshot_assemble(const unsigned char *const raw[TT_SNAPSHOT_SECTIONS],
                         const size_t len[TT_SNAPSHOT_SECTIONS], unsigned char **out, size_t *n,
                         tt_error *err);

/* Content probe: 100 for the snapshot magic, else 0. */
int tt_snapshot_probe(const unsigned char *head, size_t n);

/* The decoder table entry ("ttz"). */
extern const tt_decoder tt_decoder_ttz;

#endif
