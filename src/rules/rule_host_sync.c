/* rule_host_sync.c - `host-sync`: device, stream, event or context
 * synchronize calls on the host: the CPU idles while the device drains its
 * queue, and the device then idles waiting for new work.
 *
 * A finding names the operator that called the synchronize: its innermost
 * enclosing host op on the same thread, passing over API calls, step spans
 * (ProfilerStep#N) and the profiler's envelope (category Trace), which say
 * nothing about the cause. Consecutive syncs in one op (no other op
 * between them: API calls such as cudaEventRecord or cudaLaunchKernel do
 * not count) are one finding that counts them, reported when they block
 * for min_duration in all: cudnn's benchmark mode times each algorithm
 * with a record/launch/synchronize loop inside one convolution.
 *
 * Not reported: a call nested in another sync (its versioned entry point,
 * a driver call under the runtime call: the same wait), and the profiler's
 * own stop, a sync that starts after the last step has ended and lies
 * inside the profiler's envelope.
 */
#include "config.h"

#include "rules/devwork.h"
#include "rules/rule_host_calls.h"
#include "rules/rules_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a trace tells about where the profiler itself synchronizes. */
typedef struct sync_trace {
    const tt_trace *tr;
    rule_names      sync, api, steps;
    uint32_t        trace_cat;    /* string id of "Trace", TT_STR_ERROR when absent */
    tt_ns           steps_end;    /* end of the last step, INT64_MAX without steps */
    tt_ivals        envelope;     /* normalized spans of category Trace */
} sync_trace;

/* Consecutive syncs in one op, being collected. */
typedef struct sync_run {
    bool     open;
    int64_t  op;           /* index of the enclosing op on the lane, -1: none */
    uint32_t first_name;   /* string id of the first sync */
    bool     same_name;    /* every sync has that name */
    uint64_t count;
    tt_ns    start, end, blocked, longest;
    tt_evref ev[TT_ANN_MAX_EVENTS];
    size_t   n_ev;
} sync_run;

static int sync_trace_init(sync_trace *st, const tt_trace *tr)
{
    memset(st, 0, sizeof *st);
    st->tr = tr;
    st->trace_cat = tt_strtab_find(tr->strings, "Trace", 5);
    st->steps_end = INT64_MAX;
    tt_ivals_init(&st->envelope);
    if (rule_names_init(&st->sync, tr, rule_is_sync_call) ||
        rule_names_init(&st->api, tr, rule_is_api_call) ||
        rule_names_init(&st->steps, tr, rule_is_step_name))
        return -1;
    return 0;
}

/* What the walk over event e tells of the profiler: the end of the last
 * step, the envelope's spans (normalized once every lane is walked).
 * 0, or -1 (OOM). */
static int sync_trace_note(sync_trace *st, const tt_event *e)
{
    if (rule_names_match(&st->steps, e->name))
        st->steps_end = st->steps_end == INT64_MAX || tt_event_end(e) > st->steps_end
                            ? tt_event_end(e)
                            : st->steps_end;
    if (e->cat == st->trace_cat && st->trace_cat != TT_STR_ERROR &&
        tt_ivals_push(&st->envelope, e->start, tt_event_end(e)))
        return -1;
    return 0;
}

static void sync_trace_fini(sync_trace *st)
{
    rule_names_fini(&st->sync);
    rule_names_fini(&st->api);
    rule_names_fini(&st->steps);
    tt_ivals_fini(&st->envelope);
}

/* The profiler's own stop: after the last step, inside its envelope. */
static bool profiler_stop(const sync_trace *st, const tt_event *e)
{
    if (st->steps_end == INT64_MAX || e->start < st->steps_end)
        return false;
    for (size_t k = 0; k < st->envelope.n; k++)
        if (st->envelope.v[k].s <= e->start && e->start < st->envelope.v[k].e)
            return true;
    return false;
}

/* An event that stands for the code the user wrote: not an API call, a
 * step span or the profiler's envelope. */
static bool is_op(sync_trace *st, const tt_event *e)
{
    return !rule_names_match(&st->api, e->name) && !rule_names_match(&st->steps, e->name) &&
           !(e->cat == st->trace_cat && st->trace_cat != TT_STR_ERROR);
}

static int flush(const tt_rule_ctx *ctx, int ti, sync_trace *st, uint32_t lane, sync_run *r,
                 tt_ns min_dur)
{
    const tt_trace *tr = st->tr;
    char a[32], b[32], d[32], lg[32], lname[256], op[300];
    if (!r->open)
        return 0;
    r->open = false;
    if (r->blocked < min_dur)
        return 0;
    tt_lane_fullname(tr, lane, lname, sizeof lname);
    if (r->op >= 0)
        snprintf(op, sizeof op, "in %s ", tt_str(tr, tr->lanes[lane].ev[r->op].name));
    else
        op[0] = '\0';
    if (r->count == 1)
        return tt_rule_emit(ctx, ti, r->start, r->end, &lane, 1, r->ev, r->n_ev, 1,
                            "%s %sblocks %s for %s at %s", tt_str(tr, r->first_name), op, lname,
                            tt_fmt_dur(d, sizeof d, r->blocked, 3),
                            tt_rule_time(tr, r->start, a, sizeof a));
    return tt_rule_emit(ctx, ti, r->start, r->end, &lane, 1, r->ev, r->n_ev, r->count,
                        "%llu %s calls %sblock %s for %s (longest %s) between %s and %s",
                        (unsigned long long)r->count,
                        r->same_name ? tt_str(tr, r->first_name) : "synchronize", op, lname,
                        tt_fmt_dur(d, sizeof d, r->blocked, 3),
                        tt_fmt_dur(lg, sizeof lg, r->longest, 3),
                        tt_rule_time(tr, r->start, a, sizeof a),
                        tt_rule_time(tr, r->end, b, sizeof b));
}

