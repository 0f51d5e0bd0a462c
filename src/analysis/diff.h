/* diff.h - what changed between two traces (or two regions, two ranks):
 * the engine of `tracetty diff` and of the compare view's panel.
 *
 * A side is one trace's table of name -> (count, total ns) for a kind:
 *   ops        the selection's breakdown by name or a --by key
 *              (analysis/stats.h, tt_breakdown_compute): count = instances,
 *              total = their durations clipped to the window, as
 *              `report --kind ops` says them
 *   kernels    the device kernels of the selection by kernel name
 *              (analysis/kernels.h, as `report --kind kernels`): count =
 *              calls, total = their whole durations
 *   operators  the host operators of the selection by name
 *              (analysis/operators.h, as `report --kind operators`):
 *              count = calls, total = Device Total when the trace has
 *              launch links, else Host Total (tt_diff_side_device())
 * Two sides make a diff: one row per name of either side, matched exactly
 * (or on what a name_map makes of the names: names that map to the same
 * text are summed). A row's status is by count, as HTA's ops_diff says it:
 *   added      count A == 0 (only in B)
 *   deleted    count B == 0 (only in A)
 *   increased  count B >  count A
 *   decreased  count B <  count A
 *   unchanged  the same count (totals may still differ)
 * Rows are sorted by |delta| descending, then by name in byte order, the
 * "(none)" row (events without the key) last among equals.
 *
 * Library code: no I/O. Ownership: a side and a diff own every string
 * they hold (copied), so they outlive the traces; x_free(NULL) is a no-op.
 */
#ifndef TT_ANALYSIS_DIFF_H
#define TT_ANALYSIS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/key.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "util/error.h"

typedef enum tt_diff_kind { TT_DIFF_OPS = 0, TT_DIFF_KERNELS, TT_DIFF_OPERATORS } tt_diff_kind;

typedef enum tt_diff_status {
    TT_DIFF_ADDED = 0,
    TT_DIFF_DELETED,
    TT_DIFF_INCREASED,
    TT_DIFF_DECREASED,
    TT_DIFF_UNCHANGED
} tt_diff_status;   /* by count, as HTA ops_diff */

#define TT_DIFF_N_STATUS 5

/* ---------------------------------------------------------------- sides */

typedef struct tt_diff_side tt_diff_side;   /* one side's name -> (count, total ns) table */

/* One side: the rows of `kind` over sel of tr (key: the --by key for ops,
 * NULL = name; kernels and operators group by name and take no key).
 * 0, or non-zero with err set (out of memory, unreadable arguments, a key
 * given to a kind that takes none: TT_ERR_USAGE). */
int tt_diff_side_compute(const tt_trace *tr, const tt_sel *sel, tt_diff_kind kind,
                         const tt_key *key, tt_diff_side **out, tt_error *err);
void tt_diff_side_free(tt_diff_side *s);

/* An empty side, filled by tt_diff_side_add(): for tables that come from
 * elsewhere (tests, other engines). NULL when out of memory. */
tt_diff_side *tt_diff_side_new(void);

/* Add count and total to the row `name` (NULL: the "(none)" row), made on
 * first use; name is copied. 0, or -1 with err set (out of memory). */
int tt_diff_side_add(tt_diff_side *s, const char *name, uint64_t count, int64_t total,
                     tt_error *err);

/* Rows of a side, its total over them, and, for operators, whether the
 * totals are device totals (the trace has launch links) or host totals. */
size_t tt_diff_side_count(const tt_diff_side *s);
int64_t tt_diff_side_total(const tt_diff_side *s);
bool tt_diff_side_device(const tt_diff_side *s);

/* ----------------------------------------------------------------- diff */

typedef struct tt_diff_row {
    const char    *name;               /* owned by the tt_diff; NULL: the "(none)" key */
    tt_diff_status status;
    uint64_t       count_a, count_b;
    int64_t        total_a, total_b, delta;   /* ns; delta = total_b - total_a */
    double         delta_pct;          /* 100*delta/total_a; NAN when total_a == 0 */
    double         avg_a, avg_b;       /* total/count, NAN when count 0 */
} tt_diff_row;

struct tt_strtab;

typedef struct tt_diff {
    tt_diff_row      *rows;            /* sorted by |delta| descending, then name */
    size_t            n;
    int64_t           sum_a, sum_b;    /* sums of the Total columns */
    uint64_t          count_a, count_b; /* sums of the Count columns */
    size_t            n_status[TT_DIFF_N_STATUS];   /* rows per status */
    struct tt_strtab *names;           /* private: the rows' names */
} tt_diff;

/* name_map: NULL, or a function mapping a name to the name rows are matched
 * on (h-gate's --normalize): writes it into out (cap bytes, NUL-terminated
 * when cap > 0) and returns its full length, as snprintf does; a length of
 * cap or more means "call me again with a larger buffer". Rows that map to
 * the same name are summed. The "(none)" row is never mapped. */
typedef size_t (*tt_diff_name_map)(const char *in, char *out, size_t cap);

/* The diff of a (before) and b (after). 0, or -1 with err set (out of
 * memory). */
int tt_diff_compute(const tt_diff_side *a, const tt_diff_side *b, tt_diff_name_map map,
                    tt_diff **out, tt_error *err);
void tt_diff_free(tt_diff *d);

/* Rows present on both sides (increased + decreased + unchanged): 0 means
 * the two have no name in common. */
size_t tt_diff_common(const tt_diff *d);

/* "added", "deleted", "increased", "decreased", "unchanged". */
const char *tt_diff_status_name(tt_diff_status s);

/* "ops", "kernels", "operators"; and the kind named s (0, or -1). */
const char *tt_diff_kind_name(tt_diff_kind k);
int tt_diff_kind_parse(const char *s, tt_diff_kind *k);

#endif
