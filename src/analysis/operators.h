/* operators.h - the host operators of a selection and the times of one
 * operator instance: what `report --kind operators`
 * (report/kind_operators.c) sums per row and `diff --kind operators`
 * (analysis/diff.h) sums per name, one computation for both.
 *
 * Operators: every event of a host lane (a lane with no device event,
 * attrib.h) that is not an instant, not a Python frame (category
 * python_function) and not Kineto's span of the whole capture (category
 * "Trace", "PyTorch Profiler (0)": PyTorch's key_averages() leaves it out,
 * and its self time would double the "Self CPU time total"). An instance
 * counts when the selection holds it (its lane selected, overlapping the
 * window); its times are its own, whole: host self and total, device self
 * (device events it is the launch op of) and total (launched anywhere
 * under it). A runtime or driver call (cudaLaunchKernel) has no device
 * time of its own: its kernels count for the operator that made it, as in
 * key_averages(), where such a row's "CUDA total" is 0.
 *
 * Redispatches are one call, as PyTorch's EventList._remove_dup_nodes
 * makes them: an operator that is the only child of a parent of the same
 * name (autocast's aten::layer_norm calling aten::layer_norm) is no
 * instance of its own; its host self and device self time count for the
 * parent (whose children become its own: its self grows by the child's),
 * chains collapsing into the outermost. Checked against PyTorch's own
 * tables of two real captures, fp32 and bf16 autocast
 * (tests/cli/torch_capture.sh).
 *
 * Python frames (with_stack traces) are no events of key_averages(), and
 * they nest badly with ops (ProfilerStep#N starts inside one frame and
 * ends outside it). On a lane that holds any, the times come from
 * PyTorch's own op tree (_populate_cpu_children): the lane's operators
 * without the frames, in start order, each the child of the innermost
 * open one that wholly contains it; host self is the duration minus the
 * children's, device total the device self plus the children's device
 * totals, redispatches folded in that tree.
 *
 * Library code: no I/O. Ownership: the caller frees what it is given.
 */
#ifndef TT_ANALYSIS_OPERATORS_H
#define TT_ANALYSIS_OPERATORS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/attrib.h"
#include "analysis/select.h"
#include "model/trace.h"
#include "util/error.h"

/* One operator instance: the event and its times (the self times
 * include those of the redispatched children it absorbed, see above). */
typedef struct tt_op_inst {
    tt_evref ev;
    tt_ns    hself, dself, dtotal;
} tt_op_inst;

/* The operator instances of the selection, lane by lane in start order:
 * *out is malloc'ed (NULL when none). 0, or -1 with err set. */
int tt_operators_collect(const tt_trace *tr, const tt_attrib *a, const tt_sel *sel,
                         tt_op_inst **out, size_t *n, tt_error *err);

/* The sums of a group of operator instances. */
typedef struct tt_op_times {
    uint64_t calls;
    tt_ns    hself, htotal, dself, dtotal;
} tt_op_times;

/* Add instance o to t. */
static inline void tt_op_times_add(tt_op_times *t, const tt_trace *tr, const tt_op_inst *o)
{
    t->calls++;
    t->hself += o->hself;
    t->htotal += tt_trace_event(tr, o->ev)->dur;
    t->dself += o->dself;
    t->dtotal += o->dtotal;
}

#endif
