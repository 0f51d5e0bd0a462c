/* atomic.h - write an output file so that it appears whole or not at all.
 *
 * Reports, marker sets and snapshots are things the user keeps; a run that
 * fails or is interrupted half way must not leave a truncated file where the
 * old one (or nothing) was. The data goes to a temporary file in the
 * target's own directory (so the final rename stays on one file system),
 * is flushed and fsync'ed, then renamed over the target in one step; any
 * failure, or tt_atomic_abort(), removes the temporary file.
 *
 *   tt_atomic a;
 *   if (tt_atomic_open(&a, path, &err)) ...
 *   fprintf(tt_atomic_file(&a), ...);       or tt_atomic_write(&a, p, n, &err)
 *   if (tt_atomic_commit(&a, &err)) ...     (the temp file is gone on failure)
 *
 * Every tt_atomic that was opened must end with exactly one commit, fail or
 * abort. A file replaced keeps its permission bits; a new file gets mode
 * 0666 minus the umask, like a file made by fopen. A symbolic link stays a
 * link: the file it points to is replaced. A target that exists and is not
 * a regular file (/dev/null, /dev/stdout, a named pipe) is written in place,
 * as a shell redirection would: renaming over it would replace the device
 * or pipe itself, and a stream cannot be whole-or-nothing anyway.
 *
 * Library code: errors come back in tt_error, nothing is printed. The
 * signal-time cleanup below is for the front end that owns signals.
 */
#ifndef TT_IO_ATOMIC_H
#define TT_IO_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

typedef struct tt_atomic {
    char *path;   /* target (owned copy) */
    char *tmp;    /* temporary file beside it (owned), NULL when closed
                     or written in place */
    FILE *f;      /* open on tmp until commit/abort */
    int   slot;   /* signal-cleanup registry slot + 1, 0 = none */
} tt_atomic;

/* Create the temporary file for `path`. On failure (directory missing or
 * not writable, path is a directory, out of memory) returns non-zero with
 * err set and nothing left on disk. */
int tt_atomic_open(tt_atomic *a, const char *path, tt_error *err);

/* The stream to write to (buffered). Write errors are remembered by the
 * stream and reported by tt_atomic_commit(). */
FILE *tt_atomic_file(tt_atomic *a);

/* Write n bytes; non-zero with err set on a write error. */
int tt_atomic_write(tt_atomic *a, const void *p, size_t n, tt_error *err);

/* Flush, fsync, close and rename over the target, then fsync the directory.
 * On any failure the temporary file is removed, the target is untouched and
 * non-zero is returned with err set. */
int tt_atomic_commit(tt_atomic *a, tt_error *err);

/* For a caller whose writes through tt_atomic_file() failed: close and
 * remove the temporary file (the target is untouched) and set err to
 * "cannot write PATH: REASON", the reason the file system gives. Call it
 * right after the failure. Returns TT_ERR_IO. */
int tt_atomic_fail(tt_atomic *a, tt_error *err);

/* Close and remove the temporary file; the target is untouched. Safe on a
 * tt_atomic that was never opened successfully (zeroed) or already ended. */
void tt_atomic_abort(tt_atomic *a);

/* Remove every temporary file of writes still in progress. Only calls
 * unlink(2), so a fatal-signal handler may call it before re-raising. */
void tt_atomic_signal_cleanup(void);

#endif
