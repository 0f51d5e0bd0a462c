/* rules_util.h - what several rules need: which lanes hold device work,
 * name matching, merging nearby hits into spans.
 *
 * Library code: no I/O.
 */
#ifndef TT_RULES_UTIL_H
#define TT_RULES_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/classify.h"
#include "analysis/intervals.h"
#include "model/trace.h"
#include "rules/rules.h"
#include "util/num.h"

/* Per-lane facts for one trace. */
typedef struct rule_lanes {
    bool     *device;     /* lane holds kernels, copies or memsets */
    uint32_t *dev;        /* indexes of device lanes */
    size_t    n_dev;
    uint32_t *host;       /* lanes of the same trace without device work */
    size_t    n_host;
} rule_lanes;

/* 0, or -1 (OOM). */
int rule_lanes_init(rule_lanes *rl, const tt_trace *tr, tt_classifier *cls);
void rule_lanes_fini(rule_lanes *rl);

/* The lanes a counter speaks for, sorted, at most cap: the lane of the
 * counter's group whose name is the first word(s) of the counter's name
 * ("TensorMatrix" for "TensorMatrix Utilization"), else the group's lanes
 * with device work (the engines, streams or queues of that device), else
 * every lane of the group. Returns how many were written. */
size_t rule_counter_lanes(const tt_trace *tr, tt_classifier *cls, uint32_t counter,
                          uint32_t *out, size_t cap);

/* Add lane to the sorted list lanes[0..*n) unless it is there or the list
 * holds cap lanes already. */
void rule_lane_add(uint32_t *lanes, size_t *n, size_t cap, uint32_t lane);

/* Case-insensitive substring test. */
bool rule_icontains(const char *hay, const char *needle);

/* A span being built from hits that are close together. */
typedef struct rule_span {
    bool     open;
    tt_ns    start, end;
    uint64_t count;
    int64_t  bytes;
    tt_ns    total;       /* sum of hit durations */
    uint32_t lanes[16];
    size_t   n_lanes;
    tt_evref ev[TT_ANN_MAX_EVENTS];
    size_t   n_ev;
} rule_span;

/* Add a hit; returns true when it was merged into the open span (within
 * `gap` of its end), false when the caller must first flush the open span
 * (nothing is added then). */
bool rule_span_add(rule_span *sp, tt_ns gap, tt_ns s, tt_ns e, uint32_t lane,
                   uint32_t idx, int64_t bytes);

/* Start a new span with this hit. */
void rule_span_start(rule_span *sp, tt_ns s, tt_ns e, uint32_t lane, uint32_t idx,
                     int64_t bytes);

/* A name predicate answered once per distinct string id: rules test
 * every event's name, and a trace has millions of events but few names. */
typedef struct rule_names {
    const tt_trace *tr;
    bool          (*pred)(const char *name);
    uint8_t        *state;   /* per string id: 0 unknown, 1 no, 2 yes */
    uint32_t        n;
} rule_names;

int rule_names_init(rule_names *rn, const tt_trace *tr, bool (*pred)(const char *name));
void rule_names_fini(rule_names *rn);

static inline bool rule_names_match(rule_names *rn, uint32_t id)
{
    if (id >= rn->n)
        return rn->pred(tt_str(rn->tr, id));
    if (!rn->state[id])
        rn->state[id] = rn->pred(tt_str(rn->tr, id)) ? 2 : 1;
    return rn->state[id] == 2;
}

/* Names that rules look for in every event: a rule whose kind no string
 * of a trace names has nothing to find in its events and skips the walk
 * over them. */
typedef enum rule_name_kind {
    RULE_NAME_SYNC_COPY,   /* rule_is_sync_copy_call() */
    RULE_NAME_SYNC,        /* rule_is_sync_call() */
    RULE_NAME_THROTTLE,    /* rule_is_throttle_name() */
    RULE_NAME__COUNT
} rule_name_kind;

/* What one walk over a trace's strings found for every kind at once (a
 * walk per rule tested the same strings again for each). */
typedef struct rule_names_found {
    bool     known;                     /* false: the strings are too many
                                         * next to the events to be worth
                                         * testing; every kind may be named */
    uint32_t first[RULE_NAME__COUNT];   /* the first string naming the kind;
                                         * UINT32_MAX: none */
} rule_names_found;

/* The walk: each string is tested for the kinds not found before it, and
 * it stops once each is found. The rules ask it through
 * rule_devwork_names() (rules/devwork.h): once a trace. */
void rule_names_scan(rule_names_found *f, const tt_trace *tr);

/* Whether some string of the trace may name kind, whose predicate rn
 * tests: false means no event name can, and a rule looking for such names
 * may skip its walk over every event. What the walk over the strings
 * answered (no for every string before the first of kind, yes for it) is
 * kept in rn, as if rn had tested them. */
bool rule_names_any(rule_names *rn, const rule_names_found *f, rule_name_kind kind);

/* A throttle, by name: "throttl" in any case (an event, or a counter's
 * name or key). */
bool rule_is_throttle_name(const char *name);

/* Host API calls found by name on one thread, in lane order: true when e
 * lies inside the previous call counted (*outer_end is its end), so the
 * outer call stands for both. Nsight Systems exports record cudaMemcpy and
 * its versioned entry point cudaMemcpy_v3020, one inside the other with one
 * correlation id, and driver calls nest in runtime calls. Start a lane with
 * *outer_end = INT64_MIN. */
static inline bool rule_call_nested(tt_ns *outer_end, const tt_event *e)
{
    if (e->start < *outer_end)
        return true;
    *outer_end = tt_event_end(e);
    return false;
}

/* A training step span: "ProfilerStep#N" (Kineto). */
bool rule_is_step_name(const char *name);

/* Median of v[0..n) (reorders v); 0 for n == 0. */
tt_ns rule_median(tt_ns *v, size_t n);

#endif
