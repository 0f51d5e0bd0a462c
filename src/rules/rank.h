/* rank.h - findings grouped per (rule, trace) and ranked by the time they
 * cost, so the user reads the costliest problem first instead of a wall of
 * lines. Shared by `tracetty check`, the CSV/JSON "Rank" column and the
 * view's annotations panel.
 *
 * A group holds one rule's findings about one trace (rank), costliest
 * first (a finding costs its span, end - start, unless it states its own
 * cost: the straggler's is the others' waits for it, a slow step's its
 * excess over the median step). The group's cost is the time affected:
 * the length of the union of its findings' spans, so overlapping findings
 * are not counted twice, plus the stated costs. Its share is the part of
 * that time inside the reference time (a stated cost counts whole), in
 * percent of it, at most 100: the union of the trace's training steps
 * (ProfilerStep#N spans) where it has steps, else the trace's span
 * (t1 - t0).
 *
 * Groups are ordered by: rules that rank themselves first (tt_rule
 * .ranks_first: the straggler, which explains the others' waits), then
 * cost (longest first), then severity, rule table order and trace.
 *
 * Severity comes from the impact: a group whose share is above the
 * config's error_share percent is an error, above warning_share a
 * warning, else info; a severity set explicitly for a rule
 * ("RULE.severity=...", rules file or --set) wins. tt_rules_run applies
 * this to every annotation, so consumers read an->sev.
 *
 * Library code: no I/O. Ownership: a tt_ranking owns its arrays; it
 * refers to the annotations by index, so it is valid as long as they are
 * neither re-sorted nor changed.
 */
#ifndef TT_RULES_RANK_H
#define TT_RULES_RANK_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"
#include "rules/rules.h"
#include "util/error.h"

#include "analysis/intervals.h"

/* Reference time of one trace: its training steps, else its span. Small
 * (one interval per step), so a job keeps one per rank after freeing the
 * rank's trace. */
typedef struct tt_rank_base {
    tt_ivals steps;   /* normalized union of the ProfilerStep spans (else [t0, t1)) */
    tt_ns    len;
    bool     by_steps;
} tt_rank_base;

/* b from tr; 0, or -1 when out of memory (b is then to be finied). */
int tt_rank_base_init(tt_rank_base *b, const tt_trace *tr);
void tt_rank_base_fini(tt_rank_base *b);

typedef struct tt_rank_group {
    const char *rule;       /* static rule id */
    int         trace;      /* index of the trace (rank) the findings are about */
    tt_severity sev;        /* from the share, or the explicit setting */
    bool        sev_explicit;
    size_t     *items;      /* indexes into the annotations, costliest first (owned) */
    size_t      n;
    tt_ns       cost;       /* union of the findings' spans, ns */
    tt_ns       base;       /* reference time, ns: step time or trace span */
    bool        by_steps;   /* base is the union of the ProfilerStep spans */
    double      share;      /* percent of base covered by the findings */
    bool        first;      /* the rule ranks itself first */
} tt_rank_group;

typedef struct tt_ranking {
    tt_rank_group *groups;  /* ranked, costliest first (owned) */
    size_t         n_groups;
    size_t        *order;   /* per annotation: 1-based position in the ranked
                             * listing (groups in order, each costliest
                             * first); 0 for a finding about no loaded
                             * trace or from no rule of the table (owned) */
    size_t         n_ann;
} tt_ranking;

/* Group and rank the annotations a about traces[0..n_traces). With cfg,
 * each group's severity is derived as above; with cfg NULL it is the
 * highest severity of its findings (already applied by tt_rules_run).
 * 0, or -1 with err set (out of memory); r is then empty. */
int tt_ranking_build(tt_ranking *r, const tt_annotations *a, const tt_trace *const *traces,
                     size_t n_traces, const tt_rules_config *cfg, tt_error *err);

/* The same with the reference times given (bases[t] for trace t),
 * without the traces: for a job whose ranks are no longer loaded. */
int tt_ranking_build_bases(tt_ranking *r, const tt_annotations *a, const tt_rank_base *bases,
                           size_t n_traces, const tt_rules_config *cfg, tt_error *err);

/* What one finding costs, ns: its stated cost, else its span. */
tt_ns tt_annotation_cost(const tt_annotation *an);

/* Free what r owns; r is then empty. */
void tt_ranking_fini(tt_ranking *r);

/* A group's impact as `check`'s headline and the view's annotations panel
 * both say it: "N findings, D affected, S% of the step time" (or "of the
 * trace span"). Returns buf. */
const char *tt_rank_impact(const tt_rank_group *g, char *buf, size_t n);

/* Severity for a rule (index in tt_rules()) whose findings cover share
 * percent of the reference time, under cfg: the explicit setting if any,
 * else from the thresholds. */
tt_severity tt_rules_impact_severity(const tt_rules_config *cfg, size_t rule, double share);

/* Set every annotation's severity to its group's, as derived under cfg.
 * 0, or -1 with err set. */
int tt_rank_apply_severity(tt_annotations *a, const tt_trace *const *traces, size_t n_traces,
                           const tt_rules_config *cfg, tt_error *err);

/* The same with bases (non-NULL: traces is then unused, may be NULL). */
int tt_rank_apply_severity_bases(tt_annotations *a, const tt_trace *const *traces,
                                 const tt_rank_base *bases, size_t n_traces,
                                 const tt_rules_config *cfg, tt_error *err);

#endif
