/* gpu.h - GPU time breakdown of a selection (HTA's temporal breakdown).
 *
 * GPU events are kernels, memcpys and memsets (classify.h). Within the
 * selection, with every interval clipped to the window:
 *   communication  union of the collective kernels and memsets
 *   computation    union of every other kernel and memset
 *   memcpy         union of the copies
 *   total          last end minus first start of the GPU events
 *   busy           union of all GPU events
 *   idle           total - busy
 *   exposed communication  communication minus computation
 *   exposed memcpy         memcpy minus computation minus communication
 * ("minus" is set difference: time covered by the first and by none of the
 * others). Exact int64 ns; no GPU events gives zeros.
 *
 * Library code: no I/O.
 */
#ifndef TT_ANALYSIS_GPU_H
#define TT_ANALYSIS_GPU_H

#include <stdint.h>

#include "analysis/select.h"
#include "util/error.h"

typedef struct tt_gpu_time {
    uint64_t kernels, memcpys, memsets;   /* GPU events in the selection (kernels
                                             include engine instructions and
                                             collective work items) */
    uint64_t collectives;                 /* of which communication */
    tt_ns    first, last;                 /* clipped; 0 when none */
    tt_ns    total, busy, idle;
    tt_ns    computation, communication, memcpy;
    tt_ns    exposed_communication, exposed_memcpy;
} tt_gpu_time;

/* 0, or non-zero with err set (out of memory). A window holding every GPU
 * event of its lanes whole (the box over the whole trace) is answered from
 * a breakdown cached per lane set (setsum.h); other wide windows from runs
 * kept per lane set (gpusum.h); small ones walk. */
int tt_gpu_time_compute(const tt_trace *tr, const tt_sel *sel, tt_gpu_time *out, tt_error *err);

/* The same by walking every event of the selection (tests, bench). */
int tt_gpu_time_compute_walk(const tt_trace *tr, const tt_sel *sel, tt_gpu_time *out,
                             tt_error *err);

#endif