/* A sync call not nested in another, as the walk over its lane found
 * it: whether it is the profiler's own stop is known only once every lane
 * is walked (the last step may be on any). */
typedef struct sync_seen {
    uint32_t lane, idx;
    int64_t  op;            /* index of the enclosing op on the lane, -1: none */
    bool     op_before;     /* an op since the previous such call of the lane */
} sync_seen;

typedef struct sync_list {
    sync_seen *v;
    size_t     n, cap;
} sync_list;

/* Walk lane l once: the profiler's steps and envelope into st, the sync
 * calls not nested in another into *out. 0, or -1 (OOM). */
static int walk_lane(sync_trace *st, uint32_t l, int64_t *anc, sync_list *out)
{
    const tt_lane *ln = &st->tr->lanes[l];
    tt_ns outer_end = INT64_MIN;
    bool op_between = false;   /* an op since the last sync call */
    for (size_t i = 0; i < ln->n; i++) {
        const tt_event *e = &ln->ev[i];
        int64_t op = -1;
        anc[e->depth] = (int64_t)i;
        if (sync_trace_note(st, e))
            return -1;
        if (!rule_names_match(&st->sync, e->name)) {
            if (e->start >= outer_end && is_op(st, e))
                op_between = true;
            continue;
        }
        if (rule_call_nested(&outer_end, e))
            continue;
        for (int k = (int)e->depth - 1; k >= 0 && op < 0; k--)
            if (is_op(st, &ln->ev[anc[k]]))
                op = anc[k];
        if (out->n == out->cap) {
            size_t nc = out->cap ? out->cap * 2 : 64;
            sync_seen *nv = realloc(out->v, nc * sizeof *nv);
            if (!nv)
                return -1;
            out->v = nv;
            out->cap = nc;
        }
        out->v[out->n].lane = l;
        out->v[out->n].idx = (uint32_t)i;
        out->v[out->n].op = op;
        out->v[out->n].op_before = op_between;
        out->n++;
        op_between = false;
    }
    return 0;
}

/* The findings of lane l from its sync calls v[0..n) (see the top of the
 * file). An op between two calls separates them even where a profiler
 * stop, left out, lies between. */
static int run_lane(const tt_rule_ctx *ctx, int ti, sync_trace *st, uint32_t l,
                    const sync_seen *v, size_t n, tt_ns min_dur)
{
    const tt_lane *ln = &st->tr->lanes[l];
    sync_run r;
    bool op_between = false;   /* an op since the last sync of the run */
    r.open = false;
    for (size_t k = 0; k < n; k++) {
        const tt_event *e = &ln->ev[v[k].idx];
        int64_t op = v[k].op;
        op_between |= v[k].op_before;
        if (profiler_stop(st, e))
            continue;
        if (r.open && (r.op != op || op_between) &&
            flush(ctx, ti, st, l, &r, min_dur))
            return -1;
        if (!r.open) {
            memset(&r, 0, sizeof r);
            r.open = true;
            r.op = op;
            r.first_name = e->name;
            r.same_name = true;
            r.start = e->start;
        }
        r.count++;
        r.same_name &= e->name == r.first_name;
        r.end = tt_event_end(e);
        r.blocked += e->dur;
        if (e->dur > r.longest)
            r.longest = e->dur;
        if (r.n_ev < TT_ANN_MAX_EVENTS) {
            r.ev[r.n_ev].lane = l;
            r.ev[r.n_ev++].idx = v[k].idx;
        }
        op_between = false;
    }
    return flush(ctx, ti, st, l, &r, min_dur);
}

/* One walk over the events finds both what the profiler did (its last
 * step, its envelope) and the sync calls; the findings are made from
 * those calls alone once the walk is done. A trace with no string naming
 * a sync call is not walked. */
static int run(const tt_rule_ctx *ctx)
{
    tt_ns min_dur = (tt_ns)tt_rule_param_value(ctx, "min_duration");
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        sync_trace st;
        sync_list found = {NULL, 0, 0};
        int rc = 0;
        if (sync_trace_init(&st, tr)) {
            sync_trace_fini(&st);
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        }
        if (!rule_names_any(&st.sync, rule_devwork_names(ctx, t), RULE_NAME_SYNC)) {
            sync_trace_fini(&st);
            continue;
        }
        for (uint32_t l = 0; rc == 0 && l < tr->n_lanes; l++) {
            /* anc[d]: the latest event at depth d, so anc[0..depth) are
             * the ancestors of the event being looked at */
            int64_t *anc = malloc(((size_t)tr->lanes[l].max_depth + 1) * sizeof *anc);
            if (!anc || walk_lane(&st, l, anc, &found))
                rc = tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
            free(anc);
        }
        if (rc == 0 && tt_ivals_normalize(&st.envelope))
            rc = tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        for (size_t i = 0; rc == 0 && i < found.n;) {
            size_t j = i;
            while (j < found.n && found.v[j].lane == found.v[i].lane)
                j++;
            rc = run_lane(ctx, (int)t, &st, found.v[i].lane, found.v + i, j - i, min_dur);
            i = j;
        }
        free(found.v);
        sync_trace_fini(&st);
        if (rc)
            return -1;
    }
    return 0;
}

const tt_rule tt_rule_host_sync = {
    .id = "host-sync",
    .summary = "long device/stream/event synchronize calls on the host",
    .params = {
        {"min_duration", TT_PARAM_DURATION, 1000000,
         "shortest blocking time reported (of consecutive syncs in one op, in all)"},
    },
    .n_params = 1,
    .run = run,
};
