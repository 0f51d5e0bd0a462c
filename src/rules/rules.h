/* rules.h - warning annotations: performance problems found automatically.
 *
 * Each rule has an id and named thresholds with defaults; running it over a trace yields annotations: a time span, the
 * lanes and events involved, and a one-line message with the numbers.
 * The rules are a table (rules_table.c); each rule is one file
 * (rule_*.c) exporting one tt_rule.
 *
 * Configuration: tt_rules_config holds, per rule, enabled, an explicit
 * severity if one was set, and threshold values, plus the impact
 * thresholds that turn a rule's share of the time into its severity
 * (rules/rank.h); defaults come from the table, a JSON rules file
 * (tt_rules_config_load) and command-line settings ("ID.PARAM=VALUE",
 * "impact.error_share=5", tt_rules_config_set) override them.
 *
 * Library code: no I/O except reading the rules file; no printing.
 * Ownership: tt_annotations owns its annotations and their arrays.
 */
#ifndef TT_RULES_RULES_H
#define TT_RULES_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/error.h"

typedef enum tt_severity {
    TT_SEV_INFO = 0,
    TT_SEV_WARNING,
    TT_SEV_ERROR
} tt_severity;

const char *tt_severity_name(tt_severity s);       /* "info", "warning", "error" */
int tt_severity_parse(const char *s, tt_severity *out);

/* ---------------------------------------------------------- annotations */

typedef struct tt_annotation {
    const char *rule;       /* static rule id */
    tt_severity sev;
    int         trace;      /* index of the trace (rank) it is about, 0 for one trace */
    tt_ns       start, end; /* absolute ns of that trace */
    uint32_t   *lanes;      /* sorted lane indexes (owned) */
    size_t      n_lanes;
    tt_evref   *events;     /* the events involved, at most TT_ANN_MAX_EVENTS (owned) */
    size_t      n_events;
    uint64_t    n_events_total;  /* events involved, including those not listed */
    tt_ns       cost;       /* time it costs, ns, where that is not its span
                             * (a straggler's span is not time lost); 0: the
                             * span, end - start (rules/rank.h) */
    char       *msg;        /* one line (owned); may quote trace strings raw */
} tt_annotation;

#define TT_ANN_MAX_EVENTS 64

typedef struct tt_annotations {
    tt_annotation *v;
    size_t         n, cap;
} tt_annotations;

void tt_annotations_init(tt_annotations *a);
void tt_annotations_fini(tt_annotations *a);

/* Move the annotations of src to the end of dst (src is left empty).
 * 0, or -1 when out of memory (both unchanged). */
int tt_annotations_take(tt_annotations *dst, tt_annotations *src);

/* Sort by severity (highest first), then trace, start, rule. */
void tt_annotations_sort(tt_annotations *a);

/* Sort by trace and start time (for drawing and time navigation). */
void tt_annotations_sort_time(tt_annotations *a);

/* Count per rule id of the annotations about traces[trace] (-1: about
 * any trace): fills counts[i] for tt_rules()[i]. */
void tt_annotations_count(const tt_annotations *a, int trace, uint64_t *counts);

/* ---------------------------------------------------------------- rules */

#define TT_RULE_MAX_PARAMS 6

typedef enum tt_param_kind {
    TT_PARAM_DURATION,   /* ns, written with a unit: "5us" */
    TT_PARAM_NUMBER,     /* a plain number (factor, percent, count) */
    TT_PARAM_BYTES       /* bytes, plain number */
} tt_param_kind;

typedef struct tt_rule_param {
    const char   *name;      /* "min_gap" */
    tt_param_kind kind;
    double        def;       /* default (ns for durations) */
    const char   *help;      /* one line */
} tt_rule_param;

typedef struct tt_rules_config tt_rules_config;
typedef struct tt_rule tt_rule;

/* What a rule's run function gets. */
typedef struct tt_rule_ctx {
    const tt_rule         *rule;
    const tt_rules_config *cfg;
    const tt_trace *const *traces;   /* every loaded trace (ranks) */
    size_t                 n_traces;
    tt_annotations        *out;
    tt_error              *err;
    /* per trace of traces[]: its device work, built once and shared by
     * the rules (rules/devwork.h) */
    struct rule_devwork   *devwork;
    /* multi rules: what they read of each rank (rules/jobfacts.h), taken
     * one rank at a time; traces is then NULL (the ranks may be freed) */
    const struct rule_jobfacts *facts;
} tt_rule_ctx;

struct tt_rule {
    const char   *id;          /* "device-idle" */
    bool          multi;       /* compares ranks (straggler, slow-card): runs
                                * once over ctx->facts, not over traces */
    bool          ranks_first; /* its findings are listed before costlier ones
                                * (the straggler explains the other ranks' waits) */
    bool          devwork;     /* it reads every trace's device work
                                * (rules/devwork.h): that is built first, as a
                                * job of its own, so that no rule's thread
                                * waits while another rule builds it */
    const char   *summary;     /* one line for --help and the man page */
    tt_rule_param params[TT_RULE_MAX_PARAMS];
    size_t        n_params;
    /* Find annotations in traces[i] (or across the ranks' facts for
     * multi rules). 0, or -1 with ctx->err set. */
    int (*run)(const tt_rule_ctx *ctx);
    /* NULL: it looks at every trace; else whether it can find anything in
     * tr (a rule of joined ncu metrics: only with --metrics), so that
     * `summary` lists it only then. */
    bool (*applies)(const tt_trace *tr);
};

