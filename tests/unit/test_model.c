/* test_model.c - the trace builder and tt_trace_finalize() on synthetic
 * data: group and lane order (sort index, then natural name), empty lanes
 * and groups dropped, events sorted and nested, unclosed begins extended
 * to the trace end, counters sorted, flows bound (enclosing / next /
 * exact) and remapped to the final lane order, and random nested slices
 * checked against brute force. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "model/trace.h"

#include <stdlib.h>

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

static uint32_t S(tt_trace *tr, const char *s) { return tt_trace_intern_cstr(tr, s); }

static uint32_t group(tt_trace *tr, const char *key, const char *name, bool has_sort, int64_t si)
{
    uint32_t g = tt_trace_group(tr, S(tr, key));
    tr->groups[g].name = S(tr, name);
    tr->groups[g].has_sort = has_sort;
    tr->groups[g].sort_index = si;
    return g;
}

static uint32_t lane(tt_trace *tr, uint32_t g, const char *key, const char *name, bool has_sort,
                     int64_t si, tt_lane_kind kind)
{
    uint32_t l = tt_trace_lane(tr, g, S(tr, key), kind);
    tr->lanes[l].name = S(tr, name);
    tr->lanes[l].has_sort = has_sort;
    tr->lanes[l].sort_index = si;
    return l;
}

static int64_t event(tt_trace *tr, uint32_t l, const char *name, tt_ns start, tt_ns dur,
                     tt_event_kind kind)
{
    int64_t i = tt_trace_push_event(tr, l);
    tt_event *e = &tr->lanes[l].ev[i];
    e->name = S(tr, name);
    e->start = start;
    e->dur = dur;
    e->kind = (uint8_t)kind;
    return i;
}

/* Mark event i of lane l as an open begin, as a decoder does. */
static void leave_open(tt_trace *tr, uint32_t l, uint32_t i)
{
    tt_lane *ln = &tr->lanes[l];
    ln->open = realloc(ln->open, (ln->n_open + 1) * sizeof *ln->open);
    ln->open[ln->n_open++] = i;
    ln->cap_open = ln->n_open;
}

static const char *glabel(const tt_trace *tr, uint32_t g)
{
    static char buf[256];
    return tt_group_label(tr, &tr->groups[g], buf, sizeof buf);
}

static const char *llabel(const tt_trace *tr, uint32_t l)
{
    static char buf[256];
    return tt_lane_label(tr, &tr->lanes[l], buf, sizeof buf);
}

/* Lane index by label within a group label, or -1. */
static int find_lane(const tt_trace *tr, const char *g, const char *l)
{
    for (uint32_t i = 0; i < tr->n_lanes; i++)
        if (strcmp(glabel(tr, tr->lanes[i].group), g) == 0 && strcmp(llabel(tr, i), l) == 0)
            return (int)i;
    return -1;
}

