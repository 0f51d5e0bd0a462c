/* tab_finding.c - SQL table `finding` (tracetty's own): the warning
 * rules' findings, as `tracetty check` finds them over the same traces
 * with the default configuration (every rule enabled, default
 * thresholds, severity from the impact), in check's CSV order.
 *
 *   id        the finding's position in that order, 0.. (over a job: in
 *             the job's order, as check lists the findings of all ranks)
 *   rule      the rule's id ("device-idle")
 *   severity  "info", "warning" or "error"
 *   ts, dur   its span, ns on the trace's clock
 *   track_id  the first lane it is about (NULL: none)
 *   slice_id  the first event it names (NULL: none)
 *   events    how many events it involves, listed or not
 *   cost      the time it costs, ns: its stated cost, else its span
 *             (rules/rank.h)
 *   position  its place in check's ranked listing, 1.. (check's Rank
 *             column, over all the ranks of a job; named so as not to
 *             clash with the job's `rank`)
 *   message   its one line, raw: whoever shows it escapes it
 *
 * Several sources (a job directory, several traces) are one job, as check
 * takes them: the per-trace rules run on each rank and the rules across
 * ranks (straggler, slow-card) over all of them (rules/jobrules.h), the
 * ranks loaded in the set's batches and freed again, so no more of them
 * are held at once than any query holds. A finding is a row of the rank
 * it is about (its `rank` column; for a cross-rank finding the rank at
 * fault: the straggler, the slow card). These are built once per query
 * (tt_sql_srcset_cache) and owned by the set; a lone trace's once per
 * source (tt_sql_src_cache), owned by its cache.
 *
 * The rules look at whole traces: --window and --lanes only choose which
 * findings are shown (spans meeting the window; with a lane filter, those
 * about a lane it keeps, or about no lane: a slow card, a slow link),
 * cross-rank ones as the others, each by its own rank's window.
 */
#include "config.h"

#include "sql/sqltab.h"

#include <stdlib.h>
#include <string.h>

#include "rules/jobrules.h"
#include "rules/rank.h"
#include "rules/rules.h"
#include "sql/srcset.h"

/* A lone trace's findings. */
typedef struct findings {
    tt_annotations ann;
    size_t        *order;   /* per finding: check's Rank, 1.. */
} findings;

typedef struct finding_cur {
    const tt_sql_src     *s;
    const tt_annotations *ann;
    const size_t         *order;   /* per finding: check's Rank, 1.. */
    bool                  job;     /* ann holds every rank's: show s's */
    size_t                i, end;
} finding_cur;

static const tt_sql_col cols[] = {
    {"id", "INTEGER", TT_SQLCOL_KEY},
    {"rule", "TEXT", 0},
    {"severity", "TEXT", 0},
    {"ts", "INTEGER", 0},
    {"dur", "INTEGER", 0},
    {"track_id", "INTEGER", TT_SQLCOL_ID},
    {"slice_id", "INTEGER", TT_SQLCOL_ID},
    {"events", "INTEGER", 0},
    {"cost", "INTEGER", 0},
    {"position", "INTEGER", 0},
    {"message", "TEXT", 0},
};

extern const tt_sql_table tt_sqltab_finding;

static void findings_free(void *v)
{
    findings *f = v;
    if (!f)
        return;
    tt_annotations_fini(&f->ann);
    free(f->order);
    free(f);
}

static void *findings_build(const tt_sql_src *s, tt_error *err)
{
    tt_rules_config cfg;
    tt_ranking rk;
    findings *f = calloc(1, sizeof *f);
    if (!f) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    tt_annotations_init(&f->ann);
    tt_rules_config_defaults(&cfg);
    if (tt_rules_run(&cfg, &s->tr, 1, &f->ann, err)) {
        findings_free(f);
        return NULL;
    }
    if (tt_ranking_build(&rk, &f->ann, &s->tr, 1, NULL, err)) {
        findings_free(f);
        return NULL;
    }
    f->order = malloc((f->ann.n ? f->ann.n : 1) * sizeof *f->order);
    if (!f->order) {
        tt_ranking_fini(&rk);
        findings_free(f);
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < f->ann.n; i++)
        f->order[i] = i < rk.n_ann ? rk.order[i] : 0;
    tt_ranking_fini(&rk);
    return f;
}

static void job_free(void *v)
{
    tt_rules_job_free(v);
}

