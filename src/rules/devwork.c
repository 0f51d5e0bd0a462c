/* devwork.c - each trace's device work, built once and shared by the
 * rules (see devwork.h). */
#include "config.h"

#include "rules/devwork.h"

#include <pthread.h>
#include <stdlib.h>

struct rule_devwork {
    const tt_trace *tr;
    pthread_mutex_t lock;
    int             state;   /* 0 not built, 1 built, -1 out of memory */
    rule_lanes      rl;
    tt_ivals       *work;    /* per group: the union of its device work */
    uint32_t       *by_group;  /* rl.dev bucketed by group, in rl.dev's order */
    uint32_t       *group_at;  /* group g's lanes: by_group[group_at[g] ..
                                * group_at[g + 1]) */
    pthread_mutex_t names_lock;
    bool            names_done;
    rule_names_found names;    /* rule_devwork_names() */
};

rule_devwork *rule_devwork_new(const tt_trace *const *traces, size_t n)
{
    rule_devwork *dw = calloc(n ? n : 1, sizeof *dw);
    if (!dw)
        return NULL;
    for (size_t t = 0; t < n; t++) {
        dw[t].tr = traces[t];
        pthread_mutex_init(&dw[t].names_lock, NULL);
        pthread_mutex_init(&dw[t].lock, NULL);
    }
    return dw;
}

void rule_devwork_free(rule_devwork *dw, size_t n)
{
    if (!dw)
        return;
    for (size_t t = 0; t < n; t++) {
        if (dw[t].work)
            for (uint32_t g = 0; g < dw[t].tr->n_groups; g++)
                tt_ivals_fini(&dw[t].work[g]);
        free(dw[t].work);
        free(dw[t].by_group);
        free(dw[t].group_at);
        rule_lanes_fini(&dw[t].rl);
        pthread_mutex_destroy(&dw[t].lock);
        pthread_mutex_destroy(&dw[t].names_lock);
    }
    free(dw);
}

rule_devwork *rule_devwork_at(rule_devwork *dw, size_t k)
{
    return dw ? dw + k : NULL;
}

/* The first event at or after i on l that is device work (l->n: none). */
static size_t next_work(const tt_lane *l, size_t i, tt_classifier *cls)
{
    while (i < l->n && tt_classifier_gpu(cls, &l->ev[i]) == TT_GPU_NONE)
        i++;
    return i;
}

/* The union of the kernels, copies, memsets, instructions and
 * collectives on the device lanes of group into iv (empty). The lanes'
 * events are taken in one merged start order (each lane is sorted by
 * start), so each push either extends the last interval or starts one
 * past its end, and the list comes out normalized with no sort: the same
 * list tt_ivals_normalize() makes of them in any order, as a union's
 * normalized form is unique. 0, or -1 (OOM). */
static int group_work(const tt_trace *tr, const uint32_t *dev, size_t nl, tt_classifier *cls,
                      tt_ivals *iv)
{
    size_t room = 0, *pos;
    const tt_lane **lanes;
    int rc = -1;
    for (size_t k = 0; k < nl; k++)
        room += tr->lanes[dev[k]].n;
    lanes = malloc((nl ? nl : 1) * sizeof *lanes);
    pos = calloc(nl ? nl : 1, sizeof *pos);
    if (!lanes || !pos || tt_ivals_reserve(iv, room))
        goto out;
    /* each lane's head is classified once, when it becomes the head:
     * classifying every head at every step was 68M of 599M instructions
     * in the summary of a HugeCTR profile with 48 streams a device */
    for (size_t k = 0; k < nl; k++) {
        lanes[k] = &tr->lanes[dev[k]];
        pos[k] = next_work(lanes[k], 0, cls);
    }
    for (;;) {
        const tt_event *e = NULL;
        size_t best = 0;
        /* the earliest next device event over the lanes (a device has a
         * few streams or engines: a scan beats a heap) */
        for (size_t k = 0; k < nl; k++) {
            const tt_lane *l = lanes[k];
            if (pos[k] < l->n && (!e || l->ev[pos[k]].start < e->start)) {
                e = &l->ev[pos[k]];
                best = k;
            }
        }
        if (!e)
            break;
        pos[best] = next_work(lanes[best], pos[best] + 1, cls);
        if (tt_ivals_push(iv, e->start, tt_event_end(e)))
            goto out;
    }
    rc = tt_ivals_normalize(iv);   /* one run: a check, no sort */
out:
    free(lanes);
    free(pos);
    return rc;
}

