/* rules.c - rule table, configuration, running and emitting annotations
 * (see rules.h). */
#include "config.h"

#include "rules/rules.h"

#include "rules/devwork.h"
#include "rules/jobfacts.h"
#include "rules/rank.h"

#include "util/num.h"
#include "util/parallel.h"
#include "util/sort.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const tt_rule tt_rule_tensor_reload, tt_rule_throttle, tt_rule_device_idle,
    tt_rule_pageable_memcpy, tt_rule_sync_memcpy, tt_rule_host_sync, tt_rule_tiny_kernels,
    tt_rule_low_utilization, tt_rule_straggler, tt_rule_slow_card, tt_rule_ncu_underused,
    tt_rule_slow_link;

/* Adding a rule is adding a file and a line here (at most 32 rules). */
static const tt_rule *const rule_table[] = {
    &tt_rule_tensor_reload,
    &tt_rule_throttle,
    &tt_rule_device_idle,
    &tt_rule_pageable_memcpy,
    &tt_rule_sync_memcpy,
    &tt_rule_host_sync,
    &tt_rule_tiny_kernels,
    &tt_rule_low_utilization,
    &tt_rule_ncu_underused,
    &tt_rule_straggler,
    &tt_rule_slow_card,
    &tt_rule_slow_link,
    NULL,
};

const tt_rule *const *tt_rules(void) { return rule_table; }

size_t tt_rules_count(void)
{
    return sizeof rule_table / sizeof rule_table[0] - 1;
}

int tt_rule_index(const char *id)
{
    for (size_t i = 0; rule_table[i]; i++)
        if (strcmp(rule_table[i]->id, id) == 0)
            return (int)i;
    return -1;
}

const tt_rule *tt_rule_find(const char *id)
{
    int i = tt_rule_index(id);
    return i < 0 ? NULL : rule_table[i];
}

const char *tt_severity_name(tt_severity s)
{
    switch (s) {
    case TT_SEV_ERROR: return "error";
    case TT_SEV_WARNING: return "warning";
    case TT_SEV_INFO: break;
    }
    return "info";
}

int tt_severity_parse(const char *s, tt_severity *out)
{
    if (strcmp(s, "info") == 0)
        *out = TT_SEV_INFO;
    else if (strcmp(s, "warning") == 0)
        *out = TT_SEV_WARNING;
    else if (strcmp(s, "error") == 0)
        *out = TT_SEV_ERROR;
    else
        return -1;
    return 0;
}

/* ---------------------------------------------------------- annotations */

void tt_annotations_init(tt_annotations *a)
{
    a->v = NULL;
    a->n = a->cap = 0;
}

void tt_annotations_fini(tt_annotations *a)
{
    for (size_t i = 0; i < a->n; i++) {
        free(a->v[i].lanes);
        free(a->v[i].events);
        free(a->v[i].msg);
    }
    free(a->v);
    tt_annotations_init(a);
}

static int cmp_ann_severity(const void *pa, const void *pb, void *ctx)
{
    const tt_annotation *a = pa, *b = pb;
    int c;
    (void)ctx;
    if (a->sev != b->sev)
        return a->sev > b->sev ? -1 : 1;
    if (a->trace != b->trace)
        return a->trace < b->trace ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if ((c = strcmp(a->rule, b->rule)) != 0)
        return c;
    return a->end < b->end ? -1 : a->end > b->end;
}

static int cmp_ann_time(const void *pa, const void *pb, void *ctx)
{
    const tt_annotation *a = pa, *b = pb;
    (void)ctx;
    if (a->trace != b->trace)
        return a->trace < b->trace ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->sev != b->sev)
        return a->sev > b->sev ? -1 : 1;
    return strcmp(a->rule, b->rule);
}

void tt_annotations_sort(tt_annotations *a)
{
    tt_sort(a->v, a->n, sizeof *a->v, cmp_ann_severity, NULL);
}

void tt_annotations_sort_time(tt_annotations *a)
{
    tt_sort(a->v, a->n, sizeof *a->v, cmp_ann_time, NULL);
}

void tt_annotations_count(const tt_annotations *a, int trace, uint64_t *counts)
{
    size_t nr = tt_rules_count();
    memset(counts, 0, nr * sizeof *counts);
    for (size_t i = 0; i < a->n; i++) {
        int r = tt_rule_index(a->v[i].rule);
        if (r >= 0 && (trace < 0 || a->v[i].trace == trace))
            counts[r]++;
    }
}

/* --------------------------------------------------------------- config */