static void test_order(void)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g10, g2, gpu0, gpu1, gglob, gidle, gctr, c;
    static const char *const want_groups[] = {"GPU 1", "GPU 0", "counters only", "pid 2",
                                              "pid 10", "(global)"};
    static const char *const want_lanes[] = {
        "GPU 1/tid 1", "GPU 0/stream 2", "GPU 0/stream 10", "pid 2/main", "pid 2/tid 9",
        "pid 2/tid 10", "pid 2/worker 2", "pid 2/worker 10", "pid 2/gpu (async)",
        "pid 10/tid 1", "(global)/(process)"};
    int bad;

    g10 = group(tr, "10", "", false, 0);
    g2 = group(tr, "2", "", false, 0);
    gpu0 = group(tr, "7", "GPU 0", true, 5);
    gpu1 = group(tr, "8", "GPU 1", true, -3);
    gglob = group(tr, "", "", false, 0);
    gidle = group(tr, "99", "idle", false, 0);         /* metadata only: dropped */
    gctr = group(tr, "50", "counters only", false, 0); /* kept for its counter */
    ok(tt_trace_group(tr, S(tr, "2")) == g2, "builder: the same group key finds the same group");

    event(tr, lane(tr, g10, "1", "", false, 0, TT_LANE_THREAD), "pid 10/tid 1", 5, 1, TT_EV_SLICE);
    /* inserted in an order that differs from the expected one */
    event(tr, lane(tr, g2, "10", "", false, 0, TT_LANE_THREAD), "pid 2/tid 10", 1, 1, TT_EV_SLICE);
    event(tr, lane(tr, g2, "5", "worker 10", false, 0, TT_LANE_THREAD), "pid 2/worker 10", 1, 1,
          TT_EV_SLICE);
    event(tr, lane(tr, g2, "gpu", "", false, 0, TT_LANE_ASYNC), "pid 2/gpu (async)", 1, 1, TT_EV_ASYNC);
    event(tr, lane(tr, g2, "9", "", false, 0, TT_LANE_THREAD), "pid 2/tid 9", 1, 1, TT_EV_SLICE);
    lane(tr, g2, "6", "empty thread", false, 0, TT_LANE_THREAD);   /* no events: dropped */
    event(tr, lane(tr, g2, "4", "worker 2", false, 0, TT_LANE_THREAD), "pid 2/worker 2", 1, 1,
          TT_EV_SLICE);
    event(tr, lane(tr, g2, "3", "main", true, 1, TT_LANE_THREAD), "pid 2/main", 1, 1, TT_EV_SLICE);
    event(tr, lane(tr, gpu0, "1", "stream 10", false, 0, TT_LANE_THREAD), "GPU 0/stream 10", 2, 1,
          TT_EV_SLICE);
    event(tr, lane(tr, gpu0, "2", "stream 2", false, 0, TT_LANE_THREAD), "GPU 0/stream 2", 2, 1,
          TT_EV_SLICE);
    event(tr, lane(tr, gpu1, "1", "", false, 0, TT_LANE_THREAD), "GPU 1/tid 1", 3, 1, TT_EV_SLICE);
    event(tr, lane(tr, gglob, "", "", false, 0, TT_LANE_THREAD), "(global)/(process)", 4, 0,
          TT_EV_INSTANT_GLOBAL);
    lane(tr, gidle, "1", "idle thread", false, 0, TT_LANE_THREAD);
    ok(tt_trace_lane(tr, g2, S(tr, "9"), TT_LANE_THREAD) == tt_trace_lane(tr, g2, S(tr, "9"), TT_LANE_THREAD),
       "builder: the same lane key finds the same lane");
    ok(tt_trace_lane(tr, g2, S(tr, "9"), TT_LANE_ASYNC) != tt_trace_lane(tr, g2, S(tr, "9"), TT_LANE_THREAD),
       "builder: the kind is part of a lane's identity");
    c = tt_trace_counter(tr, gctr, S(tr, "mem"), S(tr, "used"));
    tt_trace_counter_push(tr, c, 3, 1.0);
    /* the async lane with the same key as a thread lane was just created
     * empty: it must be dropped too */

    if (!ok(tt_trace_finalize(tr, &err) == 0, "finalize"))
        return;
    is_i64(tr->n_groups, 6, "groups: the metadata-only group is dropped");
    bad = 0;
    for (uint32_t i = 0; i < tr->n_groups && i < 6; i++)
        if (strcmp(glabel(tr, i), want_groups[i]) != 0)
            bad++, diag("group %u is '%s', want '%s'", i, glabel(tr, i), want_groups[i]);
    is_i64(bad, 0, "groups: sort index first (ascending), then natural label, global last");

    is_i64(tr->n_lanes, 11, "lanes: the lanes without events are dropped");
    bad = 0;
    for (uint32_t i = 0; i < tr->n_lanes && i < 11; i++) {
        char full[300];
        snprintf(full, sizeof full, "%s/%s", glabel(tr, tr->lanes[i].group), llabel(tr, i));
        if (strcmp(full, want_lanes[i]) != 0)
            bad++, diag("lane %u is '%s', want '%s'", i, full, want_lanes[i]);
        /* each event still sits in the lane it was pushed to */
        if (tr->lanes[i].n != 1 || strcmp(tt_str(tr, tr->lanes[i].ev[0].name), want_lanes[i]) != 0)
            bad++, diag("lane %u holds the wrong events", i);
    }
    is_i64(bad, 0, "lanes: grouped, sort index, natural name, threads before async; events follow");
    bad = 0;
    for (uint32_t g = 0; g < tr->n_groups; g++) {
        const tt_group *gr = &tr->groups[g];
        for (uint32_t k = 0; k < gr->n_lanes; k++)
            if (tr->lanes[gr->first_lane + k].group != g)
                bad++;
    }
    for (uint32_t i = 0; i < tr->n_lanes; i++) {
        const tt_group *gr = &tr->groups[tr->lanes[i].group];
        if (i < gr->first_lane || i >= gr->first_lane + gr->n_lanes)
            bad++;
    }
    is_i64(bad, 0, "groups: first_lane/n_lanes match the lanes' group indexes");
    is_i64(tr->groups[2].n_lanes, 0, "the counters-only group has no lanes");
    ok(tr->n_counters == 1 && tr->counters[0].group == 2, "the counter follows its group's new index");
    is_i64((int64_t)tr->n_events, 11, "n_events counts every event");
    is_i64(tr->t0, 1, "t0 is the earliest start");
    is_i64(tr->t1, 6, "t1 is the latest end");
    tt_trace_free(tr);
}

