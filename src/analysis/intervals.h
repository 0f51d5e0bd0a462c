/* intervals.h - sets of time intervals: union, length, intersection.
 *
 * Busy time over several lanes and the GPU breakdown's class unions and
 * "exposed" differences are all lengths of unions and intersections of
 * half-open intervals [s, e). A tt_ivals collects intervals in any order;
 * tt_ivals_normalize() turns it into a sorted list of disjoint, non-empty,
 * non-touching intervals, which the other operations take.
 *
 * Normalizing sorts with a natural merge sort: input made of k sorted runs
 * (events appended lane by lane) costs O(n log k), a single run O(n).
 * Exact int64 arithmetic throughout. Library code: no I/O.
 */
#ifndef TT_ANALYSIS_INTERVALS_H
#define TT_ANALYSIS_INTERVALS_H

#include <stddef.h>

#include "model/trace.h"

typedef struct tt_ival {
    tt_ns s, e;   /* [s, e), e >= s */
} tt_ival;

typedef struct tt_ivals {
    tt_ival *v;
    size_t   n, cap;
} tt_ivals;

void tt_ivals_init(tt_ivals *a);
void tt_ivals_fini(tt_ivals *a);

/* Append [s, e); empty intervals (e <= s) are ignored. 0, or -1 on OOM. */
int tt_ivals_push(tt_ivals *a, tt_ns s, tt_ns e);

/* Sort and merge overlapping or touching intervals. 0, or -1 on OOM (the
 * list is then unchanged). */
int tt_ivals_normalize(tt_ivals *a);

/* Total length of a normalized list. */
tt_ns tt_ivals_length(const tt_ivals *a);

/* Length of the intersection of two normalized lists. O(n + m). */
tt_ns tt_ivals_overlap_length(const tt_ivals *a, const tt_ivals *b);

/* out = a ∪ b (both normalized; out normalized, must be neither a nor b).
 * 0, or -1 on OOM. */
int tt_ivals_union(const tt_ivals *a, const tt_ivals *b, tt_ivals *out);

#endif
