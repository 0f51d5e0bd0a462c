/* trace.h - the in-memory trace model every decoder produces.
 *
 * A trace is groups (process/device) of lanes (thread/stream/engine/queue),
 * each lane holding its events sorted by start, plus counter series, flows
 * between events and free-form metadata. Time is int64 nanoseconds on the
 * source's own clock; the UI shows it relative to trace->t0.
 *
 * Life cycle: tt_trace_new(), a decoder fills it through the builder calls
 * below, tt_trace_finalize() sorts, nests, indexes and resolves flows; after
 * that the trace is read-only and every field documented "after finalize"
 * may be read directly. Library code: never prints, never exits.
 *
 * Ownership: the trace owns everything reachable from it (events, strings,
 * arguments, metadata); tt_trace_free() releases it all at once.
 */
#ifndef TT_MODEL_TRACE_H
#define TT_MODEL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/args.h"
#include "model/attrs.h"
#include "util/error.h"
#include "util/strtab.h"

typedef int64_t tt_ns;

/* Every time and duration a decoder stores lies within +-3e18 ns (about
 * 95 years around 0, so Unix-epoch timestamps until 2065): then every end
 * (start + dur) and every span (t1 - t0, at most 3 limits) fits in int64
 * without overflow. Decoders reject (or, lenient, skip) what lies beyond;
 * tt_trace_finalize() refuses a model that breaks it. */
#define TT_TIME_LIMIT ((tt_ns)3000000000000000000LL)

static inline bool tt_time_ok(tt_ns t) { return t >= -TT_TIME_LIMIT && t <= TT_TIME_LIMIT; }
static inline bool tt_dur_ok(tt_ns d) { return d >= 0 && d <= TT_TIME_LIMIT; }

/* A time a person typed (a window edge, a marker time: an offset from a
 * trace's start) brought within the limits: no trace reaches beyond them,
 * and then t0 + offset and the distance between two such times fit in
 * int64 (--window -9e18:9e18 overflowed). */
static inline tt_ns tt_time_clamp(tt_ns t)
{
    return t < -TT_TIME_LIMIT ? -TT_TIME_LIMIT : t > TT_TIME_LIMIT ? TT_TIME_LIMIT : t;
}

/* What an event is; scope of instants is part of the kind. */
typedef enum tt_event_kind {
    TT_EV_SLICE = 0,        /* a duration (ph X, B/E pair, CSV row, ...) */
    TT_EV_INSTANT,          /* thread-scoped instant (ph i/I/R, 'n') */
    TT_EV_INSTANT_PROCESS,  /* process-scoped instant */
    TT_EV_INSTANT_GLOBAL,   /* global instant */
    TT_EV_ASYNC             /* async slice (b/e, S/F) */
} tt_event_kind;

enum tt_event_flags {
    TT_EVF_UNCLOSED = 1u << 0,  /* begin without end: runs to the end of the trace (t1) */
    TT_EVF_CLAMPED  = 1u << 1   /* end before begin in the source: dur set to 0 */
};

/* One event: 64 bytes including the interval index fields, so a 1M-event
 * trace costs 64 MB beside strings and compacted arguments. */
typedef struct tt_event {
    tt_ns    start;      /* absolute ns */
    tt_ns    dur;        /* >= 0; instants 0 */
    tt_ns    max_end;    /* index: max end over this node's implicit subtree */
    tt_ns    busy_upto;  /* index: length of the union of events [0..i] of the lane */
    int64_t  bytes;      /* bytes moved (memcpy/DMA), -1 when not a transfer */
    uint32_t name;       /* string id */
    uint32_t cat;        /* string id, 0 = none */
    uint32_t attrs;      /* tt_attrs id: opcode, layer, operand; 0 = none */
    uint32_t corr;       /* correlation id (CUPTI ids are 32-bit), 0 = none */
    uint32_t args;       /* tt_args handle, 0 = none */
    uint16_t depth;      /* nesting depth (row) within the lane */
    uint8_t  kind;       /* tt_event_kind */
    uint8_t  flags;      /* tt_event_flags */
} tt_event;

_Static_assert(sizeof(tt_event) == 64, "tt_event must stay 64 bytes");

static inline tt_ns tt_event_end(const tt_event *e) { return e->start + e->dur; }

/* A reference to one event: lane index and position in the lane (after
 * finalize). */
typedef struct tt_evref {
    uint32_t lane;
    uint32_t idx;
} tt_evref;

#define TT_NO_LANE UINT32_MAX

