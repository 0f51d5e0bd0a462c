/* cache.h - reuse snapshots of traces across runs (`--cache`).
 *
 * An entry is a .ttz snapshot under $XDG_CACHE_HOME/tracetty/ (default
 * ~/.cache/tracetty/), named by a hash of the source's absolute path and
 * the load options that change the model. Inside, the snapshot records the
 * source's identity: size, modification time and a hash of its first and
 * last MiB, plus the options. An entry is used only when all of that still
 * matches; a stale, unreadable or corrupt entry is ignored (and replaced by
 * the caller), never trusted. Entries are written atomically.
 *
 * Library code: never prints. The caller decides what to tell the user.
 */
#ifndef TT_SNAPSHOT_CACHE_H
#define TT_SNAPSHOT_CACHE_H

#include "decode/decode.h"
#include "model/trace.h"
#include "snapshot/snapshot.h"
#include "util/error.h"

typedef struct tt_cache_entry {
    char               path[4096];   /* the entry's snapshot file */
    tt_snapshot_source id;           /* identity of the source right now */
} tt_cache_entry;

/* Work out the entry for a source path and load options. Returns 0 when the
 * source can be cached; 1 when caching makes no sense and the caller should
 * just load the file (stdin, a snapshot itself); -1 with err set when the
 * source is unreadable or no cache directory can be made. */
int tt_cache_prepare(const char *source_path, const tt_load_opts *opts, tt_cache_entry *ce,
                     tt_error *err);

/* Open the entry when it exists and matches ce->id (checked before the
 * trace is decoded: a stale entry costs its checksums and metadata only).
 * Returns 1 with *out a finalized trace (its source field still names the
 * path the snapshot was made from); 0 with *out NULL when there is no
 * usable entry, with why set to the reason when an entry existed but was
 * rejected (stale, corrupt). skip: tt_load_opts.skip, the parts to leave
 * out (see tt_snapshot_decode_part()). */
int tt_cache_load(const tt_cache_entry *ce, unsigned skip, tt_trace **out, tt_error *why);

/* The same, decoding only what part needs (tt_load_opts.part; see
 * tt_snapshot_decode_sel()): the trace then says TT_TRACE_PARTIAL in lacks when it holds part. */
int tt_cache_load_part(const tt_cache_entry *ce, unsigned skip, const tt_load_part *part,
                       tt_trace **out, tt_error *why);

/* Save tr as the entry (atomic replace). Returns 0 or -1 with err set. */
int tt_cache_store(const tt_cache_entry *ce, const tt_trace *tr, tt_error *err);

/* The cache directory ($XDG_CACHE_HOME/tracetty or ~/.cache/tracetty) into
 * buf; NULL when neither variable gives an absolute path. */
const char *tt_cache_dir(char *buf, size_t n);

#endif
