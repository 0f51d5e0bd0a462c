/* tab_finding.c - SQL table `finding` (tracetty's own): the warning
 * rules' findings about the source's trace, as `tracetty check` finds
 * them with the default configuration (every rule enabled, default
 * thresholds, severity from the impact), in check's CSV order.
 *
 *   id        the finding's position in that order, 0..
 *   rule      the rule's id ("device-idle")
 *   severity  "info", "warning" or "error"
 *   ts, dur   its span, ns on the trace's clock
 *   track_id  the first lane it is about (NULL: none)
 *   slice_id  the first event it names (NULL: none)
 *   events    how many events it involves, listed or not
 *   cost      the time it costs, ns: its stated cost, else its span
 *             (rules/rank.h)
 *   position  its place in check's ranked listing, 1.. (check's Rank
 *             column; named so as not to clash with the job's `rank`)
 *   message   its one line, raw: whoever shows it escapes it
 *
 * Only findings the source keeps: spans meeting the window, and, with a
 * lane filter, about a lane it keeps (or about no lane). Rules that
 * compare ranks (the straggler) look at one source at a time here, so
 * they find nothing. The findings are built once per source
 * (tt_sql_src_cache) and owned by that cache.
 */
#include "config.h"

#include "sql/sqltab.h"

#include <stdlib.h>
#include <string.h>

#include "rules/rank.h"
#include "rules/rules.h"

typedef struct findings {
    tt_annotations ann;
    size_t        *order;   /* per finding: check's Rank, 1.. */
} findings;

typedef struct finding_cur {
    const tt_sql_src *s;
    const findings   *f;
    size_t            i, end;
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

static bool kept(const tt_sql_src *s, const tt_annotation *an)
{
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
    while (c->i < c->end && !kept(c->s, &c->f->ann.v[c->i]))
        c->i++;
}

static int finding_first(void *vc, const tt_sql_src *s, const tt_sql_cons *cons, size_t n,
                         tt_error *err)
{
    finding_cur *c = vc;
    c->s = s;
    c->f = tt_sql_src_cache(s, &tt_sqltab_finding, findings_build, findings_free, err);
    if (!c->f)
        return -1;
    c->i = 0;
    c->end = c->f->ann.n;
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
    const tt_annotation *an = &c->f->ann.v[c->i];
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
    case 9: tt_sql_set_int(v, (int64_t)c->f->order[c->i]); break;
    case 10: tt_sql_set_text(v, an->msg); break;
    default: break;
    }
    return 0;
}

const tt_sql_table tt_sqltab_finding = {
    .name = "finding",
    .help = "tracetty's: the rules' findings as check finds them: rule, severity, ts, dur, "
            "track_id, slice_id, cost, message",
    .cols = cols,
    .n_cols = sizeof cols / sizeof cols[0],
    .needs = TT_SQLNEED_ARGS | TT_SQLNEED_FLOWS | TT_SQLNEED_COUNTERS,
    .cur_size = sizeof(finding_cur),
    .first = finding_first,
    .next = finding_next,
    .eof = finding_eof,
    .column = finding_column,
};
