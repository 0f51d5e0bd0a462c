/* calltree.h - the call tree of a selection (a time window over lanes).
 *
 * Top-down: every event of the selection (select.h) is an instance of a
 * node; nodes are merged by name path, so every `aten::linear` called from
 * the same chain of names is one node:
 *   - a host event (not a device event, attrib.h) hangs under the node of
 *     its parent on its lane's row stack (tt_attrib_parent) when that
 *     parent is in the selection and is not itself a device event, else it
 *     is a root;
 *   - a device event (kernel, memcpy, memset, collective) hangs under the
 *     node of its launch op (tt_attrib_launch_op) when the launch op is in
 *     the selection, so a kernel appears under the op that launched it, on
 *     the host side of the tree (step -> op -> child ops -> kernels); else
 *     under its own lane parent as a host event would, else it is a root.
 * Each node has:
 *   calls       instances in the selection
 *   host_total  sum of the instances' durations clipped to the window
 *   host_self   sum of their self times clipped to the window: the clipped
 *               duration minus the union of the clipped direct children on
 *               the same lane (those of attrib.h, here limited to the
 *               window, as analysis/stats.c clips every duration with
 *               tt_sel_clip)
 *   dev_self    device events: their clipped durations; host events: the
 *               clipped durations of the device events of the selection
 *               hanging directly under them (launched by them)
 *   dev_total   dev_self plus the children's dev_total
 * Device event nodes have host_total = host_self = 0. Device time counts
 * only the device events inside the selection (on its lanes, in its
 * window): a box over host lanes alone shows no device time, and a kernel
 * launched in the window that runs after it is not counted.
 *
 * Bottom-up (tt_calltree_bottom_up): the roots are the names (with
 * host/device kept apart), each with the self time of all its top-down
 * nodes; below a name its callers, below them theirs, each with the part
 * of the name's self time called through that chain. calls, host_self and
 * dev_self add up that way; host_total and dev_total add the totals of the
 * top-down nodes whose name is not nested in itself, so recursion counts
 * once per outermost instance.
 *
 * Nodes are stored parents first (a parent's index is below its
 * children's); siblings are chained in descending weight order (weight:
 * host_total for host nodes, dev_total for device nodes; bottom-up:
 * host_self / dev_self), ties by name.
 *
 * Cost: O(k) hash lookups for a selection of k events plus O(log k) per
 * device event for its launch op, and 12 bytes per event to remember which
 * node each instance belongs to (tt_calltree_instances).
 *
 * Library code: no I/O. Ownership: a tt_calltree borrows the trace (name
 * ids are its string ids) and owns its arrays (tt_calltree_free).
 */
#ifndef TT_ANALYSIS_CALLTREE_H
#define TT_ANALYSIS_CALLTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/key.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "util/error.h"

#define TT_CT_NONE UINT32_MAX

typedef struct tt_ctnode {
    uint32_t name;           /* string id of the trace */
    uint32_t parent;         /* TT_CT_NONE for a root */
    uint32_t child, next;    /* first child, next sibling; TT_CT_NONE */
    uint32_t depth;          /* 0 for a root */
    bool     device;         /* a device event's node */
    uint64_t calls;
    tt_ns    host_total, host_self;
    tt_ns    dev_total, dev_self;
} tt_ctnode;

typedef struct tt_calltree {
    const tt_trace *tr;
    bool            bottom_up;
    bool            has_links;   /* the trace has launch links (attrib.h) */
    tt_ctnode      *v;
    size_t          n, cap;
    uint32_t        root;        /* first root, TT_CT_NONE when empty */
    /* top-down only: the selection's events and the node of each */
    tt_evref       *ev;
    uint32_t       *node;
    size_t          n_ev;
    /* bottom-up only: the top-down tree it was made from (borrowed) */
    const struct tt_calltree *td;
} tt_calltree;

/* The top-down call tree of a selection of a finalized trace. 0, or
 * non-zero with err set (out of memory). */
int tt_calltree_build(const tt_trace *tr, const tt_sel *sel, tt_calltree **out, tt_error *err);

/* The bottom-up tree of a top-down one, which it borrows (td must outlive
 * it). 0, or non-zero with err set. */
int tt_calltree_bottom_up(const tt_calltree *td, tt_calltree **out, tt_error *err);

void tt_calltree_free(tt_calltree *ct);   /* NULL is a no-op */

/* The sort weight of a node (see above). */
tt_ns tt_calltree_weight(const tt_calltree *ct, uint32_t node);

/* The events that are instances of a node: appended to a caller-owned
 * array (util/grow.h pattern), in the selection's order (lane by lane,
 * by start). For a bottom-up node: the instances of the top-down nodes
 * whose name path, read upwards, is the bottom-up node's path read from
 * its root down. 0, or -1 on OOM. */
int tt_calltree_instances(const tt_calltree *ct, uint32_t node, tt_evref **out, size_t *n,
                          size_t *cap);

/* Self times of a selection summed by a key (name, category, opcode,
 * layer, lane; not an argument), for the statistics panel's Self
 * columns: host[i] is the sum of the clipped self times (as host_self
 * above, for device events too: their duration minus what nests in them
 * on their lane) of the selection's events whose key id is ids[i] (a
 * string id, 0 for the events without the key, or a lane index), dev[i]
 * the clipped durations of the selection's device events whose launch op
 * is such an event of the selection. Ids not listed are left out. Cost:
 * O(k), with attrib.h's self times for lanes the window clips nothing
 * of; when the window holds every event of each selected lane (the
 * full-range box), the sums selfsum.h keeps per lane: O(their entries),
 * after one O(n) pass per key kind. 0, or non-zero with err set (out of memory; an argument key). */
int tt_calltree_self_by(const tt_trace *tr, const tt_sel *sel, const tt_key *key,
                        const uint32_t *ids, size_t n, tt_ns *host, tt_ns *dev, tt_error *err);

#endif
