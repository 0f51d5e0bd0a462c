/* jobrules.c - the rules over a job's ranks one rank at a time (see
 * jobrules.h). */
#include "config.h"

#include "rules/jobrules.h"

#include "rules/jobfacts.h"

#include <stdlib.h>
#include <string.h>

struct tt_rules_job {
    tt_rules_config cfg;
    size_t          n;
    tt_annotations  ann;
    tt_rank_base   *bases;     /* n entries */
    rule_jobfacts   facts;
    bool            facts_on;  /* n >= 2 and a cross-rank rule enabled */
    tt_ranking      rk;
};

tt_rules_job *tt_rules_job_new(const tt_rules_config *cfg, size_t n, tt_error *err)
{
    tt_rules_job *j = calloc(1, sizeof *j);
    if (!j || !(j->bases = calloc(n + 1, sizeof *j->bases))) {
        free(j);
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    j->cfg = *cfg;
    j->n = n;
    tt_annotations_init(&j->ann);
    for (size_t t = 0; t < n; t++)
        tt_ivals_init(&j->bases[t].steps);
    /* as tt_rules_run: the cross-rank rules only with two ranks or more */
    j->facts_on = n >= 2 && rule_jobfacts_wanted(cfg);
    if (j->facts_on && rule_jobfacts_init(&j->facts, n, cfg, err)) {
        j->facts_on = false;
        tt_rules_job_free(j);
        return NULL;
    }
    return j;
}

void tt_rules_job_free(tt_rules_job *j)
{
    if (!j)
        return;
    tt_annotations_fini(&j->ann);
    for (size_t t = 0; t < j->n; t++)
        tt_rank_base_fini(&j->bases[t]);
    free(j->bases);
    if (j->facts_on)
        rule_jobfacts_fini(&j->facts);
    tt_ranking_fini(&j->rk);
    free(j);
}

/* What a rank gives the job besides its findings, each a walk over its
 * events of its own, found alongside the rules by the same threads: job
 * 0 its reference time (its steps), job 1 (when the job wants them) its
 * facts for the cross-rank rules. */
typedef struct rank_job {
    tt_rules_job   *j;
    size_t          t;
    const tt_trace *tr;
    int             base_rc, facts_rc;
    tt_error        facts_err;
} rank_job;

static void rank_find(void *ctx, size_t job)
{
    rank_job *r = ctx;
    if (job == 0) {
        tt_rank_base_fini(&r->j->bases[r->t]);
        r->base_rc = tt_rank_base_init(&r->j->bases[r->t], r->tr);
    } else {
        r->facts_rc = rule_jobfacts_add(&r->j->facts, r->t, r->tr, &r->facts_err);
    }
}

int tt_rules_job_add(tt_rules_job *j, size_t t, const tt_trace *tr, tt_error *err)
{
    tt_annotations one;
    rank_job rj;
    tt_rules_along along;
    int rc;
    if (t >= j->n)
        return tt_error_set(err, TT_ERR_USAGE, "rules: rank %zu of a job of %zu", t, j->n);
    tt_annotations_init(&one);
    memset(&rj, 0, sizeof rj);
    rj.j = j;
    rj.t = t;
    rj.tr = tr;
    tt_error_clear(&rj.facts_err);
    along.n = j->facts_on ? 2 : 1;
    along.work = rank_find;
    along.ctx = &rj;
    /* one trace alone: its per-trace findings, as over the job (one trace
     * has no cross-rank rules to run). Their
     * severities and order come once over the job (tt_rules_job_finish):
     * the final sort is stable and its equal keys are findings of one rule
     * about one trace, which keep the rule's order either way. */
    rc = tt_rules_find_along(&j->cfg, &tr, 1, &along, &one, err);
    for (size_t i = 0; i < one.n; i++)
        one.v[i].trace = (int)t;
    if (rc == 0 && tt_annotations_take(&j->ann, &one))
        rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    tt_annotations_fini(&one);
    if (rc)
        return -1;
    if (rj.base_rc)
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    if (rj.facts_rc) {
        *err = rj.facts_err;
        return -1;
    }
    return 0;
}

int tt_rules_job_finish(tt_rules_job *j, tt_error *err)
{
    if (j->facts_on &&
        (rule_jobfacts_finish(&j->facts, err) || rule_run_multi(&j->cfg, &j->facts, &j->ann, err)))
        return -1;
    if (tt_rank_apply_severity_bases(&j->ann, NULL, j->bases, j->n, &j->cfg, err))
        return -1;
    tt_annotations_sort(&j->ann);
    tt_ranking_fini(&j->rk);
    return tt_ranking_build_bases(&j->rk, &j->ann, j->bases, j->n, NULL, err);
}

const tt_annotations *tt_rules_job_findings(const tt_rules_job *j)
{
    return &j->ann;
}

const tt_ranking *tt_rules_job_ranking(const tt_rules_job *j)
{
    return &j->rk;
}
