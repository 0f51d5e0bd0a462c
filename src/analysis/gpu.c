/* gpu.c - computation / communication / memcpy unions (see gpu.h). */
#include "config.h"

#include "analysis/gpu.h"

#include "analysis/classify.h"
#include "analysis/gpusum.h"
#include "analysis/setsum.h"
#include "analysis/intervals.h"
#include "index/index.h"

#include <string.h>

int tt_gpu_time_compute_walk(const tt_trace *tr, const tt_sel *sel, tt_gpu_time *g,
                             tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel);
    tt_classifier cls;
    tt_ivals comp, comm, copy, cc, all;
    tt_idxbuf buf;
    bool any = false;
    int rc = 0;

    memset(g, 0, sizeof *g);
    if (tt_classifier_init(&cls, tr))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    tt_ivals_init(&comp);
    tt_ivals_init(&comm);
    tt_ivals_init(&copy);
    tt_ivals_init(&cc);
    tt_ivals_init(&all);
    tt_idxbuf_init(&buf);

    for (size_t li = 0; li < nl && rc == 0; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        /* Each lane's events are in start order, so every class list grows
         * in sorted runs, one per lane. */
        if (tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < buf.n; k++) {
            const tt_event *e = &ln->ev[buf.v[k]];
            tt_gpu_class c = tt_classifier_gpu(&cls, e);
            tt_ivals *dst;
            tt_ns s, t;
            if (c == TT_GPU_NONE)
                continue;
            tt_sel_clip_range(sel, e, &s, &t);
            if (!any || s < g->first)
                g->first = s;
            if (!any || t > g->last)
                g->last = t;
            any = true;
            switch (c) {
            case TT_GPU_COMM:
                g->collectives++;
                dst = &comm;
                break;
            case TT_GPU_MEMCPY:
                dst = &copy;
                break;
            default:
                dst = &comp;
                break;
            }
            switch (tt_classifier_category(&cls, e)) {
            case TT_CAT_KERNEL:
            case TT_CAT_INSTRUCTION:
            case TT_CAT_COLLECTIVE: g->kernels++; break;   /* device work items */
            case TT_CAT_MEMSET: g->memsets++; break;
            default: g->memcpys++; break;
            }
            if (tt_ivals_push(dst, s, t)) {
                rc = -1;
                break;
            }
        }
    }
    if (rc == 0 && (tt_ivals_normalize(&comp) || tt_ivals_normalize(&comm) ||
                    tt_ivals_normalize(&copy)))
        rc = -1;
    if (rc == 0 && (tt_ivals_union(&comp, &comm, &cc) || tt_ivals_union(&cc, &copy, &all)))
        rc = -1;
    if (rc == 0) {
        g->computation = tt_ivals_length(&comp);
        g->communication = tt_ivals_length(&comm);
        g->memcpy = tt_ivals_length(&copy);
        g->busy = tt_ivals_length(&all);
        g->total = any ? g->last - g->first : 0;
        g->idle = g->total - g->busy;
        g->exposed_communication = g->communication - tt_ivals_overlap_length(&comm, &comp);
        g->exposed_memcpy = g->memcpy - tt_ivals_overlap_length(&copy, &cc);
    }
    tt_idxbuf_fini(&buf);
    tt_ivals_fini(&all);
    tt_ivals_fini(&cc);
    tt_ivals_fini(&copy);
    tt_ivals_fini(&comm);
    tt_ivals_fini(&comp);
    tt_classifier_fini(&cls);
    if (rc) {
        memset(g, 0, sizeof *g);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    return 0;
}

int tt_gpu_time_compute(const tt_trace *tr, const tt_sel *sel, tt_gpu_time *g, tt_error *err)
{
    int r = tt_setsum_gpu(tr, sel, g, err);
    if (r == 0)
        r = tt_gpusum_answer(tr, sel, g, err);   /* any wide window */
    if (r < 0) {
        memset(g, 0, sizeof *g);
        return TT_ERR_NOMEM;   /* err set */
    }
    return r == 1 ? 0 : tt_gpu_time_compute_walk(tr, sel, g, err);
}