/* The job's findings: each rank in turn, in the set's batches. */
static void *job_build(tt_sql_srcset *set, tt_error *err)
{
    tt_rules_config cfg;
    size_t n = tt_sql_srcset_count(set);
    size_t *ahead = malloc(n * sizeof *ahead);
    tt_rules_job *j;
    tt_rules_config_defaults(&cfg);
    if (!ahead) {
        tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (!(j = tt_rules_job_new(&cfg, n, err))) {
        free(ahead);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        ahead[i] = i;
    for (size_t i = 0; i < n; i++) {
        tt_sql_src *src = tt_sql_srcset_acquire_ahead(set, i, ahead + i + 1, n - i - 1, err);
        int rc = src ? tt_rules_job_add(j, i, src->tr, err) : -1;
        if (src)
            tt_sql_srcset_release(set, i);
        if (rc)
            goto fail;
    }
    if (tt_rules_job_finish(j, err))
        goto fail;
    free(ahead);
    return j;
fail:
    free(ahead);
    tt_rules_job_free(j);
    return NULL;
}

static bool kept(const finding_cur *c, const tt_annotation *an)
{
    const tt_sql_src *s = c->s;
    if (c->job && an->trace != (int)s->ordinal)
        return false;
    if (an->start == an->end ? an->start < s->from || an->start >= s->to
                             : an->start >= s->to || an->end <= s->from)
        return false;
    if (!s->lane_on || an->n_lanes == 0)
        return true;
    for (size_t i = 0; i < an->n_lanes; i++)
        if (s->lane_on[an->lanes[i]])
            return true;
    return false;
}

static void settle(finding_cur *c)
{
    while (c->i < c->end && !kept(c, &c->ann->v[c->i]))
        c->i++;
}

static int finding_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                         tt_error *err)
{
    finding_cur *c = vc;
    c->s = s;
    c->job = s->set && tt_sql_srcset_count(s->set) > 1;
    if (c->job) {
        const tt_rules_job *j =
            tt_sql_srcset_cache(s->set, &tt_sqltab_finding, job_build, job_free, err);
        if (!j)
            return -1;
        c->ann = tt_rules_job_findings(j);
        c->order = tt_rules_job_ranking(j)->order;
    } else {
        const findings *f =
            tt_sql_src_cache(s, &tt_sqltab_finding, findings_build, findings_free, err);
        if (!f)
            return -1;
        c->ann = &f->ann;
        c->order = f->order;
    }
    c->i = 0;
    c->end = c->ann->n;
    tt_sql_cons_narrow_eq(cons, n, 0, 0, &c->i, &c->end);   /* id = v */
    settle(c);
    return 0;
}

static int finding_next(void *vc, tt_error *err)
{
    (void)err;
    finding_cur *c = vc;
    c->i++;
    settle(c);
    return 0;
}

static bool finding_eof(const void *vc)
{
    const finding_cur *c = vc;
    return c->i >= c->end;
}

static int finding_column(void *vc, int col, tt_sql_val *v, tt_error *err)
{
    (void)err;
    finding_cur *c = vc;
    const tt_annotation *an = &c->ann->v[c->i];
    tt_sql_set_null(v);
    switch (col) {
    case 0: tt_sql_set_int(v, (int64_t)c->i); break;
    case 1: tt_sql_set_text(v, an->rule); break;
    case 2: tt_sql_set_text(v, tt_severity_name(an->sev)); break;
    case 3: tt_sql_set_int(v, an->start); break;
    case 4: tt_sql_set_int(v, an->end - an->start); break;
    case 5:
        if (an->n_lanes)
            tt_sql_set_int(v, tt_sql_id(c->s, an->lanes[0]));
        break;
    case 6:
        if (an->n_events)
            tt_sql_set_int(v, tt_sql_id(c->s, tt_sql_slice_id(c->s, an->events[0].lane,
                                                               an->events[0].idx)));
        break;
    case 7: tt_sql_set_int(v, (int64_t)an->n_events_total); break;
    case 8: tt_sql_set_int(v, tt_annotation_cost(an)); break;
    case 9: tt_sql_set_int(v, (int64_t)(c->order ? c->order[c->i] : 0)); break;
    case 10: tt_sql_set_text(v, an->msg); break;
    default: break;
    }
    return 0;
}

const tt_sql_table tt_sqltab_finding = {
    .name = "finding",
    .help = "tracetty's: the rules' findings as check finds them (over a job: across its "
            "ranks, each on the rank it is about): rule, severity, ts, dur, track_id, slice_id, "
            "cost, position, message",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = TT_SQLNEED_ARGS | TT_SQLNEED_FLOWS | TT_SQLNEED_COUNTERS,
    .cur_size = sizeof(finding_cur),
    .first = finding_first,
    .next = finding_next,
    .eof = finding_eof,
    .column = finding_column,
};
