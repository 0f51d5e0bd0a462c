/* operators.c - the host operators of a selection (see operators.h). */
#include "config.h"

#include "analysis/operators.h"

#include "index/index.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

/* Kineto's span of the whole capture: category "Trace" on the "Spans"
 * process (see operators.h). */
static bool is_capture_span(const tt_trace *tr, const tt_event *e)
{
    return e->cat && !strcmp(tt_str(tr, e->cat), "Trace");
}

int tt_operators_collect(const tt_trace *tr, const tt_attrib *a, const tt_sel *sel,
                         tt_evref **out, size_t *n, tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel), cap = 0;
    tt_idxbuf buf;
    tt_idxbuf_init(&buf);
    *out = NULL;
    *n = 0;
    for (size_t li = 0; li < nl; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        const tt_lane *ln = &tr->lanes[lane];
        if (tt_attrib_lane_is_device(a, lane))
            continue;
        if (tt_sel_lane_events(tr, sel, lane, &buf))
            goto oom;
        for (size_t k = 0; k < buf.n; k++) {
            tt_evref r = {lane, buf.v[k]};
            const tt_event *e = &ln->ev[r.idx];
            if ((e->kind != TT_EV_SLICE && e->kind != TT_EV_ASYNC) || tt_attrib_is_python(a, r) ||
                is_capture_span(tr, e))
                continue;
            if (tt_grow_one((void **)out, &cap, *n, sizeof **out))
                goto oom;
            (*out)[(*n)++] = r;
        }
    }
    tt_idxbuf_fini(&buf);
    return 0;
oom:
    tt_idxbuf_fini(&buf);
    free(*out);
    *out = NULL;
    *n = 0;
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
}
