/* srcset.h - the sources of one `tracetty query`: a lone trace, several
 * traces, or the ranks of a job directory, loaded on demand.
 *
 * A query may name 64 ranks; keeping 64 traces in memory is what report
 * avoids, so a source set loads source i when a table scan reaches it and
 * keeps at most `keep` sources loaded, unloading the least recently used
 * one that no open cursor holds (tt_sql_srcset_acquire pins a source until
 * its release). A scan visits the sources in order, so each loads once
 * per scan; a join across ranks may load a source again (correct, slower).
 * When a scan reaches a source that is not loaded, the next sources it
 * will read load with it in one parallel batch (tt_sql_srcset_acquire_ahead).
 *
 * Each loaded source is a tt_sql_src (sql/sqltab.h) with what the command
 * asked resolved against its trace as report resolves it
 * (analysis/select.h): --window FROM:TO (offsets from the trace start),
 * --lanes patterns, or --markers SET --between A:B (a window per source,
 * given by the caller, who reads the marker sidecars).
 *
 * Ranks: the rank column of a source is tt_report_rank() of its trace
 * (metadata, else file name, else the lowest free rank in order; a lone
 * trace without one: NULL). Before a source loads, its rank is taken as
 * known when its file name gives one (tt_rank_from_name), so `rank = N`
 * loads only the sources that may have rank N. A trace whose metadata
 * contradicts its file name's rank is the one case this misses; then the
 * metadata's rank is shown once it is loaded.
 *
 * What is loaded: arguments, flows and counters are skipped unless a table
 * a statement reads needs them (tt_sql_srcset_need, from the tables'
 * `needs`); a source loaded without a part a later statement needs loads
 * again.
 *
 * Ownership: the set owns its sources, the traces it loaded (not
 * those given to tt_sql_srcset_new_loaded) and the tables' whole-set
 * states (tt_sql_srcset_cache); paths and marker sets
 * are borrowed and must outlive it. Library code: loading goes through
 * the caller's load function; nothing here prints.
 */
#ifndef TT_SQL_SRCSET_H
#define TT_SQL_SRCSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/select.h"
#include "sql/sqltab.h"
#include "util/error.h"

struct tt_markset;

/* Load path (source i) leaving out the parts in skip (TT_TRACE_NO_*):
 * the trace, or NULL with err set. */
typedef tt_trace *(*tt_sql_load_fn)(void *ctx, size_t i, const char *path, unsigned skip,
                                    tt_error *err);
/* Load paths[0..n) together (in parallel), leaving out skip, into
 * out[0..n) (all NULL on entry): 0, or -1 with err set and out all NULL. */
typedef int (*tt_sql_load_many_fn)(void *ctx, char *const *paths, size_t n, unsigned skip,
                                   tt_trace **out, tt_error *err);

typedef struct tt_sql_srcset_opts {
    const tt_window_spec *window;    /* --window, or NULL */
    const char           *lanes;     /* --lanes patterns, or NULL: every lane */
    /* --markers SET --between A:B: per source its set and window (n
     * entries each), or NULL */
    const struct tt_markset *const *markers;
    const tt_window_spec *between;
    size_t                keep;      /* sources loaded at once; 0: 4 */
    tt_sql_load_fn        load;
    tt_sql_load_many_fn   load_many;  /* may be NULL: one at a time */
    void                 *load_ctx;
} tt_sql_srcset_opts;

typedef struct tt_sql_srcset tt_sql_srcset;

/* A set over paths[0..n) (borrowed, n >= 1). NULL with err set when out
 * of memory. */
tt_sql_srcset *tt_sql_srcset_new(char *const *paths, size_t n, const tt_sql_srcset_opts *o,
                                 tt_error *err);
void tt_sql_srcset_free(tt_sql_srcset *s);   /* NULL is a no-op */

/* A trace the caller has loaded already (the view's ranks): borrowed, it
 * must outlive the set; rank is its rank column (-1: NULL). */
typedef struct tt_sql_loaded {
    const tt_trace *tr;
    const char     *path;   /* as the user named it, or NULL */
    int64_t         rank;
} tt_sql_loaded;

/* A set over v[0..n) (n >= 1), all loaded from the start and never
 * unloaded or loaded again: the parts a trace was loaded without (its
 * arguments, flows or counters) read as empty. o's window, lanes and
 * markers apply as for paths; its keep and load functions are ignored.
 * NULL with err set (out of memory, a --lanes pattern error). */
tt_sql_srcset *tt_sql_srcset_new_loaded(const tt_sql_loaded *v, size_t n,
                                        const tt_sql_srcset_opts *o, tt_error *err);

size_t tt_sql_srcset_count(const tt_sql_srcset *s);

/* Source i's rank when known without loading it: true with *rank (-1: the
 * rank column is NULL). */
bool tt_sql_srcset_rank(const tt_sql_srcset *s, size_t i, int64_t *rank);

/* Add TT_SQLNEED_* parts the statements read. */
void tt_sql_srcset_need(tt_sql_srcset *s, unsigned needs);

/* Source i, loaded if it is not (unloading another when `keep` are),
 * pinned until tt_sql_srcset_release. NULL with err set when its load or
 * resolving the window or lanes fails. */
tt_sql_src *tt_sql_srcset_acquire(tt_sql_srcset *s, size_t i, tt_error *err);

/* The same, for a scan that will go on to the sources ahead[0..n) in this
 * order: when source i must load, those of them not loaded load with it
 * in one parallel batch (as report loads ranks), as many as `keep`
 * allows beside the sources in use. */
tt_sql_src *tt_sql_srcset_acquire_ahead(tt_sql_srcset *s, size_t i, const size_t *ahead,
                                        size_t n, tt_error *err);
void tt_sql_srcset_release(tt_sql_srcset *s, size_t i);

/* The state of table t over the whole set, built by build(s, err) on
 * first use (it may acquire and release any source, in batches) and freed
 * with free_fn with the set. NULL with err set when build fails. */
void *tt_sql_srcset_cache(tt_sql_srcset *s, const struct tt_sql_table *t,
                          void *(*build)(tt_sql_srcset *s, tt_error *err),
                          void (*free_fn)(void *state), tt_error *err);

/* Source i when it is loaded now, else NULL (for estimates: no load). */
const tt_sql_src *tt_sql_srcset_peek(const tt_sql_srcset *s, size_t i);

/* How many loads the set has done (tests: `rank = N` loads one). */
size_t tt_sql_srcset_loads(const tt_sql_srcset *s);

#endif
