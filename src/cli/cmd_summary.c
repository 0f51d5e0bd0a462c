/* cmd_summary.c - `tracetty summary`: what is in a trace, at a glance.
 *
 * Text for people, JSON (stable keys, documented in tracetty(1)) for
 * scripts. Every trace string printed as text is sanitized. Several traces
 * are the ranks of one job, as for `tracetty check`: the annotation counts
 * include the cross-rank rules.
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/metrics.h"
#include "cli/ncu_summary.h"
#include "cli/stat_summary.h"
#include "analysis/ncu_join.h"
#include "cli/opts.h"

#include "analysis/attrib.h"
#include "index/index.h"
#include "multi/rankset.h"
#include "rules/rules.h"
#include "util/json.h"
#include "util/num.h"
#include "util/sort.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define TOP_NAMES 10

typedef struct name_total {
    uint32_t name;
    uint64_t count;
    int64_t  total;
} name_total;

static int cmp_name_total(const void *pa, const void *pb, void *ctx)
{
    const name_total *a = pa, *b = pb;
    const tt_trace *tr = ctx;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(tt_str(tr, a->name), tt_str(tr, b->name));
}

/* Totals per event name, sorted by total time; *n receives the count of
 * names with at least one event. Caller frees. */
static name_total *names_by_total(const tt_trace *tr, size_t *n)
{
    uint32_t ns = tt_strtab_count(tr->strings);
    name_total *t = calloc(ns ? ns : 1, sizeof *t);
    size_t k = 0;
    if (!t)
        return NULL;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            name_total *x = &t[ln->ev[i].name];
            x->count++;
            x->total += ln->ev[i].dur;
        }
    }
    for (uint32_t i = 0; i < ns; i++)
        if (t[i].count) {
            t[k] = t[i];
            t[k].name = i;
            k++;
        }
    tt_sort(t, k, sizeof *t, cmp_name_total, (void *)tr);
    *n = k;
    return t;
}

static double busy_percent(const tt_trace *tr, const tt_lane *l, int64_t *busy)
{
    int64_t span = tr->t1 - tr->t0;
    *busy = tt_index_busy(l->ev, l->n, tr->t0, tr->t1);
    return span > 0 ? 100.0 * (double)*busy / (double)span : 0.0;
}

/* ------------------------------------------------------------- text */

/* A sanitized string in exactly `width` columns: padded, or cut with an
 * ellipsis so that two long names that differ only at the end do not look
 * the same ("…" in a UTF-8 locale, "..." otherwise). */
static void put_padded(FILE *f, const char *safe, int width)
{
    int used;
    size_t fit = tt_text_fit(safe, width, &used);
    if (safe[fit] != '\0') {
        bool utf8 = tt_text_utf8();
        fit = tt_text_fit(safe, width - (utf8 ? 1 : 3), &used);
        fwrite(safe, 1, fit, f);
        fputs(utf8 ? "\xe2\x80\xa6" : "...", f);
        used += utf8 ? 1 : 3;
    } else {
        fwrite(safe, 1, fit, f);
    }
    for (int i = used; i < width; i++)
        fputc(' ', f);
}

/* An object's scalar members as "k=v k=v ..." (as many as fit). */
static void object_line(const cJSON *obj, char *line, size_t cap)
{
    const cJSON *m;
    size_t o = 0;
    line[0] = '\0';
    if (!obj->child)
        snprintf(line, cap, "(empty)");
    cJSON_ArrayForEach(m, obj) {
        if (o >= cap - 40)
            break;
        if (cJSON_IsString(m))
            o += (size_t)snprintf(line + o, cap - o, "%s%s=%s", o ? " " : "", m->string,
                                  m->valuestring);
        else if (cJSON_IsNumber(m))
            o += (size_t)snprintf(line + o, cap - o, "%s%s=%.15g", o ? " " : "", m->string,
                                  m->valuedouble);
    }
}

