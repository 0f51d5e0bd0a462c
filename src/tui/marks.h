/* marks.h - the markers of the view and the marker sets kept beside the
 * trace (markers/markers.h), for the terminal UI.
 *
 * The markers on screen are the "current" set: dropped with `m` (or a
 * right click), renamed, annotated, deleted in the markers panel. It
 * remembers which saved set it came from (loaded or last saved) and
 * whether it changed since, which the status line shows and quitting
 * asks about. Saving, loading, listing, renaming and deleting sets all go
 * through src/markers (the same sidecar file and format as `tracetty
 * markers` and `report --markers`): writes are atomic and locked, and a
 * corrupt sidecar is reported and left as it is.
 *
 * Marker names in the current set are unique (so `report --between A:B`
 * can name them); new markers are called m1, m2, ... until renamed.
 *
 * Several ranks (tt_marks_set_job): the view's markers count from the
 * job's start on the aligned axis, and the sets are those of every rank's
 * sidecar. Saving writes the set beside every rank's trace, each copy in
 * that trace's own times (trace time = job time + the rank's `start`, the
 * job's start counted from the trace's start: tt_markjob), recording the
 * job and the alignment, so `report --markers SET --between A:B` over the
 * ranks cuts each rank at the instants the view shows. Every sidecar is
 * read first: one that does not parse stops the save before anything is
 * written. Loading takes a set from the first rank whose sidecar has it
 * and moves its times to the job's axis through that rank's `start` (a
 * set saved in one rank's own view works too). Renaming and deleting a
 * set apply to every rank's sidecar that has it.
 *
 * Ownership: tt_marks owns its markers, a copy of the trace path and the
 * sets last read from the sidecar. Library code: no printing; file I/O
 * only through src/markers.
 */
#ifndef TT_TUI_MARKS_H
#define TT_TUI_MARKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "markers/markers.h"
#include "model/trace.h"
#include "tui/plist.h"
#include "util/error.h"

#define TT_MARK_NAME_MAX 100

/* Item kinds of the panel's lines. */
enum {
    TT_MK_LINE_MARK = 1,   /* tag: marker index */
    TT_MK_LINE_SET         /* tag: set index in disk */
};

/* One rank of a job, for its marker sets. */
typedef struct tt_marks_rank {
    const char *path;    /* its trace file (copied); NULL or "-": none */
    int64_t     rank;
    int64_t     offset;  /* aligned = own time + offset */
    int64_t     start;   /* the job's start, ns from this trace's start */
} tt_marks_rank;

/* A rank's file as tt_marks keeps it. */
typedef struct tt_marks_src {
    char       *path;    /* owned; NULL: none */
    int64_t     rank, offset, start;
    tt_trace_id id;
    bool        has_id;
} tt_marks_src;

typedef struct tt_marks {
    tt_markstore cur;          /* holds one set: the markers in the view */
    char        *path;         /* the trace file; NULL when it came from stdin */
    char         loaded[TT_MARK_NAME_MAX + 1];   /* set loaded or saved last ("" none) */
    bool         dirty;        /* changed since loaded or saved */
    char         chosen[2][TT_MARK_NAME_MAX + 1];/* markers chosen for a distance */
    /* the sidecar's sets as last read (tt_marks_refresh) */
    tt_markstore disk;
    bool         disk_read;
    char         disk_err[400];
    char         sidecar[300];  /* its file name, for the panel (no directory) */
    tt_trace_id  id;            /* identity of the trace (valid when has_id) */
    bool         has_id;
    /* several ranks: their files; disk merges their sets, each from the
     * first rank holding one of that name (disk_src[i]), held by
     * disk_count[i] ranks */
    tt_marks_src *src;
    size_t       n_src;
    char         align[128];
    size_t      *disk_src;
    size_t      *disk_count;
    char         note[300];     /* what the last load did besides loading */
    /* panel */
    int          width;
    bool         utf8, built;
    tt_plist     pl;
} tt_marks;

/* path: the trace file (copied; NULL or "-" = none: sets cannot be kept). */
int tt_marks_init(tt_marks *m, const char *path);

/* Several ranks: the job's n ranks (in order, copied) and how the clocks
 * were aligned (a description, recorded in saved sets). 0, or -1 on OOM. */
int tt_marks_set_job(tt_marks *m, const tt_marks_rank *r, size_t n, const char *align);
static inline bool tt_marks_is_job(const tt_marks *m) { return m->n_src > 0; }
void tt_marks_fini(tt_marks *m);

/* The current markers (never NULL after a successful init). */
tt_markset *tt_marks_set(tt_marks *m);
static inline size_t tt_marks_count(tt_marks *m) { return tt_marks_set(m)->n; }

/* Drop a marker at t (ns from the trace start) named `name` or, when NULL,
 * the first free "mN". Returns its index, or -1 (OOM, or the name is
 * taken: err says which). */
long tt_marks_add(tt_marks *m, int64_t t, const char *name, tt_error *err);

/* Rename marker i (the name must be new and not empty); returns its new
 * index or -1 with err set. */
long tt_marks_rename(tt_marks *m, size_t i, const char *name, tt_error *err);

int tt_marks_note(tt_marks *m, size_t i, const char *note, tt_error *err);

/* Move marker i to t, keeping its name and note; returns its new index
 * (the markers stay in time order) or -1 with err set (out of memory:
 * the marker stays where it was when it can). */
long tt_marks_move(tt_marks *m, size_t i, int64_t t, tt_error *err);
void tt_marks_remove(tt_marks *m, size_t i);

/* Index of the first marker after t (dir > 0) or the last before t
 * (dir < 0), or -1. */
long tt_marks_step(tt_marks *m, int64_t t, int dir);

/* Choose marker i for the distance (a third choice replaces the oldest;
 * choosing a chosen one unchooses it). */
void tt_marks_choose(tt_marks *m, size_t i);

/* The two chosen markers' indexes (false unless two are chosen). */
bool tt_marks_chosen(tt_marks *m, size_t *a, size_t *b);

/* Read the sidecar's sets for the panel (errors are kept in disk_err, and
 * returned). */
int tt_marks_refresh(tt_marks *m, tt_error *err);

/* Save the current markers as set `name` (replacing a set of that name). */
int tt_marks_save(tt_marks *m, const char *name, tt_error *err);

/* Replace the current markers with set `name` from the sidecar. *other is
 * set when the set was saved for another trace (it is loaded anyway).
 * note says what else happened ("" when nothing): with several ranks,
 * whose file it came from and how its times were moved. */
int tt_marks_load(tt_marks *m, const char *name, bool *other, tt_error *err);

int tt_marks_delete_set(tt_marks *m, const char *name, tt_error *err);
int tt_marks_rename_set(tt_marks *m, const char *from, const char *to, tt_error *err);

/* Lines of the markers panel for an inner width. */
int tt_marks_build(tt_marks *m, int width, bool utf8);
static inline void tt_marks_touch(tt_marks *m) { m->built = false; }

/* Status line note: "set iter*", "set iter", "3 markers*" or "" (none). */
const char *tt_marks_status(tt_marks *m, char *buf, size_t n);

#endif
