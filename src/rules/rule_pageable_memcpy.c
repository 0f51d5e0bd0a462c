/* rule_pageable_memcpy.c - `pageable-memcpy`: device copies from or to
 * pageable host memory. The driver stages them through a pinned buffer, so
 * they are slower and cannot overlap with compute (Nsight Systems'
 * cuda_memcpy_async rule). Kineto names them "Memcpy HtoD (Pageable ->
 * Device)"; the nsys decoders use the same words.
 *
 * Copies on one lane closer than merge_gap are reported as one span.
 * Copies smaller than min_bytes are left out: a few bytes (a loss scalar,
 * a flag) cost the launch, not the staging, and pinning their buffer
 * would not help. A copy of unknown size is kept.
 */
#include "config.h"

#include "rules/devwork.h"
#include "rules/rules_util.h"

#include <stdlib.h>

/* Whether name id holds "pageable", asked once per name: a trace's copies
 * bear a few names, and the test was most of the rule's time when asked
 * of every copy. pg[id]: 0 not asked yet, 1 no, 2 yes (ids past n_ids,
 * which a trace does not have, are asked each time). */
static bool pageable_name(const tt_trace *tr, uint8_t *pg, uint32_t n_ids, uint32_t id)
{
    if (id >= n_ids)
        return rule_icontains(tt_str(tr, id), "pageable");
    if (!pg[id])
        pg[id] = rule_icontains(tt_str(tr, id), "pageable") ? 2 : 1;
    return pg[id] == 2;
}

static int flush(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, rule_span *sp,
                 const char *example)
{
    char a[32], b[32], sz[32];
    if (!sp->open)
        return 0;
    sp->open = false;
    return tt_rule_emit(ctx, ti, sp->start, sp->end, sp->lanes, sp->n_lanes, sp->ev, sp->n_ev,
                        sp->count,
                        "%llu cop%s from pageable memory (%s, e.g. %s) between %s and %s: "
                        "use pinned host buffers",
                        (unsigned long long)sp->count, sp->count == 1 ? "y" : "ies",
                        tt_fmt_bytes(sz, sizeof sz, sp->bytes), example,
                        tt_rule_time(tr, sp->start, a, sizeof a),
                        tt_rule_time(tr, sp->end, b, sizeof b));
}

static int run(const tt_rule_ctx *ctx)
{
    tt_ns gap = (tt_ns)tt_rule_param_value(ctx, "merge_gap");
    int64_t min_bytes = (int64_t)tt_rule_param_value(ctx, "min_bytes");
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        /* a copy is device work: lanes without any have none (rules/devwork.h) */
        const rule_lanes *rl = rule_devwork_lanes(ctx, t);
        tt_classifier cls;
        uint32_t n_ids = tt_strtab_count(tr->strings);
        uint8_t *pg;
        if (!rl)
            return -1;
        if (!(pg = calloc(n_ids ? n_ids : 1, 1)))
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        if (tt_classifier_init(&cls, tr)) {
            free(pg);
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        }
        for (uint32_t l = 0; l < tr->n_lanes; l++) {
            const tt_lane *ln = &tr->lanes[l];
            rule_span sp;
            const char *example = "";
            if (!rl->device[l])
                continue;
            sp.open = false;
            for (size_t i = 0; i < ln->n; i++) {
                const tt_event *e = &ln->ev[i];
                const char *name;
                if (tt_classifier_gpu(&cls, e) != TT_GPU_MEMCPY)
                    continue;
                if (!pageable_name(tr, pg, n_ids, e->name) ||
                    (e->bytes >= 0 && e->bytes < min_bytes))
                    continue;
                name = tt_str(tr, e->name);
                if (!rule_span_add(&sp, gap, e->start, tt_event_end(e), l, (uint32_t)i,
                                   e->bytes)) {
                    if (flush(ctx, (int)t, tr, &sp, example)) {
                        tt_classifier_fini(&cls);
                        free(pg);
                        return -1;
                    }
                    rule_span_start(&sp, e->start, tt_event_end(e), l, (uint32_t)i, e->bytes);
                    example = name;
                }
            }
            if (flush(ctx, (int)t, tr, &sp, example)) {
                tt_classifier_fini(&cls);
                free(pg);
                return -1;
            }
        }
        tt_classifier_fini(&cls);
        free(pg);
    }
    return 0;
}

const tt_rule tt_rule_pageable_memcpy = {
    .id = "pageable-memcpy",
    .devwork = true,
    .summary = "device copies from or to pageable (unpinned) host memory",
    .params = {
        {"merge_gap", TT_PARAM_DURATION, 1000000, "copies closer than this form one finding"},
        {"min_bytes", TT_PARAM_BYTES, 65536, "smaller copies are not reported"},
    },
    .n_params = 2,
    .run = run,
};
