/* stats_fast.h - the summary and breakdown of stats.h for large selections,
 * from the summary levels of selsum.h instead of a walk over the events.
 *
 * Same numbers as the walk, to the nanosecond and to the last bit of every
 * double (dist.h computes avg and stddev from exact integer moments):
 *   summary    per lane, the events starting inside the window are a
 *              position range whose total is two block-sum lookups; only
 *              the events reaching across `from` or `to` (two stabbing
 *              queries) are clipped one by one; busy over the lane set
 *              comes from the set's cached union.
 *   breakdown  per lane and group, the whole lane's sorted durations and
 *              moments, minus the events outside the window and the
 *              unclipped durations of the clipped ones, plus their clipped
 *              durations; min, max and median by a k-th selection across
 *              lanes (binary search on the value over the sorted arrays).
 * Cost: O(lanes log n + groups x lanes x 64 log n + e) where e counts the
 * events outside the window and those crossing its edges, against O(k) for
 * a walk over the k events inside. They decline (return 0) when walking is
 * cheaper: a small window, or one leaving out many of its lanes' events
 * (more than 1/8 of what it holds); and for arg:KEY breakdowns. `force`
 * answers whenever the key allows (tests).
 *
 * Internal to src/analysis: callers use stats.h, which tries these first.
 */
#ifndef TT_ANALYSIS_STATS_FAST_H
#define TT_ANALYSIS_STATS_FAST_H

#include <stdbool.h>

#include "analysis/stats.h"

/* 1 with *out set, 0 when declined, -1 with err set (out of memory). */
int tt_summary_fast(const tt_trace *tr, const tt_sel *sel, bool force, tt_summary **out,
                    tt_error *err);
int tt_breakdown_fast(const tt_trace *tr, const tt_sel *sel, const tt_key *key, bool force,
                      tt_breakdown **out, tt_error *err);

/* Fill b's rows from groups (gid, distribution) in any order: labels,
 * shares, totals, sorted by total; shared by both paths of stats.c so the
 * rows are made one way. `vals` is the arg-key value table or NULL. 0, or
 * -1 on OOM. */
int tt_breakdown_set_rows(tt_breakdown *b, const tt_trace *tr, const tt_strtab *vals,
                          const uint32_t *gids, const tt_dist *dist, size_t n);

/* Grow a group id -> slot + 1 map (0: no slot yet, new entries zeroed)
 * so that gid is an index of it. 0, or -1 on OOM. */
int tt_gid_map_reserve(uint32_t **map, size_t *n, uint32_t gid);

#endif
