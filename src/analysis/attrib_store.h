/* attrib_store.h - the stored form of an attribution (attrib.h), shared by
 * attrib.c, which builds and queries it, and the .ttz snapshot's
 * attribution section (snapshot/attribsec.c), which saves it and restores
 * it on reopen instead of rebuilding it.
 *
 * Per lane (n events), each array NULL when the lane needs none:
 * - slot (thread lanes with nesting: kind thread, max_depth > 0): one
 *   uint16 per event. For an event i at depth d > 0 whose predecessor is
 *   one row up (i - 1 is its parent: i is a first child), slot[i] holds
 *   the host self time of i - 1; for any other event at depth d > 0 it
 *   holds i - parent(i); at depth 0 it is 0. So one slot gives both the
 *   parents that cannot be read off the depths and the self times that
 *   cannot (a leaf's self time is its duration). UINT16_MAX: the value is
 *   in the escape table (esc_idx sorted, esc_val: a parent's index, or a
 *   self time, UINT32_MAX for one that does not fit: recomputed).
 * - launch (lanes holding device events with a launcher): per event its
 *   launcher's global number (events numbered lane by lane) + 1, 0: none.
 * - has, total, same, big_*, xs_* (host lanes under a launch): has is a
 *   bitmap of the events with device time; entry k (the k-th set bit,
 *   found in O(1) through rank, the set bits before each 64-bit word) has
 *   device total total[k] (UINT32_MAX: in big_at/big_val, sorted by k),
 *   and device self equal to the total when bit k of same is set, else
 *   xs_val where xs_at holds k (sorted), else 0.
 * Numbers for summary: n_links, n_device, n_dangling; per string id the
 * classification flags of attrib.c (0: not computed yet).
 *
 * Ownership: a store is built by attrib.c and owned by its tt_attrib; the
 * snapshot reader fills one from a file and hands it, with everything it
 * holds, to tt_attrib_store_adopt(). Library code: no I/O.
 */
#ifndef TT_ANALYSIS_ATTRIB_STORE_H
#define TT_ANALYSIS_ATTRIB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/attrib.h"
#include "model/trace.h"

/* What attrib.c computes, and how it stores it: bump when either changes,
 * so that an attribution saved by another version is rebuilt, not used.
 * 2: the same store as 1, the .ttz section's totals packed (attribsec.c
 * reads both). */
#define TT_ATTRIB_STORE_VERSION 2u

#define TT_ATTRIB_SLOT_ESC UINT16_MAX

typedef struct tt_attrib_lane_store {
    bool      device;      /* the lane holds a device event */
    uint16_t *slot;        /* n, or NULL: no nesting */
    uint32_t *esc_idx;     /* n_esc, sorted, each slot[esc_idx[k]] == ESC */
    uint32_t *esc_val;
    uint32_t  n_esc;
    uint32_t *launch;      /* n, or NULL: no launch link on this lane */
    uint64_t *has;         /* (n + 63) / 64 words, or NULL: no device time */
    uint32_t *rank;        /* per word of has: set bits before it */
    uint32_t *total;       /* n_sum */
    uint64_t *same;        /* (n_sum + 63) / 64 words */
    uint32_t *big_at;      /* n_big, sorted entries whose total is UINT32_MAX */
    int64_t  *big_val;
    uint32_t  n_big;
    uint32_t *xs_at;       /* n_xs, sorted entries with another self */
    int64_t  *xs_val;
    uint32_t  n_xs;
    uint32_t  n_sum;
} tt_attrib_lane_store;

typedef struct tt_attrib_store {
    uint32_t              n_lanes;
    uint32_t              n_str;
    uint8_t              *sflags;   /* n_str */
    tt_attrib_lane_store *lanes;    /* n_lanes */
    uint64_t              n_links, n_device, n_dangling;
    void                 *arena;    /* NULL, or the one block that holds every
                                     * lane array (a restore's): freed whole */
} tt_attrib_store;

/* Does lane ln store slots (thread lane with nesting)? */
static inline bool tt_attrib_lane_nested(const tt_lane *ln)
{
    return ln->kind == TT_LANE_THREAD && ln->max_depth > 0 && ln->n > 0;
}

/* The store of a built attribution (borrowed). */
const tt_attrib_store *tt_attrib_store_of(const tt_attrib *a);

/* Install st, read from an untrusted file, as tr's attribution (the one
 * tt_attrib_get() then returns): every size, index, ordering and count is
 * checked against tr first (its rank words are computed here; the slots
 * are bounded where they are read, see attrib.c). Takes everything st
 * holds, on failure too (st is left empty). 0; 1 when tr already had an
 * attribution (kept); -1 with *why (static text) when st does not fit
 * tr; -2 out of memory. */
int tt_attrib_store_adopt(const tt_trace *tr, tt_attrib_store *st, const char **why);

/* Free every array st holds and empty it. */
void tt_attrib_store_free(tt_attrib_store *st);

#endif
