/* cmd_check.c - `tracetty check`: run the warning rules over traces and
 * fail (exit 1) when a finding reaches the chosen severity, so a training
 * pipeline can gate on a profile.
 *
 * Several traces are the ranks of one job: per-trace rules run on each,
 * the straggler rule across them. The ranks stream through (tt_cli_each_trace:
 * loaded in parallel a few ahead), each checked as it arrives and freed
 * (rules/jobrules.h): memory holds a few ranks, not the job, and the rules
 * of one rank run while the next ones load. What the output reads of a rank
 * afterwards is kept in a shell of its trace (check_shell).
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/opts.h"

#include "multi/rankset.h"
#include "report/annotations.h"
#include "rules/jobrules.h"
#include "rules/rank.h"
#include "rules/rules.h"
#include "util/num.h"
#include "util/text.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    OPT_RULES = TT_OPT__NEXT,
    OPT_SET,
    OPT_ENABLE,
    OPT_DISABLE,
    OPT_FAIL_ON,
    OPT_LIST,
    OPT_ALL
};

/* Findings shown under each rule's headline in the ranked text output. */
#define CHECK_WORST_SHOWN 3

static void list_rules(const tt_rules_config *cfg)
{
    const tt_rule *const *r = tt_rules();
    for (size_t i = 0; r[i]; i++) {
        printf("%-16s %-8s %s%s\n", r[i]->id, cfg->severity_set[i] ? tt_severity_name(cfg->severity[i]) : "impact", r[i]->summary,
               cfg->enabled[i] ? "" : " (disabled)");
        for (size_t p = 0; p < r[i]->n_params; p++) {
            char v[48];
            if (r[i]->params[p].kind == TT_PARAM_DURATION)
                tt_fmt_dur(v, sizeof v, (int64_t)cfg->value[i][p], 3);
            else
                snprintf(v, sizeof v, "%g", cfg->value[i][p]);
            printf("    %s.%s=%s  %s\n", r[i]->id, r[i]->params[p].name, v, r[i]->params[p].help);
        }
    }
}

/* One finding: its span relative to its trace's start and its message. */
static void print_finding(const tt_annotation *an, const tt_trace *tr)
{
    char s[32], e[32];
    printf("%12s .. %-12s ", tt_fmt_dur(s, sizeof s, an->start - tr->t0, 3),
           tt_fmt_dur(e, sizeof e, an->end - tr->t0, 3));
    tt_cli_put_safe(stdout, an->msg);
    fputc('\n', stdout);
}

static void print_totals(const tt_annotations *a)
{
    size_t counts[3] = {0, 0, 0};
    for (size_t i = 0; i < a->n; i++)
        counts[a->v[i].sev]++;
    printf("%zu finding%s: %zu error%s, %zu warning%s, %zu info\n", a->n, a->n == 1 ? "" : "s",
           counts[TT_SEV_ERROR], counts[TT_SEV_ERROR] == 1 ? "" : "s", counts[TT_SEV_WARNING],
           counts[TT_SEV_WARNING] == 1 ? "" : "s", counts[TT_SEV_INFO]);
}

/* --all: one line per finding, worst severity first, then by time. */
static void print_all(const tt_annotations *a, const tt_trace *const *traces,
                      char *const *names, size_t n)
{
    for (size_t i = 0; i < a->n; i++) {
        const tt_annotation *an = &a->v[i];
        if (n > 1) {
            tt_cli_put_safe(stdout, names[an->trace]);
            fputs(": ", stdout);
        }
        printf("%-7s %-16s ", tt_severity_name(an->sev), an->rule);
        print_finding(an, traces[an->trace]);
    }
    print_totals(a);
}

/* Default: one block per (rule, trace), costliest first: a headline with
 * the impact, then the rule's worst findings. r: the job's ranking of a
 * (built from each rank's reference time while it was loaded). */
static void print_ranked(const tt_annotations *a, const tt_ranking *r,
                         const tt_trace *const *traces, char *const *names, size_t n)
{
    size_t hidden = 0;
    for (size_t g = 0; g < r->n_groups; g++) {
        const tt_rank_group *gr = &r->groups[g];
        const tt_trace *tr = traces[gr->trace];
        char impact[160];
        printf("%s%-7s %s", g ? "\n" : "", tt_severity_name(gr->sev), gr->rule);
        if (n > 1) {
            printf(" on rank %lld (", (long long)(tr->rank >= 0 ? tr->rank : gr->trace));
            tt_cli_put_safe(stdout, names[gr->trace]);
            fputc(')', stdout);
        }
        printf(": %s\n", tt_rank_impact(gr, impact, sizeof impact));
        for (size_t k = 0; k < gr->n && k < CHECK_WORST_SHOWN; k++) {
            fputs("    ", stdout);
            print_finding(&a->v[gr->items[k]], tr);
        }
        if (gr->n > CHECK_WORST_SHOWN) {
            printf("    ... and %zu more\n", gr->n - CHECK_WORST_SHOWN);
            hidden += gr->n - CHECK_WORST_SHOWN;
        }
    }
    if (r->n_groups)
        fputc('\n', stdout);
    print_totals(a);
    if (hidden)
        printf("%zu not shown: --all lists every finding\n", hidden);
}

