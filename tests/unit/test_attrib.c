/* test_attrib.c - analysis/attrib.h against brute force on random traces:
 * parents, self times (children's union by unit cells), launchers from
 * flows and correlation ids, launch ops, device self/total, launched
 * lists and counts. */
#include "config.h"

#include "../tap.h"
#include "../xorshift.h"
#include "analysis/attrib.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    return tt_xorshift64(&rng);
}

#define SPAN 1000

static uint32_t S(tt_trace *tr, const char *s) { return tt_trace_intern_cstr(tr, s); }

static const char *const host_names[] = {"aten::mm", "aten::add", "cudaLaunchKernel", "frame.py",
                                         "ProfilerStep#1", "cuLaunchKernel", "cudnn_conv"};
static const char *const host_cats[] = {"cpu_op", "cpu_op", "cuda_runtime", "python_function",
                                        "user_annotation", "", "cpu_op"};

typedef struct world {
    tt_trace *tr;
    uint32_t  host[3], dev[2];   /* host[2] is an async lane */
} world;

static void push(tt_trace *tr, uint32_t l, uint32_t name, uint32_t cat, tt_ns s, tt_ns d,
                 tt_event_kind k, uint32_t corr)
{
    int64_t i = tt_trace_push_event(tr, l);
    tt_event *e = &tr->lanes[l].ev[i];
    e->name = name;
    e->cat = cat;
    e->start = s;
    e->dur = d;
    e->kind = (uint8_t)k;
    e->corr = corr;
}

static tt_trace *make(size_t nh, size_t nd)
{
    tt_trace *tr = tt_trace_new();
    uint32_t gh = tt_trace_group(tr, S(tr, "host")), gd = tt_trace_group(tr, S(tr, "gpu"));
    uint32_t host[3], dev[2], kern = S(tr, "kernel"), copy = S(tr, "gpu_memcpy");
    uint32_t corr_next = 1;
    tt_error err;
    host[0] = tt_trace_lane(tr, gh, S(tr, "1"), TT_LANE_THREAD);
    host[1] = tt_trace_lane(tr, gh, S(tr, "2"), TT_LANE_THREAD);
    host[2] = tt_trace_lane(tr, gh, S(tr, "3"), TT_LANE_ASYNC);
    dev[0] = tt_trace_lane(tr, gd, S(tr, "7"), TT_LANE_THREAD);
    dev[1] = tt_trace_lane(tr, gd, S(tr, "8"), TT_LANE_THREAD);
    for (size_t i = 0; i < nh; i++) {
        size_t k = rnd() % 7;
        uint32_t l = host[rnd() % 3];
        tt_ns s = (tt_ns)(rnd() % SPAN), d = (tt_ns)(rnd() % (rnd() % 4 ? 30 : 400));
        tt_event_kind kind = rnd() % 15 == 0 ? TT_EV_INSTANT : TT_EV_SLICE;
        /* ids 1..: some host events carry one; a few share one with a
         * runtime call (which must win) */
        uint32_t corr = rnd() % 3 == 0 ? corr_next++ : 0;
        push(tr, l, S(tr, host_names[k]), S(tr, host_cats[k]), s, kind == TT_EV_INSTANT ? 0 : d,
             kind, corr);
        if (corr && k == 2 && rnd() % 4 == 0)
            push(tr, host[rnd() % 2], S(tr, "aten::other"), S(tr, "cpu_op"),
                 (tt_ns)(rnd() % SPAN), 5, TT_EV_SLICE, corr);
    }
    for (size_t i = 0; i < nd; i++) {
        uint32_t l = dev[rnd() % 2];
        tt_ns s = (tt_ns)(rnd() % SPAN), d = (tt_ns)(rnd() % 50) + 1;
        /* a correlation id that may name a host event, or none, or one
         * that names nothing (dangling) */
        uint32_t corr = rnd() % 4 ? (uint32_t)(rnd() % (corr_next + 5)) : 0;
        push(tr, l, S(tr, rnd() % 2 ? "gemm" : "elementwise"), rnd() % 5 ? kern : copy, s, d,
             TT_EV_SLICE, corr);
        if (rnd() % 8 == 0)   /* a device annotation: not device work */
            push(tr, l, S(tr, "annot"), S(tr, "gpu_user_annotation"), s, d + 10, TT_EV_SLICE, 0);
        if (rnd() % 3 == 0) {   /* a flow from the host at some time to it */
            tt_flow_point p;
            uint64_t key = rnd();
            memset(&p, 0, sizeof p);
            p.key = key;
            p.lane = host[rnd() % 3];
            p.ts = (tt_ns)(rnd() % SPAN);
            p.phase = TT_FLOW_START;
            p.bind = TT_BIND_ENCLOSING;
            tt_trace_flow_point(tr, &p);
            p.lane = rnd() % 6 ? l : dev[rnd() % 2];
            p.ts = s;
            p.phase = TT_FLOW_END;
            p.bind = TT_BIND_ENCLOSING;
            tt_trace_flow_point(tr, &p);
        }
    }
    if (tt_trace_finalize(tr, &err)) {
        tt_trace_free(tr);
        return NULL;
    }
    return tr;
}

