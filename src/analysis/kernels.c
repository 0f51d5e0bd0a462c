/* kernels.c - the kernels of a selection and their per-name sums (see
 * kernels.h). */
#include "config.h"

#include "analysis/kernels.h"

#include "analysis/classify.h"
#include "index/index.h"
#include "util/grow.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

int tt_kernels_collect(const tt_trace *tr, const tt_attrib *a, const tt_sel *sel, tt_evref **out,
                       size_t *n, tt_error *err)
{
    size_t nl = tt_sel_lane_count(tr, sel), cap = 0;
    tt_idxbuf buf;
    tt_classifier cl;
    int rc = 0;
    *out = NULL;
    *n = 0;
    if (tt_classifier_init(&cl, tr))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    tt_idxbuf_init(&buf);
    for (size_t li = 0; li < nl && !rc; li++) {
        uint32_t lane = tt_sel_lane(sel, li);
        if (!tt_attrib_lane_is_device(a, lane))
            continue;
        if (tt_sel_lane_events(tr, sel, lane, &buf)) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < buf.n; k++) {
            tt_cat_class c = tt_classifier_category(&cl, &tr->lanes[lane].ev[buf.v[k]]);
            if (c != TT_CAT_KERNEL && c != TT_CAT_COLLECTIVE)
                continue;
            if (tt_grow_one((void **)out, &cap, *n, sizeof **out)) {
                rc = -1;
                break;
            }
            (*out)[(*n)++] = (tt_evref){lane, buf.v[k]};
        }
    }
    tt_idxbuf_fini(&buf);
    tt_classifier_fini(&cl);
    if (rc) {
        free(*out);
        *out = NULL;
        *n = 0;
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    return 0;
}

void tt_kernel_sums_fini(tt_kernel_sums *s)
{
    free(s->ev);
    free(s->by_name);
    free(s->names);
    memset(s, 0, sizeof *s);
}

int tt_kernel_sums_compute(const tt_trace *tr, const tt_attrib *a, const tt_sel *sel,
                           tt_kernel_sums *s, tt_error *err)
{
    uint32_t n_str = tt_strtab_count(tr->strings);
    memset(s, 0, sizeof *s);
    if (tt_kernels_collect(tr, a, sel, &s->ev, &s->n_ev, err))
        return -1;
    if (!(s->by_name = calloc(n_str ? n_str : 1, sizeof *s->by_name)) ||
        !(s->names = malloc((s->n_ev ? s->n_ev : 1) * sizeof *s->names))) {
        tt_kernel_sums_fini(s);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    }
    for (size_t i = 0; i < s->n_ev; i++) {
        const tt_event *e = tt_trace_event(tr, s->ev[i]);
        tt_kernel_sum *r = &s->by_name[e->name];
        if (!r->calls) {
            r->min = e->dur;
            s->names[s->n++] = e->name;
        }
        r->calls++;
        r->total += e->dur;
        s->sum += e->dur;
        if (e->dur < r->min)
            r->min = e->dur;
        if (e->dur > r->max)
            r->max = e->dur;
    }
    return 0;
}

typedef struct sort_ctx {
    const tt_trace       *tr;
    const tt_kernel_sums *s;
} sort_ctx;

static int cmp_names(const void *pa, const void *pb, void *ctx)
{
    const sort_ctx *c = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    tt_ns ta = c->s->by_name[a].total, tb = c->s->by_name[b].total;
    if (ta != tb)
        return ta < tb ? 1 : -1;
    return strcmp(tt_str(c->tr, a), tt_str(c->tr, b));
}

int tt_kernel_sums_sort(const tt_trace *tr, tt_kernel_sums *s, tt_error *err)
{
    sort_ctx c = {tr, s};
    if (tt_sort(s->names, s->n, sizeof *s->names, cmp_names, &c))
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory"), -1;
    return 0;
}
