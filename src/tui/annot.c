/* annot.c - annotations for the timeline (see annot.h). */
#include "config.h"

#include "tui/annot.h"

#include "tui/finding.h"
#include "util/num.h"
#include "util/sort.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tt_annview_init(tt_annview *v)
{
    memset(v, 0, sizeof *v);
    tt_annotations_init(&v->a);
    tt_plist_init(&v->pl);
    v->shown = true;
}

void tt_annview_fini(tt_annview *v)
{
    tt_annotations_fini(&v->a);
    tt_ranking_fini(&v->rank);
    free(v->folded);
    free(v->by_time);
    free(v->maxend);
    free(v->ranks);
    free(v->traces);
    free(v->off);
    tt_plist_fini(&v->pl);
    tt_annview_init(v);
}

static int cmp_start(const void *pa, const void *pb, void *ctx)
{
    const tt_annotations *a = ctx;
    const tt_annotation *x = &a->v[*(const uint32_t *)pa], *y = &a->v[*(const uint32_t *)pb];
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* Keep the traces (borrowed) and their offsets, for the detail panel. */
static int keep_traces(tt_annview *v, const tt_trace *const *traces, const tt_ns *off, size_t n,
                       tt_error *err)
{
    v->traces = malloc((n ? n : 1) * sizeof *v->traces);
    v->off = malloc((n ? n : 1) * sizeof *v->off);
    if (!v->traces || !v->off) {
        tt_annview_fini(v);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        v->traces[i] = traces[i];
        v->off[i] = off ? off[i] : 0;
    }
    v->n_traces = n;
    return 0;
}

/* Take the findings with their ranking (built by the caller while their
 * times were still on their traces' own clocks, which the shares need). */
static int take_ranked(tt_annview *v, tt_annotations *a, tt_ranking *rank, tt_error *err)
{
    if (tt_annview_take(v, a, err)) {
        tt_ranking_fini(rank);
        return -1;
    }
    v->rank = *rank;
    memset(rank, 0, sizeof *rank);
    if (!(v->folded = calloc(v->rank.n_groups ? v->rank.n_groups : 1, sizeof *v->folded))) {
        tt_annview_fini(v);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    return 0;
}

int tt_annview_run(tt_annview *v, const tt_trace *tr, const tt_rules_config *cfg,
                   tt_error *err)
{
    const tt_trace *one[1];
    tt_annotations a;
    tt_ranking rank;
    tt_annview_fini(v);
    tt_annotations_init(&a);
    one[0] = tr;
    if (tt_rules_run(cfg, one, 1, &a, err) || tt_ranking_build(&rank, &a, one, 1, NULL, err)) {
        tt_annotations_fini(&a);
        return -1;
    }
    if (take_ranked(v, &a, &rank, err) || keep_traces(v, one, NULL, 1, err))
        return -1;
    v->origin = tr->t0;
    return 0;
}

int tt_annview_run_job(tt_annview *v, const tt_trace *const *traces, const tt_ns *off,
                       const int64_t *ranks, size_t n, tt_ns origin,
                       const tt_rules_config *cfg, tt_error *err)
{
    tt_annotations a;
    tt_ranking rank;
    tt_annview_fini(v);
    tt_annotations_init(&a);
    if (tt_rules_run(cfg, traces, n, &a, err) || tt_ranking_build(&rank, &a, traces, n, NULL, err)) {
        tt_annotations_fini(&a);
        return -1;
    }
    /* on the job's axis, so every rank's annotations sort together */
    for (size_t i = 0; i < a.n; i++) {
        tt_ns o = a.v[i].trace >= 0 && (size_t)a.v[i].trace < n ? off[a.v[i].trace] : 0;
        a.v[i].start = tt_sat_add(a.v[i].start, o);
        a.v[i].end = tt_sat_add(a.v[i].end, o);
    }
    if (take_ranked(v, &a, &rank, err) || keep_traces(v, traces, off, n, err))
        return -1;
    v->origin = origin;
    if (ranks) {
        if (!(v->ranks = malloc((n ? n : 1) * sizeof *v->ranks))) {
            tt_annview_fini(v);
            return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        }
        memcpy(v->ranks, ranks, n * sizeof *v->ranks);
    }
    return 0;
}

int tt_annview_take(tt_annview *v, tt_annotations *a, tt_error *err)
{
    tt_annview_fini(v);
    v->a = *a;
    tt_annotations_init(a);
    v->by_time = malloc((v->a.n ? v->a.n : 1) * sizeof *v->by_time);
    v->maxend = malloc((v->a.n ? v->a.n : 1) * sizeof *v->maxend);
    if (!v->by_time || !v->maxend)
        goto oom;
    for (size_t i = 0; i < v->a.n; i++)
        v->by_time[i] = (uint32_t)i;
    if (tt_sort(v->by_time, v->a.n, sizeof *v->by_time, cmp_start, &v->a))
        goto oom;
    for (size_t i = 0; i < v->a.n; i++) {
        tt_ns e = v->a.v[v->by_time[i]].end;
        v->maxend[i] = i > 0 && v->maxend[i - 1] > e ? v->maxend[i - 1] : e;
    }
    v->ran = true;
    return 0;
oom:
    tt_annview_fini(v);
    return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
}

size_t tt_annview_first(const tt_annview *v, tt_ns a)
{
    /* maxend is non-decreasing: the first position whose prefix reaches
     * past a (an empty span at a counts: >=) */
    size_t lo = 0, hi = v->a.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->maxend[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool tt_annview_has_lane(const tt_annotation *an, uint32_t lane)
{
    size_t lo = 0, hi = an->n_lanes;
    if (an->n_lanes == 0 || lane == TT_NO_LANE)
        return true;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (an->lanes[mid] < lane)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < an->n_lanes && an->lanes[lo] == lane;
}

int64_t tt_annview_at(const tt_annview *v, uint32_t lane, tt_ns a, tt_ns b)
{
    return tt_annview_at_trace(v, -1, lane, a, b);
}

int64_t tt_annview_at_trace(const tt_annview *v, int trace, uint32_t lane, tt_ns a, tt_ns b)
{
    int64_t best = -1;
    if (!v->ran)
        return -1;
    for (size_t i = tt_annview_first(v, a); i < v->a.n; i++) {
        uint32_t k = v->by_time[i];
        const tt_annotation *an = &v->a.v[k];
        if (an->start >= b)
            break;
        /* overlaps the cell; an empty span counts at its start */
        if (!(an->end > a || (an->end == an->start && an->start >= a)))
            continue;
        if ((trace >= 0 && an->trace != trace) || !tt_annview_has_lane(an, lane))
            continue;
        /* a.v is in severity order: the lowest index wins */
        if (best < 0 || (int64_t)k < best)
            best = (int64_t)k;
    }
    return best;
}

const char *tt_annview_msg(const tt_annview *v, const tt_annotation *an, char *buf, size_t n)
{
    if (v->ranks && an->trace >= 0)
        snprintf(buf, n, "[rank %lld clock] %s", (long long)v->ranks[an->trace], an->msg);
    else
        snprintf(buf, n, "%s", an->msg);
    return buf;
}

const tt_trace *tt_annview_trace(const tt_annview *v, const tt_annotation *an, tt_ns *off)
{
    *off = 0;
    if (!v->traces || an->trace < 0 || (size_t)an->trace >= v->n_traces)
        return NULL;
    *off = v->off[an->trace];
    return v->traces[an->trace];
}

void tt_annview_open(tt_annview *v, size_t k)
{
    if (k >= v->a.n)
        return;
    if (!v->detail) {
        v->list_cur = v->pl.cur;
        v->list_top = v->pl.top;
    }
    v->detail = true;
    v->det_k = k;
    v->pl.cur = v->pl.top = 0;
    v->built = false;
}

void tt_annview_close(tt_annview *v)
{
    if (!v->detail)
        return;
    v->detail = false;
    v->back = true;
    v->pl.cur = v->list_cur;
    v->pl.top = v->list_top;
    v->built = false;
}

void tt_annview_filter(tt_annview *v, const char *rule)
{
    v->filter = rule;
    v->built = false;
}

static bool listed(const tt_annview *v, const char *rule)
{
    return !v->filter || strcmp(v->filter, rule) == 0;
}

/* Not in any group of the ranking: listed after the groups. */
static bool unranked(const tt_annview *v, size_t i)
{
    return !v->rank.order || i >= v->rank.n_ann || v->rank.order[i] == 0;
}

size_t tt_annview_listed(const tt_annview *v)
{
    size_t n = 0;
    for (size_t i = 0; i < v->a.n; i++)
        n += listed(v, v->a.v[i].rule);
    return n;
}

void tt_annview_fold(tt_annview *v, size_t g)
{
    if (g >= v->rank.n_groups)
        return;
    v->folded[g] = !v->folded[g];
    v->built = false;
}

size_t tt_annview_list_pos(const tt_annview *v, size_t k, size_t *of)
{
    size_t pos = 0, n = 0;
    /* the listing's order: the groups ranked, each costliest first, then
     * the unranked ones */
    for (size_t g = 0; g < v->rank.n_groups; g++) {
        const tt_rank_group *gr = &v->rank.groups[g];
        if (!listed(v, gr->rule))
            continue;
        for (size_t j = 0; j < gr->n; j++)
            if (gr->items[j] == k)
                pos = n + j + 1;
        n += gr->n;
    }
    for (size_t i = 0; i < v->a.n; i++)
        if (unranked(v, i) && listed(v, v->a.v[i].rule) && (n++, i == k))
            pos = n;
    *of = n;
    return pos;
}

/* One finding of the list: severity, rule, (rank,) time, then its whole
 * message, wrapped under it. */
static int list_line(tt_annview *v, size_t i, int width)
{
    const tt_annotation *an = &v->a.v[i];
    char t[48], line[1200], msg[1100];
    int msgcol, indent;
    tt_pline *l;
    tt_fmt_dur(t, sizeof t, an->start - v->origin, 3);
    if (v->ranks) {
        snprintf(line, sizeof line, "%-8s%-17sr%-5lld%11s  %s", tt_severity_name(an->sev),
                 an->rule, (long long)v->ranks[an->trace], t,
                 tt_annview_msg(v, an, msg, sizeof msg));
        msgcol = 8 + 17 + 6 + 11 + 2;
    } else {
        snprintf(line, sizeof line, "%-8s%-17s%11s  %s", tt_severity_name(an->sev), an->rule, t,
                 an->msg);
        msgcol = 8 + 17 + 11 + 2;
    }
    /* under the message when that leaves it a decent width, else under
     * the rule */
    indent = width - msgcol >= 60 ? msgcol : 8;
    l = tt_plist_wrap_item(&v->pl, TT_R_PANEL, true, TT_AN_LINE, (int64_t)i, line, width, indent);
    if (!l)
        return -1;
    l->lead_w = 7;
    l->lead_role = an->sev == TT_SEV_ERROR     ? TT_R_ANN_ERR
                   : an->sev == TT_SEV_WARNING ? TT_R_ANN_WARN
                                               : TT_R_ANN_INFO;
    return 0;
}

/* A group's header: fold state, then the headline `tracetty check`
 * prints for it (its numbers from the same tt_rank_impact), wrapped. */
static int group_line(tt_annview *v, size_t g, int width, bool utf8)
{
    const tt_rank_group *gr = &v->rank.groups[g];
    char line[400], impact[160], rank[48] = "";
    const char *fold = v->folded[g] ? (utf8 ? "\xe2\x96\xb8" : "+")
                                      : (utf8 ? "\xe2\x96\xbe" : "-");
    if (v->ranks)
        snprintf(rank, sizeof rank, " on rank %lld", (long long)v->ranks[gr->trace]);
    snprintf(line, sizeof line, "%s %-7s %s%s: %s", fold, tt_severity_name(gr->sev), gr->rule,
             rank, tt_rank_impact(gr, impact, sizeof impact));
    return tt_plist_wrap_item(&v->pl, TT_R_PANEL_TITLE, true, TT_AN_GROUP, (int64_t)g, line,
                              width, 2)
               ? 0
               : -1;
}

/* The findings in the ranking's order: each listed group's header, then,
 * unless it is folded, its findings costliest first; then the findings
 * the ranking does not know. */
static int list_ranked(tt_annview *v, int width, bool utf8)
{
    for (size_t g = 0; g < v->rank.n_groups; g++) {
        const tt_rank_group *gr = &v->rank.groups[g];
        if (!listed(v, gr->rule))
            continue;
        if (group_line(v, g, width, utf8))
            return -1;
        for (size_t j = 0; j < gr->n && !v->folded[g]; j++)
            if (list_line(v, gr->items[j], width))
                return -1;
    }
    for (size_t i = 0; i < v->a.n; i++)
        if (unranked(v, i) && listed(v, v->a.v[i].rule) && list_line(v, i, width))
            return -1;
    return 0;
}

int tt_annview_build(tt_annview *v, int width, bool utf8)
{
    const tt_pline *was = tt_plist_picked(&v->pl);
    int kind = was && !v->detail ? was->kind : 0;
    int64_t on = kind == TT_AN_LINE || kind == TT_AN_GROUP ? was->tag : -1;
    if (v->back) {
        /* back from a detail: on the finding it showed */
        kind = TT_AN_LINE;
        on = (int64_t)v->det_k;
        v->back = false;
    }
    if (v->built && v->width == width && v->utf8 == utf8)
        return 0;
    v->width = width;
    v->utf8 = utf8;
    tt_plist_clear(&v->pl);
    if (v->detail && v->det_k < v->a.n) {
        if (tt_finding_build(&v->pl, v, v->det_k, width, utf8))
            return -1;
        tt_plist_clamp(&v->pl);
        v->built = true;
        return 0;
    }
    if (!v->ran) {
        if (!tt_plist_add(&v->pl, TT_R_PANEL, "The rules did not run."))
            return -1;
    } else if (v->a.n == 0) {
        if (!tt_plist_add(&v->pl, TT_R_PANEL,
                          "No findings: every enabled rule is satisfied (tracetty check "
                          "--list-rules shows them)."))
            return -1;
    }
    if (v->ranks && v->a.n > 0 &&
        tt_plist_wrap(&v->pl, TT_R_PANEL_KEY, "Time: from the job's start (aligned); the times "
                      "in a message count from its rank's own trace start ([rank N clock])",
                      width))
        return -1;
    if (v->filter && !tt_plist_addf(&v->pl, TT_R_PANEL_KEY,
                                    "Only rule %s: %zu of %zu findings (f: every rule)",
                                    v->filter, tt_annview_listed(v), v->a.n))
        return -1;
    if (list_ranked(v, width, utf8))
        return -1;
    tt_plist_clamp(&v->pl);
    /* the lines moved (a new width wraps them otherwise, a filter, a
     * fold): stay on the finding or header the cursor was on, or on the
     * head of a wrapped one */
    if (on < 0 || !tt_plist_goto_item(&v->pl, kind, on))
        tt_plist_move(&v->pl, 0);
    v->built = true;
    return 0;
}