static void test_events(void)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g = group(tr, "1", "", false, 0), a, b, c;
    tt_lane *l;
    int64_t open_i;

    a = lane(tr, g, "1", "a", false, 0, TT_LANE_THREAD);
    b = lane(tr, g, "2", "b", false, 0, TT_LANE_THREAD);
    /* lane a, out of order: expected (start, longer first, source order) */
    event(tr, a, "e10", 10, 5, TT_EV_SLICE);
    event(tr, a, "outer", 0, 100, TT_EV_SLICE);
    event(tr, a, "first", 5, 5, TT_EV_SLICE);
    event(tr, a, "mid", 0, 50, TT_EV_SLICE);
    event(tr, a, "e20", 20, 30, TT_EV_SLICE);
    event(tr, a, "inst", 60, 0, TT_EV_INSTANT);
    event(tr, a, "second", 5, 5, TT_EV_SLICE);
    open_i = event(tr, a, "open", 30, 0, TT_EV_SLICE);
    leave_open(tr, a, (uint32_t)open_i);
    event(tr, b, "late", 400, 100, TT_EV_SLICE);
    c = tt_trace_counter(tr, g, S(tr, "q"), S(tr, "v"));
    tt_trace_counter_push(tr, c, 700, 1.0);
    tt_trace_counter_push(tr, c, -5, 2.0);

    if (!ok(tt_trace_finalize(tr, &err) == 0, "finalize"))
        return;
    l = &tr->lanes[0];
    if (!ok(l->n == 8, "lane a keeps its 8 events"))
        return;
    {
        static const char *const order[] = {"outer", "mid", "first", "second", "e10", "e20", "open", "inst"};
        /* identical slices nest (as in chrome://tracing); the open begin
         * runs to the end, so the instant after it is inside it */
        static const int depth[] = {0, 1, 2, 3, 2, 2, 3, 4};
        int bad = 0;
        for (int i = 0; i < 8; i++) {
            if (strcmp(tt_str(tr, l->ev[i].name), order[i]) != 0 || l->ev[i].depth != depth[i])
                bad++, diag("event %d: %s depth %d, want %s depth %d", i, tt_str(tr, l->ev[i].name),
                            l->ev[i].depth, order[i], depth[i]);
        }
        is_i64(bad, 0, "events sorted by start, longer first, ties in source order; depths nest");
        is_i64(l->max_depth, 4, "max depth");
        is_i64(l->ev[6].flags & TT_EVF_UNCLOSED, TT_EVF_UNCLOSED, "the open begin is marked unclosed");
        is_i64(tt_event_end(&l->ev[6]), 700, "an unclosed begin runs to the trace end (last counter sample)");
        is_i64(tr->problems[TT_PROB_UNCLOSED_BEGIN].count, 1, "the unclosed begin is reported once");
        ok(l->open == NULL && l->n_open == 0, "the decoder scratch is released");
    }
    is_i64(tr->t0, -5, "t0 includes counter samples");
    is_i64(tr->t1, 700, "t1 includes counter samples");
    is_i64(tr->counters[0].t[0], -5, "counter samples sorted by time");
    tt_trace_free(tr);

    /* an unclosed begin after everything else has nothing to extend to */
    tr = tt_trace_new();
    g = group(tr, "1", "", false, 0);
    a = lane(tr, g, "1", "", false, 0, TT_LANE_THREAD);
    event(tr, a, "x", 0, 10, TT_EV_SLICE);
    open_i = event(tr, a, "last", 50, 0, TT_EV_SLICE);
    leave_open(tr, a, (uint32_t)open_i);
    if (ok(tt_trace_finalize(tr, &err) == 0, "finalize")) {
        is_i64(tr->lanes[0].ev[1].dur, 0, "an unclosed begin at the very end has duration 0");
        is_i64(tr->t1, 50, "t1 covers its start");
        ok(tt_trace_finalize(tr, &err) == 0, "finalize twice is harmless");
    }
    tt_trace_free(tr);

    /* times beyond TT_TIME_LIMIT would overflow every end and span: the
     * decoders keep to it and finalize refuses a model that does not */
    tr = tt_trace_new();
    g = group(tr, "1", "", false, 0);
    a = lane(tr, g, "1", "", false, 0, TT_LANE_THREAD);
    event(tr, a, "edge", -TT_TIME_LIMIT, TT_TIME_LIMIT, TT_EV_SLICE);
    event(tr, a, "end", TT_TIME_LIMIT, TT_TIME_LIMIT, TT_EV_SLICE);
    if (ok(tt_trace_finalize(tr, &err) == 0, "times at the limit finalize"))
        is_i64(tr->t1 - tr->t0, 3 * TT_TIME_LIMIT, "and their span fits in int64");
    tt_trace_free(tr);
    tr = tt_trace_new();
    g = group(tr, "1", "", false, 0);
    a = lane(tr, g, "1", "", false, 0, TT_LANE_THREAD);
    event(tr, a, "late", TT_TIME_LIMIT + 1, 5, TT_EV_SLICE);
    ok(tt_trace_finalize(tr, &err) != 0 && strstr(err.what, "out of range") &&
           strstr(err.what, "'late'"),
       "a start beyond the limit is refused: %s", err.what);
    tt_trace_free(tr);

    /* empty trace */
    tr = tt_trace_new();
    if (ok(tt_trace_finalize(tr, &err) == 0, "an empty trace finalizes")) {
        ok(tr->t0 == 0 && tr->t1 == 0 && tr->n_events == 0 && tr->n_lanes == 0 && tr->n_groups == 0,
           "an empty trace has span 0 and nothing in it");
    }
    tt_trace_free(tr);
    tt_trace_free(NULL);
}

