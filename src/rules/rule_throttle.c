/* rule_throttle.c - `throttle`: regions where the device throttles (power
 * or thermal). Evidence comes from a counter whose name or key mentions
 * throttling (a sample above zero holds until the next sample) and from
 * events named like it; spans from every source closer than merge_gap are
 * one finding, whose message names what saw it. Its lanes are those of the
 * throttle events and, for a counter, the lanes it speaks for
 * (rule_counter_lanes: the device's engines). */
#include "config.h"

#include "rules/devwork.h"
#include "rules/rules_util.h"
#include "util/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LANES 64

typedef struct tspan {
    tt_ns    s, e;
    uint32_t counter;    /* counter index + 1, 0 for an event */
    double   peak;       /* counter value */
    tt_evref ev;         /* event, when counter == 0 */
} tspan;

typedef struct tspans {
    tspan *v;
    size_t n, cap;
} tspans;

static int push(tspans *t, tspan x)
{
    if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 64;
        tspan *nv = realloc(t->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        t->v = nv;
        t->cap = nc;
    }
    t->v[t->n++] = x;
    return 0;
}

static int cmp_tspan(const void *pa, const void *pb, void *ctx)
{
    const tspan *a = pa, *b = pb;
    (void)ctx;
    if (a->s != b->s)
        return a->s < b->s ? -1 : 1;
    return a->e < b->e ? -1 : a->e > b->e;
}

/* Every stretch a throttle counter is above zero, and every throttle
 * event; names_found: what the walk over the trace's strings found. */
static int collect(const tt_trace *tr, const rule_names_found *names_found, tspans *t)
{
    rule_names names;
    uint32_t n_lanes = tr->n_lanes;
    for (uint32_t c = 0; c < tr->n_counters; c++) {
        const tt_counter *ct = &tr->counters[c];
        if (!rule_is_throttle_name(tt_str(tr, ct->name)) &&
            !rule_is_throttle_name(tt_str(tr, ct->key)))
            continue;
        for (size_t i = 0; i < ct->n; i++) {
            tspan x;
            if (!(ct->v[i] > 0))
                continue;
            memset(&x, 0, sizeof x);
            x.s = ct->t[i];
            x.e = i + 1 < ct->n ? ct->t[i + 1] : tr->t1;
            x.counter = c + 1;
            x.peak = ct->v[i];
            if (push(t, x))
                return -1;
        }
    }
    if (rule_names_init(&names, tr, rule_is_throttle_name))
        return -1;
    /* no string names a throttle: no event does */
    if (!rule_names_any(&names, names_found, RULE_NAME_THROTTLE))
        n_lanes = 0;
    for (uint32_t l = 0; l < n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            tspan x;
            if (!rule_names_match(&names, ln->ev[i].name))
                continue;
            memset(&x, 0, sizeof x);
            x.s = ln->ev[i].start;
            x.e = tt_event_end(&ln->ev[i]);
            x.ev.lane = l;
            x.ev.idx = (uint32_t)i;
            if (push(t, x)) {
                rule_names_fini(&names);
                return -1;
            }
        }
    }
    rule_names_fini(&names);
    return 0;
}

/* One finding for spans v[i..j): what saw it, how long, which lanes (those
 * of the events, and those a counter speaks for: the device's engines). */
static int emit(const tt_rule_ctx *ctx, int ti, const tt_trace *tr, tt_classifier *cls,
                const tspan *v, size_t n)
{
    tt_ns s = v[0].s, e = v[0].e;
    uint64_t events = 0;
    uint32_t counter = 0, lanes[MAX_LANES], last_counter = 0;
    double peak = 0;
    size_t nl = 0, ne = 0;
    tt_evref ev[TT_ANN_MAX_EVENTS];
    char what[300], a[32], b[32], d[32];
    size_t o = 0;
    for (size_t k = 0; k < n; k++) {
        if (v[k].e > e)
            e = v[k].e;
        if (v[k].counter) {
            if (!counter || v[k].peak > peak) {
                counter = v[k].counter;
                peak = v[k].peak;
            }
            if (v[k].counter != last_counter) {
                uint32_t cl[MAX_LANES];
                size_t ncl = rule_counter_lanes(tr, cls, v[k].counter - 1, cl, MAX_LANES);
                for (size_t q = 0; q < ncl; q++)
                    rule_lane_add(lanes, &nl, MAX_LANES, cl[q]);
                last_counter = v[k].counter;
            }
            continue;
        }
        events++;
        if (ne < TT_ANN_MAX_EVENTS)
            ev[ne++] = v[k].ev;
        rule_lane_add(lanes, &nl, MAX_LANES, v[k].ev.lane);
    }
    what[0] = '\0';
    if (counter)
        o += (size_t)snprintf(what, sizeof what, "counter %s, peak %.6g",
                              tt_str(tr, tr->counters[counter - 1].name), peak);
    if (events && o < sizeof what)
        snprintf(what + o, sizeof what - o, "%s%llu throttle event%s", o ? "; " : "",
                 (unsigned long long)events, events == 1 ? "" : "s");
    return tt_rule_emit(ctx, ti, s, e, lanes, nl, ev, ne, events,
                        "throttling active for %s (%s) between %s and %s",
                        tt_fmt_dur(d, sizeof d, e - s, 3), what, tt_rule_time(tr, s, a, sizeof a),
                        tt_rule_time(tr, e, b, sizeof b));
}

static int run(const tt_rule_ctx *ctx)
{
    tt_ns gap = (tt_ns)tt_rule_param_value(ctx, "merge_gap");
    for (size_t t = 0; t < ctx->n_traces; t++) {
        const tt_trace *tr = ctx->traces[t];
        tspans sp = {NULL, 0, 0};
        tt_classifier cls;
        int rc = 0;
        if (tt_classifier_init(&cls, tr))
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        if (collect(tr, rule_devwork_names(ctx, t), &sp) ||
            tt_sort(sp.v, sp.n, sizeof *sp.v, cmp_tspan, NULL))
            rc = tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        for (size_t i = 0; rc == 0 && i < sp.n;) {
            size_t j = i + 1;
            tt_ns end = sp.v[i].e;
            while (j < sp.n && sp.v[j].s - end <= gap) {
                if (sp.v[j].e > end)
                    end = sp.v[j].e;
                j++;
            }
            rc = emit(ctx, (int)t, tr, &cls, sp.v + i, j - i);
            i = j;
        }
        free(sp.v);
        tt_classifier_fini(&cls);
        if (rc)
            return -1;
    }
    return 0;
}

const tt_rule tt_rule_throttle = {
    .id = "throttle",
    .summary = "regions where a throttling counter or throttle events are active",
    .params = {
        {"merge_gap", TT_PARAM_DURATION, 0, "active stretches closer than this are merged"},
    },
    .n_params = 1,
    .run = run,
};
