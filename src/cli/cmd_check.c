/* cmd_check.c - `tracetty check`: run the warning rules over traces and
 * fail (exit 1) when a finding reaches the chosen severity, so a training
 * pipeline can gate on a profile.
 *
 * Several traces are the ranks of one job: per-trace rules run on each,
 * the straggler rule across them.
 */
#include "config.h"

#include "cli/cli.h"
#include "cli/opts.h"

#include "multi/rankset.h"
#include "report/annotations.h"
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
 * the impact, then the rule's worst findings. */
static int print_ranked(const tt_annotations *a, const tt_trace *const *traces,
                        char *const *names, size_t n, tt_error *err)
{
    tt_ranking r;
    size_t hidden = 0;
    if (tt_ranking_build(&r, a, traces, n, NULL, err))
        return -1;
    for (size_t g = 0; g < r.n_groups; g++) {
        const tt_rank_group *gr = &r.groups[g];
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
    if (r.n_groups)
        fputc('\n', stdout);
    print_totals(a);
    if (hidden)
        printf("%zu not shown: --all lists every finding\n", hidden);
    tt_ranking_fini(&r);
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
    tt_annotations ann;
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
    if (!traces) {
        tt_cli_error("check: out of memory");
        tt_rankset_free_files(files, n);
        return TT_EXIT_ERROR;
    }
    if (tt_cli_load_many(files, n, &lo, traces)) {
        rc = TT_EXIT_ERROR;
        goto out;
    }
    tt_annotations_init(&ann);
    if (tt_rules_run(&cfg, (const tt_trace *const *)traces, n, &ann, &err)) {
        tt_cli_work_error("check", (const tt_trace *const *)traces, n, &err);
        rc = TT_EXIT_ERROR;
    } else {
        if (strcmp(format, "text") == 0 && all) {
            print_all(&ann, (const tt_trace *const *)traces, files, n);
        } else if (strcmp(format, "text") == 0) {
            if (print_ranked(&ann, (const tt_trace *const *)traces, files, n, &err)) {
                tt_cli_error("check: %s", err.what);
                rc = TT_EXIT_ERROR;
            }
        } else {
            tt_ann_report_opts o;
            o.format = strcmp(format, "csv") == 0 ? TT_OUT_CSV : TT_OUT_JSON;
            o.sanitize = isatty(STDOUT_FILENO);
            o.utf8 = tt_text_utf8();
            /* a failed write is said once, by the flush below */
            (void)tt_annotations_write(stdout, &o, (const tt_trace *const *)traces,
                                       (const char *const *)files, n, &ann);
        }
        for (size_t i = 0; rc == TT_EXIT_OK && i < ann.n; i++)
            if ((int)ann.v[i].sev >= fail_on)
                rc = TT_EXIT_FINDINGS;
    }
    if (tt_cli_flush_stdout("check"))
        rc = TT_EXIT_ERROR;
    tt_annotations_fini(&ann);
out:
    for (size_t i = 0; i < n; i++)
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