static void test_counters(void)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g1 = group(tr, "1", "B proc", false, 0), g0 = group(tr, "0", "A proc", false, 0);
    uint32_t c1, c2, c3, c4, c5;
    static const double vals[] = {4, -1.5, 3, 7};
    static const tt_ns ts[] = {5, 1, 3, 1};

    c1 = tt_trace_counter(tr, g0, S(tr, "mem 10"), S(tr, "used"));
    c2 = tt_trace_counter(tr, g0, S(tr, "mem 2"), S(tr, "used"));
    c3 = tt_trace_counter(tr, g0, S(tr, "mem 2"), S(tr, "free"));
    c4 = tt_trace_counter(tr, g1, S(tr, "a"), S(tr, "v"));
    c5 = tt_trace_counter(tr, g0, S(tr, "mem 10"), S(tr, "used"));
    is_i64(c5, c1, "the same (group, name, key) finds the same series");
    for (int i = 0; i < 4; i++)
        tt_trace_counter_push(tr, c1, ts[i], vals[i]);
    tt_trace_counter_push(tr, c2, 1, 0);
    tt_trace_counter_push(tr, c3, 1, 0);
    tt_trace_counter_push(tr, c4, 1, 0);
    if (!ok(tt_trace_finalize(tr, &err) == 0, "finalize"))
        return;
    {
        static const char *const want[] = {"A proc|mem 2|free", "A proc|mem 2|used",
                                           "A proc|mem 10|used", "B proc|a|v"};
        int bad = 0;
        for (uint32_t i = 0; i < tr->n_counters && i < 4; i++) {
            char got[200];
            const tt_counter *c = &tr->counters[i];
            snprintf(got, sizeof got, "%s|%s|%s", glabel(tr, c->group), tt_str(tr, c->name),
                     tt_str(tr, c->key));
            if (strcmp(got, want[i]) != 0)
                bad++, diag("counter %u is %s, want %s", i, got, want[i]);
        }
        is_i64(tr->n_counters, 4, "four series");
        is_i64(bad, 0, "series sorted by group, then natural name, then key");
    }
    {
        const tt_counter *c = &tr->counters[2];
        ok(c->n == 4 && c->t[0] == 1 && c->v[0] == -1.5 && c->t[1] == 1 && c->v[1] == 7 &&
               c->t[2] == 3 && c->v[2] == 3 && c->t[3] == 5 && c->v[3] == 4,
           "samples sorted by time, equal times in source order");
        ok(c->vmin == -1.5 && c->vmax == 7, "min and max of the series");
    }
    tt_trace_free(tr);
}

static tt_flow_point fp(uint64_t key, uint32_t lane_, tt_ns ts, tt_flow_phase ph, tt_flow_bind bind,
                        uint32_t name, tt_ns dur)
{
    tt_flow_point p;
    memset(&p, 0, sizeof p);
    p.key = key;
    p.lane = lane_;
    p.ts = ts;
    p.phase = (uint8_t)ph;
    p.bind = (uint8_t)bind;
    p.name = name;
    p.dur = dur;
    return p;
}

static const char *ev_name(const tt_trace *tr, tt_evref r)
{
    return tt_str(tr, tt_trace_event(tr, r)->name);
}