/* What the output reads of a rank once its events are freed: t0, t1, rank
 * and source, and its groups and lanes with their names (the findings'
 * Lanes column, tt_lane_fullname), without events, counters, flows or
 * arguments. The CSV/JSON writer ranks the findings again from the traces
 * it is given (its Rank column); that order depends only on the findings
 * (rules/rank.h: first, cost, severity, rule, trace), not on the traces'
 * reference times, so the shells give check's order. NULL when out of
 * memory. */
static tt_trace *check_shell(const tt_trace *tr)
{
    tt_trace *s = tt_trace_new();
    if (!s)
        return NULL;
    s->format = tr->format;
    s->compression = tr->compression;
    s->source_bytes = tr->source_bytes;
    s->rank = tr->rank;
    s->t0 = tr->t0;
    s->t1 = tr->t1;
    s->n_events = tr->n_events;
    s->finalized = true;
    s->lacks = TT_TRACE_NO_ARGS | TT_TRACE_NO_FLOWS | TT_TRACE_NO_COUNTERS | TT_TRACE_PARTIAL;
    if (tr->source && !(s->source = strdup(tr->source)))
        goto oom;
    if (tr->n_groups && !(s->groups = calloc(tr->n_groups, sizeof *s->groups)))
        goto oom;
    s->n_groups = s->cap_groups = tr->n_groups;
    for (uint32_t g = 0; g < tr->n_groups; g++) {
        tt_group *d = &s->groups[g];
        *d = tr->groups[g];
        d->key = tt_trace_intern_cstr(s, tt_str(tr, tr->groups[g].key));
        d->name = tt_trace_intern_cstr(s, tt_str(tr, tr->groups[g].name));
        d->labels = tt_trace_intern_cstr(s, tt_str(tr, tr->groups[g].labels));
        if (d->key == TT_STR_ERROR || d->name == TT_STR_ERROR || d->labels == TT_STR_ERROR)
            goto oom;
    }
    if (tr->n_lanes && !(s->lanes = calloc(tr->n_lanes, sizeof *s->lanes)))
        goto oom;
    s->n_lanes = s->cap_lanes = tr->n_lanes;
    for (uint32_t l = 0; l < tr->n_lanes; l++) {
        const tt_lane *from = &tr->lanes[l];
        tt_lane *d = &s->lanes[l];
        d->group = from->group;
        d->sort_index = from->sort_index;
        d->has_sort = from->has_sort;
        d->kind = from->kind;
        d->key = tt_trace_intern_cstr(s, tt_str(tr, from->key));
        d->name = tt_trace_intern_cstr(s, tt_str(tr, from->name));
        if (d->key == TT_STR_ERROR || d->name == TT_STR_ERROR)
            goto oom;
    }
    return s;
oom:
    tt_trace_free(s);
    return NULL;
}

/* The job as its ranks arrive (tt_cli_trace_fn). */
typedef struct check_job {
    tt_rules_job *job;
    tt_trace    **shells;   /* n entries: check_shell of each rank checked */
} check_job;

static int check_rank(void *ctx, size_t i, const tt_trace *tr)
{
    check_job *c = ctx;
    tt_error err;
    tt_error_clear(&err);
    if (tt_rules_job_add(c->job, i, tr, &err)) {
        tt_cli_work_error("check", &tr, 1, &err);
        return -1;
    }
    if (!(c->shells[i] = check_shell(tr))) {
        tt_cli_error("check: out of memory");
        return -1;
    }
    return 0;
}