static void meta_row(FILE *f, const char *key, int width, const char *line)
{
    char buf[512];
    fputs("  ", f);
    put_padded(f, tt_text_safe(key, buf, sizeof buf), width);
    fputc(' ', f);
    tt_cli_put_safe(f, line);
    fputc('\n', f);
}

static void meta_text(FILE *f, const cJSON *meta)
{
    const cJSON *it;
    char buf[512];
    int width = 20;   /* the longest key, within reason: keys must stay apart */
    if (!meta || !meta->child)
        return;
    cJSON_ArrayForEach(it, meta) {
        int w = tt_text_width(tt_text_safe(it->string ? it->string : "", buf, sizeof buf));
        if (w > width)
            width = w > 48 ? 48 : w;
    }
    fprintf(f, "\nMetadata\n");
    cJSON_ArrayForEach(it, meta) {
        char line[400] = "";
        const char *key = it->string ? it->string : "";
        if (cJSON_IsString(it)) {
            snprintf(line, sizeof line, "%s", it->valuestring);
        } else if (cJSON_IsNumber(it)) {
            snprintf(line, sizeof line, "%.15g", it->valuedouble);
        } else if (cJSON_IsBool(it)) {
            snprintf(line, sizeof line, "%s", cJSON_IsTrue(it) ? "true" : "false");
        } else if (cJSON_IsNull(it)) {
            snprintf(line, sizeof line, "null");
        } else if (cJSON_IsArray(it) && cJSON_IsObject(it->child)) {
            /* e.g. neuron-profile's summary per NeuronCore: one line each */
            const cJSON *e;
            int i = 0, n = cJSON_GetArraySize(it);
            snprintf(line, sizeof line, "%d entries", n);
            meta_row(f, key, width, line);
            cJSON_ArrayForEach(e, it) {
                char k[80];
                if (i == 8) {
                    snprintf(line, sizeof line, "(%d more; --format json has them all)", n - i);
                    meta_row(f, "", width, line);
                    break;
                }
                snprintf(k, sizeof k, "  [%d]", i++);
                if (cJSON_IsObject(e))
                    object_line(e, line, sizeof line);
                else
                    snprintf(line, sizeof line, "(not an object)");
                meta_row(f, k, width, line);
            }
            continue;
        } else if (cJSON_IsArray(it)) {
            snprintf(line, sizeof line, "%d entries", cJSON_GetArraySize(it));
        } else if (cJSON_IsObject(it)) {
            object_line(it, line, sizeof line);
        }
        meta_row(f, key, width, line);
    }
}

/* What a trace's summary shows besides the rules that walks its events:
 * its launch links, its names by total time, its flows that lead back in
 * time. Found while the rules run, by the same threads (rules.h:
 * tt_rules_find_along): after the rules, on one core, they were a third
 * of the command's time. */
typedef struct summary_facts {
    int              attrib_rc;   /* tt_attrib_count's: 0 when ac holds */
    tt_attrib_counts ac;
    name_total      *names;       /* names_by_total's, NULL when out of memory */
    size_t           n_names;
    size_t           back;        /* tt_trace_flows_backward's */
} summary_facts;

/* Findings of the warning rules, with the default configuration, over
 * every trace summarized: with several, they are the ranks of one job, as
 * for `tracetty check`, and the cross-rank rules (straggler) run too. */
typedef struct summary_rules {
    bool            ok;       /* the rules ran (else out of memory, or err) */
    bool            multi;    /* several traces: cross-rank rules ran */
    tt_annotations  ann;
    tt_error        err;      /* why they did not */
    const tt_trace *const *traces;
    summary_facts  *facts;    /* one per trace, or NULL when out of memory */
} summary_rules;

/* Job 2t: trace t's launch links, the longest; job 2t + 1: its names and
 * flows, so that two cores share even one trace's facts. */