static void test_flows(void)
{
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g = group(tr, "1", "", false, 0), a, b, fl = S(tr, "flow"), kernel = S(tr, "kernel");
    tt_flow_point p;

    /* created a then b; by name b ("aaa") sorts first, so the flow points'
     * lane indexes must be remapped */
    a = lane(tr, g, "1", "zzz", false, 0, TT_LANE_THREAD);
    b = lane(tr, g, "2", "aaa", false, 0, TT_LANE_THREAD);
    event(tr, a, "outer", 0, 100, TT_EV_SLICE);
    event(tr, a, "inner", 10, 20, TT_EV_SLICE);
    event(tr, a, "leaf", 15, 2, TT_EV_SLICE);
    event(tr, a, "tick", 150, 0, TT_EV_INSTANT);
    event(tr, a, "later", 200, 10, TT_EV_SLICE);
    event(tr, a, "final", 400, 50, TT_EV_SLICE);
    event(tr, b, "other", 300, 5, TT_EV_SLICE);
    event(tr, b, "kernel", 300, 5, TT_EV_SLICE);
    event(tr, b, "zero", 500, 0, TT_EV_SLICE);

    /* 1: enclosing start (deepest slice at 16 is leaf), next-slice end at
     * 120 (skips the instant at 150, lands on later) */
    p = fp(1, a, 16, TT_FLOW_START, TT_BIND_ENCLOSING, fl, 0);
    tt_trace_flow_point(tr, &p);
    p = fp(1, a, 120, TT_FLOW_END, TT_BIND_NEXT, fl, 0);
    tt_trace_flow_point(tr, &p);
    /* 2: exact start on b's "kernel" (not "other" at the same time and
     * duration), enclosing step on final, next end on zero */
    p = fp(2, b, 300, TT_FLOW_START, TT_BIND_EXACT, kernel, 5);
    tt_trace_flow_point(tr, &p);
    p = fp(2, b, 450, TT_FLOW_END, TT_BIND_NEXT, fl, 0);
    tt_trace_flow_point(tr, &p);
    p = fp(2, a, 410, TT_FLOW_STEP, TT_BIND_ENCLOSING, fl, 0);
    tt_trace_flow_point(tr, &p);
    /* 3: an end without a start */
    p = fp(3, a, 16, TT_FLOW_END, TT_BIND_ENCLOSING, fl, 0);
    tt_trace_flow_point(tr, &p);
    /* 4: a start with no slice at its time, then an end */
    p = fp(4, a, 1000, TT_FLOW_START, TT_BIND_ENCLOSING, fl, 0);
    tt_trace_flow_point(tr, &p);
    p = fp(4, a, 1001, TT_FLOW_END, TT_BIND_ENCLOSING, fl, 0);
    tt_trace_flow_point(tr, &p);
    /* 5: both ends on the same slice: not a flow */
    p = fp(5, a, 16, TT_FLOW_START, TT_BIND_ENCLOSING, fl, 0);
    tt_trace_flow_point(tr, &p);
    p = fp(5, a, 16, TT_FLOW_END, TT_BIND_ENCLOSING, fl, 0);
    tt_trace_flow_point(tr, &p);

    if (!ok(tt_trace_finalize(tr, &err) == 0, "finalize"))
        return;
    ok(strcmp(llabel(tr, 0), "aaa") == 0, "lane b sorts first");
    if (!is_i64((int64_t)tr->n_flows, 3, "three flows resolved"))
        return;
    {
        int bad = 0, found = 0;
        for (size_t i = 0; i < tr->n_flows; i++) {
            const tt_flow *f = &tr->flows[i];
            const char *from = ev_name(tr, f->from), *to = ev_name(tr, f->to);
            if ((!strcmp(from, "leaf") && !strcmp(to, "later")) ||
                (!strcmp(from, "kernel") && !strcmp(to, "final")) ||
                (!strcmp(from, "final") && !strcmp(to, "zero")))
                found++;
            else
                bad++, diag("unexpected flow %s -> %s", from, to);
            if (i > 0 && (tr->flows[i - 1].from.lane > f->from.lane ||
                          (tr->flows[i - 1].from.lane == f->from.lane &&
                           tr->flows[i - 1].from.idx > f->from.idx)))
                bad++, diag("flows not sorted by source");
        }
        ok(bad == 0 && found == 3,
           "flows: leaf->later (enclosing, next), kernel->final->zero (exact, step, next)");
    }
    is_i64(tr->problems[TT_PROB_UNRESOLVED_FLOW].count, 3,
           "unresolved: an end without start, a start without slice, and its end");
    {
        int la = find_lane(tr, "pid 1", "zzz"), lb = find_lane(tr, "pid 1", "aaa");
        size_t first, n;
        tt_evref leaf = {(uint32_t)la, 2}, final = {(uint32_t)la, 5}, kern, later = {(uint32_t)la, 4};
        ok(la >= 0 && lb >= 0 && !strcmp(ev_name(tr, leaf), "leaf") && !strcmp(ev_name(tr, final), "final"),
           "events found where expected");
        kern.lane = (uint32_t)lb;
        kern.idx = strcmp(ev_name(tr, (tt_evref){(uint32_t)lb, 0}), "kernel") == 0 ? 0 : 1;
        n = tt_trace_flows_from(tr, leaf, &first);
        ok(n == 1 && tr->flows[first].to.lane == later.lane && tr->flows[first].to.idx == later.idx,
           "flows_from(leaf): one flow, to later");
        n = tt_trace_flows_to(tr, final, &first);
        ok(n == 1 && !strcmp(ev_name(tr, tr->flows[tr->flows_by_to[first]].from), "kernel"),
           "flows_to(final): one flow, from kernel");
        n = tt_trace_flows_from(tr, final, &first);
        ok(n == 1 && !strcmp(ev_name(tr, tr->flows[first].to), "zero"), "flows_from(final): to zero");
        n = tt_trace_flows_to(tr, kern, &first);
        is_i64((int64_t)n, 0, "flows_to(kernel): none");
        n = tt_trace_flows_from(tr, (tt_evref){(uint32_t)la, 0}, &first);
        is_i64((int64_t)n, 0, "flows_from(outer): none");
    }
    ok(tr->flow_points == NULL && tr->n_flow_points == 0, "flow points released after finalize");
    tt_trace_free(tr);
}