static int check_exec(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"rules", required_argument, NULL, OPT_RULES},
        {"set", required_argument, NULL, OPT_SET},
        {"enable", required_argument, NULL, OPT_ENABLE},
        {"disable", required_argument, NULL, OPT_DISABLE},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"list-rules", no_argument, NULL, OPT_LIST},
        {"all", no_argument, NULL, OPT_ALL},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        TT_CLI_LOAD_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    tt_cli_load lo = {0};
    tt_rules_config cfg;
    tt_error err;
    int opt, rc = TT_EXIT_OK, fail_on = TT_SEV_WARNING;   /* 3 = never */
    bool list = false, all = false;
    const char *format = "text";
    tt_trace **traces = NULL;
    char **files = NULL;
    size_t n = 0;
    const tt_annotations *ann;
    check_job cj = {0};
    tt_cli_opts op;

    tt_rules_config_defaults(&cfg);
    tt_error_clear(&err);
    /* Options may come before or after the traces (as with report); they
     * apply in order, so --rules FILE then --set overrides it. */
    tt_cli_opts_init(&op, &tt_cmd_check, argc, argv, "f:h", longopts);
    while ((opt = tt_cli_opts_next(&op)) != -1) {
        if (tt_cli_load_option(opt, optarg, &lo))
            continue;
        switch (opt) {
        case OPT_RULES:
        case OPT_SET:
        case OPT_ENABLE:
        case OPT_DISABLE: {
            static const char *const names[] = {"rules", "set", "enable", "disable"};
            if (tt_cli_rules_option("check", names[opt - OPT_RULES], optarg, &cfg) < 0)
                return TT_EXIT_ERROR;
            break;
        }
        case OPT_FAIL_ON:
            if (strcmp(optarg, "never") == 0) {
                fail_on = 3;
            } else {
                tt_severity s;
                if (tt_severity_parse(optarg, &s)) {
                    tt_cli_error("check: --fail-on is info, warning, error or never");
                    return TT_EXIT_ERROR;
                }
                fail_on = (int)s;
            }
            break;
        case OPT_LIST:
            list = true;
            break;
        case OPT_ALL:
            all = true;
            break;
        case 'f':
            if (strcmp(optarg, "text") && strcmp(optarg, "csv") && strcmp(optarg, "json")) {
                tt_cli_error("check: unknown format '%s' (text, csv or json)", optarg);
                return TT_EXIT_ERROR;
            }
            format = optarg;
            break;
        case 'h':
            printf("usage: tracetty %s\n", tt_cmd_check.usage);
            return TT_EXIT_OK;
        default:
            /* tt_cli_opts_next said why */
            return TT_EXIT_ERROR;
        }
    }
    if (list) {
        list_rules(&cfg);
        return TT_EXIT_OK;
    }
    if (op.n_operands == 0) {
        tt_cli_error("check: no trace given (usage: tracetty %s)", tt_cmd_check.usage);
        return TT_EXIT_ERROR;
    }
    /* a directory stands for the ranks of a job */
    if (!(files = tt_cli_expand(op.operands, op.n_operands, &n)))
        return TT_EXIT_ERROR;
    traces = calloc(n, sizeof *traces);
    if (!traces || !(cj.job = tt_rules_job_new(&cfg, n, &err))) {
        tt_cli_error("check: out of memory");
        rc = TT_EXIT_ERROR;
        goto out;
    }
    cj.shells = traces;
    if (n == 1) {
        /* one trace: loaded as every command loads one (its own progress
         * line, --cache), then checked as a rank */
        tt_trace *one;
        if (tt_cli_load_many(files, 1, &lo, &one)) {
            rc = TT_EXIT_ERROR;
            goto out;
        }
        rc = check_rank(&cj, 0, one) ? TT_EXIT_ERROR : TT_EXIT_OK;
        tt_trace_free(one);
    } else if (tt_cli_each_trace(files, n, &lo, check_rank, &cj)) {
        rc = TT_EXIT_ERROR;   /* a load or the rules failed: said */
    }
    if (rc != TT_EXIT_OK)
        goto out;
    if (tt_rules_job_finish(cj.job, &err)) {
        tt_cli_work_error("check", (const tt_trace *const *)traces, n, &err);
        rc = TT_EXIT_ERROR;
        goto out;
    }
    ann = tt_rules_job_findings(cj.job);
    if (strcmp(format, "text") == 0 && all) {
        print_all(ann, (const tt_trace *const *)traces, files, n);
    } else if (strcmp(format, "text") == 0) {
        print_ranked(ann, tt_rules_job_ranking(cj.job), (const tt_trace *const *)traces, files,
                     n);
    } else {
        tt_ann_report_opts o;
        o.format = strcmp(format, "csv") == 0 ? TT_OUT_CSV : TT_OUT_JSON;
        o.sanitize = isatty(STDOUT_FILENO);
        o.utf8 = tt_text_utf8();
        /* a failed write is said once, by the flush below */
        (void)tt_annotations_write(stdout, &o, (const tt_trace *const *)traces,
                                   (const char *const *)files, n, ann);
    }
    for (size_t i = 0; rc == TT_EXIT_OK && i < ann->n; i++)
        if ((int)ann->v[i].sev >= fail_on)
            rc = TT_EXIT_FINDINGS;
    if (tt_cli_flush_stdout("check"))
        rc = TT_EXIT_ERROR;
out:
    tt_rules_job_free(cj.job);
    for (size_t i = 0; traces && i < n; i++)
        tt_trace_free(traces[i]);
    free(traces);
    tt_rankset_free_files(files, n);
    return rc;
}

const tt_command tt_cmd_check = {
    .name = "check",
    .usage = "check [--rules FILE] [--set RULE.PARAM=VALUE]... [--enable RULE] "
             "[--disable RULE] [--fail-on info|warning|error|never] [--format text|csv|json] "
             "[--all] [--list-rules] TRACE|DIR...",
    .help = "find performance problems; exit 1 when one reaches --fail-on (CI gate)",
    .exec = check_exec,
};