typedef enum tt_lane_kind {
    TT_LANE_THREAD = 0,  /* events nest as a call stack (B/E, X) */
    TT_LANE_ASYNC        /* overlapping events are packed into rows */
} tt_lane_kind;

/* A process, device or rank: the first level of grouping. */
typedef struct tt_group {
    uint32_t key;         /* source key, e.g. pid as text */
    uint32_t name;        /* display name (process_name) or "" */
    uint32_t labels;      /* process_labels or "" */
    int64_t  sort_index;  /* process_sort_index when has_sort */
    bool     has_sort;
    uint32_t first_lane;  /* after finalize: lanes [first_lane, first_lane+n_lanes) */
    uint32_t n_lanes;
} tt_group;

/* A row of the timeline: thread, stream, engine, DMA queue. */
typedef struct tt_lane {
    uint32_t  group;       /* index into trace->groups */
    uint32_t  key;         /* source key, e.g. tid as text */
    uint32_t  name;        /* display name (thread_name) or "" */
    int64_t   sort_index;  /* thread_sort_index when has_sort */
    bool      has_sort;
    uint8_t   kind;        /* tt_lane_kind */
    uint16_t  max_depth;   /* after finalize: deepest event depth */
    tt_event *ev;          /* events, sorted by (start, -dur) after finalize */
    size_t    n, cap;
    /* decoder scratch: open B events (indexes into ev) for B/E matching */
    uint32_t *open;
    size_t    n_open, cap_open;
} tt_lane;

/* A counter series: (time, value) samples, e.g. one key of a Chrome C event,
 * a utilization or DMA throughput track. */
typedef struct tt_counter {
    uint32_t group;      /* index into trace->groups */
    uint32_t name;       /* track name (event name, plus [id]) */
    uint32_t key;        /* series key inside the track ("value", "cats") */
    uint32_t unit;       /* unit text ("%", "B/s"), "" when unknown */
    bool     derived;    /* computed by tracetty rather than read */
    tt_ns   *t;
    double  *v;
    size_t   n, cap;
    double   vmin, vmax; /* after finalize */
} tt_counter;

/* A link between two events (Chrome flow, correlation id). */
typedef struct tt_flow {
    tt_evref from, to;
    uint32_t name;       /* string id */
    uint32_t cat;        /* string id */
} tt_flow;

/* Data problems found while decoding, reported by `summary`, never fatal. */
typedef enum tt_problem_kind {
    TT_PROB_UNCLOSED_BEGIN = 0,  /* B/b without E/e */
    TT_PROB_UNMATCHED_END,       /* E/e without B/b */
    TT_PROB_MISMATCHED_END,      /* E whose name differs from its B */
    TT_PROB_UNKNOWN_PHASE,
    TT_PROB_NEGATIVE_DURATION,   /* end before begin, clamped to 0 */
    TT_PROB_BAD_EVENT,           /* event missing required fields, skipped */
    TT_PROB_UNRESOLVED_FLOW,     /* flow end with no start, or no event to bind */
    TT_PROB_DROPPED_TAIL,        /* --lenient: incomplete data at the end */
    TT_PROB__COUNT
} tt_problem_kind;

typedef struct tt_problem {
    uint64_t count;
    char     example[160];  /* first occurrence, for the report (sanitised later) */
} tt_problem;

/* Named counts (e.g. events by Chrome phase) kept in first-seen order. */
typedef struct tt_tally {
    uint32_t name;    /* string id */
    uint64_t count;
} tt_tally;

/* Pending flow endpoint, resolved to events by tt_trace_finalize(). */
typedef enum tt_flow_bind {
    TT_BIND_ENCLOSING = 0,  /* the deepest slice containing ts */
    TT_BIND_NEXT,           /* the first slice starting at or after ts */
    TT_BIND_EXACT           /* the slice starting at ts with this name and dur */
} tt_flow_bind;

typedef enum tt_flow_phase {
    TT_FLOW_START = 0,
    TT_FLOW_STEP,
    TT_FLOW_END
} tt_flow_phase;

typedef struct tt_flow_point {
    uint64_t key;        /* hash of (id, category scope) */
    tt_ns    ts;
    tt_ns    dur;        /* TT_BIND_EXACT only */
    uint32_t lane;
    uint32_t name;       /* flow name (or the event name for TT_BIND_EXACT) */
    uint32_t cat;
    uint32_t seq;        /* order in the source, to keep steps in order */
    uint8_t  phase;      /* tt_flow_phase */
    uint8_t  bind;       /* tt_flow_bind */
} tt_flow_point;

struct cJSON;

/* Derived data a later layer builds lazily over a finalized trace (the
 * selection summaries of analysis/selsum.h): published into the trace once
 * with an atomic compare-and-swap, released by tt_trace_free() through its
 * own free function, so the model depends on no such layer. */
