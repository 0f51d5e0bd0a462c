/* steps.h - what a training step is made of: the step-time breakdown of
 * TensorBoard's PyTorch profiler plugin ("overview"), per step.
 *
 * Steps come from, in this order:
 *   - the intervals the caller gives (marker intervals, --per-interval);
 *   - host ProfilerStep#N slices (categories cpu_op, operator,
 *     user_annotation, python; not the gpu_user_annotation mirror on a
 *     device stream), widened to the device work they launched as the
 *     plugin does (below);
 *   - the "Step Id" argument of device events (Ascend kernel_details.csv):
 *     each id spans its first start to its last end.
 * A trace with none of these has no steps (tt_steps.n == 0, source NONE):
 * the caller says so; no step is made up for the whole trace.
 *
 * Device widening (torch_tb_profiler StepParser, for ProfilerStep spans
 * only): a runtime call lying wholly inside a step's host span owns the
 * device events (kernel, memcpy, memset) of its correlation id; the step
 * then ends at max(host end, last end of those device events) and starts
 * at max(host start, previous step's end), the first step no earlier than
 * the end of device work launched outside any step that ended before the
 * step's own first device event. A step whose runtimes launched nothing
 * ends no earlier than it starts. When any device event matched, trailing
 * steps that launched nothing are dropped, and the last one too when it
 * launched fewer than 80% of the events of the one before (the profiler
 * may have missed its kernels): tt_steps.dropped counts them.
 *
 * Breakdown: every event's interval gets one role by category and name;
 * each instant of a step counts once, for the first role covering it in
 * the order Kernel > Memcpy > Memset > Runtime > DataLoader > CPU Exec, and
 * Other is what none covers. So the parts of a step add up to its time.
 *   Kernel      device kernels, collectives, accelerator instructions
 *               (analysis/classify.h)
 *   Memcpy      device copies and DMA
 *   Memset      device memsets
 *   Runtime     categories runtime, cuda_runtime, cuda_driver, hip_runtime,
 *               and the plugin's mtia/glow/xpu/privateuse1_runtime
 *   DataLoader  host ops named enumerate(DataLoader)#....__next__ or
 *               enumerate(DataPipe)#...
 *   CPU Exec    other host ops: cpu_op, operator, python, user_annotation,
 *               nvtx (ProfilerStep#N itself excluded)
 * Unlike the plugin, NCCL kernels stay Kernel (it splits them out as
 * Communication when their External id matches an nccl:* op) and
 * gpu_user_annotation spans count for nothing (it counts them as CPU
 * Exec). Only duration slices count; instants and async slices do not.
 *
 * Selection: the step spans are found over the whole trace; the window
 * clips them (steps outside it are left out, steps across an edge are
 * cut); the role intervals come from the selected lanes only, so a lane
 * left out leaves its time to lower roles or Other.
 *
 * Library code: no I/O. Ownership: a tt_steps owns its arrays and names.
 */
#ifndef TT_ANALYSIS_STEPS_H
#define TT_ANALYSIS_STEPS_H

#include <stddef.h>

#include "analysis/select.h"
#include "model/trace.h"
#include "util/error.h"

typedef enum tt_step_role {
    TT_ROLE_KERNEL = 0,
    TT_ROLE_MEMCPY,
    TT_ROLE_MEMSET,
    TT_ROLE_RUNTIME,
    TT_ROLE_DATALOADER,
    TT_ROLE_CPU_EXEC,
    TT_ROLE_OTHER,
    TT_ROLE__COUNT
} tt_step_role;

/* "Kernel", "Memcpy", "Memset", "Runtime", "DataLoader", "CPU Exec",
 * "Other". */
const char *tt_step_role_name(tt_step_role r);

typedef enum tt_steps_source {
    TT_STEPS_NONE = 0,       /* no steps found */
    TT_STEPS_GIVEN,          /* the caller's intervals */
    TT_STEPS_PROFILER,       /* ProfilerStep#N */
    TT_STEPS_STEP_ID         /* the "Step Id" argument */
} tt_steps_source;

typedef struct tt_step {
    char  *name;                    /* "5" of ProfilerStep#5, the Step Id, or
                                       the caller's name (owned) */
    tt_ns  start, end;              /* absolute ns, after widening and clipping */
    tt_ns  part[TT_ROLE__COUNT];    /* ns per role; they add up to end - start */
} tt_step;

typedef struct tt_steps {
    tt_steps_source source;
    tt_step        *v;              /* in start order */
    size_t          n;
    size_t          dropped;        /* trailing steps left out (see above) */
    size_t          outside;        /* steps entirely outside the window */
} tt_steps;

/* Intervals the caller names as steps: [from[i], to[i]) named names[i]. */
typedef struct tt_step_spans {
    const tt_ns      *from, *to;
    const char *const *names;
    size_t            n;
} tt_step_spans;

/* The steps of tr in the selection and their breakdown. given: the
 * caller's steps, or NULL to find them in the trace. Reads argument
 * records (Step Id) only when the trace has no ProfilerStep. 0, or -1
 * with err set (out of memory; TT_ERR_FORMAT when an argument block is
 * corrupt). *out is freed with tt_steps_free. */
int tt_steps_compute(const tt_trace *tr, const tt_sel *sel, const tt_step_spans *given,
                     tt_steps **out, tt_error *err);

void tt_steps_free(tt_steps *s);   /* NULL is a no-op */

#endif
