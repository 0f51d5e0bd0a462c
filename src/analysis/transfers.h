/* transfers.h - data movement in a selection: memcpy, memset and DMA
 * events, i.e. events that carry a byte count (tt_event.bytes >= 0).
 *
 * Grouped by a key (by default the event name, which carries the direction
 * in Kineto and nsys: "Memcpy HtoD (Pageable -> Device)"; `lane` groups by
 * stream or DMA queue). A transfer is counted, with all its bytes, when it
 * overlaps the window. Per group and over all transfers:
 *   bytes       count, total, avg, median, min, max, sample stddev (dist.h)
 *   busy        length of the union of the group's transfer intervals
 *               (whole intervals, as their bytes are counted whole)
 *   throughput  total bytes / busy, in bytes per second (0 when busy is 0)
 *   histogram   counts per power-of-two size bucket (tt_xfer_bucket)
 *
 * Library code: no I/O. Results are owned by the caller.
 */
#ifndef TT_ANALYSIS_TRANSFERS_H
#define TT_ANALYSIS_TRANSFERS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/dist.h"
#include "analysis/key.h"
#include "analysis/select.h"
#include "util/arena.h"
#include "util/error.h"

/* Bucket 0 holds size 0; bucket k >= 1 holds [2^(k-1), 2^k). */
#define TT_XFER_BUCKETS 64

static inline int tt_xfer_bucket(int64_t bytes)
{
    return bytes <= 0 ? 0 : 64 - __builtin_clzll((unsigned long long)bytes);
}

/* Smallest size of bucket k (0, 1, 2, 4, ...). */
static inline int64_t tt_xfer_bucket_min(int k)
{
    return k == 0 ? 0 : (int64_t)1 << (k - 1);
}

typedef struct tt_xfer_row {
    const char *label;      /* owned by the result; "" for the none group */
    bool        none;
    uint32_t    id;         /* lane index or string id, as in tt_brk_row */
    tt_dist     bytes;
    tt_ns       busy;
    double      throughput; /* bytes per second */
    uint64_t    hist[TT_XFER_BUCKETS];
} tt_xfer_row;

typedef struct tt_transfers {
    tt_key       key;
    tt_xfer_row *rows;      /* sorted by total bytes, descending */
    size_t       n;
    tt_xfer_row  all;       /* every transfer in the selection */
    tt_arena     arena;
} tt_transfers;

/* A window holding every event of its lanes (the box over the whole trace)
 * is answered from a result cached per lane set and key (setsum.h); others
 * walk the selection. */
int tt_transfers_compute(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                         tt_transfers **out, tt_error *err);
/* The same by walking every event of the selection (tests, bench). */
int tt_transfers_compute_walk(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                              tt_transfers **out, tt_error *err);
void tt_transfers_free(tt_transfers *t);   /* NULL is a no-op */

#endif