typedef struct tt_trace_aux {
    void (*free_fn)(struct tt_trace_aux *aux);
} tt_trace_aux;

typedef struct tt_trace {
    tt_strtab  *strings;
    tt_args    *args;
    tt_attrs   *attrs;

    tt_group   *groups;
    uint32_t    n_groups, cap_groups;
    tt_lane    *lanes;       /* after finalize: in display order, grouped */
    uint32_t    n_lanes, cap_lanes;
    tt_counter *counters;    /* after finalize: sorted by group then name */
    uint32_t    n_counters, cap_counters;
    tt_flow    *flows;       /* after finalize: sorted by `from` */
    size_t      n_flows, cap_flows;
    uint32_t   *flows_by_to; /* after finalize: flow indexes sorted by `to` */

    tt_flow_point *flow_points;   /* decoder scratch, freed by finalize */
    size_t         n_flow_points, cap_flow_points;

    struct cJSON *meta;      /* object: top-level metadata (owned) */
    const char   *format;    /* static: "chrome-json", ... */
    const char   *compression; /* static: "none", "gzip", "zstd" */
    char         *source;    /* path as opened (owned) */
    int64_t       source_bytes;      /* decompressed bytes decoded */
    int64_t       rank;      /* distributed rank, -1 when unknown */

    tt_ns       t0, t1;      /* after finalize: first start, last end (0,0 empty) */
    uint64_t    n_events;    /* after finalize */

    tt_tally   *phases;      /* events by source phase/kind */
    uint32_t    n_phases, cap_phases;
    tt_problem  problems[TT_PROB__COUNT];
    char        note[200];   /* one-line note for the user ("no events: summary only") */

    bool        finalized;
    unsigned    lacks;       /* TT_TRACE_NO_*: parts a loader left out */
    tt_trace_aux *aux;       /* lazily built, owned; NULL until then */
    tt_trace_aux *aux_attrib; /* the same for analysis/attrib.h */
    tt_trace_aux *aux_ncu;   /* Nsight Compute metrics joined to its kernels
                              * (analysis/ncu_join.h), owned; NULL without */
    struct tt_laneix *lane_ix; /* tt_trace_lane()'s index (model/laneix.h), owned; NULL
                               * below TT_LANEIX_FROM lanes and after finalize */
} tt_trace;

/* Parts of a trace a loader may leave out when the command says it will
 * not look at them (tt_load_opts.skip, decode/decode.h; only the .ttz
 * reader does, the decoders of source formats load everything). Such a
 * trace still holds every event, lane and counter and the whole trace's
 * t0/t1 and counts, but: NO_ARGS, no argument records (every event's args
 * is 0); NO_FLOWS, no flows (n_flows 0); NO_COUNTERS, no counter series
 * (n_counters 0). A command asks for it only when
 * nothing it runs reads those parts, and a snapshot of such a trace is
 * refused (it would lose them for good).
 * PARTIAL (tt_load_opts.part): each lane holds only a subset of its
 * events, in order with their depths and flags, including every event
 * that meets the window asked for on the lanes asked for (other lanes may
 * hold none); n_events, t0 and t1 stay the whole trace's. */
enum {
    TT_TRACE_NO_ARGS = 1u << 0,
    TT_TRACE_NO_FLOWS = 1u << 1,
    TT_TRACE_PARTIAL = 1u << 2,
    TT_TRACE_NO_COUNTERS = 1u << 3
};

/* ---------------------------------------------------------------- life */

tt_trace *tt_trace_new(void);          /* NULL when out of memory */
void tt_trace_free(tt_trace *tr);      /* NULL is a no-op */

/* ------------------------------------------------------------- builder */

/* Intern a string; TT_STR_ERROR on OOM. */
static inline uint32_t tt_trace_intern(tt_trace *tr, const char *s, size_t n)
{
    return tt_strtab_intern(tr->strings, s, n);
}
uint32_t tt_trace_intern_cstr(tt_trace *tr, const char *s);

/* Find or create the group with this key (string id). Returns the index or
 * TT_NO_LANE on OOM. */
uint32_t tt_trace_group(tt_trace *tr, uint32_t key);

/* Find or create the lane (group, key, kind). Returns the index or
 * TT_NO_LANE on OOM. Lane indexes are stable until finalize. */
uint32_t tt_trace_lane(tt_trace *tr, uint32_t group, uint32_t key, tt_lane_kind kind);