/* d->by_group/group_at: the device lanes bucketed by group with one
 * counting pass, rl.dev's order kept within a group. Scanning every
 * device lane for each group cost groups x lanes: a HugeCTR job of 4096
 * GPUs spent more in that scan than in its rules. 0, or -1 (OOM). */
static int bucket_lanes(rule_devwork *d)
{
    const tt_trace *tr = d->tr;
    size_t nb = (size_t)tr->n_groups + 1;   /* as d->work: one spare */
    d->group_at = calloc(nb + 1, sizeof *d->group_at);
    d->by_group = malloc((d->rl.n_dev ? d->rl.n_dev : 1) * sizeof *d->by_group);
    if (!d->group_at || !d->by_group)
        return -1;
    for (size_t k = 0; k < d->rl.n_dev; k++)
        d->group_at[tr->lanes[d->rl.dev[k]].group + 1]++;
    for (size_t g = 0; g < nb; g++)
        d->group_at[g + 1] += d->group_at[g];
    /* group_at[g] serves as group g's fill point, ending at group g + 1's
     * start; shifted back by one afterwards */
    for (size_t k = 0; k < d->rl.n_dev; k++) {
        uint32_t l = d->rl.dev[k];
        d->by_group[d->group_at[tr->lanes[l].group]++] = l;
    }
    for (size_t g = nb; g > 0; g--)
        d->group_at[g] = d->group_at[g - 1];
    d->group_at[0] = 0;
    return 0;
}

/* Everything for one trace: its lanes, then each device group's union.
 * 0, or -1 when out of memory. */
static int build(rule_devwork *d)
{
    const tt_trace *tr = d->tr;
    tt_classifier cls;
    int rc = -1;
    if (tt_classifier_init(&cls, tr))
        return -1;
    if (rule_lanes_init(&d->rl, tr, &cls))
        goto out;
    if (!(d->work = calloc((size_t)tr->n_groups + 1, sizeof *d->work)))
        goto out;
    for (uint32_t g = 0; g < tr->n_groups; g++)
        tt_ivals_init(&d->work[g]);
    if (bucket_lanes(d))
        goto out;
    for (uint32_t g = 0; g < tr->n_groups; g++) {
        uint32_t a = d->group_at[g], b = d->group_at[g + 1];
        if (a < b && group_work(tr, d->by_group + a, b - a, &cls, &d->work[g]))
            goto out;
    }
    rc = 0;
out:
    tt_classifier_fini(&cls);
    return rc;
}

/* Entry d built (or failed): its state, 1 or -1. */
static int build_once(rule_devwork *d)
{
    int state;
    pthread_mutex_lock(&d->lock);
    if (d->state == 0)
        d->state = build(d) ? -1 : 1;
    state = d->state;
    pthread_mutex_unlock(&d->lock);
    return state;
}

void rule_devwork_build(rule_devwork *dw, size_t k)
{
    build_once(rule_devwork_at(dw, k));
}

/* The built entry of ctx->traces[t], or NULL (ctx->err set). */
static rule_devwork *get(const tt_rule_ctx *ctx, size_t t)
{
    rule_devwork *d = rule_devwork_at(ctx->devwork, t);
    if (build_once(d) < 0) {
        tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return d;
}

const rule_lanes *rule_devwork_lanes(const tt_rule_ctx *ctx, size_t t)
{
    rule_devwork *d = get(ctx, t);
    return d ? &d->rl : NULL;
}

int rule_devwork_group(const tt_rule_ctx *ctx, size_t t, uint32_t group, const tt_ivals **work,
                       uint32_t *lanes, size_t cap, size_t *n_lanes)
{
    rule_devwork *d = get(ctx, t);
    if (!d)
        return -1;
    *n_lanes = 0;
    for (uint32_t k = d->group_at[group]; k < d->group_at[group + 1] && *n_lanes < cap; k++)
        lanes[(*n_lanes)++] = d->by_group[k];
    *work = &d->work[group];
    return 0;
}

const rule_names_found *rule_devwork_names(const tt_rule_ctx *ctx, size_t t)
{
    rule_devwork *d = rule_devwork_at(ctx->devwork, t);
    pthread_mutex_lock(&d->names_lock);
    if (!d->names_done) {
        rule_names_scan(&d->names, d->tr);
        d->names_done = true;
    }
    pthread_mutex_unlock(&d->names_lock);
    return &d->names;
}