/* ------------------------------------------------------- brute force */

static bool is_dev(const tt_trace *tr, const tt_event *e)
{
    const char *c = tt_str(tr, e->cat);
    return !strcmp(c, "kernel") || !strcmp(c, "gpu_memcpy");
}

static bool is_rt(const tt_trace *tr, const tt_event *e)
{
    const char *n = tt_str(tr, e->name);
    return !strcmp(tt_str(tr, e->cat), "cuda_runtime") || !strcmp(n, "cudaLaunchKernel") ||
           !strcmp(n, "cuLaunchKernel");
}

static bool is_py(const tt_trace *tr, const tt_event *e)
{
    return !strcmp(tt_str(tr, e->cat), "python_function");
}

static tt_evref b_parent(const tt_trace *tr, tt_evref r)
{
    const tt_lane *l = &tr->lanes[r.lane];
    uint16_t d = l->ev[r.idx].depth;
    if (l->kind != TT_LANE_THREAD || d == 0)
        return TT_NO_EVENT;
    for (uint32_t j = r.idx; j-- > 0;)
        if (l->ev[j].depth == d - 1)
            return (tt_evref){r.lane, j};
    return TT_NO_EVENT;
}

static bool same(tt_evref a, tt_evref b) { return a.lane == b.lane && a.idx == b.idx; }

static tt_ns b_self(const tt_trace *tr, tt_evref r)
{
    const tt_lane *l = &tr->lanes[r.lane];
    const tt_event *e = &l->ev[r.idx];
    unsigned char cell[3 * SPAN];
    tt_ns covered = 0;
    if (e->kind == TT_EV_INSTANT)
        return 0;
    memset(cell, 0, sizeof cell);
    for (uint32_t j = 0; j < l->n; j++)
        if (same(b_parent(tr, (tt_evref){r.lane, j}), r))
            for (tt_ns t = l->ev[j].start; t < tt_event_end(&l->ev[j]); t++)
                if (t >= e->start && t < tt_event_end(e))
                    cell[t] = 1;
    for (size_t t = 0; t < sizeof cell; t++)
        covered += cell[t];
    return e->dur - covered;
}

static tt_evref b_launcher(const tt_trace *tr, tt_evref d)
{
    const tt_event *e = tt_trace_event(tr, d);
    tt_evref best = TT_NO_EVENT, flow = TT_NO_EVENT;
    for (size_t f = 0; f < tr->n_flows && !tt_evref_ok(flow); f++)
        if (same(tr->flows[f].to, d) && !is_dev(tr, tt_trace_event(tr, tr->flows[f].from)))
            flow = tr->flows[f].from;   /* flows are sorted by source */
    if (!e->corr || (tt_evref_ok(flow) && tt_trace_event(tr, flow)->corr == e->corr))
        return flow;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (uint32_t i = 0; i < tr->lanes[l].n; i++) {
            const tt_event *h = &tr->lanes[l].ev[i];
            if (h->corr != e->corr || is_dev(tr, h))
                continue;
            /* a runtime call first, then the last in (lane, index) order */
            if (!tt_evref_ok(best) || is_rt(tr, h) || !is_rt(tr, tt_trace_event(tr, best)))
                best = (tt_evref){l, i};
        }
    return tt_evref_ok(best) ? best : flow;
}