/* Every rule, NULL-terminated, in a fixed order. */
const tt_rule *const *tt_rules(void);
size_t tt_rules_count(void);
const tt_rule *tt_rule_find(const char *id);
/* Index of rule id in tt_rules(), or -1. */
int tt_rule_index(const char *id);

/* ------------------------------------------------------------- config */

struct tt_rules_config {
    bool        enabled[32];
    bool        severity_set[32];  /* "ID.severity=..." given: it wins over the impact */
    tt_severity severity[32];      /* the explicit severity, when severity_set */
    double      value[32][TT_RULE_MAX_PARAMS];
    /* Impact: a rule whose findings cover more than error_share percent of
     * the step time (or trace span) is an error, more than warning_share a
     * warning, else info ("impact.error_share", "impact.warning_share"). */
    double      error_share, warning_share;
};

#define TT_IMPACT_ERROR_SHARE   10.0
#define TT_IMPACT_WARNING_SHARE 1.0

/* Defaults from the table: enabled, severity from the impact. */
void tt_rules_config_defaults(tt_rules_config *c);

/* Apply a JSON rules file:
 *   {"impact": {"error_share": 10, "warning_share": 1},
 *    "rules": {"device-idle": {"enabled": true, "severity": "error",
 *                              "min_gap": "500us", "gap_factor": 20}, ...}}
 * ("impact" is optional.)
 * Durations are strings with a unit or numbers in ns. Unknown rules or
 * parameters are errors with their position in the file. */
int tt_rules_config_load(tt_rules_config *c, const char *path, tt_error *err);

/* Apply one "ID.PARAM=VALUE", "ID.enabled=false", "ID.severity=error" or
 * "impact.error_share=PERCENT" setting from the command line. */
int tt_rules_config_set(tt_rules_config *c, const char *setting, tt_error *err);

/* Enable or disable a rule by id ("all" for every rule). */
int tt_rules_config_enable(tt_rules_config *c, const char *id, bool on, tt_error *err);

/* Value of parameter `name` of rule r (as configured). */
double tt_rule_param_value(const tt_rule_ctx *ctx, const char *name);

/* ---------------------------------------------------------------- run */

/* Run every enabled rule over the traces; annotations are appended to out,
 * given their severity from their rule's impact (rules/rank.h) and sorted
 * by severity then time. */
int tt_rules_run(const tt_rules_config *cfg, const tt_trace *const *traces, size_t n_traces,
                 tt_annotations *out, tt_error *err);

/* tt_rules_run without its last step: every enabled rule's findings,
 * the per-trace rules' in the serial order, then those across ranks,
 * with provisional severities (an explicit one, else info), unsorted.
 * For callers that only count them (`summary`): the severities read
 * every event again for the traces' step time (rules/rank.h). 0, or -1
 * with err set. */
int tt_rules_find(const tt_rules_config *cfg, const tt_trace *const *traces, size_t n_traces,
                  tt_annotations *out, tt_error *err);

/* Work of the caller's to run alongside the per-trace rules, by the same
 * threads: work(ctx, job) for every job in [0, n), handed out before the
 * rules' own jobs. `summary` counts a trace's launches, its names and its
 * flows this way, where they used to wait for the rules on one core. */
typedef struct tt_rules_along {
    size_t n;
    void (*work)(void *ctx, size_t job);
    void  *ctx;
} tt_rules_along;

/* tt_rules_find, with along's jobs run alongside the per-trace rules (all
 * of them, even when the rules fail). along may be NULL. */
int tt_rules_find_along(const tt_rules_config *cfg, const tt_trace *const *traces,
                        size_t n_traces, const tt_rules_along *along, tt_annotations *out,
                        tt_error *err);

/* The first step of tt_rules_run: the per-trace rules alone (not those
 * across ranks) over the traces, their findings appended to out in the
 * serial order (rule by rule, trace by trace) with provisional severities
 * (an explicit one, else info), unsorted. For a job taken one rank at a
 * time (rules/jobrules.h), which derives severities and sorts once over
 * every rank. 0, or -1 with err set. */
int tt_rules_run_each(const tt_rules_config *cfg, const tt_trace *const *traces, size_t n_traces,
                      tt_annotations *out, tt_error *err);

/* --------------------------------------------------- helpers for rules */

/* Append an annotation for traces[trace]; msg is printf-formatted.
 * lanes/events are copied (events capped at TT_ANN_MAX_EVENTS). */
int tt_rule_emit(const tt_rule_ctx *ctx, int trace, tt_ns start, tt_ns end,
                 const uint32_t *lanes, size_t n_lanes, const tt_evref *events,
                 size_t n_events, uint64_t n_events_total, const char *fmt, ...)
    __attribute__((format(printf, 10, 11)));

/* Time relative to a trace's start, formatted for messages ("1.20 ms"). */
const char *tt_rule_time(const tt_trace *tr, tt_ns t, char *buf, size_t n);

#endif