static void facts_find(void *ctx, size_t job)
{
    summary_rules *sr = ctx;
    const tt_trace *tr = sr->traces[job / 2];
    summary_facts *f = &sr->facts[job / 2];
    tt_error aerr;
    if (job % 2 == 0) {
        f->attrib_rc = tt_attrib_count(tr, &f->ac, &aerr);
    } else {
        f->names = names_by_total(tr, &f->n_names);
        f->back = tt_trace_flows_backward(tr);
    }
}

static void summary_rules_run(summary_rules *sr, const tt_trace *const *traces, size_t n)
{
    tt_rules_config cfg;
    tt_rules_along along;
    tt_rules_config_defaults(&cfg);
    tt_annotations_init(&sr->ann);
    tt_error_clear(&sr->err);
    sr->multi = n > 1;
    sr->traces = traces;
    sr->facts = calloc(n ? n : 1, sizeof *sr->facts);
    along.n = sr->facts ? 2 * n : 0;
    along.work = facts_find;
    along.ctx = sr;
    /* counted, not listed: their severities and order do not matter */
    sr->ok = tt_rules_find_along(&cfg, traces, n, &along, &sr->ann, &sr->err) == 0;
}

static void summary_rules_fini(summary_rules *sr, size_t n)
{
    tt_annotations_fini(&sr->ann);
    for (size_t t = 0; sr->facts && t < n; t++)
        free(sr->facts[t].names);
    free(sr->facts);
}

/* Trace t's facts, found here when they could not be alongside the rules
 * (no memory for sr->facts). Free with facts_free. */
static const summary_facts *facts_of(const summary_rules *sr, int t, summary_facts *own)
{
    if (sr->facts)
        return &sr->facts[t];
    memset(own, 0, sizeof *own);
    {
        summary_rules one = *sr;
        one.traces = sr->traces + t;
        one.facts = own;
        facts_find(&one, 0);
        facts_find(&one, 1);
    }
    return own;
}

static void facts_free(const summary_rules *sr, summary_facts *own)
{
    if (!sr->facts)
        free(own->names);
}

/* Counts per rule for trace t; false when the rules could not run. A rule
 * is shown when it ran: the cross-rank ones only for several traces. */
static bool summary_rules_counts(const summary_rules *sr, int t, uint64_t *counts)
{
    if (!sr->ok)
        return false;
    tt_annotations_count(&sr->ann, t, counts);
    return true;
}

static bool rule_shown(const summary_rules *sr, const tt_rule *r, const tt_trace *tr)
{
    return (!r->multi || sr->multi) && (!r->applies || r->applies(tr));
}

