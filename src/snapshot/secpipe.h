/* secpipe.h - compress a snapshot's finished sections on a helper thread
 * while the writer builds the next ones. Internal to src/snapshot/.
 *
 * Why: `convert` spent about a second of a 10M-event encode compressing
 * its big sections (arguments 59 MB, attribution 28 MB, flows 13 MB) one
 * after another on one core, between stretches of work that are serial
 * too (building the attribution) or that do not fill both cores. Handed
 * to a helper thread, each compression overlaps the writer's next steps.
 * Every section is compressed exactly as before, with the same level and
 * parameters, so the file is the same byte for byte.
 *
 * The raw buffers are recycled: a finished one goes back to a pool with
 * its capacity, and the writer's next section starts in the largest one
 * free, so the big sections reuse pages already faulted in (a page's
 * first touch costs ~20 us on the VMs this runs on) rather than new ones.
 *
 * With one core (tt_parallel_cores(), TRACETTY_THREADS=1) or when no
 * thread can be started, each section is compressed at once on the
 * caller, as the writer used to. Library code: no I/O. Ownership: the
 * pipe owns the buffers handed to it and those in its pool; the
 * destinations stay the caller's and must not be touched before
 * tt_secpipe_finish() returns.
 */
#ifndef TT_SNAPSHOT_SECPIPE_H
#define TT_SNAPSHOT_SECPIPE_H

#include <stdint.h>

#include "snapshot/wire.h"
#include "util/error.h"

/* Compress raw (level, section id) into dst; 0, or non-zero with err set.
 * Called on the helper thread, one section at a time. */
typedef int (*tt_secpipe_fn)(void *dst, uint32_t id, const tt_wbuf *raw, int level,
                             tt_error *err);

typedef struct tt_secpipe tt_secpipe;

/* A pipe that compresses with fn; NULL when out of memory. */
tt_secpipe *tt_secpipe_start(tt_secpipe_fn fn);

/* Hand raw's bytes over to be compressed into dst; *raw becomes an empty
 * buffer (the largest free one of the pool, or a new one). A raw buffer
 * that ran out of memory (raw->oom) is refused: -1 with err set, *raw
 * left as it is. Errors of the compression itself come from
 * tt_secpipe_finish(). */
int tt_secpipe_submit(tt_secpipe *p, void *dst, uint32_t id, tt_wbuf *raw, int level,
                      tt_error *err);

/* Wait until every section handed over is compressed, stop the helper
 * and free the pipe. 0, or -1 with err set to the first failure (when
 * err did not already hold one). p may be NULL. */
int tt_secpipe_finish(tt_secpipe *p, tt_error *err);

#endif