/* Append a new event to a lane: zeroed, bytes = -1. Returns its index in the
 * lane, or -1 on OOM. The pointer to it is tr->lanes[lane].ev + index and is
 * invalidated by the next push on the same lane. */
int64_t tt_trace_push_event(tt_trace *tr, uint32_t lane);

/* Find or create a counter series (group, name, key). Returns index or
 * TT_NO_LANE on OOM. */
uint32_t tt_trace_counter(tt_trace *tr, uint32_t group, uint32_t name, uint32_t key);

/* Append a sample; 0 or -1 on OOM. */
int tt_trace_counter_push(tt_trace *tr, uint32_t counter, tt_ns t, double v);

/* Record a flow endpoint to resolve at finalize; 0 or -1 on OOM. */
int tt_trace_flow_point(tt_trace *tr, const tt_flow_point *p);

/* Record a flow its decoder resolved itself, between events at their
 * final positions: their lanes already sorted as finalize sorts them (so
 * finalize leaves them there). Finalize renumbers the lanes and indexes
 * these flows with the ones it resolves from points. 0 or -1 on OOM. */
int tt_trace_flow_resolved(tt_trace *tr, tt_evref from, tt_evref to, uint32_t name,
                           uint32_t cat);

/* Count one problem; the first example is kept. */
void tt_trace_problem(tt_trace *tr, tt_problem_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Count events of a source phase/kind name ("X", "B", "instruction"). */
int tt_trace_tally_phase(tt_trace *tr, const char *name, size_t n, uint64_t add);

/* Sort, nest, index, resolve flows, compute t0/t1. After this the trace is
 * read-only. Returns 0, or non-zero with err set (out of memory, or a time
 * beyond the limits). The work over lanes runs on up to `threads` threads (0: the cores the
 * process may use, tt_parallel_cores()); the result does not depend on
 * how many. tt_trace_finalize() is tt_trace_finalize_threads(tr, 0, err). */
int tt_trace_finalize(tt_trace *tr, tt_error *err);
int tt_trace_finalize_threads(tt_trace *tr, unsigned threads, tt_error *err);

/* The depth of every event of a lane and the lane's max_depth, from its
 * events sorted as finalize sorts them (by start, longer first) and its
 * kind: call-stack nesting for thread lanes, the first free row for async
 * lanes. tt_trace_finalize() calls it; so does the snapshot reader, which
 * stores no depths. Returns 0, or -1 when out of memory. */
int tt_lane_nest(tt_lane *l);

/* ------------------------------------------------------------- queries */

static inline const char *tt_str(const tt_trace *tr, uint32_t id)
{
    return tt_strtab_get(tr->strings, id);
}

static inline tt_event *tt_trace_event(const tt_trace *tr, tt_evref r)
{
    return &tr->lanes[r.lane].ev[r.idx];
}

/* Opcode, layer and operand string ids of an event (0 when absent). */
static inline uint32_t tt_event_opcode(const tt_trace *tr, const tt_event *e)
{
    return tt_attrs_get(tr->attrs, e->attrs).opcode;
}
static inline uint32_t tt_event_layer(const tt_trace *tr, const tt_event *e)
{
    return tt_attrs_get(tr->attrs, e->attrs).layer;
}
static inline uint32_t tt_event_operand(const tt_trace *tr, const tt_event *e)
{
    return tt_attrs_get(tr->attrs, e->attrs).operand;
}

/* Display names: "process name" or "pid 123"; "thread name" or "tid 7". */
const char *tt_group_label(const tt_trace *tr, const tt_group *g, char *buf, size_t n);
const char *tt_lane_label(const tt_trace *tr, const tt_lane *l, char *buf, size_t n);
/* "group / lane" */
const char *tt_lane_fullname(const tt_trace *tr, uint32_t lane, char *buf, size_t n);

/* Flows leaving / entering an event after finalize: *first is the index of
 * the first matching entry (in flows, resp. flows_by_to) and the return value
 * the number of entries. */
size_t tt_trace_flows_from(const tt_trace *tr, tt_evref ev, size_t *first);
size_t tt_trace_flows_to(const tt_trace *tr, tt_evref ev, size_t *first);
/* Flows whose target event starts before their source event (clocks of
 * host and device not aligned): kept as stamped, counted for `summary`. */
size_t tt_trace_flows_backward(const tt_trace *tr);

/* Total problems counted. */
uint64_t tt_trace_problem_total(const tt_trace *tr);

/* Human name of a problem kind ("unclosed begin"). */
const char *tt_problem_name(tt_problem_kind k);

/* Memory held by the model, for budgets and `summary`. */
size_t tt_trace_memory(const tt_trace *tr);

#endif