/* One flow id with a start, ten steps and an end (more points than one id
 * usually has), added out of order and among other ids: one chain in
 * time order. */
static void test_long_flow(void)
{
    enum { K = 12 };
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g = group(tr, "1", "", false, 0), l = lane(tr, g, "1", "", false, 0, TT_LANE_THREAD);
    uint32_t fl = S(tr, "flow");
    int order[K], bad = 0;
    for (int k = 0; k < K; k++) {
        char name[8];
        snprintf(name, sizeof name, "e%d", k);
        event(tr, l, name, 1000 - 10 * (K - k), 5, TT_EV_SLICE);
        order[k] = k;
    }
    for (int k = K; k-- > 1;) {
        int j = (int)(rnd() % (uint64_t)(k + 1)), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < K; i++) {
        int k = order[i];
        tt_flow_point p = fp(7, l, 1000 - 10 * (K - k) + 1,
                             k == 0 ? TT_FLOW_START : k == K - 1 ? TT_FLOW_END : TT_FLOW_STEP,
                             TT_BIND_ENCLOSING, fl, 0);
        tt_flow_point q = fp(100 + (uint64_t)i, l, 1000 - 10 * (K - k) + 2, TT_FLOW_START,
                             TT_BIND_ENCLOSING, fl, 0);
        tt_trace_flow_point(tr, &p);
        tt_trace_flow_point(tr, &q);   /* starts of other ids, never ended */
    }
    if (ok(tt_trace_finalize(tr, &err) == 0, "finalize: a long flow") &&
        is_i64((int64_t)tr->n_flows, K - 1, "a start, 10 steps and an end make 11 arrows")) {
        for (size_t i = 0; i < tr->n_flows; i++) {
            char from[24], to[24];
            snprintf(from, sizeof from, "e%zu", i);
            snprintf(to, sizeof to, "e%zu", i + 1);
            if (strcmp(ev_name(tr, tr->flows[i].from), from) || strcmp(ev_name(tr, tr->flows[i].to), to))
                bad++;
        }
        is_i64(bad, 0, "the arrows of a long flow go from each point to the next in time");
    }
    tt_trace_free(tr);
}

/* Flow ids that share their top bits (finalize radix-sorts the points by
 * an id's top bits over the point's index, then orders each run of such
 * ids by whole id): each id's start and end still pair up, whether the
 * ids differ in their low bits only or in their high ones, the points
 * added in shuffled order. */
static void test_flow_ids(void)
{
    enum { M = 40 };
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g = group(tr, "1", "", false, 0), l = lane(tr, g, "1", "", false, 0, TT_LANE_THREAD);
    uint32_t fl = S(tr, "flow");
    tt_flow_point pts[2 * M];
    int bad = 0;
    for (int i = 0; i < 2 * M; i++) {
        char name[8];
        snprintf(name, sizeof name, "e%d", i);
        event(tr, l, name, 100 * i, 50, TT_EV_SLICE);
    }
    for (int m = 0; m < M; m++) {
        /* even ids: 1..; odd ones: apart in their top bits */
        uint64_t key = m % 2 ? (uint64_t)m << 50 | 5 : (uint64_t)m + 1;
        pts[2 * m] = fp(key, l, 100 * m + 1, TT_FLOW_START, TT_BIND_ENCLOSING, fl, 0);
        pts[2 * m + 1] = fp(key, l, 100 * (M + m) + 1, TT_FLOW_END, TT_BIND_ENCLOSING, fl, 0);
    }
    for (int k = 2 * M; k-- > 1;) {
        int j = (int)(rnd() % (uint64_t)(k + 1));
        tt_flow_point t = pts[k];
        pts[k] = pts[j];
        pts[j] = t;
    }
    for (int k = 0; k < 2 * M; k++)
        tt_trace_flow_point(tr, &pts[k]);
    if (ok(tt_trace_finalize(tr, &err) == 0, "finalize: flow ids sharing their top bits") &&
        is_i64((int64_t)tr->n_flows, M, "each id's start and end make one arrow")) {
        for (size_t i = 0; i < tr->n_flows; i++) {
            char from[24], to[24];
            snprintf(from, sizeof from, "e%zu", i);
            snprintf(to, sizeof to, "e%zu", i + M);
            if (strcmp(ev_name(tr, tr->flows[i].from), from) || strcmp(ev_name(tr, tr->flows[i].to), to))
                bad++;
        }
        is_i64(bad, 0, "ids apart in their low bits only pair up as the others do");
    }
    tt_trace_free(tr);
}