void tt_rules_config_defaults(tt_rules_config *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; rule_table[i]; i++) {
        c->enabled[i] = true;
        for (size_t p = 0; p < rule_table[i]->n_params; p++)
            c->value[i][p] = rule_table[i]->params[p].def;
    }
    c->error_share = TT_IMPACT_ERROR_SHARE;
    c->warning_share = TT_IMPACT_WARNING_SHARE;
}

/* "impact.KEY=VALUE": the share thresholds, in percent. */
static int set_impact(tt_rules_config *c, const char *key, const char *text, tt_error *err)
{
    double d, *dst;
    if (strcmp(key, "error_share") == 0)
        dst = &c->error_share;
    else if (strcmp(key, "warning_share") == 0)
        dst = &c->warning_share;
    else
        return tt_error_set(err, TT_ERR_USAGE,
                            "impact has no setting '%s' (error_share, warning_share)", key);
    if (tt_parse_double(text, strlen(text), &d) != TT_NUM_OK || d < 0 || d > 100)
        return tt_error_set(err, TT_ERR_USAGE, "impact.%s: '%s' is not a percentage (0-100)", key,
                            text);
    *dst = d;
    return 0;
}

static int param_index(const tt_rule *r, const char *name)
{
    for (size_t p = 0; p < r->n_params; p++)
        if (strcmp(r->params[p].name, name) == 0)
            return (int)p;
    return -1;
}

/* Parse a parameter value given as text. */
static int param_from_text(const tt_rule_param *p, const char *text, double *out)
{
    if (p->kind == TT_PARAM_DURATION) {
        int64_t ns;
        if (tt_parse_duration(text, &ns) != TT_NUM_OK || ns < 0)
            return -1;
        *out = (double)ns;
        return 0;
    }
    {
        double d;
        if (tt_parse_double(text, strlen(text), &d) != TT_NUM_OK || d < 0)
            return -1;
        *out = d;
        return 0;
    }
}

static int set_value(tt_rules_config *c, int ri, const char *key, const char *text,
                     tt_error *err)
{
    const tt_rule *r = rule_table[ri];
    int p;
    if (strcmp(key, "enabled") == 0) {
        if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
            c->enabled[ri] = true;
        else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
            c->enabled[ri] = false;
        else
            return tt_error_set(err, TT_ERR_USAGE, "%s.enabled must be true or false", r->id);
        return 0;
    }
    if (strcmp(key, "severity") == 0) {
        if (tt_severity_parse(text, &c->severity[ri]))
            return tt_error_set(err, TT_ERR_USAGE, "%s.severity must be info, warning or error",
                                r->id);
        c->severity_set[ri] = true;
        return 0;
    }
    if ((p = param_index(r, key)) < 0)
        return tt_error_set(err, TT_ERR_USAGE, "rule %s has no parameter '%s'", r->id, key);
    if (param_from_text(&r->params[p], text, &c->value[ri][p]))
        return tt_error_set(err, TT_ERR_USAGE, "%s.%s: '%s' is not a valid %s", r->id, key, text,
                            r->params[p].kind == TT_PARAM_DURATION ? "duration (e.g. 5us)"
                                                                    : "non-negative number");
    return 0;
}

int tt_rules_config_set(tt_rules_config *c, const char *setting, tt_error *err)
{
    const char *dot = strchr(setting, '.'), *eq = strchr(setting, '=');
    char id[64], key[64];
    int ri;
    if (!dot || !eq || eq < dot || (size_t)(dot - setting) >= sizeof id ||
        (size_t)(eq - dot - 1) >= sizeof key)
        return tt_error_set(err, TT_ERR_USAGE, "'%s': expected RULE.PARAM=VALUE", setting);
    memcpy(id, setting, (size_t)(dot - setting));
    id[dot - setting] = '\0';
    memcpy(key, dot + 1, (size_t)(eq - dot - 1));
    key[eq - dot - 1] = '\0';
    if (strcmp(id, "impact") == 0)
        return set_impact(c, key, eq + 1, err);
    if ((ri = tt_rule_index(id)) < 0)
        return tt_error_set(err, TT_ERR_USAGE, "unknown rule '%s'", id);
    return set_value(c, ri, key, eq + 1, err);
}

int tt_rules_config_enable(tt_rules_config *c, const char *id, bool on, tt_error *err)
{
    int ri;
    if (strcmp(id, "all") == 0) {
        for (size_t i = 0; rule_table[i]; i++)
            c->enabled[i] = on;
        return 0;
    }
    if ((ri = tt_rule_index(id)) < 0)
        return tt_error_set(err, TT_ERR_USAGE, "unknown rule '%s'", id);
    c->enabled[ri] = on;
    return 0;
}

