/* jobrules.h - the rules over the ranks of a job taken one rank at a
 * time: what `tracetty check` finds over the same traces, without holding
 * every rank's events at once (the SQL `finding` table over a job, whose
 * ranks load in batches).
 *
 * Each rank, when it is loaded: the per-trace rules run on it
 * (tt_rules_run over that trace alone: the same findings as over the job,
 * since they look at one trace at a time), and what the cross-rank rules
 * and the ranking need of it is kept (rules/jobfacts.h; its reference time,
 * rules/rank.h); the trace may then be freed. After the last rank, the
 * cross-rank rules run over those facts, severities come from the impact
 * and the findings are sorted and ranked exactly as tt_rules_run and
 * tt_ranking_build do over all the traces, so a finding's `trace`, order,
 * severity and Rank position are check's.
 *
 * Library code: no printing. Ownership: the job owns its findings and
 * ranking; the config is copied.
 */
#ifndef TT_RULES_JOBRULES_H
#define TT_RULES_JOBRULES_H

#include <stddef.h>

#include "model/trace.h"
#include "rules/rank.h"
#include "rules/rules.h"
#include "util/error.h"

typedef struct tt_rules_job tt_rules_job;

/* A job of n ranks (n >= 1) under cfg. NULL with err set (out of memory). */
tt_rules_job *tt_rules_job_new(const tt_rules_config *cfg, size_t n, tt_error *err);
void tt_rules_job_free(tt_rules_job *j);   /* NULL is a no-op */

/* Rank t (0..n, each once, in order) loaded as tr: run the per-trace
 * rules on it and keep its facts. 0, or -1 with err set. */
int tt_rules_job_add(tt_rules_job *j, size_t t, const tt_trace *tr, tt_error *err);

/* After every rank: the cross-rank rules, severities, order and ranking.
 * 0, or -1 with err set. */
int tt_rules_job_finish(tt_rules_job *j, tt_error *err);

/* After tt_rules_job_finish: the findings in check's order (each about
 * its rank, an->trace), and the ranking (order[i]: the position of
 * finding i in check's ranked listing). Owned by the job. */
const tt_annotations *tt_rules_job_findings(const tt_rules_job *j);
const tt_ranking *tt_rules_job_ranking(const tt_rules_job *j);

#endif
