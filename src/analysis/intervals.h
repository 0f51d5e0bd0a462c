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

/* Room for n intervals in all, so that that many pushes do not move the
 * list (untouched room costs address space only). 0, or -1 on OOM. */
int tt_ivals_reserve(tt_ivals *a, size_t n);

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

/* Append a ∩ b to out (a and b normalized; out stays sorted and disjoint
 * when it starts empty). 0, or -1 on OOM. */
int tt_ivals_intersect(const tt_ivals *a, const tt_ivals *b, tt_ivals *out);

/* Window queries on a normalized list v[0..n) kept with its prefix
 * lengths pre[i] = total length of v[0, i) (n + 1 entries): the index of
 * the first interval ending after t, of the first starting at or after t,
 * and the length inside [from, to). O(log n). */
size_t tt_runs_first_ending_after(const tt_ival *v, size_t n, tt_ns t);
size_t tt_runs_first_starting_from(const tt_ival *v, size_t n, tt_ns t);
tt_ns tt_runs_length_in(const tt_ival *v, const tt_ns *pre, size_t n, tt_ns from, tt_ns to);

#endif
