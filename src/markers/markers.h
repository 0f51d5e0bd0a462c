/* markers.h - markers and named marker sets, kept beside the trace.
 *
 * A marker is a point in time (ns relative to the trace start) with a name
 * and an optional note. Marker sets are stored by name in one JSON sidecar
 * per trace: TRACE.markers.json beside the trace, or, when the trace's
 * directory is not writable, $XDG_DATA_HOME/tracetty/<file>-<hash>.markers.json
 * (default ~/.local/share/tracetty). Each set records the identity of the
 * trace it was made for (file size and a 64-bit hash of its first MiB), so
 * loading it against another trace can warn.
 *
 * Safety: every change is read-modify-write under an exclusive lock on
 * SIDECAR.lock and replaces the sidecar atomically (src/io/atomic.h), so
 * concurrent writers never lose each other's sets and an interrupted write
 * leaves the old file. A sidecar that does not parse is reported with its
 * position and never overwritten.
 *
 * Marker names are unique within a set (`report --between A:B` names
 * them): adding or renaming to a name the set has is an error. A file
 * written by an older version may hold a name twice; it still loads, and
 * naming such a marker in tt_markset_resolve is an error that says so.
 *
 * Ownership: a tt_markstore owns its sets, markers and strings;
 * tt_markstore_fini() frees them. Library code: no printing.
 */
#ifndef TT_MARKERS_MARKERS_H
#define TT_MARKERS_MARKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef struct tt_marker {
    int64_t t;      /* ns from the trace start */
    char   *name;   /* owned, never NULL */
    char   *note;   /* owned, never NULL ("" = none) */
} tt_marker;

typedef struct tt_trace_id {
    uint64_t size;  /* bytes of the trace file */
    uint64_t hash;  /* tt_hash_bytes of its first MiB */
} tt_trace_id;

/* A set saved in the view of a job of several ranks is written beside
 * every rank's trace, each copy in that trace's own times; this records
 * how they were converted from the job's axis (job time = ns from the
 * job's start on the aligned axis):
 *   trace time = job time + start
 * where start = job start (aligned) - offset - the trace's first
 * timestamp, i.e. where the job starts, counted from this trace's start
 * (0 or negative). */
typedef struct tt_markjob {
    char    *align;   /* owned: the alignment used ("absolute", ...);
                         NULL: not made in the view of a job */
    int64_t  rank;    /* this trace's rank */
    uint32_t ranks;   /* ranks in the job */
    int64_t  offset;  /* this rank's offset (aligned = own time + offset) */
    int64_t  start;   /* see above */
} tt_markjob;

typedef struct tt_markset {
    char       *name;     /* owned */
    tt_trace_id trace;    /* the trace the set was saved for */
    tt_marker  *m;        /* sorted by time, then name */
    size_t      n, cap;
    tt_markjob  job;      /* job.align != NULL: made in the view of a job */
} tt_markset;

typedef struct tt_markstore {
    tt_markset *sets;     /* sorted by name */
    size_t      n, cap;
} tt_markstore;

/* ------------------------------------------------------------ identity */

/* Identity of a trace file. Errors: unreadable file, stdin. */
int tt_trace_id_of(const char *trace_path, tt_trace_id *id, tt_error *err);

/* Sidecar path for a trace: beside it when its directory is writable,
 * else under the XDG data directory (created when writing). For reading
 * (writing = false) an existing sidecar beside the trace is used even in a
 * read-only directory. Returns a malloc'd path or NULL with err set. */
char *tt_markers_sidecar(const char *trace_path, bool writing, tt_error *err);

/* ---------------------------------------------------------------- store */

void tt_markstore_init(tt_markstore *s);
void tt_markstore_fini(tt_markstore *s);

/* Read a sidecar. A missing file is an empty store; a file that does not
 * parse or has the wrong shape is an error with its position. */
int tt_markstore_read(tt_markstore *s, const char *sidecar, tt_error *err);

/* Serialize a store to JSON text (malloc'd), deterministic key order;
 * NULL when out of memory (never a partial document). */
char *tt_markstore_to_json(const tt_markstore *s);

/* Add a set's markers to the JSON object obj as "markers": [{"name",
 * "t_ns", "note"}], the sidecar's shape (also `markers list --format
 * json`). false when out of memory. */
