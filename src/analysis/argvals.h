/* argvals.h - argument values of many events, read in storage order.
 *
 * Arguments live in compressed blocks in the order the decoder met the
 * events (model/args.h), with one block cached per reader. Rules, reports
 * and breakdowns walk events lane by lane in time order, which in a file
 * whose events are not in time order (exporters do not promise it) means
 * decompressing another 128 KiB block for almost every event. Callers that
 * need arguments of many events therefore collect the events first and ask
 * here: the events are sorted by record handle, each record is read and
 * parsed once (each block decompressed once), and the values of the asked
 * keys are kept as interned text for the caller to use in its own order.
 * Records the store can tell hold none of the keys without reading them
 * (tt_args_filter: a loaded trace's blocks, from the keys noted as they
 * were filled; a snapshot's chunks, from their templates) are never read,
 * so their blocks are never decompressed and their chunks never rebuilt
 * (nor checked: a corrupt chunk whose templates hold none of the keys
 * fails only the reads that need it, as any chunk no read needs).
 *
 * A value is the text tt_argcache_get_typed() gives (key.h): a string as
 * is, anything else as compact JSON, looked up in the args object first,
 * then among the event's other unknown fields.
 *
 * Ownership: a tt_argvals owns its table and texts; the events stay the
 * trace's. Library code, no I/O; not thread-safe.
 */
#ifndef TT_ANALYSIS_ARGVALS_H
#define TT_ANALYSIS_ARGVALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/select.h"
#include "model/trace.h"
#include "util/error.h"
#include "util/strtab.h"

typedef struct tt_argvals {
    size_t     n, n_keys;
    uint32_t  *val;    /* n * n_keys cells, event-major: 0 = no such argument,
                        * else (1 + id in text) << 1 | is-a-JSON-number */
    tt_strtab *text;   /* distinct value texts */
    uint64_t   blocks_read;   /* argument blocks decompressed: at most one per
                               * block holding a wanted record */
    uint64_t   parsed;        /* records parsed: those whose raw text may hold
                               * one of the keys */
} tt_argvals;

/* Values of keys[0..n_keys) of ev[0..n) (events may repeat). An event
 * whose record cannot be read (a corrupt block) has none of the keys when
 * `strict` is false; when it is true the call fails with -2 and err set
 * (TT_ERR_FORMAT), as tt_argcache_get() does. A snapshot's arguments
 * section found corrupt when first read (model/args.h: tt_args_error)
 * fails the call either way, with the section's positioned error. Returns 0, -1 out of
 * memory (err set), or -2. On failure *v is left empty (fini is safe). */
int tt_argvals_fetch(const tt_trace *tr, const tt_event *const *ev, size_t n,
                     const char *const *keys, size_t n_keys, bool strict, tt_argvals *v,
                     tt_error *err);

void tt_argvals_fini(tt_argvals *v);

/* The events of a selection in the order statistics and reports walk it
 * (its lanes in order, each lane's events in the window in start order),
 * only those with a byte count when transfers_only: the list to fetch
 * arguments for before such a walk. *ev (free() it) and *n; 0, or -1 out
 * of memory (err set). */
int tt_argvals_sel_events(const tt_trace *tr, const tt_sel *sel, bool transfers_only,
                          const tt_event ***ev, size_t *n, tt_error *err);

/* Value of key k of the i-th event asked, or NULL when it has none;
 * *is_number (may be NULL) says whether it was a JSON number. Valid until
 * tt_argvals_fini(). */
static inline const char *tt_argvals_get(const tt_argvals *v, size_t i, size_t k,
                                         bool *is_number)
{
    uint32_t c = v->val[i * v->n_keys + k];
    if (is_number)
        *is_number = c & 1;
    return c ? tt_strtab_get(v->text, (c >> 1) - 1) : NULL;
}

#endif
