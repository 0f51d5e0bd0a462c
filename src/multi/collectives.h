/* collectives.h - the same collective operation on every rank.
 *
 * A collective is a communication kernel (analysis/classify.h); its
 * occurrences on one rank are numbered per kernel name in time order
 * (sequence 0, 1, ...), and (name, sequence) matches it across ranks.
 * A collective finishes at about the same moment everywhere, once the last
 * rank has arrived, so on each rank
 *   wait = its duration - the shortest duration among the ranks
 * is the time it spent waiting for the others, and the rank with wait 0
 * arrived last. With clocks on one base, each rank's start offset from the
 * earliest rank shows the same thing directly.
 *
 * Per-rank lists are small (collectives only), so ranks can be loaded,
 * listed and freed one at a time before matching.
 *
 * Library code: no I/O. Ownership: lists own their arrays and names.
 */
#ifndef TT_MULTI_COLLECTIVES_H
#define TT_MULTI_COLLECTIVES_H

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
} tt_coll;

typedef struct tt_colls {
    tt_coll *v;
    size_t   n, cap;
    char   **names;     /* distinct kernel names (owned) */
    size_t   n_names, cap_names;
} tt_colls;

void tt_colls_init(tt_colls *c);
void tt_colls_fini(tt_colls *c);

/* Append the collectives of one rank (its trace, its place `rank` in the
 * job, and the offset aligning its clock). 0, or -1 with err set. */
int tt_colls_add(tt_colls *c, const tt_trace *tr, size_t rank, tt_ns offset, tt_error *err);

/* Match by (name, sequence) and fill ranks, offset and wait; sorts the list
 * by first start of each collective, then rank. 0, or -1 (OOM). */
int tt_colls_match(tt_colls *c, tt_error *err);

static inline const char *tt_coll_name(const tt_colls *c, const tt_coll *x)
{
    return c->names[x->name];
}

#endif