static void summary_text(FILE *f, const tt_trace *tr, const char *compression,
                         const summary_rules *sr, int t)
{
    char b1[64], b2[64], label[512], safe[1024];
    summary_facts own;
    const summary_facts *fa = facts_of(sr, t, &own);
    size_t nn = fa->n_names;
    const name_total *names = fa->names;
    int64_t span = tr->t1 - tr->t0;

    fputs("File      ", f);
    tt_cli_put_safe(f, tr->source ? tr->source : "-");
    fputc('\n', f);
    fprintf(f, "Format    %s (%s, %s decoded)\n", tr->format, compression,
            tt_fmt_bytes(b1, sizeof b1, tr->source_bytes));
    if (tr->n_events == 0 && tr->n_counters == 0)   /* nothing timed: no span, not 0 ns */
        fputs("Span      none (no events)\n", f);
    else
        fprintf(f, "Span      %s (total_time %.9f s)\n", tt_fmt_dur(b2, sizeof b2, span, 3),
                (double)span / 1e9);
    fprintf(f, "Events    %llu in the timeline", (unsigned long long)tr->n_events);
    if (tr->n_phases) {
        fputs("; by phase:", f);
        for (uint32_t i = 0; i < tr->n_phases; i++) {
            fputc(' ', f);
            tt_cli_put_safe(f, tt_str(tr, tr->phases[i].name));
            fprintf(f, " %llu%s", (unsigned long long)tr->phases[i].count,
                    i + 1 < tr->n_phases ? "," : "");
        }
    }
    fputc('\n', f);
    fprintf(f, "Lanes     %u in %u groups\n", tr->n_lanes, tr->n_groups);
    {
        size_t back = fa->back;
        fprintf(f, "Flows     %zu", tr->n_flows);
        if (back)
            fprintf(f, " (%zu lead to an event that starts before their source: kept as stamped)", back);
        fputc('\n', f);
    }
    {
        /* launch links (analysis/attrib.h); ids naming no host call are
         * counted, never fatal */
        tt_attrib_counts ac = fa->ac;
        if (!fa->attrib_rc && ac.n_device) {
            fprintf(f, "Launches  %zu of %zu device events linked to a host call",
                    ac.n_links, ac.n_device);
            if (ac.n_dangling)
                fprintf(f, "; %zu with a correlation id that names no host call",
                        ac.n_dangling);
            fputc('\n', f);
        }
    }
    fprintf(f, "Counters  %u series\n", tr->n_counters);
    if (tr->rank >= 0)
        fprintf(f, "Rank      %lld\n", (long long)tr->rank);
    if (tr->note[0]) {
        fputs("Note      ", f);
        tt_cli_put_safe(f, tr->note);
        fputc('\n', f);
    }
    tt_ncu_summary_text(f, tr);
    tt_stat_summary_text(f, tr);
    if (tt_cli_metrics_line(tr, label, sizeof label))
        fprintf(f, "Metrics   %s\n", label);

    if (tr->n_lanes) {
        fprintf(f, "\n%-56s %10s %8s\n", "Lane", "Events", "Busy");
        for (uint32_t l = 0; l < tr->n_lanes; l++) {
            int64_t busy;
            double pct = busy_percent(tr, &tr->lanes[l], &busy);
            tt_lane_fullname(tr, l, label, sizeof label);
            tt_text_safe(label, safe, sizeof safe);
            fputs("  ", f);
            put_padded(f, safe, 54);
            fprintf(f, " %10zu %7.1f%%\n", tr->lanes[l].n, pct);
        }
    }
    if (names && nn) {
        fprintf(f, "\n%-56s %10s %14s %14s\n", "Top names by total time", "Count", "Total", "Avg");
        for (size_t i = 0; i < nn && i < TOP_NAMES; i++) {
            char tot[32], avg[32];
            tt_text_safe(tt_str(tr, names[i].name), safe, sizeof safe);
            fputs("  ", f);
            put_padded(f, safe, 54);
            fprintf(f, " %10llu %14s %14s\n", (unsigned long long)names[i].count,
                    tt_fmt_dur(tot, sizeof tot, names[i].total, 3),
                    tt_fmt_dur(avg, sizeof avg, names[i].total / (int64_t)names[i].count, 3));
        }
    }
    if (tr->n_counters) {
        fprintf(f, "\n%-56s %10s %14s %14s\n", "Counters", "Samples", "Min", "Max");
        for (uint32_t i = 0; i < tr->n_counters; i++) {
            const tt_counter *c = &tr->counters[i];
            char g[256], name[600];
            tt_group_label(tr, &tr->groups[c->group], g, sizeof g);
            snprintf(name, sizeof name, "%s / %s.%s", g, tt_str(tr, c->name), tt_str(tr, c->key));
            tt_text_safe(name, safe, sizeof safe);
            fputs("  ", f);
            put_padded(f, safe, 54);
            fprintf(f, " %10zu %14.6g %14.6g\n", c->n, c->vmin, c->vmax);
        }
    }
    meta_text(f, tr->meta);
    {
        uint64_t counts[32];
        const tt_rule *const *rules = tt_rules();
        fprintf(f, "\nAnnotations (tracetty check)\n");
        if (!summary_rules_counts(sr, t, counts)) {
            fprintf(f, "  could not run the rules (out of memory)\n");
        } else {
            for (size_t i = 0; rules[i]; i++)
                if (rule_shown(sr, rules[i], tr))
                    fprintf(f, "  %-30s %8llu\n", rules[i]->id, (unsigned long long)counts[i]);
        }
    }
    fprintf(f, "\nProblems\n");
    if (tt_trace_problem_total(tr) == 0) {
        fprintf(f, "  none\n");
    } else {
        for (int k = 0; k < TT_PROB__COUNT; k++) {
            const tt_problem *p = &tr->problems[k];
            if (!p->count)
                continue;
            fprintf(f, "  %-30s %8llu  e.g. ", tt_problem_name((tt_problem_kind)k),
                    (unsigned long long)p->count);
            tt_cli_put_safe(f, p->example);
            fputc('\n', f);
        }
    }
    facts_free(sr, &own);
}

