/* overview.h - MindStudio Insight's overview, per step of one rank:
 * Computing, Communication (Not Overlapped), Overlapped, Communication,
 * Free, and Stage, Bubble, Preparing where they are known.
 *
 * Sources, in this order (tt_overview_compute, TT_OVERVIEW_AUTO):
 *   file      the profiler's own step_trace_time.csv beside the trace
 *             (torch_npu / MindSpore, ASCEND_PROFILER_OUTPUT/): its us
 *             values kept exact in ns (decimal text rounded to the ns,
 *             never through a double);
 *   timeline  computed from the device events with the GPU breakdown's
 *             classes (analysis/classify.h, analysis/gpu.h), as the Ascend
 *             profiler builds its "Overlap Analysis" lanes and sums them
 *             per step (torch_npu TraceStepTimeParser):
 *       C  compute: kernels, memsets and instructions that are not
 *          collectives; on Ascend ("Ascend Hardware" lanes) not the
 *          stream's bookkeeping tasks (EVENT_WAIT, EVENT_RECORD, Notify
 *          Wait/Record, Write Value, SDMA, PROFILING_*), which the
 *          profiler does not count as Computing: EVENT_WAIT alone spans
 *          most of a step that waits for a collective;
 *       M  communication: collective kernels, plus Ascend's HCCL
 *          communication ops (the "Group N Communication" lanes of the
 *          "HCCL" process; their per-plane tasks lie inside them);
 *       per step window W: Computing = |C∩W|, Communication = |M∩W|,
 *       Overlapped = |C∩M∩W|, Not Overlapped = Communication -
 *       Overlapped; the step's device span is first start to last end of
 *       (C∪M)∩W, and Free = span - |(C∪M)∩W| (copies count as Free, as the
 *       profiler's do). Bubble = |hcom_receive* ops ∩ W| (Ascend only),
 *       Stage = span - Bubble, Preparing = first device start - step
 *       start (only for steps found in the trace).
 *       Steps come from analysis/steps.h (ProfilerStep#N, Step Id); a
 *       trace with none is one step named "trace", its whole span.
 *   legacy   an older MindSpore step_trace_raw_N_detail_time.csv
 *             (decode/mindspore_steps.c): per step, Communication = union
 *             of its communication ops; Computing = the FP..BP span not
 *             covered by communication (the file has no compute
 *             intervals, so Overlapped cannot be known and is left out,
 *             and Not Overlapped is all of Communication); Free = step
 *             time - Computing - Communication; Bubble = its Receive ops;
 *             Stage = step time - Bubble.
 *
 * Exact int64 ns. Library code: no I/O beyond reading the side file.
 * Ownership: a tt_overview owns its steps, their names and its path.
 */
#ifndef TT_ANALYSIS_OVERVIEW_H
#define TT_ANALYSIS_OVERVIEW_H

#include <stddef.h>

#include "analysis/select.h"
#include "analysis/sidetab.h"
#include "model/trace.h"
#include "util/error.h"

#define TT_OVERVIEW_FILE_NAME "step_trace_time.csv"

typedef enum tt_overview_source {
    TT_OVERVIEW_AUTO = 0,    /* the file when it is there, else the timeline */
    TT_OVERVIEW_FILE,
    TT_OVERVIEW_TIMELINE
} tt_overview_source;

/* "file", "timeline" (the legacy MindSpore trace counts as "file": its
 * numbers are the profiler's). */
const char *tt_overview_source_name(tt_overview_source s);

/* Optional columns a step has (tt_overview_step.has). */
enum {
    TT_OV_OVERLAPPED = 1u << 0,
    TT_OV_STAGE = 1u << 1,
    TT_OV_BUBBLE = 1u << 2,
    TT_OV_PREPARING = 1u << 3
};

typedef struct tt_overview_step {
    char    *name;                 /* the step's id as the source writes it (owned) */
    tt_ns    computing, comm_not_overlapped, overlapped, communication, free;
    tt_ns    stage, bubble, preparing;
    unsigned has;                  /* TT_OV_*: which of the optional ones are known */
} tt_overview_step;

typedef struct tt_overview {
    tt_overview_source source;     /* FILE or TIMELINE */
    tt_overview_step  *v;
    size_t             n;
    char              *path;       /* the file read, NULL for the timeline (owned) */
} tt_overview;

/* The overview of tr. want: AUTO, or FILE (an error when there is no
 * step_trace_time.csv beside the trace), or TIMELINE (ignore the file).
 * 0, or -1 with err set (a bad file: TT_ERR_FORMAT at its row and column,
 * the path in the message). Free with tt_overview_free. */
int tt_overview_compute(const tt_trace *tr, tt_overview_source want, tt_overview **out,
                        tt_error *err);

/* The same, for a selection (report --window/--lanes; NULL: the whole
 * trace):
 *   timeline  only the events of sel's lanes count, and the steps are
 *             those meeting its window, cut at its edges (steps.h); a
 *             trace without steps is one step "trace", the window;
 *   file      the profiler's rows of the steps the trace has in the
 *             window (a row's Step is matched to the trace's step names,
 *             steps.h: "50" of ProfilerStep#50); its numbers are whole
 *             steps over every lane, so with lanes AUTO takes the
 *             timeline, and FILE is a TT_ERR_USAGE error;
 *   legacy    the steps meeting the window, whole; lanes are an error
 *             (TT_ERR_USAGE): its steps and FP..BP spans are lanes. */
int tt_overview_compute_sel(const tt_trace *tr, tt_overview_source want, const tt_sel *sel,
                            tt_overview **out, tt_error *err);

/* The overview from a step_trace_time.csv table. Required columns: Step,
 * Computing, Communication(Not Overlapped), Overlapped, Communication,
 * Free; Stage, Bubble and Preparing are read when present. */
int tt_overview_from_table(const tt_sidetab *t, tt_overview **out, tt_error *err);

/* The overview computed from the timeline (see above). */
int tt_overview_from_timeline(const tt_trace *tr, tt_overview **out, tt_error *err);

void tt_overview_free(tt_overview *o);   /* NULL is a no-op */

#endif