static tt_evref b_op(const tt_trace *tr, tt_evref launcher)
{
    for (tt_evref x = launcher; tt_evref_ok(x); x = b_parent(tr, x))
        if (!is_rt(tr, tt_trace_event(tr, x)) && !is_py(tr, tt_trace_event(tr, x)))
            return x;
    return launcher;
}

static int cmp_ref(const void *pa, const void *pb)
{
    const tt_evref *a = pa, *b = pb;
    if (a->lane != b->lane)
        return a->lane < b->lane ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void check(size_t nh, size_t nd, int round)
{
    tt_trace *tr = make(nh, nd);
    tt_error err;
    const tt_attrib *a;
    size_t nev = 0, ndev = 0, nlinks = 0, ndang = 0, bad_parent = 0, bad_self = 0, bad_dev = 0,
           bad_link = 0, bad_op = 0, bad_sum = 0, bad_list = 0;
    tt_evref *lnk, *ops, *got = NULL, *want = NULL;
    size_t ngot = 0, cgot = 0;
    tt_attrib_counts light = {0, 0, 0}, after = {0, 0, 0};
    if (!ok(tr != NULL, "round %d: trace built", round))
        return;
    /* before any build: the counting pass of its own (checked against the
     * brute force below, as the build's counts are) */
    ok(tt_attrib_count(tr, &light, &err) == 0, "round %d: counted without a build", round);
    a = tt_attrib_get(tr, &err);
    if (!ok(a != NULL, "round %d: attribution built", round)) {
        tt_trace_free(tr);
        return;
    }
    ok(tt_attrib_get(tr, &err) == a, "round %d: built once", round);
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        nev += tr->lanes[l].n;
    lnk = calloc(nev + 1, sizeof *lnk);
    ops = calloc(nev + 1, sizeof *ops);
    want = calloc(nev + 1, sizeof *want);
    nev = 0;
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (uint32_t i = 0; i < tr->lanes[l].n; i++, nev++) {
            tt_evref r = {l, i};
            const tt_event *e = &tr->lanes[l].ev[i];
            bad_parent += !same(tt_attrib_parent(a, r), b_parent(tr, r));
            bad_self += tt_attrib_self(a, r) != b_self(tr, r);
            bad_dev += tt_attrib_is_device(a, r) != is_dev(tr, e);
            lnk[nev] = ops[nev] = TT_NO_EVENT;
            if (!is_dev(tr, e))
                continue;
            ndev++;
            lnk[nev] = b_launcher(tr, r);
            if (tt_evref_ok(lnk[nev])) {
                nlinks++;
                ops[nev] = b_op(tr, lnk[nev]);
            } else if (e->corr) {
                ndang++;
            }
            bad_link += !same(tt_attrib_launcher(a, r), lnk[nev]);
            bad_op += !same(tt_attrib_launch_op(a, r), ops[nev]);
        }
    /* per host event: device self/total and the launched lists */
    for (uint32_t l = 0; l < tr->n_lanes; l++)
        for (uint32_t i = 0; i < tr->lanes[l].n; i++) {
            tt_evref h = {l, i};
            tt_ns dself = 0, dtotal = 0;
            size_t nself = 0, nwant;
            size_t k = 0;
            for (uint32_t dl = 0; dl < tr->n_lanes; dl++)
                for (uint32_t di = 0; di < tr->lanes[dl].n; di++, k++) {
                    tt_ns dur = tr->lanes[dl].ev[di].dur;
                    if (!tt_evref_ok(lnk[k]))
                        continue;
                    if (same(ops[k], h)) {
                        dself += dur;
                        nself++;
                    }
                    for (tt_evref x = lnk[k]; tt_evref_ok(x); x = b_parent(tr, x))
                        if (same(x, h)) {
                            dtotal += dur;
                            break;
                        }
                }
            bad_sum += tt_attrib_device_self(a, h) != dself || tt_attrib_device_total(a, h) != dtotal;
            for (int anywhere = 0; anywhere < 2; anywhere++) {
                nwant = 0;
                k = 0;
                for (uint32_t dl = 0; dl < tr->n_lanes; dl++)
                    for (uint32_t di = 0; di < tr->lanes[dl].n; di++, k++) {
                        bool in = false;
                        if (!tt_evref_ok(lnk[k]))
                            continue;
                        if (!anywhere)
                            in = same(ops[k], h);
                        else
                            for (tt_evref x = lnk[k]; tt_evref_ok(x) && !in; x = b_parent(tr, x))
                                in = same(x, h);
                        if (in)
                            want[nwant++] = (tt_evref){dl, di};
                    }
                ngot = 0;
                if (tt_attrib_launched(a, h, anywhere, &got, &ngot, &cgot)) {
                    bad_list++;
                    continue;
                }
                if (ngot)
                    qsort(got, ngot, sizeof *got, cmp_ref);
                bad_list += ngot != nwant || (nwant && memcmp(got, want, nwant * sizeof *got));
                if (!anywhere)
                    bad_list += nwant != nself;
            }
        }
    is_i64((int64_t)bad_parent, 0, "round %d: parents", round);
    is_i64((int64_t)bad_self, 0, "round %d: self times", round);
    is_i64((int64_t)bad_dev, 0, "round %d: device classes", round);
    is_i64((int64_t)bad_link, 0, "round %d: launchers", round);
    is_i64((int64_t)bad_op, 0, "round %d: launch ops", round);
    is_i64((int64_t)bad_sum, 0, "round %d: device self and total", round);
    is_i64((int64_t)bad_list, 0, "round %d: launched lists", round);
    is_i64((int64_t)tt_attrib_n_device(a), (int64_t)ndev, "round %d: device count", round);
    is_i64((int64_t)tt_attrib_n_links(a), (int64_t)nlinks, "round %d: link count (%zu of %zu, %zu dangling)", round, nlinks, ndev, ndang);
    is_i64((int64_t)tt_attrib_n_dangling(a), (int64_t)ndang, "round %d: dangling count", round);
    ok(tt_attrib_has_links(a) == (nlinks > 0), "round %d: has links", round);
    ok(light.n_device == ndev && light.n_links == nlinks && light.n_dangling == ndang,
       "round %d: counting pass (%zu %zu %zu)", round, light.n_device, light.n_links,
       light.n_dangling);
    ok(tt_attrib_count(tr, &after, &err) == 0 && after.n_device == ndev &&
       after.n_links == nlinks && after.n_dangling == ndang,
       "round %d: counts from the built attribution", round);
    free(lnk);
    free(ops);
    free(want);
    free(got);
    tt_trace_free(tr);
}

/* A self time beyond 32 bits is recomputed from the children. */
static void check_long(void)
{
    tt_trace *tr = tt_trace_new();
    uint32_t g = tt_trace_group(tr, S(tr, "h")), l = tt_trace_lane(tr, g, S(tr, "1"), TT_LANE_THREAD);
    tt_error err;
    const tt_attrib *a;
    push(tr, l, S(tr, "step"), 0, 0, 10000000000LL, TT_EV_SLICE, 0);
    push(tr, l, S(tr, "op"), 0, 5, 1000, TT_EV_SLICE, 0);
    push(tr, l, S(tr, "op"), 0, 2000, 10000000000LL, TT_EV_SLICE, 0);   /* runs past: clipped */
    tt_trace_finalize(tr, &err);
    a = tt_attrib_get(tr, &err);
    is_i64(tt_attrib_self(a, (tt_evref){l, 0}), 1000, "long self: children clipped");
    is_i64(tt_attrib_self(a, (tt_evref){l, 2}), 10000000000LL, "long self of a leaf");
    ok(!tt_attrib_has_links(a), "no links");
    tt_trace_free(tr);
}

int main(void)
{
    for (int round = 0; round < 60; round++)
        check(20 + rnd() % 200, rnd() % 120, round);
    check(0, 0, 1000);
    check_long();
    return tap_done();
}
