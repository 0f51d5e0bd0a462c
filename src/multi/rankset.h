/* rankset.h - several traces of one distributed job, one per rank.
 *
 * Inputs are files and directories; a directory stands for every trace
 * file in it (any supported format, compressed or not; hidden files and
 * tracetty's own sidecars are skipped), or, when a profiler wrote it, for
 * the ranks of its layout (multi/jobdir.h). Each trace is one rank: from
 * its metadata (distributedInfo.rank), else from its file name (rank_5,
 * rank-5, rank5, -5-of-8, worker5, name_5.sqlite; an Ascend
 * trace_view.json from its tree's profiler_info), else from its position
 * in the order given. Traces load in parallel on the available cores.
 *
 * Time alignment puts every rank on one axis: an offset per rank added to
 * its timestamps.
 *   absolute   offsets 0 (the default when the clocks share a base: the
 *              ranks' spans overlap or lie close together)
 *   start      every rank starts at the earliest start
 *   event      the Nth occurrence of a named event (e.g. ProfilerStep#10,
 *              or the first collective) happens at the same time on all
 *
 * Ownership: a tt_rankset owns its traces and strings.
 * Library code: no printing; progress through a callback.
 */
#ifndef TT_MULTI_RANKSET_H
#define TT_MULTI_RANKSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "model/trace.h"
#include "util/error.h"

typedef enum tt_align_mode {
    TT_ALIGN_AUTO = 0,   /* absolute when clocks share a base, else start */
    TT_ALIGN_ABSOLUTE,
    TT_ALIGN_START,
    TT_ALIGN_EVENT
} tt_align_mode;

typedef struct tt_align_spec {
    tt_align_mode mode;
    char          event[256];   /* TT_ALIGN_EVENT: event name, or "collective" */
    unsigned      nth;          /* TT_ALIGN_EVENT: 1-based occurrence */
    char          alt_event[256];   /* "event:NAME#N" read the other way: */
    unsigned      alt_nth;          /* the N-th NAME, used when a trace has
                                     * no event named "NAME#N" */
    char          set[256];     /* "marker:SET:M": the marker set; event is
                                   then the marker M, found in each trace's
                                   own sidecar (markers/markers.h) */
} tt_align_spec;

/* "absolute", "start", "event:NAME" or "event:NAME#N", "collective" (the
 * first collective kernel) or "collective#N". "event:ProfilerStep#10" is
 * the first event named ProfilerStep#10 when the trace has one, else the
 * 10th ProfilerStep; "event:NAME#N#M" is the M-th event named NAME#N.
 * "step:N" is "event:ProfilerStep#N". "marker:SET:M" is the time of marker
 * M of the set SET saved beside each trace's file (TT_ALIGN_EVENT with
 * set[] named). */
int tt_align_parse(const char *s, tt_align_spec *a, tt_error *err);

typedef enum tt_rank_source {
    TT_RANK_FROM_METADATA = 0,
    TT_RANK_FROM_NAME,
    TT_RANK_FROM_ORDER
} tt_rank_source;

typedef struct tt_rank {
    char          *path;     /* as found (owned) */
    tt_trace      *trace;    /* owned */
    int64_t        rank;
    tt_rank_source source;
    tt_ns          offset;   /* added to the trace's times to align it */
} tt_rank;

typedef struct tt_rankset {
    tt_rank      *r;         /* sorted by rank */
    size_t        n;
    tt_align_mode aligned;   /* mode actually applied (AUTO resolved) */
} tt_rankset;

/* Progress of a parallel load: files done, bytes decoded so far. */
typedef void (*tt_rankset_progress_fn)(void *ctx, size_t done, size_t total,
                                       int64_t bytes, uint64_t events);

typedef struct tt_rankset_opts {
    const tt_load_opts    *load;      /* per-trace load options (progress ignored) */
    unsigned               threads;   /* 0 = the number of online CPUs */
    tt_rankset_progress_fn progress;
    void                  *progress_ctx;
} tt_rankset_opts;

/* Expand paths (files and directories) into the list of trace files, in a
 * stable order (directory entries sorted naturally). Returns a malloc'd
 * array of malloc'd strings in *files. A directory without trace files is
 * an error. */
int tt_rankset_expand(const char *const *paths, size_t n, char ***files, size_t *n_files,
                      tt_error *err);
