/* collectives.h - the same collective operation on every rank.
 *
 * A collective is a communication kernel (analysis/classify.h); its
 * occurrences on one rank are numbered per kernel name in time order
 * (sequence 0, 1, ...), and (name, sequence) matches it across ranks.
 * The definitions, one for the report, the view and the straggler rule:
 *   offset    its start - the earliest start among the ranks, on the job's
 *             aligned clock: only as good as the clocks' alignment;
 *   duration  the kernel's own duration;
 *   wait      its duration - the shortest duration among the ranks: the
 *             time spent in the kernel waiting for the others (a collective
 *             finishes at about the same moment everywhere, once the last
 *             rank is in). Measured inside each rank, it needs no aligned
 *             clocks;
 *   last      the last to arrive: the rank with the least wait (ties: the
 *             later start, then the lower rank).
 * With aligned clocks the rank with the latest start is the last to
 * arrive; when a rank starts later than it (tt_colls_facts.contradict), the
 * start offsets are wrong, not the waits, and "last" still follows the
 * waits. Point-to-point kernels (NCCL SendRecv, Send, Recv) wait for one
 * peer only, so "last to arrive" says little about them.
 *
 * Per-rank lists are small (collectives only), so ranks can be loaded,
 * listed and freed one at a time before matching.
 *
 * Library code: no I/O. Ownership: lists own their arrays and names.
 */
#ifndef TT_MULTI_COLLECTIVES_H
#define TT_MULTI_COLLECTIVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/error.h"

typedef struct tt_coll {
    uint32_t name;      /* index into the list's names */
    uint32_t seq;       /* occurrence of that name on the rank, from 0 */
    size_t   rank;      /* index of the rank (position in the job) */
    tt_ns    start;     /* on the rank's own clock, plus its offset */
    tt_ns    dur;
    tt_evref ev;        /* the kernel on its trace */
    /* filled by tt_colls_match */
    uint32_t ranks;     /* ranks that ran this collective */
    tt_ns    offset;    /* start - earliest start among those ranks */
    tt_ns    wait;      /* dur - shortest duration among those ranks */
    bool     last;      /* the last to arrive (see above); with ranks > 1 */
} tt_coll;

typedef struct tt_colls {
    tt_coll *v;
    size_t   n, cap;
    char   **names;     /* distinct kernel names (owned) */
    size_t   n_names, cap_names;
    size_t   n_ranks;      /* ranks added (1 + the largest rank index) */
    int64_t  world_size;   /* largest distributedInfo.world_size, 0 unknown */
} tt_colls;

void tt_colls_init(tt_colls *c);
void tt_colls_fini(tt_colls *c);

/* Append the collectives of one rank (its trace, its place `rank` in the
 * job, and the offset aligning its clock). 0, or -1 with err set. */
int tt_colls_add(tt_colls *c, const tt_trace *tr, size_t rank, tt_ns offset, tt_error *err);

/* Match by (name, sequence) and fill ranks, offset and wait; sorts the list
 * by first start of each collective, then rank. 0, or -1 (OOM). */
int tt_colls_match(tt_colls *c, tt_error *err);

/* What the matched list can and cannot tell (after tt_colls_match). */
typedef struct tt_colls_facts {
    size_t  total;        /* collectives (distinct name and sequence) */
    size_t  matched;      /* of those, run by two ranks or more */
    size_t  contradict;   /* matched ones where a rank starts after the last
                           * to arrive: the start offsets contradict the waits */
    size_t  disjoint;     /* matched ones whose kernels share no instant on
                           * the aligned clock (impossible with aligned clocks) */
    size_t  p2p;          /* point-to-point ones (tt_coll_name_is_p2p) */
    size_t  ranks;        /* ranks added */
    int64_t world_size;   /* from the traces' metadata, 0 unknown */
} tt_colls_facts;

void tt_colls_facts_of(const tt_colls *c, tt_colls_facts *f);

/* The same over the entries v[from .. to) only, which must hold whole
 * collectives (one collective: its group in the list, in any order). */
void tt_colls_facts_range(const tt_colls *c, size_t from, size_t to, tt_colls_facts *f);

/* The facts worth a note, as sentences separated by '\n' (none: ""),
 * the same for the report's stderr and the view: clocks that contradict
 * the waits, fewer ranks loaded than world_size, point-to-point kernels.
 * Returns the number of notes. */
size_t tt_colls_notes(const tt_colls_facts *f, char *buf, size_t cap);

/* A point-to-point kernel: NCCL's SendRecv, Send or Recv (after an
 * ncclKernel_ or ncclDevKernel_ prefix). */
bool tt_coll_name_is_p2p(const char *name);

static inline const char *tt_coll_name(const tt_colls *c, const tt_coll *x)
{
    return c->names[x->name];
}

#endif