/* ------------------------------------------------- random, brute force */

typedef struct ref_ev {
    tt_ns    start, dur;
    uint32_t seq;
    int      depth;
} ref_ev;

static int cmp_ref(const void *pa, const void *pb)
{
    const ref_ev *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->dur != b->dur)
        return a->dur > b->dur ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Properly nested slices inside [lo, hi) at depth d. */
static void gen_tree(ref_ev *out, size_t *n, size_t cap, tt_ns lo, tt_ns hi, int d)
{
    tt_ns t = lo;
    while (*n < cap && hi - t >= 2 && rnd() % 4 != 0) {
        tt_ns s = t + (tt_ns)(rnd() % (uint64_t)((hi - t) / 2 + 1));
        tt_ns maxd = hi - s - (s == lo && d > 0 ? 1 : 0);   /* strictly inside the parent */
        tt_ns dur;
        if (maxd < 1)
            break;
        dur = 1 + (tt_ns)(rnd() % (uint64_t)maxd);
        out[*n].start = s;
        out[*n].dur = dur;
        out[*n].depth = d;
        (*n)++;
        if (d < 40)
            gen_tree(out, n, cap, s, s + dur, d + 1);
        t = s + dur;
    }
}

static void test_random(void)
{
    int bad_order = 0, bad_depth = 0, bad_span = 0, deepest = 0;
    uint64_t all = 0;
    for (int round = 0; round < 60; round++) {
        enum { CAP = 3000, LANES = 4 };
        tt_trace *tr = tt_trace_new();
        tt_error err;
        uint32_t g = group(tr, "1", "", false, 0);
        ref_ev *ref[LANES];
        size_t nref[LANES];
        tt_ns t0 = INT64_MAX, t1 = INT64_MIN;
        uint64_t total = 0;
        for (int k = 0; k < LANES; k++) {
            char key[8];
            uint32_t l;
            snprintf(key, sizeof key, "%d", k);
            l = lane(tr, g, key, "", false, 0, TT_LANE_THREAD);
            ref[k] = malloc(CAP * sizeof *ref[k]);
            nref[k] = 0;
            gen_tree(ref[k], &nref[k], CAP, (tt_ns)(rnd() % 1000), 1000000, 0);
            /* shuffle the source order */
            for (size_t i = nref[k]; i-- > 1;) {
                size_t j = rnd() % (i + 1);
                ref_ev x = ref[k][i];
                ref[k][i] = ref[k][j];
                ref[k][j] = x;
            }
            for (size_t i = 0; i < nref[k]; i++) {
                ref[k][i].seq = (uint32_t)i;
                event(tr, l, "e", ref[k][i].start, ref[k][i].dur, TT_EV_SLICE);
                if (ref[k][i].start < t0)
                    t0 = ref[k][i].start;
                if (ref[k][i].start + ref[k][i].dur > t1)
                    t1 = ref[k][i].start + ref[k][i].dur;
            }
            total += nref[k];
            all += nref[k];
            qsort(ref[k], nref[k], sizeof *ref[k], cmp_ref);
        }
        if (tt_trace_finalize(tr, &err) != 0) {
            bad_order++;
            tt_trace_free(tr);
            continue;
        }
        for (uint32_t li = 0; li < tr->n_lanes; li++) {
            const tt_lane *l = &tr->lanes[li];
            int k = atoi(tt_str(tr, l->key));
            int maxd = 0;
            if (l->n != nref[k]) {
                bad_order++;
                continue;
            }
            for (size_t i = 0; i < l->n; i++) {
                if (l->ev[i].start != ref[k][i].start || l->ev[i].dur != ref[k][i].dur)
                    bad_order++;
                if (l->ev[i].depth != ref[k][i].depth)
                    bad_depth++;
                if (ref[k][i].depth > maxd)
                    maxd = ref[k][i].depth;
            }
            if (maxd > deepest)
                deepest = maxd;
            if (l->max_depth != maxd)
                bad_depth++;
        }
        if (total && (tr->t0 != t0 || tr->t1 != t1 || tr->n_events != total))
            bad_span++;
        for (int k = 0; k < LANES; k++)
            free(ref[k]);
        tt_trace_free(tr);
    }
    ok(all > 10000 && deepest > 5, "random nested slices: %llu events, depth up to %d",
       (unsigned long long)all, deepest);
    is_i64(bad_order, 0, "random nested slices: every lane sorted exactly like qsort");
    is_i64(bad_depth, 0, "random nested slices: depth equals the number of ancestors");
    is_i64(bad_span, 0, "random nested slices: t0, t1 and n_events by brute force");
}