/* ------------------------------------------------------------- json */

static cJSON *summary_json(const tt_trace *tr, const char *compression,
                           const summary_rules *sr, int t)
{
    cJSON *o = cJSON_CreateObject(), *a, *x;
    char label[512];
    summary_facts own;
    const summary_facts *fa;
    if (!o)
        return NULL;
    fa = facts_of(sr, t, &own);
    cJSON_AddStringToObject(o, "file", tr->source ? tr->source : "-");
    cJSON_AddStringToObject(o, "format", tr->format);
    cJSON_AddStringToObject(o, "compression", compression);
    cJSON_AddNumberToObject(o, "bytes", (double)tr->source_bytes);
    if (tr->n_events == 0 && tr->n_counters == 0) {   /* nothing timed: no span */
        cJSON_AddNullToObject(o, "start_ns");
        cJSON_AddNullToObject(o, "end_ns");
        cJSON_AddNullToObject(o, "total_time_ns");
        cJSON_AddNullToObject(o, "total_time");
    } else {
        /* exact: epoch timestamps in ns are beyond a double's 2^53 */
        tt_json_add_int(o, "start_ns", tr->t0);
        tt_json_add_int(o, "end_ns", tr->t1);
        tt_json_add_int(o, "total_time_ns", tr->t1 - tr->t0);
        cJSON_AddNumberToObject(o, "total_time", (double)(tr->t1 - tr->t0) / 1e9);
    }
    cJSON_AddNumberToObject(o, "events", (double)tr->n_events);
    x = cJSON_AddObjectToObject(o, "phases");
    for (uint32_t i = 0; i < tr->n_phases; i++)
        cJSON_AddNumberToObject(x, tt_str(tr, tr->phases[i].name), (double)tr->phases[i].count);
    if (tr->rank >= 0)
        cJSON_AddNumberToObject(o, "rank", (double)tr->rank);
    else
        cJSON_AddNullToObject(o, "rank");
    cJSON_AddNumberToObject(o, "groups", tr->n_groups);
    a = cJSON_AddArrayToObject(o, "lanes");
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *ln = &tr->lanes[l];
        cJSON *e = cJSON_CreateObject();
        int64_t busy;
        double pct = busy_percent(tr, ln, &busy);
        cJSON_AddStringToObject(e, "group", tt_group_label(tr, &tr->groups[ln->group], label, sizeof label));
        cJSON_AddStringToObject(e, "lane", tt_lane_label(tr, ln, label, sizeof label));
        cJSON_AddNumberToObject(e, "events", (double)ln->n);
        cJSON_AddNumberToObject(e, "busy_ns", (double)busy);
        cJSON_AddNumberToObject(e, "busy_percent", pct);
        cJSON_AddNumberToObject(e, "max_depth", ln->max_depth);
        cJSON_AddItemToArray(a, e);
    }
    a = cJSON_AddArrayToObject(o, "top_names");
    for (size_t i = 0; fa->names && i < fa->n_names && i < TOP_NAMES; i++) {
        const name_total *nt = &fa->names[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", tt_str(tr, nt->name));
        cJSON_AddNumberToObject(e, "count", (double)nt->count);
        cJSON_AddNumberToObject(e, "total_ns", (double)nt->total);
        cJSON_AddItemToArray(a, e);
    }
    a = cJSON_AddArrayToObject(o, "counters");
    for (uint32_t i = 0; i < tr->n_counters; i++) {
        const tt_counter *c = &tr->counters[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "group", tt_group_label(tr, &tr->groups[c->group], label, sizeof label));
        cJSON_AddStringToObject(e, "name", tt_str(tr, c->name));
        cJSON_AddStringToObject(e, "key", tt_str(tr, c->key));
        cJSON_AddNumberToObject(e, "samples", (double)c->n);
        cJSON_AddNumberToObject(e, "min", c->vmin);
        cJSON_AddNumberToObject(e, "max", c->vmax);
        cJSON_AddBoolToObject(e, "derived", c->derived);
        cJSON_AddItemToArray(a, e);
    }
    cJSON_AddNumberToObject(o, "flows", (double)tr->n_flows);
    cJSON_AddNumberToObject(o, "flows_backward", (double)fa->back);
    {
        tt_attrib_counts ac = fa->ac;
        if (!fa->attrib_rc && ac.n_device) {   /* as the text's Launches line */
            cJSON_AddNumberToObject(o, "device_events", (double)ac.n_device);
            cJSON_AddNumberToObject(o, "launch_links", (double)ac.n_links);
            cJSON_AddNumberToObject(o, "dangling_correlations", (double)ac.n_dangling);
        }
    }
    cJSON_AddItemToObject(o, "metadata", cJSON_Duplicate(tr->meta, 1));
    a = cJSON_AddArrayToObject(o, "problems");
    for (int k = 0; k < TT_PROB__COUNT; k++) {
        const tt_problem *p = &tr->problems[k];
        cJSON *e;
        if (!p->count)
            continue;
        e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "kind", tt_problem_name((tt_problem_kind)k));
        cJSON_AddNumberToObject(e, "count", (double)p->count);
        cJSON_AddStringToObject(e, "example", p->example);
        cJSON_AddItemToArray(a, e);
    }
    {
        uint64_t counts[32];
        const tt_rule *const *rules = tt_rules();
        if (summary_rules_counts(sr, t, counts)) {
            x = cJSON_AddObjectToObject(o, "annotations");
            for (size_t i = 0; rules[i]; i++)
                if (rule_shown(sr, rules[i], tr))
                    cJSON_AddNumberToObject(x, rules[i]->id, (double)counts[i]);
        } else {
            cJSON_AddNullToObject(o, "annotations");
        }
    }
    if (tr->note[0])
        cJSON_AddStringToObject(o, "note", tr->note);
    else
        cJSON_AddNullToObject(o, "note");
    tt_ncu_summary_json(o, tr);
    tt_stat_summary_json(o, tr);
    {
        const tt_ncu_join_stats *st = tt_ncu_join_stats_of(tr);
        if (st && (x = cJSON_AddObjectToObject(o, "ncu_metrics"))) {
            cJSON_AddNumberToObject(x, "profiled", (double)st->profiled);
            cJSON_AddNumberToObject(x, "matched", (double)st->matched);
            cJSON_AddNumberToObject(x, "names", (double)st->names);
            cJSON_AddNumberToObject(x, "names_unmatched", (double)st->names_unmatched);
            cJSON_AddNumberToObject(x, "beyond_timeline", (double)st->beyond);
            cJSON_AddNumberToObject(x, "shape_mismatch", (double)st->shape_mismatch);
        }
    }
    facts_free(sr, &own);
    return o;
}