void tt_rankset_free_files(char **files, size_t n);

/* Rank from a file name, or -1 (an Ascend tree's trace_view.json: from
 * the tree's profiler_info file, jobdir.h). */
int64_t tt_rank_from_name(const char *path);

/* The rank rule every command shares: ranks[i] is the rank trace i's
 * metadata or file name gave, or -1. Given ranks must be unique: else
 * returns -1 with *dup_a < *dup_b the two positions claiming one rank.
 * The others take the lowest free ranks in the order given; returns 0. */
int tt_ranks_resolve(int64_t *ranks, size_t n, size_t *dup_a, size_t *dup_b);

/* Load files[0..n) in parallel into out[0..n) (all NULL on entry), on up
 * to o->threads threads in all: each load's own budget (tt_load_opts
 * threads) is 1 when there are at least as many files as threads. On
 * failure of any, returns -1; errs[i] says why file i failed (its code is
 * TT_OK for files that loaded or were not tried) and the traces that did
 * load stay in out for the caller to free. */
int tt_load_parallel(char *const *files, size_t n, const tt_rankset_opts *o, tt_trace **out,
                     tt_error *errs);

/* A trace handed over by tt_load_each(): trace i (owned by the callee,
 * who frees it), or NULL with err saying why its load failed. Non-zero
 * stops the loads. */
typedef int (*tt_load_each_fn)(void *ctx, size_t i, tt_trace *tr, const tt_error *err);

/* Load files[0..n) on up to o->threads threads (each load's budget as in
 * tt_load_parallel) and hand each to fn in file order, on the calling
 * thread, as soon as it and those before it have loaded: the threads go
 * on loading while fn works. At most `ahead` (at least 1) traces are
 * loading or loaded and not yet handed over, so memory holds about
 * `ahead` traces however many files there are. Stops at the first
 * non-zero return of fn (the traces loaded beyond are freed) and returns
 * it; 0 when every file was handed over. */
int tt_load_each(char *const *files, size_t n, const tt_rankset_opts *o, size_t ahead,
                 tt_load_each_fn fn, void *ctx);

/* Load every file in parallel and assign ranks. On failure err names the
 * file (err->what starts with its path) and nothing is kept. */
int tt_rankset_load(tt_rankset *rs, char *const *files, size_t n, const tt_rankset_opts *o,
                    tt_error *err);

/* Take traces[0..n), loaded from files[0..n) (by tt_load_parallel, or one
 * by one), as the ranks of a job: ranks from metadata, file name or order
 * exactly as tt_rankset_load assigns them, sorted by rank. Takes every
 * trace (the entries are set to NULL), also on failure, when they are
 * freed. */
int tt_rankset_adopt(tt_rankset *rs, char *const *files, tt_trace **traces, size_t n,
                     tt_error *err);

/* When the alignment event (Nth occurrence of a name, or of a collective)
 * happens on a trace. 0, 1 when the trace has no such occurrence, -1 on
 * OOM. */
int tt_align_event_time(const tt_trace *tr, const tt_align_spec *a, tt_ns *at);

/* What TT_ALIGN_EVENT looks for, for "has no ... to align on" messages:
 * "occurrence 2 of 'X'", or with two readings "event named 'X#2' nor an
 * occurrence 2 of 'X'". Returns buf. */
const char *tt_align_target(const tt_align_spec *a, char *buf, size_t n);

/* Offsets for n ranks from their first start t0[i], last end t1[i] and,
 * for TT_ALIGN_EVENT, event_at[i] (ignored otherwise; may be NULL). The
 * first rank is the reference for event alignment. *applied receives the
 * mode used (AUTO resolved). */
void tt_align_offsets(const tt_align_spec *a, const tt_ns *t0, const tt_ns *t1,
                      const tt_ns *event_at, size_t n, tt_ns *offsets, tt_align_mode *applied);

/* Human name of an applied alignment ("absolute", "start", "event X#N"). */
const char *tt_align_describe(const tt_align_spec *a, tt_align_mode applied, char *buf, size_t n);

/* Compute offsets. TT_ERR_USAGE when an event alignment finds no such
 * event on some rank (the message names the rank). */
int tt_rankset_align(tt_rankset *rs, const tt_align_spec *a, tt_error *err);

void tt_rankset_init(tt_rankset *rs);
void tt_rankset_fini(tt_rankset *rs);

#endif
