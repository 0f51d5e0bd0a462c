/* attrib.h - who is responsible for the device time: nesting, self time
 * and op-to-kernel attribution of a finalized trace (issue 14).
 *
 * Definitions:
 * - parent: the enclosing event on a thread lane's row stack (the nearest
 *   earlier event one row up, as tt_lane_nest() stacks them). Events of
 *   async lanes have none.
 * - host self time: dur minus the union of its direct children clipped to
 *   the event (children include runtime calls). Instants have none.
 * - device event: classify.h's kernel, memcpy, memset and collective
 *   classes (Ascend tasks and nsys GPU activity are categorised that way
 *   by their decoders); engine instructions are never launched, so not.
 * - launcher of a device event: the source of a flow into it that lies on
 *   a host event (Kineto ac2g, nsys correlation flows, Ascend HostToDevice;
 *   when that source's corr differs from the device event's and a host
 *   event has the device event's corr, that event: a flow bound astray),
 *   else the host event with the same correlation id (`corr`): of several,
 *   a runtime call before any other, then the last in (lane, index) order
 *   (of nested calls with one id, the innermost).
 * - launch op: the innermost of the launcher and its ancestors that is
 *   neither a runtime/driver call (table in attrib.c) nor a Python frame
 *   (category python_function); the launcher itself when there is none.
 * - device self of a host event: the durations of the device events whose
 *   launch op it is; device total: of those whose launcher is it or one of
 *   its descendants.
 *
 * Ownership: the attribution is built once, lazily, on the first
 * tt_attrib_get() of a trace (or restored from a .ttz by its reader, see
 * attrib_store.h), published into the trace's second aux slot
 * (tr->aux_attrib) and freed by tt_trace_free(); callers never free it.
 * It holds a few bytes per event (attrib.c says how).
 * Every query is thread-safe. Library code: no I/O.
 */
#ifndef TT_ANALYSIS_ATTRIB_H
#define TT_ANALYSIS_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"
#include "util/error.h"

typedef struct tt_attrib tt_attrib;   /* opaque, owned by the trace */

/* Build once (lazily, on first call) and return the attribution of a
 * finalized trace. NULL with err on OOM. Thread-safe. */
const tt_attrib *tt_attrib_get(const tt_trace *tr, tt_error *err);

#define TT_NO_EVENT ((tt_evref){TT_NO_LANE, 0})
static inline bool tt_evref_ok(tt_evref r) { return r.lane != TT_NO_LANE; }

/* Parent on the lane's row stack, TT_NO_EVENT when none. O(1) (O(log n)
 * for the rare parent 65535 or more events back). */
tt_evref tt_attrib_parent(const tt_attrib *a, tt_evref ev);
/* Host self time (ns); 0 for instants. O(1) (O(log n) for the rare self
 * time of 65535 ns or more, O(subtree) for one past 2^32-2 ns). */
tt_ns tt_attrib_self(const tt_attrib *a, tt_evref ev);
/* Is this a device event (kernel/memcpy/memset/collective)? O(1). */
bool tt_attrib_is_device(const tt_attrib *a, tt_evref ev);
/* Does the lane hold any device event (a GPU stream, an NPU queue)? Its
 * other events (gpu_user_annotation) are not host work either. O(1). */
bool tt_attrib_lane_is_device(const tt_attrib *a, uint32_t lane);
/* Is this host event a runtime/driver call (cudaLaunchKernel, ...)? O(1). */
bool tt_attrib_is_runtime(const tt_attrib *a, tt_evref ev);
/* Is this a Python frame (category python_function)? O(1). */
bool tt_attrib_is_python(const tt_attrib *a, tt_evref ev);
/* The launching host call of a device event, TT_NO_EVENT when unknown. O(1). */
tt_evref tt_attrib_launcher(const tt_attrib *a, tt_evref dev);
/* The launch op (see above), TT_NO_EVENT when no launcher. O(depth). */
tt_evref tt_attrib_launch_op(const tt_attrib *a, tt_evref dev);
/* Device self / total time of a host event (0 for device events and for
 * hosts that launched nothing). O(log n). */
tt_ns tt_attrib_device_self(const tt_attrib *a, tt_evref host);
tt_ns tt_attrib_device_total(const tt_attrib *a, tt_evref host);
/* The device events launched directly (launch op == host) or anywhere
 * under host (launcher is host or a descendant): appended to a
 * caller-owned tt_evref array (grow pattern of util/grow.h), in launcher
 * order. 0, or -1 on OOM. The first call builds a reverse index. */
int tt_attrib_launched(const tt_attrib *a, tt_evref host, bool anywhere,
                       tt_evref **out, size_t *n, size_t *cap);
/* Counts for summary and notes. */
size_t tt_attrib_n_links(const tt_attrib *a);      /* device events with a launcher */
size_t tt_attrib_n_device(const tt_attrib *a);     /* device events */
size_t tt_attrib_n_dangling(const tt_attrib *a);   /* corr ids / flows that name no event */
bool   tt_attrib_has_links(const tt_attrib *a);    /* n_links > 0 */
/* The three counts above without building the attribution (summary
 * needs no more): from the attribution when the trace has one (built, or
 * restored from a .ttz), else from one pass over the device events that
 * finds each launcher as the build does and stores nothing (no nesting,
 * no sums: a fraction of the build's time and none of its per-event
 * memory). The same numbers as tt_attrib_n_*() of tt_attrib_get(). 0, or
 * non-zero with err on OOM. Thread-safe. */
typedef struct tt_attrib_counts {
    size_t n_device, n_links, n_dangling;
} tt_attrib_counts;
int tt_attrib_count(const tt_trace *tr, tt_attrib_counts *out, tt_error *err);
/* Bytes held by the attribution (for the bench's bytes-per-event). */
size_t tt_attrib_memory(const tt_attrib *a);

#endif