struct cJSON;
bool tt_markset_add_json(struct cJSON *obj, const tt_markset *set);

/* Set by name, or NULL. */
tt_markset *tt_markstore_find(tt_markstore *s, const char *name);

/* Set by name, created empty when missing (identity id). NULL on OOM. */
tt_markset *tt_markstore_get(tt_markstore *s, const char *name, tt_trace_id id);

/* Remove a set; returns false when there was none. */
bool tt_markstore_remove(tt_markstore *s, const char *name);

/* Rename a set; errors when the new name is taken or the set is missing. */
int tt_markstore_rename(tt_markstore *s, const char *from, const char *to, tt_error *err);

/* Replace (or create) a set with a copy of the given markers (kept as
 * they are, see tt_markset_assign). */
int tt_markstore_put(tt_markstore *s, const char *name, tt_trace_id id,
                     const tt_marker *m, size_t n, tt_error *err);

/* Record (a copy of) job in the set, or with job NULL (or job->align
 * NULL) forget it. 0, or -1 on OOM. */
int tt_markset_set_job(tt_markset *set, const tt_markjob *job);

/* Add the set's job record to the JSON object obj as "job": {"align",
 * "rank", "ranks", "offset_ns", "job_start_ns"} (nothing when it has
 * none): the sidecar's shape, also `markers list --format json`. false
 * when out of memory. */
bool tt_markset_add_job_json(struct cJSON *obj, const tt_markset *set);

/* ------------------------------------------------------------------ set */

/* A name a marker can have: not empty, and without ':' (report --between
 * A:B splits there). 0, or -1 with err set (TT_ERR_USAGE). */
int tt_marker_name_check(const char *name, tt_error *err);

/* Add a marker (copies the strings) keeping time order. Its name must pass
 * tt_marker_name_check() (NULL: no name). A name that a
 * marker of the set has already is refused (TT_ERR_USAGE: "there is a
 * marker named 'a' already (at 10 ms)"). Returns its index, or -1 with err
 * set (name taken, out of memory). */
long tt_markset_add(tt_markset *set, int64_t t, const char *name, const char *note,
                    tt_error *err);

/* Replace the set's markers with copies of m[0..n), each time plus shift,
 * as they are: names are not checked, so a set read from an older file
 * that holds a name twice can be copied, loaded and saved again. 0, or -1
 * with err set (out of memory; the set is then empty). */
int tt_markset_assign(tt_markset *set, const tt_marker *m, size_t n, int64_t shift,
                      tt_error *err);

/* Index of the (first, in time order) marker with this name, or -1. */
long tt_markset_find(const tt_markset *set, const char *name);

/* How many markers have this name: 0 or 1, more only in a set read from
 * a file an older version wrote. */
size_t tt_markset_count(const tt_markset *set, const char *name);

/* Remove marker i. */
void tt_markset_remove(tt_markset *set, size_t i);

/* Rename marker i (copies); a name tt_marker_name_check() refuses, or
 * that another marker has, is refused as in tt_markset_add. 0, or -1 with
 * err set. */
int tt_markset_rename(tt_markset *set, size_t i, const char *name, tt_error *err);

/* Set the note of marker i (copies). 0 or -1 on OOM. */
int tt_markset_note(tt_markset *set, size_t i, const char *note);

/* Resolve a marker reference: a marker name, or (when no marker has that
 * name) a time with a unit ("12.5ms"). Returns 0 and *t, or an error: no
 * such marker, or a name that several markers have (an older file). */
int tt_markset_resolve(const tt_markset *set, const char *ref, int64_t *t, tt_error *err);

/* ------------------------------------------------------------- changes */

/* A change applied under the sidecar lock: edit the store in place and
 * return 0 to save, 1 to leave the file as is, or -1 with err set. */
typedef int (*tt_markstore_edit_fn)(tt_markstore *s, void *ctx, tt_error *err);

/* Lock SIDECAR.lock, read the sidecar, apply edit, write it atomically,
 * unlock. A corrupt sidecar is reported and left untouched. */
int tt_markstore_update(const char *sidecar, tt_markstore_edit_fn edit, void *ctx,
                        tt_error *err);

#endif
