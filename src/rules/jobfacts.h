/* jobfacts.h - what the cross-rank rules (tt_rule.multi: straggler,
 * slow-card) read of each rank, taken one rank at a time so that a job's
 * ranks need not all be loaded at once.
 *
 * Per rank: its rank number and span, its collectives (multi/collectives.h,
 * small), its training steps (ProfilerStep#N spans with their names) and
 * its overview's mean Computing and Free per step (analysis/overview.h).
 * `check` builds the facts from the traces it holds (tt_rules_run); a job
 * loaded in batches (rules/jobrules.h) adds each rank as it loads. Both
 * then run the same rule code over the facts, so they find the same.
 *
 * Library code: no printing (the slow-card facts read the profiler's
 * step_trace_time.csv beside a trace, through analysis/overview.h).
 * Ownership: the facts own their arrays and the step names.
 */
#ifndef TT_RULES_JOBFACTS_H
#define TT_RULES_JOBFACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "multi/collectives.h"
#include "rules/rules.h"
#include "util/error.h"

typedef struct rule_rankinfo {
    int64_t rank;      /* tr->rank, or -1 */
    tt_ns   t0, t1;    /* the trace's span */
} rule_rankinfo;

typedef struct rule_step {
    uint64_t key;      /* hash of the step name */
    uint32_t trace;
    tt_ns    start, dur;
    tt_evref ev;
    char    *name;     /* the event's name (owned) */
} rule_step;

typedef struct rule_card {
    tt_ns  computing, free;   /* means per step */
    size_t steps;             /* 0: no overview steps */
} rule_card;

typedef struct rule_jobfacts {
    size_t         n;          /* ranks of the job */
    rule_rankinfo *info;       /* n entries */
    bool           want_colls; /* straggler enabled: colls and steps kept */
    bool           want_cards; /* slow-card enabled: cards kept */
    tt_colls       colls;      /* matched by rule_jobfacts_finish */
    rule_step     *steps;
    size_t         n_steps, cap_steps;
    rule_card     *cards;      /* n entries, or NULL */
} rule_jobfacts;

/* Facts for n ranks, kept for the multi rules cfg enables. 0, or -1. */
int rule_jobfacts_init(rule_jobfacts *f, size_t n, const tt_rules_config *cfg, tt_error *err);
void rule_jobfacts_fini(rule_jobfacts *f);

/* Take rank t's facts from tr (ranks in order 0, 1, ..., so that the
 * rules see them as check does). 0, or -1 with err set. */
int rule_jobfacts_add(rule_jobfacts *f, size_t t, const tt_trace *tr, tt_error *err);

/* After every rank: match the collectives. 0, or -1 with err set. */
int rule_jobfacts_finish(rule_jobfacts *f, tt_error *err);

/* Whether any rule cfg enables needs facts across ranks. */
bool rule_jobfacts_wanted(const tt_rules_config *cfg);

/* Run the multi rules cfg enables over f (f->n >= 2), appending their
 * findings to out (severity provisional, unsorted). 0, or -1. */
int rule_run_multi(const tt_rules_config *cfg, const rule_jobfacts *f, tt_annotations *out,
                   tt_error *err);

#endif