/* Many events sharing a start (runs longer than the sort's small-run
 * buffer), out of order: sorted by start, longer first, equal ones in
 * source order, as qsort says. Starts far apart (some far below zero:
 * (start, index) pairs) and close together (keys of start and index
 * packed in 64 bits). */
static void test_equal_starts(void)
{
    enum { N = 600 };
    static const tt_ns wide[] = {-2000000000000000000LL, 0, 7, 2000000000000000000LL};
    static const tt_ns close[] = {-5, 0, 7, 1000000};
    for (int w = 0; w < 2; w++) {
        const tt_ns *starts = w ? close : wide;
        tt_trace *tr = tt_trace_new();
        tt_error err;
        uint32_t g = group(tr, "1", "", false, 0), l = lane(tr, g, "1", "", false, 0, TT_LANE_ASYNC);
        ref_ev *ref = malloc(N * sizeof *ref);
        int bad = 0;
        for (uint32_t i = 0; i < N; i++) {
            char name[16];
            ref[i].start = starts[rnd() % 4];
            ref[i].dur = (tt_ns)(rnd() % 5);
            ref[i].seq = i;
            snprintf(name, sizeof name, "e%u", (unsigned)i);
            event(tr, l, name, ref[i].start, ref[i].dur, TT_EV_ASYNC);
        }
        qsort(ref, N, sizeof *ref, cmp_ref);
        if (ok(tt_trace_finalize(tr, &err) == 0, "finalize: equal starts, %s", w ? "close" : "far apart")) {
            const tt_lane *ln = &tr->lanes[0];
            for (size_t i = 0; i < N; i++) {
                char name[16];
                snprintf(name, sizeof name, "e%u", (unsigned)ref[i].seq);
                if (strcmp(tt_str(tr, ln->ev[i].name), name) != 0)
                    bad++;
            }
        }
        is_i64(bad, 0, "600 events on 4 starts %s: by start, longer first, ties in source order",
               w ? "close together" : "far apart");
        free(ref);
        tt_trace_free(tr);
    }
}

/* Unsorted samples: a big series with many equal times (the radix sort
 * of packed keys) and one spanning the whole time range (keys that do
 * not pack: the merge sort), both in (time, source order). */
static void test_counter_sort(void)
{
    enum { N = 5000 };
    tt_trace *tr = tt_trace_new();
    tt_error err;
    uint32_t g = group(tr, "0", "p", false, 0), big, wide;
    static const tt_ns wide_t[] = {TT_TIME_LIMIT, -TT_TIME_LIMIT, 0, -TT_TIME_LIMIT, 0};
    tt_ns prev_t = INT64_MIN;
    double prev_v = -1;
    int bad = 0;
    big = tt_trace_counter(tr, g, S(tr, "big"), S(tr, "v"));
    wide = tt_trace_counter(tr, g, S(tr, "wide"), S(tr, "v"));
    for (int i = 0; i < N; i++)   /* the value is the source position */
        tt_trace_counter_push(tr, big, 1000000 + (tt_ns)(rnd() % 300) * 1000, i);
    for (int i = 0; i < 5; i++)
        tt_trace_counter_push(tr, wide, wide_t[i], i);
    if (!ok(tt_trace_finalize(tr, &err) == 0, "finalize"))
        return;
    for (uint32_t k = 0; k < tr->n_counters; k++) {
        const tt_counter *c = &tr->counters[k];
        if (strcmp(tt_str(tr, c->name), "big") != 0)
            continue;
        is_i64((int64_t)c->n, N, "every sample kept");
        for (size_t i = 0; i < c->n; i++) {
            if (c->t[i] < prev_t || (c->t[i] == prev_t && c->v[i] <= prev_v))
                bad++;
            prev_t = c->t[i];
            prev_v = c->v[i];
        }
    }
    is_i64(bad, 0, "many samples sorted by time, equal times in source order");
    for (uint32_t k = 0; k < tr->n_counters; k++) {
        const tt_counter *c = &tr->counters[k];
        if (strcmp(tt_str(tr, c->name), "wide") != 0)
            continue;
        ok(c->n == 5 && c->t[0] == -TT_TIME_LIMIT && c->v[0] == 1 &&
               c->t[1] == -TT_TIME_LIMIT && c->v[1] == 3 && c->t[2] == 0 && c->v[2] == 2 &&
               c->t[3] == 0 && c->v[3] == 4 && c->t[4] == TT_TIME_LIMIT && c->v[4] == 0,
           "samples across the whole time range sorted, equal times in source order");
    }
    tt_trace_free(tr);
}

int main(void)
{
    test_order();
    test_events();
    test_counters();
    test_counter_sort();
    test_flows();
    test_random();
    test_equal_starts();
    test_long_flow();
    test_flow_ids();
    return tap_done();
}