/* Print a JSON document, made valid UTF-8 (names may hold any bytes). */
static void put_json(cJSON *o)
{
    char *s = cJSON_Print(o), *ok;
    if (!s)
        return;
    ok = tt_json_repair(s);
    free(s);
    if (ok)
        puts(ok);
    free(ok);
}

/* ---------------------------------------------------------------- exec */

static int summary_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_cli_load lo = {0};
    bool json = false;
    int opt, rc = TT_EXIT_OK;
    tt_cli_opts op;
    cJSON *all = NULL;
    tt_trace **loaded;        /* the traces that loaded, in order */
    size_t n_loaded = 0, n_files = 0, n_shown;
    char **files;             /* the arguments, directories expanded */
    summary_rules sr;

    tt_cli_opts_init(&op, &tt_cmd_summary, argc, argv, "f:h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        if (tt_cli_load_option(opt, optarg, &lo))
            continue;
        switch (opt) {
        case 'f':
            if (strcmp(optarg, "json") == 0)
                json = true;
            else if (strcmp(optarg, "text") == 0)
                json = false;
            else {
                tt_cli_error("summary: unknown format '%s' (text or json)", optarg);
                return TT_EXIT_ERROR;
            }
            break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_summary.usage);
            return TT_EXIT_OK;
        default:
            /* tt_cli_opts_next said why */
            return TT_EXIT_ERROR;
        }
    }
    if (op.n_operands == 0) {
        tt_cli_error("summary: no trace given (usage: tracetty %s)", tt_cmd_summary.usage);
        return TT_EXIT_ERROR;
    }
    /* a directory stands for every trace in it, as for check and report */
    if (!(files = tt_cli_expand(op.operands, op.n_operands, &n_files)))
        return TT_EXIT_ERROR;
    if (json && n_files > 1)
        all = cJSON_CreateArray();
    /* every trace is loaded first: the rules look across them */
    if (!(loaded = calloc(n_files ? n_files : 1, sizeof *loaded))) {
        cJSON_Delete(all);
        tt_rankset_free_files(files, n_files);
        tt_cli_error("summary: out of memory");
        return TT_EXIT_ERROR;
    }
    for (size_t i = 0; i < n_files; i++) {
        if ((loaded[n_loaded] = tt_cli_load_trace(files[i], &lo)))
            n_loaded++;
        else
            rc = TT_EXIT_ERROR;
    }
    tt_rankset_free_files(files, n_files);
    summary_rules_run(&sr, (const tt_trace *const *)loaded, n_loaded);
    n_shown = n_loaded;
    if (!sr.ok && sr.err.code != TT_ERR_NOMEM && sr.err.code != TT_OK) {
        /* a trace's file is bad where only the rules read it (a
         * snapshot's arguments, read on first use): its error, no summary */
        tt_cli_work_error("summary", (const tt_trace *const *)loaded, n_loaded, &sr.err);
        rc = TT_EXIT_ERROR;
        n_shown = 0;
    }
    for (size_t k = 0; k < n_shown; k++) {
        const tt_trace *tr = loaded[k];
        if (json) {
            cJSON *o = summary_json(tr, tr->compression, &sr, (int)k);
            if (all) {
                cJSON_AddItemToArray(all, o);
            } else {
                put_json(o);
                cJSON_Delete(o);
            }
        } else {
            if (k > 0)
                fputc('\n', stdout);
            summary_text(stdout, tr, tr->compression, &sr, (int)k);
        }
    }
    summary_rules_fini(&sr, n_loaded);
    for (size_t k = 0; k < n_loaded; k++)
        tt_trace_free(loaded[k]);
    free(loaded);
    if (all) {
        put_json(all);
        cJSON_Delete(all);
    }
    if (tt_cli_flush_stdout("summary"))
        rc = TT_EXIT_ERROR;
    return rc;
}

const tt_command tt_cmd_summary = {
    .name = "summary",
    .usage = "summary [--format text|json] [--lenient] [--quiet] TRACE|DIR...",
    .help = "what a trace holds: span, events, lanes, top names, counters, problems",
    .exec = summary_exec,
};