/* Line and column of a pointer into text. */
static void text_pos(const char *text, const char *at, int64_t *line, int64_t *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* Position of a key's text in the file, to point at it in errors. */
static const char *find_key(const char *text, const char *key)
{
    char pat[160];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    return strstr(text, pat);
}

static int rules_file_error(tt_error *err, const char *text, const char *at, const char *fmt,
                            const char *a, const char *b)
{
    int64_t line = 1, col = 1;
    char msg[300];
    if (at)
        text_pos(text, at, &line, &col);
    snprintf(msg, sizeof msg, fmt, a, b);
    return tt_error_at_line(err, TT_ERR_USAGE, -1, line, col, "%s", msg);
}

int tt_rules_config_load(tt_rules_config *c, const char *path, tt_error *err)
{
    FILE *f = fopen(path, "rb");
    char *text;
    size_t n;
    cJSON *root, *rules, *r, *impact, *v;
    const char *end = NULL;
    int rc = 0;
    if (!f)
        return tt_error_set(err, TT_ERR_IO, "cannot open: %s", strerror(errno));
    text = malloc((1 << 20) + 1);
    if (!text) {
        fclose(f);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    n = fread(text, 1, 1 << 20, f);
    fclose(f);
    text[n] = '\0';
    root = cJSON_ParseWithLengthOpts(text, n + 1, &end, 1);
    if (!root) {
        int64_t line, col;
        text_pos(text, end ? end : text + n, &line, &col);
        free(text);
        return tt_error_at_line(err, TT_ERR_USAGE, -1, line, col, "rules file is not valid JSON");
    }
    impact = cJSON_GetObjectItemCaseSensitive(root, "impact");
    if (impact && !cJSON_IsObject(impact)) {
        rc = rules_file_error(err, text, find_key(text, "impact"),
                              "expected \"impact\": {\"error_share\": PERCENT, ...}%s%s", "", "");
        goto out;
    }
    cJSON_ArrayForEach(v, impact) {
        char buf[64];
        if (!cJSON_IsNumber(v)) {
            rc = rules_file_error(err, text, find_key(text, v->string),
                                  "impact.%s must be a number (percent)%s", v->string, "");
            goto out;
        }
        snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
        if (set_impact(c, v->string, buf, err)) {
            char msg[sizeof err->what];
            snprintf(msg, sizeof msg, "%s", err->what);
            rc = rules_file_error(err, text, find_key(text, v->string), "%s%s", msg, "");
            goto out;
        }
    }
    rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    if (rules ? !cJSON_IsObject(rules) : !impact) {
        rc = rules_file_error(err, text, NULL, "expected {\"rules\": {RULE: {...}, ...}, \"impact\": {...}}%s%s", "", "");
        goto out;
    }
    cJSON_ArrayForEach(r, rules) {
        int ri = tt_rule_index(r->string);
        if (ri < 0) {
            rc = rules_file_error(err, text, find_key(text, r->string), "unknown rule '%s'%s",
                                  r->string, "");
            goto out;
        }
        if (!cJSON_IsObject(r)) {
            rc = rules_file_error(err, text, find_key(text, r->string),
                                  "rule '%s' must be an object%s", r->string, "");
            goto out;
        }
        cJSON_ArrayForEach(v, r) {
            char buf[64];
            const char *val;
            if (cJSON_IsBool(v))
                val = cJSON_IsTrue(v) ? "true" : "false";
            else if (cJSON_IsString(v))
                val = v->valuestring;
            else if (cJSON_IsNumber(v)) {
                snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
                val = buf;
            } else {
                rc = rules_file_error(err, text, find_key(text, v->string),
                                      "'%s' of rule %s must be a string, number or boolean",
                                      v->string, r->string);
                goto out;
            }
            if (set_value(c, ri, v->string, val, err)) {
                char msg[sizeof err->what];
                snprintf(msg, sizeof msg, "%s", err->what);
                rc = rules_file_error(err, text, find_key(text, v->string), "%s%s", msg, "");
                goto out;
            }
        }
    }
out:
    cJSON_Delete(root);
    free(text);
    return rc ? -1 : 0;
}

double tt_rule_param_value(const tt_rule_ctx *ctx, const char *name)
{
    int ri = tt_rule_index(ctx->rule->id), p = param_index(ctx->rule, name);
    if (ri < 0 || p < 0)
        return 0;
    return ctx->cfg->value[ri][p];
}

/* ------------------------------------------------------------------ run */

/* One run of a rule over one trace (the multi rules run apart, over the
 * ranks' facts: rules/jobfacts.h). A rule walks its traces one by one and
 * emits with the trace's index, so one trace alone gives the same
 * findings, with index 0, to be shifted to `trace`. */
typedef struct rule_run {
    size_t         rule;
    size_t         trace;   /* first trace given */
    size_t         n;       /* traces given */
    tt_annotations out;
    tt_error       err;
    int            rc;
} rule_run;

typedef struct rules_job {
    const tt_rules_config *cfg;
    const tt_trace *const *traces;
    rule_run              *runs;
    rule_devwork          *devwork;   /* one per trace */
    size_t                 n_build;   /* jobs [0, n_build): build devwork[job] */
    const tt_rules_along  *along;     /* the next along->n jobs: the caller's */
} rules_job;

static void rule_run_one(void *ctx, size_t job)
{
    rules_job *j = ctx;
    rule_run *r;
    tt_rule_ctx rc;
    if (job < j->n_build) {
        rule_devwork_build(j->devwork, job);
        return;
    }
    job -= j->n_build;
    if (j->along && job < j->along->n) {
        j->along->work(j->along->ctx, job);
        return;
    }
    r = &j->runs[job - (j->along ? j->along->n : 0)];
    rc.rule = rule_table[r->rule];
    rc.cfg = j->cfg;
    rc.traces = j->traces + r->trace;
    rc.n_traces = r->n;
    rc.out = &r->out;
    rc.err = &r->err;
    rc.devwork = rule_devwork_at(j->devwork, r->trace);
    r->rc = rule_table[r->rule]->run(&rc);
    for (size_t k = 0; k < r->out.n; k++)
        r->out.v[k].trace += (int)r->trace;
}

int tt_annotations_take(tt_annotations *dst, tt_annotations *src)
{
    if (dst->n + src->n > dst->cap) {
        size_t nc = dst->cap ? dst->cap : 32;
        tt_annotation *nv;
        while (nc < dst->n + src->n)
            nc *= 2;
        if (!(nv = realloc(dst->v, nc * sizeof *nv)))
            return -1;
        dst->v = nv;
        dst->cap = nc;
    }
    if (src->n)
        memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
    dst->n += src->n;
    free(src->v);
    tt_annotations_init(src);
    return 0;
}

/* The caller's jobs alone, on the calling thread: when no rule runs, or
 * the rules' own memory could not be had. */
static void along_serial(const tt_rules_along *along)
{
    for (size_t k = 0; along && k < along->n; k++)
        along->work(along->ctx, k);
}

/* The rules run on every core the process may use, each (rule, trace)
 * pair a job of its own (rules only read the traces), after each trace's
 * device work when a rule reads it (rule.devwork), then the caller's jobs
 * (along, may be NULL); the rules' findings are joined in the serial
 * order (rule by rule, trace by trace), so the result does not depend on
 * the threads. */
static int run_each(const tt_rules_config *cfg, const tt_trace *const *traces, size_t n_traces,
                    const tt_rules_along *along, tt_annotations *out, tt_error *err)
{
    rules_job j;
    size_t n_runs = 0, k = 0;
    bool devwork = false;
    int rc = 0;
    for (size_t i = 0; rule_table[i]; i++)
        if (cfg->enabled[i] && !rule_table[i]->multi) {
            n_runs += n_traces;
            devwork |= rule_table[i]->devwork;
        }
    if (n_runs == 0) {
        along_serial(along);
        return 0;
    }
    if (!(j.runs = calloc(n_runs, sizeof *j.runs)) ||
        !(j.devwork = rule_devwork_new(traces, n_traces))) {
        free(j.runs);
        along_serial(along);
        return tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; rule_table[i]; i++) {
        if (!cfg->enabled[i] || rule_table[i]->multi)
            continue;
        for (size_t t = 0; t < n_traces; t++) {
            j.runs[k].rule = i;
            j.runs[k].trace = t;
            j.runs[k].n = 1;
            tt_annotations_init(&j.runs[k].out);
            tt_error_clear(&j.runs[k].err);
            k++;
        }
    }
    j.cfg = cfg;
    j.traces = traces;
    j.along = along;
    j.n_build = devwork ? n_traces : 0;
    tt_parallel_run(j.n_build + (along ? along->n : 0) + n_runs, 0, rule_run_one, &j);
    for (k = 0; k < n_runs; k++) {
        if (rc == 0 && j.runs[k].rc) {
            *err = j.runs[k].err;   /* the first failure in the serial order */
            rc = -1;
        }
        if (rc == 0 && tt_annotations_take(out, &j.runs[k].out))
            rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory");
        tt_annotations_fini(&j.runs[k].out);
    }
    free(j.runs);
    rule_devwork_free(j.devwork, n_traces);
    return rc ? -1 : 0;
}

int tt_rules_run_each(const tt_rules_config *cfg, const tt_trace *const *traces, size_t n_traces,
                      tt_annotations *out, tt_error *err)
{
    return run_each(cfg, traces, n_traces, NULL, out, err);
}

int tt_rules_find_along(const tt_rules_config *cfg, const tt_trace *const *traces,
                        size_t n_traces, const tt_rules_along *along, tt_annotations *out,
                        tt_error *err)
{
    int rc = 0;
    if (run_each(cfg, traces, n_traces, along, out, err))
        return -1;
    /* the rules across ranks read each rank's facts, as a job loaded in
     * batches gives them (rules/jobrules.h) */
    if (n_traces >= 2 && rule_jobfacts_wanted(cfg)) {
        rule_jobfacts f;
        if (rule_jobfacts_init(&f, n_traces, cfg, err))
            return -1;
        for (size_t t = 0; rc == 0 && t < n_traces; t++)
            rc = rule_jobfacts_add(&f, t, traces[t], err);
        if (rc == 0)
            rc = rule_jobfacts_finish(&f, err);
        if (rc == 0)
            rc = rule_run_multi(cfg, &f, out, err);
        rule_jobfacts_fini(&f);
        if (rc)
            return -1;
    }
    return 0;
}

int tt_rules_find(const tt_rules_config *cfg, const tt_trace *const *traces, size_t n_traces,
                  tt_annotations *out, tt_error *err)
{
    return tt_rules_find_along(cfg, traces, n_traces, NULL, out, err);
}

int tt_rules_run(const tt_rules_config *cfg, const tt_trace *const *traces, size_t n_traces,
                 tt_annotations *out, tt_error *err)
{
    if (tt_rules_find(cfg, traces, n_traces, out, err))
        return -1;
    if (tt_rank_apply_severity(out, traces, n_traces, cfg, err))
        return -1;
    tt_annotations_sort(out);
    return 0;
}

int tt_rule_emit(const tt_rule_ctx *ctx, int trace, tt_ns start, tt_ns end,
                 const uint32_t *lanes, size_t n_lanes, const tt_evref *events,
                 size_t n_events, uint64_t n_events_total, const char *fmt, ...)
{
    tt_annotations *a = ctx->out;
    tt_annotation *x;
    va_list ap;
    char msg[512];
    int ri = tt_rule_index(ctx->rule->id);
    if (a->n == a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 32;
        tt_annotation *nv = realloc(a->v, nc * sizeof *nv);
        if (!nv)
            return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
        a->v = nv;
        a->cap = nc;
    }
    x = &a->v[a->n];
    memset(x, 0, sizeof *x);
    x->rule = ctx->rule->id;
    /* provisional: tt_rules_run derives it from the impact of all the
     * rule's findings once they are known */
    x->sev = ctx->cfg->severity_set[ri] ? ctx->cfg->severity[ri] : TT_SEV_INFO;
    x->trace = trace;
    x->start = start;
    x->end = end < start ? start : end;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    x->msg = strdup(msg);
    if (n_lanes) {
        x->lanes = malloc(n_lanes * sizeof *x->lanes);
        if (x->lanes) {
            memcpy(x->lanes, lanes, n_lanes * sizeof *lanes);
            x->n_lanes = n_lanes;
        }
    }
    if (n_events > TT_ANN_MAX_EVENTS)
        n_events = TT_ANN_MAX_EVENTS;
    if (n_events) {
        x->events = malloc(n_events * sizeof *x->events);
        if (x->events) {
            memcpy(x->events, events, n_events * sizeof *events);
            x->n_events = n_events;
        }
    }
    x->n_events_total = n_events_total > n_events ? n_events_total : n_events;
    if (!x->msg || (n_lanes && !x->lanes) || (n_events && !x->events)) {
        free(x->msg);
        free(x->lanes);
        free(x->events);
        return tt_error_set(ctx->err, TT_ERR_NOMEM, "out of memory");
    }
    a->n++;
    return 0;
}

const char *tt_rule_time(const tt_trace *tr, tt_ns t, char *buf, size_t n)
{
    return tt_fmt_dur(buf, n, t - tr->t0, 3);
}
